"""The live table in Chromium at 375 px, two phones (two browser contexts) on one game:
B's sheet shows the hand A saves without a reload, keeping B's scroll position; B's open
entry for the same hand learns of A's save before pressing Save and keeps what B typed."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.test_referee import import_game
from tests.conftest import load_record

pytestmark = pytest.mark.browser

SEVEN = 7   # ru32: seven hands played; hand 8 is "plus-tricks" (tricks counts)


def ru32_seven_hands() -> dict[str, Any]:
    record = copy.deepcopy(load_record("ru32_complete.json"))
    record["hands"] = record["hands"][:SEVEN]
    return record


def enter_plus_tricks(page: Any, gid: int, tricks: list[int]) -> None:
    """Hand 8 (plus-tricks) entered on A's phone through the form."""
    page.goto(f"/games/{gid}/hands/new")
    page.wait_for_selector("#hand-form[data-ready]")
    for s in range(4):
        page.fill(f"#tricks_{s}", str(tricks[s]))
    page.click("#save-hand")
    page.wait_for_url(f"**/games/{gid}#hand-{SEVEN + 1}")


def mark_no_reload(page: Any) -> None:
    page.evaluate("window.__sameDocument = 'kept'")


def same_document(page: Any) -> bool:
    return page.evaluate("window.__sameDocument") == "kept"


def test_b_sheet_shows_a_new_hand_row_without_reload(page, phone_b):
    gid = import_game(page, ru32_seven_hands())
    b = phone_b
    b.goto(f"/games/{gid}")
    b.wait_for_selector("#live-status[data-ready]")
    assert b.locator(f"#hand-{SEVEN + 1}").count() == 0
    b.evaluate("window.scrollTo(0, 260)")
    scroll = b.evaluate("window.scrollY")
    assert scroll > 0
    mark_no_reload(b)

    enter_plus_tricks(page, gid, [3, 1, 2, 2])

    b.wait_for_selector(f"#hand-{SEVEN + 1}")
    assert same_document(b)
    assert b.evaluate("window.scrollY") == scroll
    assert b.get_attribute("#live-status", "data-seen") == "2"     # the import, then A's save
    row = b.locator(f"#hand-{SEVEN + 1}")
    assert "live-new" in (row.get_attribute("class") or "")
    status = b.inner_text("#live-status")
    assert "Live" in status or "En vivo" in status
    # the delete button now deletes what B sees: the version moved with the sheet
    assert b.get_attribute("#live-sheet input[name=version]", "value") == "2"
    b.screenshot(path=shot("kingsheet-live-sheet-375.png"))


def test_b_open_entry_learns_of_a_save_and_keeps_what_b_typed(page, phone_b):
    gid = import_game(page, ru32_seven_hands())
    b = phone_b
    b.goto(f"/games/{gid}/hands/new")
    b.wait_for_selector("#hand-form[data-ready]")
    b.wait_for_selector("#live-status[data-ready]")
    for s, n in enumerate([2, 2, 2]):
        b.fill(f"#tricks_{s}", str(n))
    mark_no_reload(b)

    enter_plus_tricks(page, gid, [3, 1, 2, 2])

    b.wait_for_selector("#live-notice:not([hidden]) .live-changes")
    assert same_document(b)
    notice = b.inner_text("#live-notice")
    assert f"anotó la fila {SEVEN + 1}" in notice and "Bazas (positivo)" in notice
    assert b.locator("#live-notice li.same-row").count() == 1     # the very hand B is entering
    assert [b.input_value(f"#tricks_{s}") for s in range(4)] == ["2", "2", "2", "2"]
    # the form still carries the version B started from: Save cannot add the hand twice
    assert b.get_attribute("#hand-form input[name=version]", "value") == "1"
    b.screenshot(path=shot("kingsheet-live-entry-375.png"), full_page=True)


# --- trick-by-trick entry survives a language switch, the Sheet link and a reload -----------

def start_tricks(page: Any, gid: int, cards: list[str]) -> None:
    from tests.browser.test_referee import tap

    page.goto(f"/games/{gid}/hands/new?mode=tricks")
    page.wait_for_selector("#card-grid")
    for card in cards:
        tap(page, card)


def first_cards(n: int) -> list[str]:
    from tests.web.helpers import legal_hand

    return legal_hand("ru32", "no-tricks", 1, 5)[1][:n]


def test_trick_entry_survives_a_language_switch_and_a_reload(page):
    gid = import_game(page, base_record_ru32())
    cards = first_cards(5)                          # into trick 2
    start_tricks(page, gid, cards)
    page.click(".lang-switch a[hreflang=en]")
    page.wait_for_selector('html[lang=en] #referee[data-plays="5"]')
    assert "Trick 2 of 8" in page.inner_text("#now")
    page.reload()
    page.wait_for_selector('#referee[data-plays="5"]')
    assert "Trick 2 of 8" in page.inner_text("#now")


def test_leaving_mid_hand_warns_and_the_hand_continues_from_the_sheet(page):
    gid = import_game(page, base_record_ru32())
    cards = first_cards(3)
    start_tricks(page, gid, cards)
    page.click(f'#referee a[href="/games/{gid}"]')            # "← Hoja"
    page.wait_for_selector("#leave-bar")
    assert "3" in page.inner_text("#leave-bar") and "/tricks" in page.url
    page.click("#leave-stay")
    assert page.locator("#leave-bar").count() == 0
    page.click(f'#referee a[href="/games/{gid}"]')
    page.click("#leave-go")
    page.wait_for_url(f"**/games/{gid}")
    page.click("#enter-tricks")                                # back to the hand, from the sheet
    page.wait_for_selector("#resume-bar")
    page.click("#resume-draft")
    page.wait_for_selector('#referee[data-plays="3"]')


def base_record_ru32() -> dict[str, Any]:
    from tests.conftest import base_record

    return base_record("ru32")
