"""Worked records of single rules (tests/data/cases/*.json), replayed and compared with
what the file expects: a hand's scores and violations, a refused record, or every problem of
an entry. The expectations were worked out with the test-side reference model
(tests/rules/helpers.py), never with the engine.

A case file holds ``record`` and one of: ``expected`` (a hand, or a list of hands, by
``hand`` index: the report's keys to compare, ``violations`` without their sentence),
``error`` (``field`` and ``code`` of the first defect) or ``problems`` (every problem of the
last hand, as ``entry_problems`` gives them for the entry page's live check).
"""
from __future__ import annotations

import json

import pytest

from app.rules import RecordError, entry_problems, load, score_record

from .helpers import REPO, run_cli

CASES = REPO / "tests" / "data" / "cases"
FILES = sorted(CASES.glob("*.json"))


def _case(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _ids(kind):
    return [p for p in FILES if kind in _case(p)]


def test_there_are_worked_cases_of_each_kind():
    assert len(_ids("expected")) >= 6 and _ids("error") and len(_ids("problems")) >= 4


@pytest.mark.parametrize("path", _ids("expected"), ids=lambda p: p.stem)
def test_worked_hand_scores_and_violations(path):
    case = _case(path)
    report = score_record(case["record"])
    assert report["zero_sum_ok"]
    wanted = case["expected"]
    for want in wanted if isinstance(wanted, list) else [wanted]:
        got = report["hands"][want["hand"]]
        for key, value in want.items():
            if key == "hand":
                continue
            if key == "violations":
                value = [dict(v) for v in value]
                got_v = [{k: v[k] for k in ("trick", "seat", "card", "rule", "evidence")}
                         for v in got["violations"]]
                assert got_v == value, f"hand {want['hand']}: violations"
                assert all(v["message"] for v in got["violations"])
            else:
                assert got[key] == value, f"hand {want['hand']}: {key}"
        assert sum(got["points"]) == got["total"] == got["expected_total"]


@pytest.mark.parametrize("path", _ids("error"), ids=lambda p: p.stem)
def test_worked_record_is_refused(path):
    case = _case(path)
    with pytest.raises(RecordError) as caught:
        load(case["record"])
    assert (caught.value.field, caught.value.code) == (case["error"]["field"],
                                                       case["error"]["code"])


@pytest.mark.parametrize("path", _ids("problems"), ids=lambda p: p.stem)
def test_impossible_counts_are_refused_naming_the_seat_and_both_elements(path, tmp_path):
    case = _case(path)
    record = case["record"]
    index = len(record["hands"]) - 1
    problems = entry_problems(record, index)
    assert [(p.field, p.code) for p in problems] == [(x["field"], x["code"])
                                                     for x in case["problems"]]
    for p in problems:
        seat = int(p.field.rsplit("[", 1)[1].rstrip("]"))
        element = p.field.rsplit(".", 1)[1].split("[")[0]
        assert f"seat {seat} ({record['players'][seat]})" in p.message
        assert element in p.message
        assert "K♥" in p.message or "Q♥" in p.message
    # saving reports the first problem; so does the command line
    with pytest.raises(RecordError) as caught:
        load(record)
    assert caught.value.field == problems[0].field
    path_json = tmp_path / "r.json"
    path_json.write_text(json.dumps(record, ensure_ascii=False))
    proc = run_cli(str(path_json))
    assert proc.returncode == 1
    assert f"{problems[0].field}: {problems[0].message}" in proc.stderr


def test_the_same_counts_with_a_consistent_kh_are_accepted():
    case = _case(CASES / "ru32_eralash_kh_without_hearts.json")
    record = case["record"]
    record["hands"][-1]["counts"]["hearts"] = [1, 3, 2, 2]
    assert entry_problems(record, len(record["hands"]) - 1) == []
    # seat 0: 2 tricks, 1 heart (the K♥), 1 king (the K♥), 1 queen, the K♥, no last trick
    assert score_record(record)["hands"][-1]["points"][0] == -2 * 2 - 2 * 1 - 4 - 4 - 16
