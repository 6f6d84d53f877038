"""entry_problems: every problem of one hand's entry at once (STYLE.md), and the
translatable form of every engine error (template + params)."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from app.rules import RecordError, SumError, Term, entry_problems, load, score_record
from app.rules.errors import InputError
from tests.rules.test_bad_input import BASES, DEFECTS

PLAYERS = ["Ana", "Bea", "Carlos", "Dani"]
NEGATIVES = [
    {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}},
    {"contract": "no-hearts", "counts": {"hearts": [1, 5, 3, 4]}},
    {"contract": "no-queens", "counts": {"queens": [1, 1, 1, 1]}},
]


def fiestas(*hands: dict[str, Any]) -> dict[str, Any]:
    return {"format": "kingsheet/1", "profile": "fiestas", "players": list(PLAYERS),
            "first_dealer": 0, "hands": copy.deepcopy(NEGATIVES) + list(hands)}


def ru32(*hands: dict[str, Any]) -> dict[str, Any]:
    first_six = [{"counts": {"tricks": [1, 2, 3, 2]}}, {"counts": {"kings": [1, 1, 1, 1]}},
                 {"counts": {"queens": [1, 1, 1, 1]}}, {"counts": {"hearts": [2, 2, 2, 2]}},
                 {"counts": {"kh": 0}}, {"counts": {"last_two": [0, 1]}}]
    return {"format": "kingsheet/1", "profile": "ru32", "players": list(PLAYERS),
            "first_dealer": 0, "hands": first_six + list(hands)}


def where(problems: list[RecordError]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in problems]


def test_every_element_sum_is_reported_at_once():
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 2], "jacks": [0, 0, 1, 1]}})
    problems = entry_problems(record, 3)
    assert where(problems) == [("hands[3].counts.kings", "sum"), ("hands[3].counts.jacks", "sum")]
    assert all(isinstance(p, SumError) for p in problems)
    assert problems[0].message == "kings add up to 5; there are 4"
    assert problems[1].message == "jacks add up to 2; there are 4"


def test_the_first_problem_is_the_one_the_record_raises():
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 2], "jacks": [0, 0, 1, 1]}})
    with pytest.raises(RecordError) as info:
        load(record)
    first = entry_problems(record, 3)[0]
    assert (first.field, first.code, first.message) == (info.value.field, info.value.code,
                                                        info.value.message)


def test_shape_and_sum_problems_of_different_elements_together():
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1], "jacks": [0, 0, 1, None]}})
    assert where(entry_problems(record, 3)) == [("hands[3].counts.kings", "length"),
                                                ("hands[3].counts.jacks[3]", "type")]


def test_every_seat_short_of_trick_room_is_reported():
    # ru32 hand 7 (eralash): seats 0 and 2 took cards in too few tricks, and hearts do not add up
    record = ru32({"counts": {"tricks": [0, 4, 0, 4], "hearts": [2, 2, 2, 3], "kings": [1, 1, 1, 1],
                              "queens": [1, 1, 1, 1], "kh": 1, "last_two": [1, 3]}})
    problems = entry_problems(record, 6)
    assert where(problems) == [("hands[6].counts.hearts", "sum"),
                               ("hands[6].counts.tricks[0]", "trick-room"),
                               ("hands[6].counts.tricks[2]", "trick-room")]


def test_trick_room_and_last_two_of_one_seat_both_show():
    record = ru32({"counts": {"tricks": [0, 3, 3, 2], "hearts": [1, 3, 2, 2], "kings": [1, 1, 1, 1],
                              "queens": [1, 1, 1, 1], "kh": 1, "last_two": [0, 2]}})
    problems = entry_problems(record, 6)
    assert where(problems) == [("hands[6].counts.tricks[0]", "trick-room"),
                               ("hands[6].counts.tricks[0]", "trick-room")]
    assert "took at least 2 scoring cards in 0 tricks" in problems[0].message
    assert "took 1 of the last two tricks but 0 tricks in all" in problems[1].message


def test_captures_name_every_card_problem():
    # no-queens by captures: 2C does not score, QH is listed twice, QC is not assigned
    record = fiestas()
    record["hands"][2] = {"contract": "no-queens",
                          "captures": {"cards": [["QS", "2C"], ["QH"], ["QH"], ["QD"]]}}
    problems = entry_problems(record, 2)
    assert where(problems) == [("hands[2].captures.cards[0][1]", "not-scoring"),
                               ("hands[2].captures.cards[2][0]", "card-twice"),
                               ("hands[2].captures.cards", "sum")]
    assert problems[-1].message == "every scoring card is taken by someone: QC is not assigned"


def test_captures_with_tricks_reports_cards_and_tricks():
    record = ru32()
    record["hands"] = record["hands"][:3]    # hand 4 is no-hearts (ru32: 8 hearts)
    record["hands"].append({"captures": {"cards": [["AH", "KH"], [], ["QH"], ["JH"]]}})
    problems = entry_problems(record, 3)
    assert where(problems) == [("hands[3].captures.cards", "sum")]
    assert "are not assigned" in problems[0].message


def test_a_fine_hand_has_no_problems():
    assert entry_problems(fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 1],
                                                                    "jacks": [0, 2, 1, 1]}}), 3) == []
    assert entry_problems(fiestas(), 3) == []          # nothing at that index


def test_a_defect_before_the_entry_is_the_only_problem():
    record = fiestas({"contract": "no-kh", "counts": {"kings": [9, 9, 9, 9]}})
    assert where(entry_problems(record, 3)) == [("hands[3].contract", "schedule")]
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 1], "jacks": [0, 2, 1, 1]}})
    record["hands"][1]["counts"]["hearts"] = [1, 1, 1, 1]
    assert where(entry_problems(record, 3)) == [("hands[1].counts.hearts", "sum")]


def test_a_ruling_problem_shows_with_the_entry_problems():
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 2], "jacks": [0, 2, 1, 1]},
                      "ruling": {"kind": "adjusted", "points": [0, 0, 0, 0], "reason": "x"}})
    assert where(entry_problems(record, 3)) == [("hands[3].counts.kings", "sum"),
                                                ("hands[3].ruling.points", "sum")]


# --- translatable errors ------------------------------------------------------------------

@pytest.mark.parametrize("case_id,base,mutate,pattern", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_every_error_is_its_template_filled(case_id, base, mutate, pattern):
    record = BASES[base]()
    mutate(record)
    with pytest.raises(RecordError) as info:
        score_record(record)
    e = info.value
    assert e.template != e.message or not e.params
    assert e.message == e.template % e.params
    assert str(e) == f"{e.field}: {e.message}"


def test_words_are_terms_with_ids():
    record = fiestas({"contract": "no-men", "counts": {"kings": [1, 1, 1, 2], "jacks": [0, 2, 1, 1]}})
    e = entry_problems(record, 3)[0]
    assert e.template == "%(element)s add up to %(total)s; there are %(full)s"
    word = e.params["element"]
    assert isinstance(word, Term) and (word.kind, word.id, str(word)) == ("element", "kings", "kings")


def test_moving_an_error_keeps_its_template():
    e = InputError.of("x", "card", '"%(text)s" is not a card', text="1X")
    moved = e.at("hands[2]")
    assert type(moved) is InputError and moved.field == "hands[2].x"
    assert (moved.template, moved.params, moved.code) == (e.template, e.params, "card")
    plain = RecordError("f", "100% plain")
    assert plain.template % plain.params == "100% plain"
