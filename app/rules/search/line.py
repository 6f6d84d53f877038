"""The line of an alternative (a weighted ruling's outcome, RULES.md §3, ANALYSIS.md): the
hand played on from one legal card, the offender making sure of its guaranteed points and
the others playing against it, scored as the report scores it."""
from __future__ import annotations

import time
from typing import Any

from app.rules.cards import BIT
from app.rules.errors import InputError
from app.rules.game.record import CANON, CARD_CODES
from app.rules.game.results import HandResult
from app.rules.referee.play import trick_winner
from app.rules.scoring import card_counts, hand_points
from app.rules.search.analysis import BUDGET_S, _cards, _read_position, _static, _tricks_before
from app.rules.search.native import Searcher, new_search
from app.rules.search.solver import OutOfTime, State, Table, legal_mask


def line_after(record: object, hand: object, trick: object, seat: object, card: object,
               budget_s: float = BUDGET_S) -> dict[str, Any] | None:
    """The guaranteed line after ``seat`` plays ``card`` at the position (record, hand,
    trick, seat) of :func:`analyse`, and the hand's four points along it: what a director
    reads off the analysis as one outcome of a weighted ruling ("with Q♠"), RULES.md §3.

    The line is the one whose value is the card's ``guaranteed``: the seat plays for the
    most it can make sure of, the three others together against it; at each turn the first
    card (in card order) that keeps that value is played. Once nothing left can move the
    seat's score, each seat plays its first legal card: what remains then moves nobody's
    points (the contract values cards and tricks alike for every seat). The points are the
    contract's (``hand_points``) for the captures along the line: an adjusted ruling
    replaces the points only, auction payments stand.

    Returns ``{"card", "cards": [the line's cards, from the seat's on, canonical],
    "points": [four ints]}``, or None when the search runs past ``budget_s``. A bad record
    or position raises RecordError as :func:`analyse` does; a ``card`` that is neither
    allowed there nor the card played raises it on ``card``."""
    start = time.perf_counter()
    h, _, t, s, position = _read_position(record, hand, trick, seat)
    table, state = position.table, position.state
    code = CARD_CODES.get(card) if isinstance(card, str) else None
    allowed = legal_mask(table, state, s) | BIT[position.played]
    if code is None or not allowed & BIT[code]:
        raise InputError.of("card", "not-an-alternative",
                            "%(value)s is not a card this seat could play there", value=str(card)[:8])
    search = new_search(table, False, table.n_tricks, start + budget_s)
    lo, hi, _ = _static(table, state)
    walk = _Walk(table, state, h, t)
    try:
        value = search.value_after(state, code, lo, hi, hi)
        walk.follow(search, code, value)
    except OutOfTime:
        return None
    counts = card_counts(h.contract, walk.captured)
    counts.update(tricks=walk.tricks_won, last_two=walk.last_two)
    return {"card": CANON[code], "cards": [CANON[c] for c in walk.cards],
            "points": hand_points(h.contract, counts)}


class _Walk:
    """A line played out from a position, keeping what each seat captured."""

    def __init__(self, table: Table, state: State, h: HandResult, t: int) -> None:
        self.table = table
        self.state = State(list(state.hands), state.played, list(state.trick), state.k,
                           state.leader, state.paid)
        _, self.captured, self.tricks_won, self.last_two = _tricks_before(h, t, table.n_tricks)
        self.cards: list[int] = []

    def follow(self, search: Searcher, card: int, value: int) -> None:
        """Plays ``card``, then the line keeping ``value`` (the seat's score from here)."""
        state, table = self.state, self.table
        value -= self.play(card)
        while state.k < table.n_tricks and not self._over():
            mover = (state.leader + len(state.trick)) & 3
            legal = _cards(legal_mask(table, state, mover))
            if not state.trick and search.settled(state):
                self._play_out()
                return
            choice = next(c for c in legal if self._keeps(search, c, value, mover == table.seat))
            value -= self.play(choice)

    def _keeps(self, search: Searcher, card: int, value: int, maximise: bool) -> bool:
        """Whether playing ``card`` keeps the line's value (null-window probes)."""
        if maximise:
            return search.child(self.state, card, value - 1, value) >= value
        return search.child(self.state, card, value, value + 1) <= value

    def _play_out(self) -> None:
        """The rest of the hand, each seat its first legal card."""
        state, table = self.state, self.table
        while state.k < table.n_tricks and not self._over():
            mover = (state.leader + len(state.trick)) & 3
            self.play(_cards(legal_mask(table, state, mover))[0])

    def _over(self) -> bool:
        table, state = self.table, self.state
        return bool(table.ends_early and not state.trick
                    and state.played & table.scoring_mask == table.scoring_mask)

    def play(self, card: int) -> int:
        """Plays ``card`` for the seat to play; returns what a completed trick was worth to
        the analysed seat (0 mid-trick)."""
        state, table = self.state, self.table
        state.hands[(state.leader + len(state.trick)) & 3] &= ~BIT[card]
        state.trick.append(card)
        self.cards.append(card)
        if len(state.trick) < 4:
            return 0
        winner = (state.leader + trick_winner(state.trick, table.trump)) & 3
        mask = BIT[state.trick[0]] | BIT[state.trick[1]] | BIT[state.trick[2]] | BIT[state.trick[3]]
        gain = table.trick_gain(state.k, winner, mask, state.paid)
        self.captured[winner] |= mask
        self.tricks_won[winner] += 1
        self.last_two[winner] += state.k >= table.n_tricks - 2
        state.played |= mask
        state.k += 1
        state.leader = winner
        state.paid = table.paid_after(winner, state.paid)
        state.trick = []
        return gain
