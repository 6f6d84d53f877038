"""How much replaying the engine does, for tests that count it (issue 20 item 3).

``COUNTS.replays`` grows by one for each full replay of a record's hands
(:func:`app.rules.load`, :func:`~app.rules.entry_problems`, :func:`~app.rules.game.replay.builder_for`);
``COUNTS.hands`` by one for each hand checked on a cached state without replaying the
hands before it (:func:`app.rules.game.choices.preview`, :func:`~app.rules.game.choices.append`, ...).
:func:`counting` gives the counts of a block of code::

    with counting() as counts:
        save_hand(...)
    assert counts.replays == 1
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(slots=True)
class Counts:
    replays: int = 0       # full replays of a record
    hands: int = 0         # single hands checked on a cached state


#: Since the process started (never reset).
COUNTS = Counts()
_OPEN: list[Counts] = []


def count_replay() -> None:
    COUNTS.replays += 1
    for counts in _OPEN:
        counts.replays += 1


def count_hand() -> None:
    COUNTS.hands += 1
    for counts in _OPEN:
        counts.hands += 1


@contextmanager
def counting() -> Iterator[Counts]:
    """The replays and single hands of the block (nested blocks each count)."""
    counts = Counts()
    _OPEN.append(counts)
    try:
        yield counts
    finally:
        _OPEN.remove(counts)
