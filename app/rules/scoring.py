"""Scoring: a pure function of the contract and what each seat captured (RULES.md §0, §1).

Every entry mode ends here: counts are used as entered, captures and tricks are first
turned into counts by :func:`card_counts`.
"""
from __future__ import annotations

from app.rules.cards import HEARTS_MASK, JACKS_MASK, KH_BIT, KINGS_MASK, QUEENS_MASK
from app.rules.profiles import Contract

#: The card elements and the cards behind them.
CARD_ELEMENTS = (("hearts", HEARTS_MASK), ("kings", KINGS_MASK), ("queens", QUEENS_MASK),
                 ("jacks", JACKS_MASK), ("kh", KH_BIT))
_SCORED: dict[str, tuple[tuple[str, int], ...]] = {}


def card_counts(contract: Contract, captured: list[int]) -> dict[str, list[int]]:
    """Per card element the contract scores, how many such cards each seat captured."""
    scored = _SCORED.get(contract.id + str(contract.total))
    if scored is None:
        scored = _SCORED[contract.id + str(contract.total)] = tuple(
            (e, m) for e, m in CARD_ELEMENTS if contract.values.get(e))
    return {e: [(c & m).bit_count() for c in captured] for e, m in scored}


def hand_points(contract: Contract, counts: dict[str, list[int]]) -> list[int]:
    """Each seat's points: the contract's base plus value x count per element (a missing
    element counts as nothing, so a hand in progress scores what it has so far)."""
    points = [contract.base] * 4
    for element, value in contract.values.items():
        per_seat = counts.get(element)
        if value and per_seat is not None:
            for s in range(4):
                points[s] += value * per_seat[s]
    return points
