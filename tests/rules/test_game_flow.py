"""Auctions, rulings, schedule, early end and winners, all through score_record."""
import pytest

from app.rules import RecordError, normalize_record, score_record

from .helpers import FIESTA_NEG, RU32_ORDER, filler, rec

# ---------------------------------------------------------------- helpers


def fiesta_game(profile, hand7, first_dealer=1):
    """Six filler negatives and hand 7 (owner = dealer = first_dealer + 6 = 3 by default)."""
    return rec(profile, [filler(profile, n) for n in range(1, 7)] + [hand7], first=first_dealer)


def hand7(profile, auction, contract="trump", trump="S", **extra):
    h = {"contract": contract, "auction": auction}
    if contract == "trump":
        h["trump"] = trump
    if contract != "433":
        h["counts"] = {"tricks": [4, 3, 3, 3]}
    h.update(extra)
    return h


def score7(profile, auction, contract="trump", **extra):
    return score_record(fiesta_game(profile, hand7(profile, auction, contract, **extra)))["hands"][6]


def rejected7(profile, auction, contract="trump", **extra):
    with pytest.raises(RecordError) as info:
        score_record(fiesta_game(profile, hand7(profile, auction, contract, **extra)))
    return info.value


TRUMP_POINTS = [100, 75, 75, 75]                     # 4, 3, 3, 3 tricks at +25
NULOS_POINTS = [325 - 300, 325 - 225, 325 - 225, 325 - 225]

# ---------------------------------------------------------------- auctions (owner 3, bids from 0)

