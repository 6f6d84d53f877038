"""The subastas settlement (RULES.md 1.3 "Settlement", option ``settlement``), by hand.

Hand 7 of a game whose first dealer is seat 1: the owner is seat 3, seat 0 buys the fiesta
at -2 and plays nulos (-75 a trick, +325 a seat before the tricks). Every figure below is
worked out by hand from the rule book, not by the engine:

- ``tricks`` (the default, the seed's words): the buyer pays 75 for each trick the owner
  took, up to 2 -- 75·min(2, owner's tricks);
- ``bid``: the buyer pays the full bid, 150, whatever the owner took.
"""
import pytest

from app.rules import score_record

from .helpers import filler, rec

#: owner's tricks -> (the four seats' tricks, the points of nulos as played)
NULOS = {
    0: ([5, 4, 4, 0], [325 - 375, 325 - 300, 325 - 300, 325]),      # [-50, 25, 25, 325]
    1: ([4, 4, 4, 1], [25, 25, 25, 250]),
    2: ([4, 4, 3, 2], [25, 25, 100, 175]),
    5: ([3, 3, 2, 5], [100, 100, 175, -50]),
}
#: (settlement, owner's tricks) -> what seat 0 pays seat 3
PAID = {("tricks", 0): 0, ("tricks", 1): 75, ("tricks", 2): 150, ("tricks", 5): 150,
        ("bid", 0): 150, ("bid", 1): 150, ("bid", 2): 150, ("bid", 5): 150}
MINUS_2 = ["0:-2", "1:pass", "2:pass", "owner:accept"]


def game(profile, auction, hand7, options=None):
    hands = [filler(profile, n) for n in range(1, 7)] + [{"auction": auction, **hand7}]
    return rec(profile, hands, options=options, first=1)


def report(settlement, owner_tricks, **extra):
    tricks, _ = NULOS[owner_tricks]
    options = None if settlement is None else {"settlement": settlement}
    return score_record(game("subastas", MINUS_2,
                             {"contract": "nulos", "counts": {"tricks": tricks}, **extra}, options))


@pytest.mark.parametrize("settlement,owner_tricks", sorted(PAID))
def test_minus_two_sale_pays_by_the_settlement(settlement, owner_tricks):
    rep = report(settlement, owner_tricks)
    hand = rep["hands"][6]
    paid = PAID[settlement, owner_tricks]
    _, points = NULOS[owner_tricks]
    assert hand["points"] == points
    assert hand["payments"] == [-paid, 0, 0, paid]
    before = rep["hands"][5]["running_totals"]
    assert hand["running_totals"] == [before[s] + points[s] + hand["payments"][s] for s in range(4)]
    assert rep["zero_sum_ok"]


def test_tricks_is_the_default_and_the_owner_keeps_325_up_to_the_bid():
    """"la suma del competidor no disminuye, a menos que haya tomado más bazas": under the
    default the owner scores 325 - 75·max(0, tricks - 2) with the payment."""
    for owner_tricks, want in ((0, 325), (1, 325), (2, 325), (5, 325 - 75 * 3)):
        hand = report(None, owner_tricks)["hands"][6]
        assert hand["points"][3] + hand["payments"][3] == want
        assert hand == report("tricks", owner_tricks)["hands"][6]


def test_minus_one_sale_under_tricks():
    tricks = [6, 4, 3, 0]
    hand = score_record(game("subastas", ["0:-1", "1:pass", "2:pass", "owner:accept"],
                             {"contract": "nulos", "counts": {"tricks": tricks}}))["hands"][6]
    assert hand["payments"] == [0, 0, 0, 0]


@pytest.mark.parametrize("settlement", ["tricks", "bid"])
def test_positive_sales_pay_the_full_bid_under_both(settlement):
    """A +4 buyer who takes 2 tricks still pays 100 (the seed: the missing part is handed
    over)."""
    hand = score_record(game("subastas", ["0:+4", "1:pass", "2:pass", "owner:accept"],
                             {"contract": "trump", "trump": "S",
                              "counts": {"tricks": [2, 4, 4, 3]}},
                             {"settlement": settlement}))["hands"][6]
    assert hand["points"] == [50, 100, 100, 75]
    assert hand["payments"] == [-100, 0, 0, 100]


def test_fiestas_has_no_settlement_option_and_pays_the_full_bid():
    tricks, _ = NULOS[0]
    hand = score_record(game("fiestas", MINUS_2, {"contract": "nulos",
                                                   "counts": {"tricks": tricks}}))["hands"][6]
    assert hand["payments"] == [-150, 0, 0, 150]
    from app.rules import RecordError
    with pytest.raises(RecordError) as info:
        score_record(game("fiestas", MINUS_2, {"contract": "nulos", "counts": {"tricks": tricks}},
                          {"settlement": "tricks"}))
    assert info.value.field == "options.settlement"


def test_an_unknown_settlement_is_refused_naming_the_option():
    from app.rules import RecordError
    with pytest.raises(RecordError) as info:
        report("half", 1)
    assert info.value.field == "options.settlement"


def test_adjusted_ruling_keeps_the_payment_of_the_tricks_as_played():
    """RULES.md §4: an adjusted ruling replaces the points only; auction payments stand --
    the payment is the one the tricks as played gave."""
    ruling = {"kind": "adjusted", "points": [0, 0, 0, 325], "reason": "misdeal settled"}
    hand = report("tricks", 1, ruling=ruling)["hands"][6]
    assert hand["points"] == [0, 0, 0, 325]
    assert hand["payments"] == [-75, 0, 0, 75]


def test_a_replayed_fiesta_pays_nothing():
    hand = report("tricks", 1, ruling={"kind": "replay"})["hands"][6]
    assert hand["payments"] == [0, 0, 0, 0] and not hand["counted"]


@pytest.mark.parametrize("settlement,paid", [("tricks", 0), ("bid", 150)])
def test_tricks_entered_one_by_one_settle_like_counts(settlement, paid):
    """The settlement reads the owner's tricks however the hand was entered. Here each seat
    was dealt one whole suit: the buyer (seat 0, spades) leads every trick, the others are
    void and discard, so the buyer takes all 13 and the owner none."""
    tricks = [[r + s for s in "SHDC"] for r in "AKQJT98765432"]
    rep = score_record(game("subastas", MINUS_2, {"contract": "nulos", "tricks": tricks},
                            {"settlement": settlement}))
    hand = rep["hands"][6]
    assert hand["trick_winners"] == [0] * 13
    assert hand["points"] == [325 - 75 * 13, 325, 325, 325]
    assert hand["payments"] == [-paid, 0, 0, paid]


def test_the_payment_note_explains_the_settlement():
    from app.rules import load

    tricks, _ = NULOS[1]
    hands7 = {"contract": "nulos", "counts": {"tricks": tricks}}
    per_trick = load(game("subastas", MINUS_2, hands7)).payment_note(6)
    assert per_trick is not None and per_trick.code == "payment-per-trick"
    assert dict(per_trick.params) == {"buyer": "Ana", "owner": "Dani", "bid": "-2", "paid": 75,
                                      "per": 75, "most": 150, "tricks": 1}
    whole = load(game("subastas", MINUS_2, hands7, {"settlement": "bid"})).payment_note(6)
    assert whole is not None and whole.code == "payment-bid" and whole.params["paid"] == 150
    assert load(game("subastas", MINUS_2, hands7)).payment_note(0) is None     # no sale
