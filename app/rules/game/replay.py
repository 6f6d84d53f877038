"""The public entry points of replaying a record: read, check and replay it (``load``), every
problem of one hand at once (``entry_problems``), and a builder positioned after a record's
hands (``builder_for``, for what may come next).

The work is done in :mod:`app.rules.game.builder` (the hands, one by one), with the result types
of :mod:`app.rules.game.results`; what may come next is :mod:`app.rules.game.choices`.
"""
from __future__ import annotations

from typing import Any

from app.rules.counting import count_replay
from app.rules.errors import RecordError
from app.rules.game.builder import GameBuilder
from app.rules.game.header import read_header
from app.rules.game.results import AS_PLAYED, GameResult, HandResult, NextHand, Record, Ruling, canonical_hand

__all__ = ["AS_PLAYED", "GameBuilder", "GameResult", "HandResult", "NextHand", "Record",
           "RecordError", "Ruling", "builder_for", "canonical_hand", "entry_problems", "hand_problems",
           "load", "normalize_record", "parse_record", "replay"]


def load(data: object) -> GameResult:
    """Reads, checks and replays a record; the first defect raises RecordError."""
    profile, options, players, first, canonical = read_header(data)
    assert isinstance(data, dict)
    count_replay()
    builder = GameBuilder(profile, options, players, first)
    for i, raw in enumerate(data["hands"]):
        builder.add(raw, i)
    record = Record(profile, options, tuple(players), first, canonical, tuple(data["hands"]))
    return builder.result(record)


def entry_problems(data: object, index: int) -> list[RecordError]:
    """Every problem of the hand at ``index`` (entered as counts or captures), at once.

    The hands before it are replayed first (their first defect is the only problem). In the
    hand itself, each element is checked on its own -- its shape, its sum -- then each seat's
    trick room on the elements that read, and each listed card (not scoring, listed twice,
    not assigned); a defect before the entry (contract, trump, leader, auction) stops there.
    An empty list: the hand is fine (hands after it are not looked at).
    """
    try:
        profile, options, players, first, _canonical = read_header(data)
        assert isinstance(data, dict)
        hands = data["hands"]
        count_replay()
        builder = GameBuilder(profile, options, players, first)
        for i, raw in enumerate(hands[:index]):
            builder.add(raw, i)
    except RecordError as e:
        return [e]
    if index >= len(hands):
        return []
    return hand_problems(builder, hands[index], index)


def hand_problems(builder: GameBuilder, raw: object, index: int) -> list[RecordError]:
    """Every problem of the hand ``raw`` added at ``index`` to ``builder`` (positioned after
    the hands before it), as :func:`entry_problems` reports them; the builder is used up."""
    problems: list[RecordError] = []
    builder.problems = problems
    try:
        builder.add(raw, index)
    except RecordError as e:
        problems.append(e)
    return problems


def parse_record(data: object) -> Record:
    return load(data).record


def normalize_record(data: object) -> dict[str, Any]:
    return load(data).canonical_record()


def replay(record: Record) -> GameResult:
    return load(record.raw_data())


def builder_for(record: Record) -> GameBuilder:
    """A builder positioned after the record's hands (for what may come next)."""
    count_replay()
    builder = GameBuilder(record.profile, record.options, list(record.players),
                          record.first_seat)
    for i, raw in enumerate(record.raw_hands):
        builder.add(raw, i)
    return builder