SALES = [
    # (profile, auction, contract, bidder, value)
    ("fiestas", ["0:+2", "1:pass", "2:-1", "0:+4", "2:pass", "owner:accept"], "trump", 0, 100),
    ("fiestas", ["0:+1", "1:+3", "2:pass", "0:+3", "1:pass", "owner:accept"], "trump", 0, 75),
    ("fiestas", ["0:-2", "1:pass", "2:pass", "owner:accept"], "nulos", 0, 150),
    ("fiestas", ["0:-3", "1:pass", "2:pass", "owner:accept"], "nulos", 0, 225),
    ("fiestas", ["0:pass", "1:+8", "2:-3", "1:pass", "owner:accept"], "nulos", 2, 225),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "0:+5", "owner:accept"], "trump", 0, 125),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "0:+3", "owner:too-little",
                 "0:-1", "owner:accept"], "nulos", 0, 75),
    ("fiestas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+8"], "trump", 0, 200),
    ("fiestas", ["0:pass", "1:+7", "2:pass", "owner:eight-or-nulos", "1:+8"], "trump", 1, 200),
    ("fiestas", ["0:pass", "1:pass", "2:+1", "owner:accept"], "trump", 2, 25),
    ("subastas", ["0:+3", "1:+8"], "trump", 1, 200),
    ("fiestas", ["0:+5", "1:pass", "2:pass", "owner:too-little", "0:+8", "owner:accept"], "trump", 0, 200),
    ("fiestas", ["0:+5", "1:pass", "2:pass", "owner:too-little", "0:+6", "owner:eight-or-nulos",
                 "0:+8"], "trump", 0, 200),
    ("subastas", ["0:-2", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+8"], "trump", 0, 200),
    ("subastas", ["0:+5", "1:pass", "2:pass", "owner:too-little", "0:+8"], "trump", 0, 200),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+8"], "trump", 0, 200),
    ("subastas", ["0:+3", "1:-1", "2:pass", "0:pass", "owner:accept"], "nulos", 1, 75),
    ("subastas", ["0:-2", "1:pass", "2:pass", "owner:accept"], "nulos", 0, 150),
    ("subastas", ["0:+1", "1:pass", "2:+2", "0:+2", "2:pass", "owner:accept"], "trump", 0, 50),
]


@pytest.mark.parametrize("profile,auction,contract,bidder,value", SALES,
                         ids=[f"{s[0]}-{'_'.join(s[1])}" for s in SALES])
def test_auction_sale_payment_declarer_leader(profile, auction, contract, bidder, value):
    hand = score7(profile, auction, contract)
    payments = [0, 0, 0, 0]
    payments[bidder] -= value
    payments[3] += value
    assert hand["payments"] == payments
    assert hand["declarer"] == bidder
    assert hand["owner"] == hand["dealer"] == 3
    assert hand["leader"] == bidder              # "After a sale the declarer leads ..."
    assert hand["points"] == (TRUMP_POINTS if contract == "trump" else NULOS_POINTS)
    assert hand["contract"] == contract


@pytest.mark.parametrize("profile", ["fiestas", "subastas"])
def test_after_sale_leader_may_be_next_seat_only(profile):
    auction = ["0:+4", "1:pass", "2:pass", "owner:accept"]
    assert score7(profile, auction, leader=1)["leader"] == 1
    assert score7(profile, auction, leader=0)["leader"] == 0
    for bad in (2, 3):
        err = rejected7(profile, auction, leader=bad)
        assert err.field == "hands[6].leader"


NO_SALES = [
    # (profile, auction, contract, leader, extra leader allowed)
    ("fiestas", ["0:pass", "1:pass", "2:pass"], "trump", 0),
    ("fiestas", ["0:pass", "1:pass", "2:pass"], "nulos", 0),
    ("fiestas", ["0:+3", "1:pass", "2:pass", "owner:too-little", "0:withdraw"], "trump", 0),
    ("fiestas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "0:refuse"], "nulos", 0),
    ("subastas", ["0:+6", "1:pass", "2:pass", "owner:reject"], "trump", 0),
    ("subastas", ["0:+6", "1:pass", "2:pass", "owner:reject"], "nulos", 0),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:eight-or-nulos", "0:refuse"], "nulos", 0),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "0:withdraw"], "trump", 0),
]


@pytest.mark.parametrize("profile,auction,contract,leader", NO_SALES,
                         ids=[f"{s[0]}-{s[2]}-{'_'.join(s[1])}" for s in NO_SALES])
def test_no_sale_owner_plays_nobody_pays(profile, auction, contract, leader):
    hand = score7(profile, auction, contract)
    assert hand["payments"] == [0, 0, 0, 0]
    assert hand["declarer"] == 3
    assert hand["leader"] == leader  # seat after the owner / after the dealer
    assert hand["points"] == (TRUMP_POINTS if contract == "trump" else NULOS_POINTS)


@pytest.mark.parametrize("profile", ["fiestas", "subastas"])
def test_owner_trump_may_be_led_by_owner(profile):
    hand = score7(profile, ["0:pass", "1:pass", "2:pass"], "trump", leader=3)
    assert hand["leader"] == 3
    assert rejected7(profile, ["0:pass", "1:pass", "2:pass"], "trump", leader=1).field == "hands[6].leader"


@pytest.mark.parametrize("profile", ["fiestas", "subastas"])
def test_refused_eight_or_nulos_must_be_nulos(profile):
    auction = ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "0:refuse"]
    err = rejected7(profile, auction, "trump")
    assert err.field.startswith("hands[6]")


@pytest.mark.parametrize("profile", ["fiestas", "subastas"])
def test_433_after_no_sale(profile):
    hand = score7(profile, ["0:+1", "1:pass", "2:pass", "owner:too-little", "0:withdraw"], "433")
    assert hand["points"] == [75, 75, 75, 100]
    assert hand["payments"] == [0, 0, 0, 0]
    assert hand["leader"] is None
    assert hand["tricks_played"] == 0 and hand["trick_winners"] == []


def test_subastas_433_counts_raises_and_matches_as_bids():
    # 3 bids (two of them raises after "too-little"): no 433
    three = ["0:+1", "1:pass", "2:pass", "owner:too-little", "0:+2", "owner:too-little", "0:+3",
             "owner:reject"]
    assert rejected7("subastas", three, "433").field == "hands[6].contract"
    assert score7("subastas", three, "nulos")["payments"] == [0, 0, 0, 0]
    # a priority match counts too: +1, +1 (match), +2 = 3 bids
    matched = ["0:pass", "1:+1", "2:+2", "1:+2", "2:pass", "owner:reject"]
    assert rejected7("subastas", matched, "433").field == "hands[6].contract"
    two = ["0:+1", "1:pass", "2:pass", "owner:too-little", "0:+2", "owner:reject"]
    assert score7("subastas", two, "433")["points"] == [75, 75, 75, 100]


def test_fiestas_433_allowed_after_many_bids():
    auction = ["0:+1", "1:+2", "2:+3", "0:pass", "1:pass", "owner:too-little", "2:withdraw"]
    assert score7("fiestas", auction, "433")["points"] == [75, 75, 75, 100]


BAD_AUCTIONS = [
    ("fiestas", ["0:-1", "1:+3"], 1),                        # +3 is below -1
    ("fiestas", ["0:-2", "1:+6"], 1),                        # +6 is below -2
    ("fiestas", ["0:+3", "1:+3"], 1),                        # only an earlier seat may equal
    ("fiestas", ["0:+3", "1:-1", "2:-1"], 2),                # seat 2 is after seat 1
    ("fiestas", ["0:+9"], 0),
    ("fiestas", ["0:-4"], 0),
    ("fiestas", ["0:pass", "1:pass", "2:pass", "owner:accept"], 3),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "0:+2"], 4),   # not higher
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "1:+3"], 4),   # only the bidder
    ("fiestas", ["0:+7", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+7"], 4),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "0:+3"], 3),     # bidding stopped
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:withdraw"], 3),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:accept", "0:+3"], 4),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "0:refuse"], 3),
    ("fiestas", ["4:+2"], 0),
    ("fiestas", ["0+2"], 0),
    ("fiestas", ["0:-2", "1:pass", "2:pass", "owner:eight-or-nulos"], 3),     # only at +6/+7
    ("fiestas", ["0:+5", "1:pass", "2:pass", "owner:eight-or-nulos"], 3),
    ("fiestas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+8", "owner:accept"], 5),
    ("fiestas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "1:+8"], 4),
    ("subastas", ["0:+3", "1:+8", "2:pass"], 2),              # +8 ends the auction at once
    ("subastas", ["0:+8", "1:+8"], 1),                         # no one may match +8
    ("subastas", ["0:-3"], 0),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:eight-or-nulos", "owner:accept"], 4),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:eight-or-nulos", "0:+5"], 4),
]


