"""The worked examples of RULES.md, checked through score_record."""
import pytest

from app.rules import score_record

from .helpers import filler, rec

# RULES.md 1.4: "in Eralash Negativo the last trick holds K♥, Q♥, J♠, 7♣. Its winner scores
# -2 (trick) -4 (two hearts) -4 (a king) -4 (a queen) -16 (K♥) -8 (last trick) = -38; the
# jack scores nothing. In Eralash Positivo the same trick is +38."
#
# A legal eralash hand, seats relative to the leader r0: r0 wins tricks 1-7 with top
# cards and leads its last card Q♥; r1 follows every suit low (never void, so the
# forced K♥ discard never triggers) and wins only trick 8 with the K♥.
REL_TRICKS = [
    ["AS", "8S", "9S", "QS"],
    ["KS", "7S", "JH", "TS"],
    ["AC", "8C", "9C", "KC"],
    ["AD", "TD", "TH", "QC"],
    ["KD", "9D", "9H", "JC"],
    ["QD", "8D", "8H", "TC"],
    ["JD", "7D", "7H", "AH"],
    ["QH", "KH", "7C", "JS"],
]


def rel_deal():
    return [[t[pos] for t in REL_TRICKS] for pos in range(4)]


def eralash_game(number: int, first_dealer: int, with_deal: bool, sign_word: str):
    dealer = (first_dealer + number - 1) % 4
    leader = (dealer + 1) % 4
    deal = [None] * 4
    for pos, cards in enumerate(rel_deal()):
        deal[(leader + pos) % 4] = cards
    hand = {"contract": sign_word, "tricks": REL_TRICKS}
    if with_deal:
        hand["deal"] = deal
    hands = [filler("ru32", n) for n in range(1, number)] + [hand]
    return rec("ru32", hands, first=first_dealer), leader


@pytest.mark.parametrize("with_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("number,contract,value", [(7, "eralash", -38), (14, "plus-eralash", 38)])
@pytest.mark.parametrize("first_dealer", [0, 3])
def test_eralash_last_trick_kh_qh_js_7c_scores_38(number, contract, value, first_dealer, with_deal):
    record, leader = eralash_game(number, first_dealer, with_deal, contract)
    report = score_record(record)
    hand = report["hands"][-1]
    assert hand["contract"] == contract
    assert hand["leader"] == leader
    r1 = (leader + 1) % 4
    assert hand["trick_winners"] == [leader] * 7 + [r1]
    assert hand["tricks_played"] == 8 and hand["ended_early"] is False
    assert hand["violations"] == []
    # the winner of the last trick took only that trick: exactly -38 / +38
    assert hand["points"][r1] == value
    # the rest for checking: r0 took 7 tricks (-14), 6 hearts (-12), KS KC KD (-12),
    # QS QC QD (-12) and trick 7 (-8): -58; the other two seats nothing.
    sign = 1 if value > 0 else -1
    expected = [0, 0, 0, 0]
    expected[leader] = 58 * sign
    expected[r1] = value
    assert hand["points"] == expected
    assert hand["total"] == hand["expected_total"] == 96 * sign
