"""The rules engine: the four King profiles, scoring, the referee, the auction, the record.

Standard library only: no Flask, no SQLAlchemy, no I/O. See docs/engine-api.md.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from app.rules.errors import InputError, RecordError, RuleError, SumError, Term
from app.rules.game.replay import (
    GameResult,
    HandResult,
    NextHand,
    Record,
    Ruling,
    entry_problems,
    load,
    normalize_record,
    parse_record,
    replay,
)
from app.rules.game.report import build_report
from app.rules.profiles import PROFILES, Contract, Options, Profile, get_profile


def digest(record: dict[str, Any]) -> str:
    """The SHA-256 (hex) of a record's JSON with sorted keys and no spaces."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a record stored before text was checked still has a digest
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def fingerprint(record: dict[str, Any]) -> str:
    """A short fingerprint of a (canonical) record, to match paper to data: the first 10
    hex digits of its :func:`digest`."""
    return digest(record)[:10]


def score_record(data: object) -> dict[str, Any]:
    """The score report (RECORD.md) of a record; RecordError for any defect."""
    return build_report(load(data))


__all__ = ["PROFILES", "Contract", "GameResult", "HandResult", "InputError", "NextHand",
           "Options", "Profile", "Record", "RecordError", "RuleError", "Ruling", "SumError", "Term",
           "build_report", "digest", "entry_problems", "fingerprint", "get_profile", "load",
           "normalize_record", "parse_record", "replay", "score_record"]
