"""Finer points of RULES.md §2-§4 and RECORD.md: counts consistency, strict reading,
"broken" by any play, several violations in one hand, canonical output."""
import pytest

from app.rules import RecordError, score_record

from .helpers import Ctx, autoplay, filler, make_deal, rec


def ru32_with(hand, number):
    return rec("ru32", [filler("ru32", n) for n in range(1, number)] + [hand], first=0)


def err_of(record):
    with pytest.raises(RecordError) as info:
        score_record(record)
    return info.value


ERALASH_OK = {"tricks": [2, 2, 2, 2], "hearts": [2, 2, 2, 2], "kings": [1, 1, 1, 1],
              "queens": [1, 1, 1, 1], "kh": 0, "last_two": [1, 2]}


@pytest.mark.parametrize("change,field", [
    ({"tricks": [0, 3, 3, 2]}, "hands[6].counts"),                      # hearts with no trick
    ({"tricks": [1, 3, 2, 2], "hearts": [5, 1, 1, 1]}, "hands[6].counts"),  # 5+1+1 cards > 4x1
    ({"tricks": [1, 3, 2, 2], "last_two": [0, 0]}, "hands[6].counts"),  # both last tricks, 1 trick
    ({"kh": 4}, "hands[6].counts.kh"),
    ({"last_two": [1, 4]}, "hands[6].counts.last_two"),
    ({"last_two": [1]}, "hands[6].counts.last_two"),
    ({"queens": [1, 1, 1]}, "hands[6].counts.queens"),
    ({"queens": [1, 1, 1, -1, 2][:4]}, "hands[6].counts.queens"),
])
def test_counts_consistency_is_checked(change, field):
    counts = dict(ERALASH_OK, **change)
    err = err_of(ru32_with({"contract": "eralash", "counts": counts}, 7))
    assert err.field.startswith(field), str(err)


def test_counts_missing_element_is_an_error():
    counts = dict(ERALASH_OK)
    del counts["queens"]
    assert err_of(ru32_with({"contract": "eralash", "counts": counts}, 7)).field.startswith("hands[6].counts")


def test_consistent_eralash_counts_accepted():
    hand = score_record(ru32_with({"contract": "eralash", "counts": ERALASH_OK}, 7))["hands"][6]
    # each: -4 tricks -4 hearts -4 king -4 queen; seat 0 -16 K♥; last two seats 1 and 2 -8
    assert hand["points"] == [-32, -24, -24, -16]


@pytest.mark.parametrize("value", [True, 1.0, None, "1", -1])
def test_seat_must_be_an_integer_0_to_3(value):
    record = rec("ru32", [filler("ru32", 1)], first=0)
    record["first_dealer"] = value
    assert err_of(record).field == "first_dealer"


def test_first_chooser_not_first_dealer_in_rifki():
    record = rec("rifki", [filler("rifki", 1, "koz")], first=0)
    record["first_dealer"] = record.pop("first_chooser")
    assert err_of(record).field in ("first_dealer", "first_chooser")
    record = rec("ru32", [filler("ru32", 1)], first=0)
    record["first_chooser"] = record.pop("first_dealer")
    assert err_of(record).field in ("first_dealer", "first_chooser")


@pytest.mark.parametrize("extra,field", [
    ({"leader": 0}, "hands[6].leader"),
    ({"counts": {"tricks": [4, 3, 3, 3]}}, "hands[6].counts"),
    ({"trump": "S"}, "hands[6].trump"),
])
def test_433_has_no_leader_tricks_or_trump(extra, field):
    hands = [filler("fiestas", n) for n in range(1, 7)] + [dict({"contract": "433"}, **extra)]
    assert err_of(rec("fiestas", hands, first=0)).field.startswith(field)


def test_trump_required_with_trump_and_nulos_has_none():
    hands = [filler("fiestas", n) for n in range(1, 7)]
    no_suit = {"contract": "trump", "counts": {"tricks": [4, 3, 3, 3]}}
    assert err_of(rec("fiestas", hands + [no_suit], first=0)).field == "hands[6].trump"
    nulos_suit = {"contract": "nulos", "trump": "H", "counts": {"tricks": [4, 3, 3, 3]}}
    assert err_of(rec("fiestas", hands + [nulos_suit], first=0)).field == "hands[6].trump"
    bad_suit = {"contract": "trump", "trump": "X", "counts": {"tricks": [4, 3, 3, 3]}}
    assert err_of(rec("fiestas", hands + [bad_suit], first=0)).field == "hands[6].trump"