@pytest.mark.parametrize("profile,auction,index", BAD_AUCTIONS,
                         ids=[f"{b[0]}-{'_'.join(b[1])}" for b in BAD_AUCTIONS])
def test_illegal_call_is_rejected_at_its_index(profile, auction, index):
    err = rejected7(profile, auction)
    assert err.field.startswith(f"hands[6].auction[{index}]"), str(err)


OUT_OF_TURN = [
    # (profile, auction, index, what the message says may be called now)
    ("fiestas", ["0:+2", "owner:accept"], 1,
     '"owner:accept": the owner answers only when bidding has stopped; it is seat 1\'s call'),
    ("fiestas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos", "owner:accept"], 4,
     '"owner:accept": after "8 o nulos" the owner has answered; seat 0 now offers +8 or '
     "refuses"),
    ("subastas", ["0:+2", "1:pass", "2:pass", "owner:eight-or-nulos", "owner:reject"], 4,
     '"owner:reject": after "8 o nulos" the owner has answered; seat 0 now offers +8 or '
     "refuses"),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "owner:eight-or-nulos"], 4,
     '"owner:eight-or-nulos": after "es poco" the owner has answered; seat 0 now raises '
     "(a higher bid) or withdraws"),
    ("fiestas", ["0:+2", "1:pass", "2:pass", "owner:too-little", "1:+3"], 4,
     '"1:+3": after "es poco" only seat 0 calls: a higher bid or withdraw'),
    ("fiestas", ["0:+7", "1:pass", "2:pass", "owner:eight-or-nulos", "2:+8"], 4,
     '"2:+8": after "8 o nulos" only seat 0 calls: +8 or refuse'),
]


