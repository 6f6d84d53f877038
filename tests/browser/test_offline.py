"""The table keeps scoring when the club's wifi drops (issue 24): the pages a phone opened
are kept by its service worker, hands saved with no network wait in its outbox (IndexedDB)
and are sent, once each, when the network is back."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rules import load
from tests.browser.conftest import ARGS, CHROMIUM, login, shot
from tests.browser.netswitch import NetSwitch, go_offline, go_online
from tests.browser.test_referee import import_game
from tests.browser.test_whole_games import enter_captures, enter_counts
from tests.conftest import load_record

pytestmark = pytest.mark.browser


class Phone:
    """A phone with a persistent profile (its IndexedDB and caches survive a restart),
    reaching the server through the club's wifi (a NetSwitch)."""

    def __init__(self, browser: Any, profile: Path, switch: NetSwitch, locale: str = "es-ES") -> None:
        self.browser_type = browser.browser_type
        self.profile = profile
        self.switch = switch
        self.locale = locale
        self.context: Any = None
        self.page: Any = None

    def start(self, offline: bool = False) -> Any:
        self.context = self.browser_type.launch_persistent_context(
            str(self.profile), executable_path=CHROMIUM, args=ARGS, headless=True,
            viewport={"width": 375, "height": 800}, locale=self.locale, base_url=self.switch.url,
            offline=offline)
        self.context.set_default_timeout(15_000)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        return self.page

    def stop(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None

    def offline(self) -> None:
        go_offline(self.context, self.switch)

    def online(self) -> None:
        go_online(self.context, self.switch)


@pytest.fixture
def switch(live_server: str) -> Iterator[NetSwitch]:
    s = NetSwitch(int(live_server.rsplit(":", 1)[1]))
    yield s
    s.close()


@pytest.fixture
def phone1(browser: Any, switch: NetSwitch, tmp_path: Path) -> Iterator[Phone]:
    p = Phone(browser, tmp_path / "phone1", switch)
    yield p
    p.stop()


def ready_for_offline(page: Any, gid: int) -> None:
    """The sheet is open, the service worker controls it and has kept the next hand's pages."""
    page.goto(f"/games/{gid}")
    for _ in range(100):
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            break
        page.wait_for_timeout(100)
    page.reload()       # now under the worker: the copy is kept, the entry pages warmed
    expect(page.locator("body")).to_have_attribute("data-warmed", re.compile(r"^[1-9]"))


def sheet_rows(live_app: Any, gid: int) -> list[dict[str, Any]]:
    from app.db import get_session
    from app.models import Game

    with live_app.app_context():
        game = get_session().get(Game, gid)
        get_session().refresh(game)
        return list(game.record["hands"])


def test_counts_and_captures_wait_offline_and_are_sent_once(phone1: Phone, live_app: Any) -> None:
    record = load_record("rifki_complete.json")
    start = dict(record, hands=record["hands"][:3])
    full = load(record)
    page = phone1.start()
    login(page)
    gid = import_game(page, start)
    ready_for_offline(page, gid)

    phone1.offline()
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text("Sin conexión — copia de las")
    page.screenshot(path=shot("offline-sheet-copy.png"), full_page=True)

    # hand 4 (Kupa almaz) by its captured cards
    h4 = full.hands[3]
    page.click("#enter-hand")
    page.click('#choose label:has(input[name="contract"][value="kupa-almaz"])')
    page.click("#choose-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    enter_captures(page, h4)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(1)
    expect(page.locator("#outbox-bar")).to_contain_text("1 mano espera")
    page.screenshot(path=shot("offline-sheet-pending.png"), full_page=True)

    # hand 6's counts (Kız almaz) entered on top of the waiting hand
    h6 = full.hands[5]
    page.click("#enter-hand")
    page.click('#choose label:has(input[name="contract"][value="kiz-almaz"])')
    page.click("#choose-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("#outbox-on-top")).to_contain_text("fila 5")
    enter_counts(page, h6)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(2)

    # the phone is closed and opened again, still with no network: both hands wait
    phone1.stop()
    page = phone1.start(offline=True)
    phone1.switch.set(False)
    page.goto(f"/games/{gid}")
    expect(page.locator("tr.pending-row")).to_have_count(2)
    assert len(sheet_rows(live_app, gid)) == 3

    phone1.online()
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    hands = sheet_rows(live_app, gid)
    assert [h["contract"] for h in hands] == ["el-almaz", "erkek-almaz", "koz", "kupa-almaz", "kiz-almaz"]
    expect(page.locator("#hand-5")).to_be_visible()
