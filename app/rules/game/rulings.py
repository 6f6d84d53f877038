"""A hand's ruling (RULES.md §3, RECORD.md "ruling"): as played, replay, charged, adjusted."""
from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from app.rules.errors import InputError, RuleError, SumError
from app.rules.game.record import (
    OUTCOME_KEYS,
    RULING_KEYS,
    RULING_KINDS,
    check_keys,
    need_dict,
    need_int,
    need_list,
    need_seat,
    need_str,
    type_name,
)
from app.rules.game.results import Outcome, Ruling
from app.rules.limits import REASON_MAX, check_name, clean_text, has_visible_text
from app.rules.profiles import Contract


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
    weights = _ruling_weights(data, kind, contract, points, fld)
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
    return Ruling(kind, seat, points, reason, by, at, weights)


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
    return _four_points(data["points"], contract, f"{fld}.points")


def _four_points(value: object, contract: Contract, fld: str) -> tuple[int, ...]:
    """Four whole numbers, one per seat, adding up to the hand's total."""
    items = need_list(value, fld, "points")
    if len(items) != 4:
        raise InputError.of(fld, "length",
                            "has one number per seat: 4, not %(n)s", n=len(items))
    for k, x in enumerate(items):
        if type(x) is not int:
            raise InputError.of(f"{fld}[{k}]", "type",
                                "must be a whole number, not %(got)s", got=type_name(x))
    if sum(items) != contract.total:
        raise SumError.of(fld, "sum",
                          "the points add up to %(sum)s; this hand's total is %(total)s",
                          sum=sum(items), total=contract.total)
    return tuple(items)


def _ruling_weights(data: dict[str, Any], kind: str, contract: Contract,
                    points: tuple[int, ...] | None, fld: str) -> tuple[Outcome, ...] | None:
    """The outcomes of a weighted adjusted ruling (RECORD.md ``ruling.weights``): two or
    more, each share 1-99, the shares adding up to 100, each outcome's points adding up to
    the hand's total; the ruling's points must be their weighted points."""
    if "weights" not in data:
        return None
    if kind != "adjusted":
        raise InputError.of(f"{fld}.weights", "unexpected-key",
                            "weights go only with an adjusted ruling")
    items = need_list(data["weights"], f"{fld}.weights")
    if len(items) < 2:
        raise InputError.of(f"{fld}.weights", "length",
                            "has two or more outcomes, not %(n)s", n=len(items))
    outcomes = tuple(_outcome(item, contract, f"{fld}.weights[{k}]")
                     for k, item in enumerate(items))
    shares = sum(o.share for o in outcomes)
    if shares != 100:
        raise SumError.of(f"{fld}.weights", "sum",
                          "the shares add up to %(sum)s, not 100", sum=shares)
    assert points is not None       # an adjusted ruling has its points (read before)
    if list(points) != weighted_points([(o.share, o.points) for o in outcomes], contract.total):
        raise SumError.of(f"{fld}.points", "weighted",
                          "not the weighted points of the outcomes")
    return outcomes


def _outcome(value: object, contract: Contract, fld: str) -> Outcome:
    """One outcome: ``share`` (1-99), ``points`` (four, adding up to the total), ``label``."""
    data = need_dict(value, fld)
    check_keys(data, OUTCOME_KEYS, fld + ".")
    for key in ("share", "points"):
        if key not in data:
            raise InputError.of(f"{fld}.{key}", "missing-key",
                                "missing: an outcome has a share and four points")
    share = need_int(data["share"], f"{fld}.share", 1, 99)
    points = _four_points(data["points"], contract, f"{fld}.points")
    label: str | None = None
    if "label" in data:
        label = clean_text(need_str(data["label"], f"{fld}.label"), f"{fld}.label", REASON_MAX)
    return Outcome(share, points, label)


def weighted_points(outcomes: Sequence[tuple[int, Sequence[int]]], total: int) -> list[int]:
    """The points of a weighted ruling (RULES.md §3) from its outcomes ``(share, points)``.

    Seat s gets x_s = sum(share * points[s]) / 100 rounded to the nearest integer, halves
    away from zero (r_s). If the r_s add up to ``total`` + d with d > 0, the d seats with the
    largest r_s - x_s lose a point each; with d < 0, the |d| seats with the largest
    x_s - r_s gain one (equal differences: the lower seat first). Exact integer arithmetic:
    x_s is kept as hundredths.
    """
    hundredths = [sum(share * pts[s] for share, pts in outcomes) for s in range(4)]
    rounded = [_round_half_away(h) for h in hundredths]
    d = sum(rounded) - total
    if d:
        sign = 1 if d > 0 else -1
        # the seats by how far rounding moved them in the direction to undo (in hundredths),
        # the largest first, the lower seat first among equals
        order = sorted(range(4), key=lambda s: (-sign * (100 * rounded[s] - hundredths[s]), s))
        for s in order[:abs(d)]:
            rounded[s] -= sign
    return rounded


def _round_half_away(hundredths: int) -> int:
    """``hundredths / 100`` rounded to the nearest integer, halves away from zero."""
    whole, rest = divmod(abs(hundredths), 100)
    whole += rest >= 50
    return whole if hundredths >= 0 else -whole
