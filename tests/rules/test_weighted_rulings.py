"""Weighted adjusted rulings (RULES.md §3, RECORD.md ``ruling.weights``): reading, the
rounding of the weighted points, and the record's round trip."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import PROFILES, RecordError, load, normalize_record, score_record
from app.rules.game.rulings import weighted_points
from tests.rules.helpers import filler, rec

# ru32 hand 1 (no-tricks, total -16) entered as counts
_BASE = filler("ru32", 1)
_GOOD = {"kind": "adjusted", "reason": "revoke at trick 3", "points": [-7, -3, -3, -3],
         "weights": [{"share": 70, "points": [-4, -4, -4, -4], "label": "with QS"},
                     {"share": 30, "points": [-16, 0, 0, 0]}]}


def _record(ruling: dict) -> dict:
    return rec("ru32", [{**_BASE, "ruling": ruling}])


def _with(path: list, value: object, delete: bool = False) -> dict:
    ruling = copy.deepcopy(_GOOD)
    where: object = ruling
    for key in path[:-1]:
        where = where[key]  # type: ignore[index]
    if delete:
        del where[path[-1]]  # type: ignore[union-attr]
    else:
        where[path[-1]] = value  # type: ignore[index]
    return ruling


def test_a_weighted_ruling_scores_its_points_and_keeps_its_weights():
    result = load(_record(_GOOD))
    hand = result.hands[0]
    assert hand.points == (-7, -3, -3, -3)
    assert hand.ruling.weights is not None
    assert [(o.share, o.points, o.label) for o in hand.ruling.weights] == [
        (70, (-4, -4, -4, -4), "with QS"), (30, (-16, 0, 0, 0), None)]
    report = score_record(_record(_GOOD))
    assert report["hands"][0]["ruling"] == "adjusted"     # RECORD.md's report: the kind only
    assert report["totals"] == [-7, -3, -3, -3]


def test_weights_round_trip_in_the_record():
    record = _record(_with(["weights", 0, "label"], "con la Q\u0301"))   # not NFC as typed
    out = normalize_record(record)
    assert out["hands"][0]["ruling"]["weights"][1] == _GOOD["weights"][1]
    assert out["hands"][0]["ruling"]["weights"][0]["label"] == "con la Q\u0301"
    assert normalize_record(out) == out


@pytest.mark.parametrize(("ruling", "field", "code"), [
    ({"kind": "as-played", "weights": _GOOD["weights"]}, "hands[0].ruling.weights", "unexpected-key"),
    (_with(["weights"], {"share": 100}), "hands[0].ruling.weights", "type"),
    (_with(["weights"], [_GOOD["weights"][0]]), "hands[0].ruling.weights", "length"),
    (_with(["weights"], []), "hands[0].ruling.weights", "length"),
    (_with(["weights", 1], [30, [-16, 0, 0, 0]]), "hands[0].ruling.weights[1]", "type"),
    (_with(["weights", 1, "note"], "x"), "hands[0].ruling.weights[1].note", "unknown-key"),
    (_with(["weights", 1, "share"], None, delete=True), "hands[0].ruling.weights[1].share", "missing-key"),
    (_with(["weights", 0, "points"], None, delete=True), "hands[0].ruling.weights[0].points", "missing-key"),
    (_with(["weights", 1, "share"], "30"), "hands[0].ruling.weights[1].share", "type"),
    (_with(["weights", 1, "share"], 30.0), "hands[0].ruling.weights[1].share", "type"),
    (_with(["weights", 1, "share"], True), "hands[0].ruling.weights[1].share", "type"),
    (_with(["weights", 1, "share"], 0), "hands[0].ruling.weights[1].share", "range"),
    (_with(["weights", 0, "share"], 100), "hands[0].ruling.weights[0].share", "range"),
    (_with(["weights", 1, "share"], 20), "hands[0].ruling.weights", "sum"),
    (_with(["weights", 1, "points"], [-16, 0, 0]), "hands[0].ruling.weights[1].points", "length"),
    (_with(["weights", 1, "points"], "-16 0 0 0"), "hands[0].ruling.weights[1].points", "type"),
    (_with(["weights", 1, "points", 2], 0.5), "hands[0].ruling.weights[1].points[2]", "type"),
    (_with(["weights", 1, "points"], [-16, 0, 0, 1]), "hands[0].ruling.weights[1].points", "sum"),
    (_with(["weights", 0, "label"], 7), "hands[0].ruling.weights[0].label", "type"),
    (_with(["weights", 0, "label"], "a\x07b"), "hands[0].ruling.weights[0].label", "control-character"),
    (_with(["points"], [-8, -3, -3, -2]), "hands[0].ruling.points", "weighted"),
    (_with(["points"], [-8, -3, -3, -3]), "hands[0].ruling.points", "sum"),
    (_with(["points"], None, delete=True), "hands[0].ruling.points", "missing-key"),
])
def test_weights_errors_name_their_field(ruling, field, code):
    with pytest.raises(RecordError) as info:
        load(_record(ruling))
    assert (info.value.field, info.value.code) == (field, code)


def test_the_weighted_points_message():
    with pytest.raises(RecordError) as info:
        load(_record(_with(["points"], [-8, -3, -3, -2])))
    assert str(info.value) == "hands[0].ruling.points: not the weighted points of the outcomes"


# Done by hand: x_s, r_s (halves away from zero), d, the fix-up.
@pytest.mark.parametrize(("outcomes", "total", "points"), [
    # x = -7.6 -2.8 -2.8 -2.8; r = -8 -3 -3 -3 (-17): d = -1, seat 0 has the largest x - r (.4)
    ([(70, [-4, -4, -4, -4]), (30, [-16, 0, 0, 0])], -16, [-7, -3, -3, -3]),
    # x = -1.5 -1.5 -6.5 -6.5; r = -2 -2 -7 -7 (-18): d = -2, all differences .5: seats 0, 1
    ([(50, [-1, -1, -7, -7]), (50, [-2, -2, -6, -6])], -16, [-1, -1, -7, -7]),
    # the same positive: r = 2 2 7 7 (18): d = 2, all r - x .5: seats 0 and 1 lose one
    ([(50, [1, 1, 7, 7]), (50, [2, 2, 6, 6])], 16, [1, 1, 7, 7]),
    # x = -1.4 -1.4 -1.4 -11.8; r = -1 -1 -1 -12 (-15): d = 1, r - x = .4 .4 .4 -.2: seat 0
    ([(40, [-2, -2, -2, -10]), (60, [-1, -1, -1, -13])], -16, [-2, -1, -1, -12]),
    # x = 107.25 107.25 110.5 0; r = 107 107 111 0 (325): d = 0
    ([(33, [325, 0, 0, 0]), (33, [0, 325, 0, 0]), (34, [0, 0, 325, 0])], 325, [107, 107, 111, 0]),
    # x = -0.5 -15.5 0 0: r = -1 -16 0 0 (-17): d = -1, x - r .5 .5: the lower seat, 0
    ([(50, [-1, -15, 0, 0]), (50, [0, -16, 0, 0])], -16, [0, -16, 0, 0]),
    # x = 0.5 15.5 0 0 -> 1 16 0 0 (17): d = 1, r - x .5 .5: seat 0 loses
    ([(50, [1, 15, 0, 0]), (50, [0, 16, 0, 0])], 16, [0, 16, 0, 0]),
    # exact: no rounding at all
    ([(25, [-160, 0, 0, 0]), (75, [0, 0, -160, 0])], -160, [-40, 0, -120, 0]),
    # x = 162.5 0 162.5 0 -> 163 0 163 0 (326): d = 1, seats 0 and 2 tie: seat 0 loses
    ([(50, [325, 0, 0, 0]), (50, [0, 0, 325, 0])], 325, [162, 0, 163, 0]),
])
def test_weighted_points_by_hand(outcomes, total, points):
    assert weighted_points(outcomes, total) == points


_TOTALS = sorted({c.total for p in PROFILES.values() for c in p.contracts.values()})


@st.composite
def _outcomes(draw):
    total = draw(st.sampled_from(_TOTALS))
    n = draw(st.integers(2, 5))
    cuts = sorted(draw(st.lists(st.integers(1, 99), min_size=n - 1, max_size=n - 1, unique=True)))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, 100])]
    outcomes = []
    for share in shares:
        three = draw(st.lists(st.integers(-abs(total) - 200, abs(total) + 200), min_size=3, max_size=3))
        outcomes.append((share, [*three, total - sum(three)]))
    return outcomes, total


@settings(max_examples=300, deadline=None)
@given(_outcomes())
def test_weighted_points_keep_the_total_and_stay_within_one(case):
    outcomes, total = case
    points = weighted_points(outcomes, total)
    assert sum(points) == total
    for s in range(4):
        x = sum(share * pts[s] for share, pts in outcomes) / 100
        assert abs(points[s] - x) < 1
