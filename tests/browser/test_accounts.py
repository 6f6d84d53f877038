"""Accounts at the table in Chromium at 375 px (issue 9): the seat PINs chosen when the game
starts, the phone passed round to confirm the sheet seat by seat, and the locked sheet."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login_through_the_form, phone
from tests.browser.test_live import mark_no_reload, same_document
from tests.browser.test_referee import SHOTS, import_game
from tests.browser.test_whole_games import game_id
from tests.conftest import load_record

pytestmark = pytest.mark.browser

PINS = ["4821", "1357", "2468", "9012"]


def set_pins(app: Any, gid: int, pins: list[str | None]) -> None:
    """The seats' PINs of an imported game (an import has none), through the service."""
    from app.db import get_session
    from app.games.table import confirm

    with app.app_context():
        session = get_session()
        confirm.set_pins(session, gid, pins)
        session.commit()


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= 375"))


def confirm_seat(page: Any, seat: int, pin: str) -> None:
    """Types the seat's PIN and confirms; the page sends it in the background and shows the
    answer in place (static/js/confirm_seats.js): waits until it has."""
    page.fill(f"#pin-{seat}", pin)
    page.click(f"#confirm-{seat}")
    expect(page.locator("body[data-confirm-busy]")).to_have_count(0)
    page.wait_for_load_state()


def test_pins_chosen_at_start_and_confirmed_at_the_table(page: Any) -> None:
    page.goto("/games/new")
    page.click('label.profile-option:has(input[value="ru32"])')
    for s, name in enumerate(["Ana", "Beto", "Carla", "Dani"]):
        page.fill(f"#player_{s}", name)
    page.select_option("#first_seat", "0")
    page.click("#pins > summary")
    for s, pin in enumerate(PINS):
        page.fill(f"#pin_{s}", pin)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "new-game-pins-375.png"), full_page=True)
    assert fits(page)
    page.press("#pin_3", "Enter")   # "Go" on the keyboard (a click right after a full-page
    # screenshot can land on the layout as it was during the capture)
    page.wait_for_url(re.compile(r"/games/\d+$"))
    gid = game_id(page)

    page.goto(f"/games/{gid}/confirm")
    assert page.locator("#not-over").count() == 1          # no hand yet: nothing locks
    confirm_seat(page, 0, "0000")                           # a wrong PIN: said, nothing stored
    assert page.locator("#pin-error-0").is_visible()         # next to that seat's PIN
    assert page.get_attribute("#confirm-seat-0", "data-current") == "0"
    confirm_seat(page, 0, PINS[0])
    assert page.get_attribute("#confirm-seat-0", "data-current") == "1"
    assert page.locator("#pin-0").count() == 0              # confirmed: no second PIN asked


def test_the_phone_passed_round_locks_the_sheet(page: Any, phone_b: Any, live_app: Any) -> None:
    gid = import_game(page, load_record("ru32_complete.json"))
    set_pins(live_app, gid, PINS)
    phone_b.goto(f"/games/{gid}")                           # another phone follows the sheet
    phone_b.wait_for_selector("#live-status[data-ready]")
    mark_no_reload(phone_b)
    page.goto(f"/games/{gid}")
    page.click("#confirm-link")
    page.wait_for_selector("#confirm-seats")
    page.screenshot(path=str(SHOTS / "confirm-seats-375.png"), full_page=True)
    assert fits(page)
    for seat, pin in enumerate(PINS):
        confirm_seat(page, seat, pin)
    assert page.locator("#locked-line").is_visible()
    assert page.locator("#confirm-seats input[name=pin]").count() == 0
    phone_b.wait_for_selector("#locked-badge")              # shown there too, without a reload
    assert same_document(phone_b)
    assert phone_b.get_attribute("#confirm-seat-3", "data-current") == "1"
    page.screenshot(path=str(SHOTS / "confirm-locked-375.png"), full_page=True)
    assert fits(page)
    page.goto(f"/games/{gid}")
    assert page.locator("#locked-badge").is_visible()
    assert page.locator("#delete-last").count() == 1        # the director may still correct …
    assert page.locator("#delete-correction").count() == 1  # … giving a reason
    assert [page.get_attribute(f"#confirm-seat-{s}", "data-current") for s in range(4)] == ["1"] * 4


def test_a_scorer_of_another_game_sees_no_pin_field(page: Any, browser: Any, live_server: str,
                                                    live_app: Any) -> None:
    from tests.conftest import ensure_user

    gid = import_game(page, load_record("ru32_complete.json"))
    set_pins(live_app, gid, PINS)
    ensure_user(live_app, "otro", "scorer")
    other = next(phone(browser, live_server, user=None))
    login_through_the_form(other, "otro")     # typed on the login page, as at the table
    assert other.inner_text("#current-user").strip().endswith("otro")
    other.goto(f"/games/{gid}/confirm")
    assert other.locator("input[name=pin]").count() == 0
    other.context.close()
