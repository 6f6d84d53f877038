"""A hand's ruling (RULES.md §3, RECORD.md "ruling"): as played, replay, charged, adjusted."""
from __future__ import annotations

import datetime
from typing import Any

from app.rules.errors import InputError, RuleError, SumError
from app.rules.limits import REASON_MAX, check_name, clean_text, has_visible_text
from app.rules.profiles import Contract
from app.rules.record import (
    RULING_KEYS,
    RULING_KINDS,
    check_keys,
    need_dict,
    need_list,
    need_seat,
    need_str,
    type_name,
)
from app.rules.results import Ruling


def read_ruling(value: object, contract: Contract, fld: str) -> Ruling:
    """A hand's ruling (RULES.md §3): its kind, then each key the kind takes."""
    data = need_dict(value, fld)
    check_keys(data, RULING_KEYS, fld + ".")
    if "kind" not in data:
        raise InputError.of(f"{fld}.kind", "missing-key", "missing: one of %(allowed)s",
                            allowed=", ".join(RULING_KINDS))
    kind = data["kind"]
    if kind not in RULING_KINDS:
        raise InputError.of(f"{fld}.kind", "ruling", "%(value)r is not a ruling (one of "
                            "%(allowed)s)", value=kind, allowed=", ".join(RULING_KINDS))
    seat = _ruling_seat(data, kind, contract, fld)
    points = _ruling_points(data, kind, contract, fld)
    reason: str | None = None
    if "reason" in data:
        reason = clean_text(need_str(data["reason"], f"{fld}.reason",
                                     nonempty=kind == "adjusted"),
                            f"{fld}.reason", REASON_MAX)
        if reason and not has_visible_text(reason):
            raise InputError.of(f"{fld}.reason", "no-visible-text",
                                "has no visible text: a reason says what happened")
    elif kind == "adjusted":
        raise InputError.of(f"{fld}.reason", "missing-key",
                            "missing: an adjusted ruling needs a reason")
    by: str | None = None
    if "by" in data:
        by = check_name(need_str(data["by"], f"{fld}.by"), f"{fld}.by")
    at: str | None = None
    if "at" in data:
        at = need_str(data["at"], f"{fld}.at")
        try:
            datetime.datetime.fromisoformat(at)
        except ValueError:
            raise InputError.of(f"{fld}.at", "type", "%(value)r is not an ISO-8601 date and time",
                                value=at) from None
    return Ruling(kind, seat, points, reason, by, at)


def _ruling_seat(data: dict[str, Any], kind: str, contract: Contract, fld: str) -> int | None:
    """The offending seat a charge-offender ruling names (for negative hands only)."""
    seat: int | None = None
    if "seat" in data:
        if kind != "charge-offender":
            raise InputError.of(f"{fld}.seat", "unexpected-key",
                                "a seat goes only with charge-offender")
        seat = need_seat(data["seat"], f"{fld}.seat")
    elif kind == "charge-offender":
        raise InputError.of(f"{fld}.seat", "missing-key", "missing: the offending seat")
    if kind == "charge-offender" and not contract.negative:
        raise RuleError.of(f"{fld}.kind", "charge-offender",
                           "charge-offender is for negative hands only")
    return seat


def _ruling_points(data: dict[str, Any], kind: str, contract: Contract, fld: str
                   ) -> tuple[int, ...] | None:
    """The four points of an adjusted ruling, adding up to the hand's total."""
    if "points" not in data:
        if kind == "adjusted":
            raise InputError.of(f"{fld}.points", "missing-key", "missing: the four adjusted points")
        return None
    if kind != "adjusted":
        raise InputError.of(f"{fld}.points", "unexpected-key",
                            "points go only with an adjusted ruling")
    items = need_list(data["points"], f"{fld}.points", "points")
    if len(items) != 4:
        raise InputError.of(f"{fld}.points", "length",
                            "has one number per seat: 4, not %(n)s", n=len(items))
    for k, x in enumerate(items):
        if type(x) is not int:
            raise InputError.of(f"{fld}.points[{k}]", "type",
                                "must be a whole number, not %(got)s", got=type_name(x))
    if sum(items) != contract.total:
        raise SumError.of(f"{fld}.points", "sum",
                          "the points add up to %(sum)s; this hand's total is %(total)s",
                          sum=sum(items), total=contract.total)
    return tuple(items)
