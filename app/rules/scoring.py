"""Scoring: a pure function of the contract and what each seat captured (RULES.md §0, §1).

Every entry mode ends here: counts are used as entered, captures and tricks are first
turned into counts by :func:`card_counts`.
"""
from __future__ import annotations

from app.rules.profiles import Contract


def card_counts(contract: Contract, captured: list[int]) -> dict[str, list[int]]:
    """Per card element the contract scores, how many such cards each seat captured."""
    return {e: [(c & m).bit_count() for c in captured] for e, m in contract.card_elements}


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
