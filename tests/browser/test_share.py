"""The share link and the handover at the table, in Chromium at 375 px (issues 9 and 13):
a player's phone without an account follows the sheet through the share link and sees a
hand saved on the scorer's phone without a reload; the scorer's QR codes; a second phone
takes scoring over with the one-time link."""
from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import login, phone
from tests.browser.test_live import SEVEN, enter_plus_tricks, mark_no_reload, ru32_seven_hands, same_document
from tests.browser.test_referee import SHOTS, import_game
from tests.conftest import ensure_user

pytestmark = pytest.mark.browser


def wait_for_image(page: Any, selector: str, timeout: float = 10.0) -> None:
    """Wait until the image has loaded. Polled with evaluate: the page's CSP forbids the string
    evaluation that wait_for_function needs."""
    deadline = time.monotonic() + timeout
    img = page.locator(selector)
    while not img.evaluate("i => i.complete && i.naturalWidth > 0"):
        assert time.monotonic() < deadline, f"{selector} never loaded"
        page.wait_for_timeout(50)


def share_path(page: Any, gid: int) -> str:
    page.goto(f"/games/{gid}")
    page.click("#make-share")
    page.wait_for_selector("#share-url")
    href = page.get_attribute("#share-url", "href")
    assert href is not None and href.startswith("/s/")
    return href


def test_the_share_view_follows_the_scorers_saves(page: Any, browser: Any, live_server: str) -> None:
    gid = import_game(page, ru32_seven_hands())
    path = share_path(page, gid)
    page.click("#share-qr-panel > summary")
    wait_for_image(page, "#qr-share")

    player = next(phone(browser, live_server, user=None))     # no account
    try:
        player.goto(path)
        player.wait_for_selector("#live-status[data-ready]")
        assert player.locator(f"#hand-{SEVEN + 1}").count() == 0
        assert player.locator("main form").count() == 0        # reads only
        assert player.locator("#enter-hand").count() == 0
        mark_no_reload(player)

        enter_plus_tricks(page, gid, [3, 1, 2, 2])             # the scorer saves hand 8

        player.wait_for_selector(f"#hand-{SEVEN + 1}")
        assert same_document(player)
        assert player.locator("main form").count() == 0
        player.screenshot(path=str(SHOTS / "share-view-375.png"), full_page=True)
        assert player.evaluate("document.documentElement.scrollWidth") <= 375
        player.click(f"#hand-{SEVEN + 1} a.hand-link")
        player.wait_for_url(f"**{path}/hands/{SEVEN + 1}*")
        assert player.locator("#ruling-form").count() == 0
    finally:
        player.context.close()


def test_a_second_phone_takes_scoring_over_once(page: Any, browser: Any, live_server: str,
                                                live_app: Any) -> None:
    gid = import_game(page, ru32_seven_hands())
    page.goto(f"/games/{gid}")
    page.click("#make-handover")
    page.wait_for_selector("#qr-handover")
    wait_for_image(page, "#qr-handover")
    page.screenshot(path=str(SHOTS / "handover-qr-375.png"), full_page=True)
    link = page.get_attribute("#handover-url", "href")
    assert link is not None and link.startswith("/h/")

    ensure_user(live_app, "relevo", "scorer")
    second = next(phone(browser, live_server, user=None))
    try:
        login(second, "relevo")
        second.goto(f"/games/{gid}")
        assert second.locator("#enter-hand").count() == 0      # not a scorer of this game yet
        second.goto(link)
        second.click("#take-over-submit")
        second.wait_for_url(f"**/games/{gid}")
        assert second.locator("#enter-hand").count() == 1      # now it is
        second.goto(link)                                      # spent: opens nothing
        assert second.locator("#take-over-submit").count() == 0
    finally:
        second.context.close()
