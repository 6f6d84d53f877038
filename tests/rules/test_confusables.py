"""UTS #39 skeletons: names that look alike share one."""
from __future__ import annotations

import pytest

from app.rules.club.confusables import look_alikes, skeleton
from app.rules.limits import check_name, has_visible_text, invisible_character
from app.rules.errors import InputError


@pytest.mark.parametrize(("a", "b"), [("Ana", "\u0410na"), ("Dani", "Dan\u0456"),
                                      ("paypal", "p\u0430yp\u0430l"), ("José", "Jose\u0301"),
                                      ("Ana", "\u0391na")])                 # Greek Alpha
def test_look_alikes_share_a_skeleton(a, b):
    assert a != b and skeleton(a) == skeleton(b)


@pytest.mark.parametrize(("a", "b"), [("Ana", "Ann"), ("Ana", "ana"), ("Beto", "Betty")])
def test_different_names_have_different_skeletons(a, b):
    assert skeleton(a) != skeleton(b)


def test_look_alikes_leave_out_the_name_itself():
    assert look_alikes("\u0410na", ["Ana", "Beto", "\u0410na"]) == ["Ana"]
    assert look_alikes("Ana", ["Beto", "Ana"]) == []


@pytest.mark.parametrize("char", ["\u200b", "\u200e", "\u202e", "\u2066", "\u2069", "\u061c",
                                  "\u00ad", "\ufeff", "\u2028", "\u2029", "\x07", "\u3164"])
def test_check_name_refuses_invisible_and_bidi_characters(char):
    assert invisible_character(f"a{char}b") == f"U+{ord(char):04X}"
    with pytest.raises(InputError) as caught:
        check_name(f"a{char}b", "players[0]")
    assert caught.value.field == "players[0]"


def test_visible_text():
    assert has_visible_text("x") and has_visible_text(" é ") and has_visible_text("\u0301a")
    assert not any(has_visible_text(t) for t in ("", " ", "\u200b", "\u200b\u2060\u00a0", "\u3164"))
    assert check_name("Ana María", "players[0]") == "Ana María"
