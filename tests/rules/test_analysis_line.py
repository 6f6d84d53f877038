"""The line of an alternative (app.rules.search.line.line_after): a weighted ruling's outcome
read off the analysis (RULES.md §3, issue 40). Along the line the seat scores exactly the
card's ``guaranteed``, the line is a legal play of the rest of the hand, and its four points
are the game builder's for the hand played that way (nothing shared with the search)."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from app.rules import RecordError
from app.rules.search.analysis import analyse
from app.rules.search.line import line_after
from app.rules.game.builder import GameBuilder
from app.rules.game.record import CANON, CARD_CODES
from app.rules.simulate import random_game
from tests.rules.test_analysis import CASES, Brute


def _scored(brute: Brute, cards: list[str], t: int) -> tuple[list[int], list[int], list[Any]]:
    """The game builder's points and payments of the hand with the recorded tricks before
    ``t``, the current trick's cards before the seat, then ``cards``; and its violations."""
    played = [c for trick in brute.tricks for c in trick] + list(brute.current)
    flat = [CANON[c] for c in played] + list(cards)
    tricks = [flat[k:k + 4] for k in range(0, len(flat), 4)]
    assert len(tricks) > t and all(len(tr) == 4 for tr in tricks)
    hand = {**brute.raw, "tricks": tricks}
    result = GameBuilder.resume(brute.prefix).add(copy.deepcopy(hand), brute.i)
    return list(result.points), list(result.payments), list(result.violations)


@pytest.mark.parametrize(("profile", "record", "i", "t", "s"), CASES[::2],
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES[::2])])
def test_each_alternative_s_line_scores_its_guaranteed_value(profile, record, i, t, s):
    answer = analyse(record, i, t, s)
    brute = Brute(record, i, t, s)
    for alt in answer["alternatives"]:
        line = line_after(record, i, t, s, alt["card"])
        assert line is not None and line["card"] == alt["card"] and line["cards"][0] == alt["card"]
        points, payments, violations = _scored(brute, line["cards"], t)
        assert line["points"] == points
        assert points[s] + payments[s] == alt["guaranteed"], (alt, line)
        # from the seat's card on the line breaks no rule (an illegal card: the seat's own)
        late = [v for v in violations if v.trick > t and not (v.trick == t + 1 and v.seat == s)]
        assert late == [], late
        assert alt["legal"] or any(v.trick == t + 1 and v.seat == s for v in violations)


def test_a_card_the_seat_could_not_play_is_refused_on_card():
    _, record, i, t, s = CASES[0]
    answer = analyse(record, i, t, s)
    offered = {a["card"] for a in answer["alternatives"]}
    other = next(c for c in CARD_CODES if c not in offered and len(c) == 2)
    with pytest.raises(RecordError) as refused:
        line_after(record, i, t, s, other)
    assert refused.value.field == "card"
    with pytest.raises(RecordError) as refused:
        line_after(record, i, t, s, 7)
    assert refused.value.field == "card"


def test_past_its_budget_there_is_no_line():
    record = random_game("ru32", random.Random(5))
    i = next(k for k, h in enumerate(record["hands"]) if "deal" in h and "tricks" in h)
    answer = analyse(record, i, 0, 1, budget_s=0.0)
    assert line_after(record, i, 0, 1, answer["alternatives"][0]["card"], budget_s=0.0) is None
