"""What happened is on the result: who played each card, who made a King, the quota state,
the early end as a code and params (issue 20 item 4)."""
from app.rules import load
from app.rules.quota import Quota
from app.rules.game.results import EARLY_END, Explanation

from tests.rules.helpers import rec

# rifki, hand 1: seat 0 chooses Rıfkı and leads. Trick 1: 2♠ (seat 0), A♠ (1), Q♠ (2), J♠ (3):
# seat 1 wins and leads trick 2: A♦ (1), K♦ (2), 2♦ (3), K♥ (0, void in diamonds): seat 1
# takes the K♥ and the hand ends there.
SHORT_RIFKI = {"contract": "rifki",
               "tricks": [["2S", "AS", "QS", "JS"], ["AD", "KD", "2D", "KH"]]}


def test_trick_seats_name_the_seat_of_each_card_in_card_order():
    h = load(rec("rifki", [SHORT_RIFKI])).hands[0]
    assert h.trick_leaders == (0, 1)
    assert h.trick_winners == (1, 1)
    assert h.trick_seats == ((0, 1, 2, 3), (1, 2, 3, 0))
    assert h.points == (0, -320, 0, 0)
    assert h.violations == ()


def test_a_hand_entered_as_counts_has_no_trick_seats():
    h = load(rec("rifki", [{"contract": "rifki", "counts": {"kh": 2}}])).hands[0]
    assert h.trick_seats == () and h.early_end is None and h.early_end_reason is None


def test_early_end_is_a_code_and_params_and_the_old_sentence_stays():
    h = load(rec("rifki", [SHORT_RIFKI])).hands[0]
    assert h.ended_early
    assert h.early_end == Explanation("early-end", EARLY_END, {"cards": ("KH",), "trick": 2})
    assert h.early_end.code == "early-end"
    assert dict(h.early_end.params) == {"cards": ("KH",), "trick": 2}
    assert h.early_end_reason == "every scoring card has been taken (the last, K♥, at trick 2)"
    assert str(h.early_end) == h.early_end_reason


def test_early_end_names_every_scoring_card_of_the_last_trick():
    # fiestas hand 3 (no-queens): seat 2 deals, seat 3 leads. Trick 1: Q♠ (3), K♠ (0),
    # 2♥ (1), Q♦ (2): seat 0 wins and leads trick 2: A♣ (0), Q♣ (1), Q♥ (2, void), 3♣ (3):
    # the last two queens fall together and the hand is over
    hands = [{"contract": "no-tricks", "counts": {"tricks": [4, 3, 3, 3]}},
             {"contract": "no-hearts", "counts": {"hearts": [4, 3, 3, 3]}},
             {"contract": "no-queens", "tricks": [["QS", "KS", "2H", "QD"], ["AC", "QC", "QH", "3C"]]}]
    h = load(rec("fiestas", hands)).hands[2]
    assert h.trick_seats == ((3, 0, 1, 2), (0, 1, 2, 3))
    assert h.trick_winners == (0, 0)
    assert h.early_end is not None and h.early_end.params["cards"] == ("QH", "QC")
    assert h.early_end_reason == "every scoring card has been taken (the last, Q♥ Q♣, at trick 2)"


def test_a_king_is_on_the_hand_and_counted_per_seat_on_the_game():
    hands = [{"contract": "koz", "trump": "S", "counts": {"tricks": [0, 0, 13, 0]}},
             {"contract": "koz", "trump": "H", "counts": {"tricks": [0, 0, 13, 0]},
              "ruling": {"kind": "replay"}},                    # not counted
             {"contract": "koz", "trump": "H", "counts": {"tricks": [4, 3, 3, 3]}}]
    game = load(rec("rifki", hands))
    assert [h.made_king for h in game.hands] == [True, True, False]
    assert [h.king_seat for h in game.hands] == [2, 2, None]
    assert game.kings == (0, 0, 1, 0)
    assert load(rec("fiestas", [])).kings == (0, 0, 0, 0)


def test_the_quota_counts_what_each_chooser_chose_in_counted_hands():
    hands = [{"contract": "rifki", "counts": {"kh": 1}},                         # seat 0
             {"contract": "koz", "trump": "S", "counts": {"tricks": [4, 3, 3, 3]}},  # seat 1
             {"contract": "kupa-almaz", "counts": {"hearts": [4, 3, 3, 3]},      # seat 2, replayed
              "ruling": {"kind": "replay"}},
             {"contract": "el-almaz", "counts": {"tricks": [4, 3, 3, 3]}}]       # seat 2 again
    game = load(rec("rifki", hands))
    q = game.quota
    assert (q.penalties, q.koz, q.limited) == ((1, 0, 1, 0), (0, 1, 0, 0), True)
    assert dict(q.played) == {"rifki": 1, "koz": 1, "el-almaz": 1}
    assert q.of(2) == {"penalties": 1, "koz": 0, "limited": True, "penalty_limit": 3,
                       "koz_limit": 2}
    free = load(rec("rifki", hands, options={"choice_limit": "free"})).quota
    assert not free.limited and free.penalties == q.penalties


def test_a_profile_without_choices_has_an_empty_quota():
    q = load(rec("ru32", [])).quota
    assert q == Quota() and q.of(0)["penalties"] == 0 and q.limited