@pytest.mark.parametrize("profile,auction,index,message", OUT_OF_TURN,
                         ids=[f"{b[0]}-{'_'.join(b[1])}" for b in OUT_OF_TURN])
def test_a_call_out_of_turn_says_what_may_be_called(profile, auction, index, message):
    err = rejected7(profile, auction)
    assert (err.field, err.code, err.message) == (f"hands[6].auction[{index}]",
                                                   "auction-turn", message)


@pytest.mark.parametrize("profile,auction", [
    ("fiestas", ["0:+5", "1:pass", "2:pass"]),
    ("fiestas", ["0:+5", "1:pass"]),
    ("fiestas", ["0:+5", "1:pass", "2:pass", "owner:too-little"]),
    ("subastas", ["0:+6", "1:pass", "2:pass", "owner:eight-or-nulos"]),
])
def test_unfinished_auction_is_an_error(profile, auction):
    assert rejected7(profile, auction).field.startswith("hands[6].auction")


def test_auction_outside_fiesta_hand_is_an_error():
    record = fiesta_game("fiestas", hand7("fiestas", ["0:pass", "1:pass", "2:pass"]))
    record["hands"][2]["auction"] = ["0:pass"]
    with pytest.raises(RecordError) as info:
        score_record(record)
    assert info.value.field.startswith("hands[2].auction")


# ---------------------------------------------------------------- rulings


def ru32_game(hands, first=0, options=None):
    return rec("ru32", hands, first=first, options=options)


