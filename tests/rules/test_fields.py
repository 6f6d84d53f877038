"""Field paths as values: read once, printed as read, asked which hand and which key."""
from __future__ import annotations

import pytest

from app.rules import RecordError, load
from app.rules.fields import FieldPath


@pytest.mark.parametrize("text, parts, hand, element", [
    ("hands[3].counts.hearts[2]", ("hands", 3, "counts", "hearts", 2), 3, "hearts"),
    ("hands[0].captures.cards[1][0]", ("hands", 0, "captures", "cards", 1, 0), 0, "cards"),
    ("hands[1].tricks[3][1]", ("hands", 1, "tricks", 3, 1), 1, "tricks"),
    ("hands[2].ruling.points", ("hands", 2, "ruling", "points"), 2, "ruling"),
    ("hands[2]", ("hands", 2), 2, None),
    ("hands[0].counts", ("hands", 0, "counts"), 0, "counts"),
    ("players[0]", ("players", 0), None, "players"),
    ("", (), None, None),
])
def test_a_path_prints_as_it_parses(text: str, parts: tuple[object, ...], hand: int | None,
                                    element: str | None) -> None:
    path = FieldPath.parse(text)
    assert path.parts == parts
    assert str(path) == text
    assert path.hand == hand
    assert path.within().element == element


def test_within_keeps_another_hands_path() -> None:
    path = FieldPath.parse("hands[4].counts.tricks")
    assert path.within(4).parts == ("counts", "tricks")
    assert path.within(2) == path
    assert FieldPath.parse("ruling.points[1]").after("ruling") == "points"
    assert FieldPath.parse("ruling").after("ruling") is None


def test_an_engine_error_names_its_path() -> None:
    record = {"format": "kingsheet/1", "profile": "ru32", "players": ["A", "B", "C", "D"],
              "first_dealer": 0, "hands": [{"counts": {"tricks": [1, 2, 3, 9]}}]}
    with pytest.raises(RecordError) as info:
        load(record)
    path = info.value.path
    assert path.hand == 0 and path.within(0).element == "tricks"
    assert str(path) == info.value.field