def test_rifki_option_names_belong_to_rifki():
    assert err_of(rec("rifki", [filler("rifki", 1, "koz")], options={"keep_kh": "on"})).field.startswith("options")
    assert err_of(rec("ru32", [filler("ru32", 1)], options={"must_overtake": "all"})).field.startswith("options")
    for name, value in [("choice_limit", "free"), ("must_overtake", "koz"), ("must_overtake", "all"),
                        ("trump_lead_ban", "on"), ("hearts_lead_ban", "all-penalties"),
                        ("rifki_void", "heart")]:
        assert score_record(rec("rifki", [filler("rifki", 1, "koz")], options={name: value}))
    assert err_of(rec("rifki", [filler("rifki", 1, "koz")], options={"must_overtake": "yes"})).field == "options.must_overtake"


def test_rifki_contract_required():
    hand = filler("rifki", 1, "el-almaz")
    del hand["contract"]
    assert err_of(rec("rifki", [hand])).field.startswith("hands[0].contract")


def test_fiesta_hand_contract_required():
    hands = [filler("fiestas", n) for n in range(1, 7)] + [{"counts": {"tricks": [4, 3, 3, 3]}}]
    assert err_of(rec("fiestas", hands, first=0)).field.startswith("hands[6].contract")


def test_play_past_the_last_trick_is_hand_over():
    tricks = [["7S", "8S", "9S", "TS"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"],
              ["7H", "8H", "9H", "TH"], ["JS", "QS", "KS", "AS"], ["JD", "QD", "KD", "AD"],
              ["JC", "QC", "KC", "AC"], ["JH", "QH", "KH", "AH"], ["7S", "8S", "9S", "TS"]]
    err = err_of(rec("ru32", [{"contract": "no-tricks", "tricks": tricks}], first=0))
    assert err.code == "hand-over"
    assert err.field.startswith("hands[0].tricks[8]")


def test_deal_must_be_the_whole_deck():
    deal = make_deal(32)
    deal[1][0], deal[2][0] = deal[2][0], deal[2][0]     # a card twice, one missing
    played = autoplay(Ctx("ru32", "no-tricks"), make_deal(32), 1)
    hand = {"contract": "no-tricks", "tricks": played.tricks, "deal": deal}
    assert err_of(rec("ru32", [hand], first=0)).field.startswith("hands[0].deal")


def test_deal_without_tricks_is_an_error():
    hand = {"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}, "deal": make_deal(32)}
    assert err_of(rec("ru32", [hand], first=0)).field.startswith("hands[0]")


def test_broken_by_an_illegal_play_counts():
    """§4: "Broken" means a card of that suit was played in an earlier trick, whoever
    played it and whether or not that play was legal."""
    ctx = Ctx("rifki", "kupa-almaz")
    # rifki hand 1, first_chooser 0 leads: an illegal heart lead in trick 1, then the
    # trick-1 winner leads hearts again in trick 2: legal, hearts are broken (seat 0, the
    # first chooser, holds the 2♦)
    deal = make_deal(52, {0: ["2H", "2S", "3S", "2D"], 1: ["AH", "3H"], 2: ["4H"], 3: ["5H"]})
    played = autoplay(ctx, deal, 0, {(1, 0): "2H", (1, 1): "AH", (2, 1): "3H"})
    assert played.winners[0] == 1 and played.tricks[1][0] == "3H"
    hand = {"contract": "kupa-almaz", "tricks": played.tricks, "deal": deal}
    viol = score_record(rec("rifki", [hand], first=0))["hands"][0]["violations"]
    assert [(v["trick"], v["seat"], v["rule"]) for v in viol] == [(1, 0, "hearts-lead")]


def test_trumps_broken_by_an_illegal_trump_lead():
    ctx = Ctx("rifki", "koz", "H", {"trump_lead_ban": "on"})
    deal = make_deal(52, {0: ["2H", "2S", "2D"], 1: ["AH", "3H", "3S"]})   # 2♦: first chooser
    played = autoplay(ctx, deal, 0, {(1, 0): "2H", (1, 1): "AH", (2, 1): "3H"})
    assert played.winners[0] == 1
    hand = {"contract": "koz", "trump": "H", "tricks": played.tricks, "deal": deal}
    viol = score_record(rec("rifki", [hand], first=0, options={"trump_lead_ban": "on"}))["hands"][0]["violations"]
    assert [(v["trick"], v["seat"], v["rule"]) for v in viol] == [(1, 0, "trump-lead")]


def test_several_violations_in_one_hand_all_reported_in_order():
    ctx = Ctx("ru32", "no-tricks")
    deal = make_deal(32, {1: ["7S", "8S", "7C", "8C", "7D"], 2: ["9S", "9C"]})
    # leader 1 (first_dealer 0). Trick 1: seat 1 leads 7S; seat 2 discards 9C holding 9S.
    played = autoplay(ctx, deal, 1, {(1, 1): "7S", (1, 2): "9C"})
    hand = {"contract": "no-tricks", "tricks": played.tricks, "deal": deal}
    viol = score_record(rec("ru32", [hand], first=0))["hands"][0]["violations"]
    assert [(v["trick"], v["seat"], v["card"], v["rule"]) for v in viol][:1] == [(1, 2, "9C", "follow-suit")]
    assert all(v["rule"] == "follow-suit" for v in viol)
    assert [v["trick"] for v in viol] == sorted(v["trick"] for v in viol)


def test_violation_cards_are_canonical():
    """Card text is case-insensitive on input ("qh", "10s", "K♥"); output is canonical."""
    ctx = Ctx("ru32", "no-tricks")
    deal = make_deal(32, {1: ["TS"], 2: ["8S", "9S", "7C"]})
    # leader 1 (first_dealer 0) leads T♠; seat 2 discards 7♣ holding spades
    played = autoplay(ctx, deal, 1, {(1, 1): "TS", (1, 2): "7C"})
    tricks = [[c.replace("T", "10").lower() for c in tr] for tr in played.tricks]
    tricks[0] = [c.replace("s", "♠") for c in tricks[0]]
    hand = {"contract": "no-tricks", "tricks": tricks}
    viol = score_record(rec("ru32", [hand], first=0))["hands"][0]["violations"]
    assert len(viol) == 1 and viol[0]["card"] == "7C" and viol[0]["rule"] == "follow-suit"
    for e in viol[0]["evidence"]:
        card, at = e.split("@")
        assert card in deal[2] and card.endswith("S") and at.isdigit()


# ---------------------------------------------------------------- rifki hand 1: the 2♦

def rifki_dealt(first: int, holder: int, contract: str = "el-almaz") -> dict:
    """A rifki hand led by ``first`` (its chooser) from a deal giving the 2♦ to ``holder``."""
    deal = make_deal(52, {holder: ["2D"]})
    played = autoplay(Ctx("rifki", contract), deal, first)
    return {"contract": contract, "tricks": played.tricks, "deal": deal}


def test_rifki_hand_1_is_dealt_the_2d_to_its_chooser():
    """RULES.md 1.4: hand 1 is chosen by whoever holds the 2♦, the record's first_chooser."""
    assert score_record(rec("rifki", [rifki_dealt(2, 2)], first=2))["hands"][0]["chooser"] == 2
    e = err_of(rec("rifki", [rifki_dealt(1, 3)], first=1))
    assert (e.field, e.code) == ("hands[0].deal", "first-chooser")
    assert e.message == ("the 2♦ is dealt to seat 3 (Dani), but hand 1 is chosen (and led) by "
                         "seat 1 (Beto), the record's first_chooser: the chooser of hand 1 holds "
                         "the 2♦")
    assert e.params["seat"] == 3 and e.params["seat2"] == 1


def test_rifki_2d_rule_is_for_hand_1_only_and_for_a_deal_entered():
    hand2 = rifki_dealt(2, 0)                        # hand 2: the 2♦ anywhere
    record = rec("rifki", [filler("rifki", 1), hand2], first=1)
    assert score_record(record)["hands"][1]["chooser"] == 2
    no_deal = rifki_dealt(1, 3)
    del no_deal["deal"]                              # without the deal nothing says who held it
    assert score_record(rec("rifki", [no_deal], first=1))["hands"][0]["counted"]


def test_a_replayed_rifki_hand_1_is_redealt_with_the_2d_to_its_chooser():
    """A replay keeps the hand's number (RULES.md §4): its replacement is hand 1 again, chosen
    by first_chooser, so its new deal gives the 2♦ to first_chooser too (docs/decisions.md)."""
    voided = {**rifki_dealt(1, 1), "ruling": {"kind": "replay"}}
    ok = score_record(rec("rifki", [voided, rifki_dealt(1, 1)], first=1))["hands"]
    assert [(h["number"], h["chooser"], h["counted"]) for h in ok] == [(1, 1, False), (1, 1, True)]
    e = err_of(rec("rifki", [voided, rifki_dealt(1, 2)], first=1))
    assert (e.field, e.code) == ("hands[1].deal", "first-chooser")
    e = err_of(rec("rifki", [{**rifki_dealt(1, 0), "ruling": {"kind": "replay"}},
                             rifki_dealt(1, 1)], first=1))
    assert (e.field, e.code) == ("hands[0].deal", "first-chooser")