def test_replay_keeps_number_not_counted_and_does_not_move_schedule():
    h1 = {"contract": "no-tricks", "counts": {"tricks": [8, 0, 0, 0]},
          "ruling": {"kind": "replay", "by": "Ana", "at": "2024-05-01T20:00:00Z"}}
    h1b = {"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}
    h2 = {"contract": "no-boys", "counts": {"kings": [0, 0, 4, 0]}}
    report = score_record(ru32_game([h1, h1b, h2], first=1))
    hands = report["hands"]
    assert [h["number"] for h in hands] == [1, 1, 2]
    assert [h["counted"] for h in hands] == [False, True, True]
    assert [h["ruling"] for h in hands] == ["replay", "as-played", "as-played"]
    assert [h["dealer"] for h in hands] == [1, 1, 2]
    assert [h["leader"] for h in hands] == [2, 2, 3]
    assert hands[0]["running_totals"] == [0, 0, 0, 0]
    assert hands[1]["running_totals"] == [-4, -4, -4, -4]
    assert report["totals"] == [-4, -4, -20, -4]
    assert report["sum"] == report["expected_sum"] == -32
    assert report["zero_sum_ok"] is True
    assert report["next"] == {"number": 3, "contract": "no-girls", "dealer": 3, "owner": None,
                              "chooser": None, "leader": 0}


def test_replayed_hands_do_not_count_towards_the_hand_limit():
    hands = [filler("ru32", n) for n in range(1, 15)]
    replayed = dict(filler("ru32", 5), ruling={"kind": "replay"})
    hands.insert(4, replayed)
    report = score_record(ru32_game(hands))
    assert len(report["hands"]) == 15
    assert report["complete"] is True and report["next"] is None
    assert report["expected_sum"] == 0


def test_replayed_fiesta_payments_are_void_and_new_auction_held():
    sold = hand7("fiestas", ["0:+4", "1:pass", "2:pass", "owner:accept"])
    sold["ruling"] = {"kind": "replay"}
    again = hand7("fiestas", ["0:pass", "1:pass", "2:pass"], "433")
    record = fiesta_game("fiestas", sold)
    record["hands"].append(again)
    report = score_record(record)
    h7, h7b = report["hands"][6], report["hands"][7]
    assert h7["number"] == h7b["number"] == 7
    assert h7["counted"] is False
    assert h7b["owner"] == 3
    assert h7["running_totals"] == report["hands"][5]["running_totals"]
    assert report["totals"] == [a + b for a, b in zip(report["hands"][5]["running_totals"],
                                                       [75, 75, 75, 100])]
    assert report["next"]["number"] == 8 and report["next"]["dealer"] == 0


def test_replayed_rifki_hand_does_not_count_for_limits():
    hands = [dict(filler("rifki", 1, "el-almaz"), ruling={"kind": "replay"}),
             filler("rifki", 1, "el-almaz"), filler("rifki", 2, "el-almaz")]
    report = score_record(rec("rifki", hands, first=1))
    assert [h["number"] for h in report["hands"]] == [1, 1, 2]
    assert [h["chooser"] for h in report["hands"]] == [1, 1, 2]
    assert [h["leader"] for h in report["hands"]] == [1, 1, 2]
    hands.append(filler("rifki", 3, "el-almaz"))   # a third counted el-almaz: refused
    with pytest.raises(RecordError) as info:
        score_record(rec("rifki", hands, first=1))
    assert info.value.field == "hands[3].contract"


@pytest.mark.parametrize("profile,number,total", [
    ("ru32", 1, -16), ("ru32", 7, -96), ("fiestas", 1, -260), ("fiestas", 5, -160),
    ("subastas", 3, -200), ("rifki", 1, -650)])
@pytest.mark.parametrize("seat", [0, 2])
def test_charge_offender_takes_the_whole_hand_total(profile, number, total, seat):
    if profile == "rifki":
        hands = [dict(filler("rifki", 1, "el-almaz"))]
    else:
        hands = [filler(profile, n) for n in range(1, number + 1)]
    hands[-1]["ruling"] = {"kind": "charge-offender", "seat": seat, "by": "Dani"}
    report = score_record(rec(profile, hands, first=0))
    hand = report["hands"][-1]
    expected = [0, 0, 0, 0]
    expected[seat] = total
    assert hand["points"] == expected
    assert hand["total"] == hand["expected_total"] == total
    assert hand["ruling"] == "charge-offender"
    assert hand["counted"] is True
    assert report["zero_sum_ok"] is True


@pytest.mark.parametrize("profile,hands_fn", [
    ("ru32", lambda: [filler("ru32", n) for n in range(1, 9)]),
    ("fiestas", lambda: fiesta_game("fiestas", hand7("fiestas", ["0:pass", "1:pass", "2:pass"]))["hands"]),
    ("rifki", lambda: [filler("rifki", 1, "koz")]),
])
def test_charge_offender_refused_on_positive_hand(profile, hands_fn):
    hands = hands_fn()
    hands[-1]["ruling"] = {"kind": "charge-offender", "seat": 1}
    with pytest.raises(RecordError) as info:
        score_record(rec(profile, hands, first=1))
    assert info.value.field.startswith(f"hands[{len(hands) - 1}].ruling")


def test_charge_offender_needs_seat_and_adjusted_no_seat():
    hands = [dict(filler("ru32", 1), ruling={"kind": "charge-offender"})]
    with pytest.raises(RecordError) as info:
        score_record(ru32_game(hands))
    assert info.value.field.startswith("hands[0].ruling")
    hands = [dict(filler("ru32", 1), ruling={"kind": "as-played", "seat": 1})]
    with pytest.raises(RecordError) as info:
        score_record(ru32_game(hands))
    assert info.value.field.startswith("hands[0].ruling")


def test_adjusted_replaces_points_only():
    hands = [dict(filler("ru32", 1), ruling={"kind": "adjusted", "points": [-10, 0, -6, 0],
                                              "reason": "revoke settled at the table"})]
    report = score_record(ru32_game(hands))
    assert report["hands"][0]["points"] == [-10, 0, -6, 0]
    assert report["hands"][0]["ruling"] == "adjusted"
    assert report["totals"] == [-10, 0, -6, 0]


def test_adjusted_fiesta_keeps_auction_payments():
    h = hand7("fiestas", ["0:+4", "1:pass", "2:pass", "owner:accept"],
              ruling={"kind": "adjusted", "points": [0, 100, 100, 125], "reason": "agreed"})
    hand = score_record(fiesta_game("fiestas", h))["hands"][6]
    assert hand["points"] == [0, 100, 100, 125]
    assert hand["payments"] == [-100, 0, 0, 100]
    assert hand["declarer"] == 0


def test_adjusted_must_add_up():
    hands = [dict(filler("ru32", 1), ruling={"kind": "adjusted", "points": [-10, 0, -6, 1],
                                              "reason": "x"})]
    with pytest.raises(RecordError) as info:
        score_record(ru32_game(hands))
    assert info.value.field.startswith("hands[0].ruling")


# ---------------------------------------------------------------- schedule


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_ru32_schedule_dealer_leader_next(first):
    hands = [filler("ru32", n) for n in range(1, 15)]
    for k in range(0, 15):
        report = score_record(ru32_game(hands[:k], first=first))
        for n, hand in enumerate(report["hands"], 1):
            assert hand["number"] == n
            assert hand["contract"] == RU32_ORDER[n - 1]
            assert hand["dealer"] == (first + n - 1) % 4
            assert hand["leader"] == (first + n) % 4
            assert hand["owner"] is None and hand["chooser"] is None and hand["declarer"] is None
        if k == 14:
            assert report["next"] is None and report["complete"] is True
        else:
            assert report["next"] == {"number": k + 1, "contract": RU32_ORDER[k],
                                      "dealer": (first + k) % 4, "owner": None,
                                      "chooser": None, "leader": (first + k + 1) % 4}


@pytest.mark.parametrize("profile", ["fiestas", "subastas"])
@pytest.mark.parametrize("first", [0, 3])
def test_fiesta_profiles_schedule(profile, first):
    hands = [filler(profile, n) for n in range(1, 11)]
    for k in range(0, 11):
        report = score_record(rec(profile, hands[:k], first=first))
        for n, hand in enumerate(report["hands"], 1):
            dealer = (first + n - 1) % 4
            assert hand["dealer"] == dealer
            if n <= 6:
                assert hand["contract"] == FIESTA_NEG[n - 1]
                assert hand["owner"] is None
                assert hand["leader"] == (dealer + 1) % 4
            else:
                assert hand["owner"] == dealer
                assert hand["contract"] == "433"
        nxt = report["next"]
        if k == 10:
            assert nxt is None and report["complete"] is True and report["expected_sum"] == 0
        else:
            assert nxt["number"] == k + 1
            assert nxt["dealer"] == (first + k) % 4
            assert nxt["chooser"] is None
            if k < 6:
                assert nxt["contract"] == FIESTA_NEG[k]
                assert nxt["owner"] is None
                assert nxt["leader"] == (first + k + 1) % 4
            else:
                assert nxt["contract"] is None
                assert nxt["owner"] == nxt["dealer"]


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_rifki_schedule_chooser_leads(first):
    plan = ["koz", "el-almaz", "kupa-almaz", "erkek-almaz", "kiz-almaz", "rifki"]
    hands = [filler("rifki", n, c) for n, c in enumerate(plan, 1)]
    report = score_record(rec("rifki", hands, first=first))
    for n, hand in enumerate(report["hands"], 1):
        assert hand["chooser"] == (first + n - 1) % 4
        assert hand["leader"] == hand["chooser"]
        assert hand["owner"] is None
    nxt = report["next"]
    assert nxt["number"] == 7 and nxt["contract"] is None
    assert nxt["chooser"] == nxt["leader"] == (first + 6) % 4


def test_rifki_free_choice_limit_allows_more_penalties_per_seat():
    # chooser 1 picks 4 penalties over hands 1, 5, 9, 13: refused under 3+2, fine when free
    plan = ["kupa-almaz", "koz", "koz", "koz", "erkek-almaz", "koz", "koz", "koz",
            "kiz-almaz", "el-almaz", "el-almaz", "rifki", "son-iki"]
    hands = [filler("rifki", n, c) for n, c in enumerate(plan, 1)]
    assert score_record(rec("rifki", hands, first=1, options={"choice_limit": "free"}))["hands"][12]["chooser"] == 1
    with pytest.raises(RecordError) as info:
        score_record(rec("rifki", hands, first=1))
    assert info.value.field == "hands[12].contract"


def test_rifki_koz_at_most_twice_per_chooser_under_3_2():
    plan = ["koz", "el-almaz", "kupa-almaz", "erkek-almaz", "koz", "kiz-almaz", "rifki",
            "son-iki", "koz"]
    hands = [filler("rifki", n, c) for n, c in enumerate(plan, 1)]
    with pytest.raises(RecordError) as info:
        score_record(rec("rifki", hands, first=0))
    assert info.value.field == "hands[8].contract"
    assert score_record(rec("rifki", hands, first=0, options={"choice_limit": "free"}))


def test_rifki_koz_at_most_eight_times():
    hands = [filler("rifki", n, "koz") for n in range(1, 10)]
    with pytest.raises(RecordError) as info:
        score_record(rec("rifki", hands, first=0, options={"choice_limit": "free"}))
    assert info.value.field == "hands[8].contract"


@pytest.mark.parametrize("profile", ["ru32", "fiestas", "subastas"])
def test_leader_checked_when_given(profile):
    hand = dict(filler(profile, 1), leader=2)       # first_dealer 1: dealer 1, leader 2
    assert score_record(rec(profile, [hand], first=1))["hands"][0]["leader"] == 2
    hand = dict(filler(profile, 1), leader=1)
    with pytest.raises(RecordError) as info:
        score_record(rec(profile, [hand], first=1))
    assert info.value.field == "hands[0].leader"


def test_rifki_leader_is_the_chooser():
    hand = dict(filler("rifki", 1, "el-almaz"), leader=3)
    assert score_record(rec("rifki", [hand], first=3))["hands"][0]["leader"] == 3
    with pytest.raises(RecordError):
        score_record(rec("rifki", [dict(hand, leader=0)], first=3))


# ---------------------------------------------------------------- early end and entry modes

NO_KING_TRICKS = [["7S", "8S", "9S", "TS"], ["7D", "8D", "KH", "9D"]]


def test_early_end_tricks_played_and_ended_early():
    hands = [filler("ru32", n) for n in range(1, 5)] + [{"contract": "no-king", "tricks": NO_KING_TRICKS}]
    hand = score_record(ru32_game(hands))["hands"][4]
    assert hand["tricks_played"] == 2
    assert hand["ended_early"] is True
    assert hand["trick_winners"] == [0, 3]
    assert hand["points"] == [0, 0, 0, -16]


def test_no_early_end_in_contracts_that_do_not_end_early():
    # ru32 no-tricks: 8 tricks even though nothing "scoring" is left
    tricks = [["7S", "8S", "9S", "TS"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"],
              ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
              ["JC", "QC", "KC", "AC"], ["JH", "QH", "KH", "AH"]]
    # leader 1 (first_dealer 0); each trick won by its last card: seat 0, then 3, 2, 1, 0 ...
    hand = score_record(ru32_game([{"contract": "no-tricks", "tricks": tricks}]))["hands"][0]
    assert hand["trick_winners"] == [0, 3, 2, 1, 0, 3, 2, 1]
    assert hand["points"] == [-4, -4, -4, -4]
    assert hand["tricks_played"] == 8 and hand["ended_early"] is False
    short = {"contract": "no-tricks", "tricks": tricks[:7]}
    with pytest.raises(RecordError) as info:
        score_record(ru32_game([short]))
    assert info.value.field == "hands[0].tricks"


@pytest.mark.parametrize("profile", ["ru32", "fiestas", "subastas", "rifki"])
def test_counts_and_captures_report_full_tricks(profile):
    hand = filler(profile, 2, "kupa-almaz")
    report = score_record(rec(profile, [filler(profile, 1, "koz"), hand], first=0))
    full = 8 if profile == "ru32" else 13
    for h in report["hands"]:
        assert h["tricks_played"] == full
        assert h["ended_early"] is False
        assert h["trick_winners"] == []


def test_same_scores_in_every_entry_mode():
    # ru32 no-king: the K♥ taken by seat 3, entered three ways
    base = [filler("ru32", n) for n in range(1, 5)]
    by_tricks = {"contract": "no-king", "tricks": NO_KING_TRICKS}
    by_counts = {"contract": "no-king", "counts": {"kh": 3}}
    by_captures = {"contract": "no-king", "captures": {"cards": [[], [], [], ["kh"]]}}
    points = [score_record(ru32_game(base + [h]))["hands"][4]["points"]
              for h in (by_tricks, by_counts, by_captures)]
    assert points == [[0, 0, 0, -16]] * 3


# ---------------------------------------------------------------- winners


def ru32_sym(kh_neg, kh_pos, lt_neg, lt_pos):
    hands = []
    for n, c in enumerate(RU32_ORDER, 1):
        h = filler("ru32", n)
        if "kh" in h["counts"]:
            h["counts"]["kh"] = kh_neg if n < 8 else kh_pos
        if "last_two" in h["counts"]:
            h["counts"]["last_two"] = [lt_neg, lt_neg] if n < 8 else [lt_pos, lt_pos]
        if c in ("eralash", "plus-eralash"):
            h["counts"] = {"tricks": [2, 2, 2, 2], "hearts": [2, 2, 2, 2], "kings": [1, 1, 1, 1],
                           "queens": [1, 1, 1, 1], "kh": 3, "last_two": [3, 3]}
        hands.append(h)
    return hands


@pytest.mark.parametrize("kh_neg,kh_pos,lt_neg,lt_pos,totals,winners", [
    (0, 0, 1, 1, [0, 0, 0, 0], [0, 1, 2, 3]),
    (0, 1, 1, 1, [-16, 16, 0, 0], [1]),
    (0, 1, 0, 2, [-32, 16, 16, 0], [1, 2]),
    (3, 2, 3, 0, [16, 0, 16, -32], [0, 2]),
    (3, 0, 2, 0, [32, 0, -16, -16], [0]),
])
def test_winners_share_ties(kh_neg, kh_pos, lt_neg, lt_pos, totals, winners):
    report = score_record(ru32_game(ru32_sym(kh_neg, kh_pos, lt_neg, lt_pos)))
    assert report["totals"] == totals
    assert report["winners"] == winners
    assert report["complete"] is True


def test_no_winners_before_the_end():
    report = score_record(ru32_game(ru32_sym(0, 1, 0, 2)[:13]))
    assert report["complete"] is False and report["winners"] == []


# ---------------------------------------------------------------- normalize_record


def test_normalize_record_canonical_cards_and_round_trip():
    record = ru32_game([{"contract": "no-tricks", "tricks": [
        ["7s", "8♠", "9S", "10S"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"],
        ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
        ["JC", "QC", "KC", "AC"], ["JH", "QH", "K♥", "ah"]]}])
    norm = normalize_record(record)
    assert norm["hands"][0]["tricks"][0] == ["7S", "8S", "9S", "TS"]
    assert norm["hands"][0]["tricks"][7] == ["JH", "QH", "KH", "AH"]
    assert normalize_record(norm) == norm
    assert "options" not in norm  # kept as entered (omitted)
    assert score_record(norm) == score_record(record)
