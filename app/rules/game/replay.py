"""The public entry points of replaying a record (kept here for ``from app.rules.game.replay``).

The work is done in :mod:`app.rules.game.builder` (the hands, one by one), with the result types
of :mod:`app.rules.game.results`; what may come next is :mod:`app.rules.game.choices`.
"""
from __future__ import annotations

from app.rules.errors import RecordError
from app.rules.game.builder import (
           GameBuilder,
           builder_for,
           entry_problems,
           load,
           normalize_record,
           parse_record,
           replay,
)
from app.rules.game.results import AS_PLAYED, GameResult, HandResult, NextHand, Record, Ruling, canonical_hand

__all__ = ["AS_PLAYED", "GameBuilder", "GameResult", "HandResult", "NextHand", "Record",
           "RecordError", "Ruling", "builder_for", "canonical_hand", "entry_problems", "load",
           "normalize_record", "parse_record", "replay"]
