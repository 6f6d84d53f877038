"""The rules engine: the four King profiles, scoring, the referee, the auction, the record.

Standard library only: no Flask, no SQLAlchemy, no I/O. See docs/engine-api.md.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from app.rules.errors import InputError, RecordError, RuleError, SumError
from app.rules.game import (GameResult, HandResult, NextHand, Record, Ruling, load,
                            normalize_record, parse_record, replay)
from app.rules.profiles import PROFILES, Contract, Options, Profile, get_profile
from app.rules.report import build_report


def fingerprint(record: dict[str, Any]) -> str:
    """A short fingerprint of a (canonical) record, to match paper to data: the first 10
    hex digits of the SHA-256 of its JSON with sorted keys and no spaces."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def score_record(data: object) -> dict[str, Any]:
    """The score report (RECORD.md) of a record; RecordError for any defect."""
    return build_report(load(data, link=False))


__all__ = ["PROFILES", "Contract", "GameResult", "HandResult", "InputError", "NextHand",
           "Options", "Profile", "Record", "RecordError", "RuleError", "Ruling", "SumError",
           "build_report", "fingerprint", "get_profile", "load", "normalize_record", "parse_record", "replay",
           "score_record"]
