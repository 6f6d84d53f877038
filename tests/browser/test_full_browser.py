"""Debian's Chromium browser itself (/usr/bin/chromium), beside the headless shell that the
other browser tests drive (tests/browser/conftest.py, `CHROMIUM`): the same Blink and V8,
but the browser is what a laptop at the table runs, and only it decides whether the app can
be added to the home screen. A player's path through it: the login form typed in, the first
hands of a game entered on the phone, the sheet's totals as the engine's, the app
installable."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.rules import load, score_record
from tests.browser.conftest import BLOCK_WORKER, FULL_CHROMIUM, login_through_the_form
from tests.browser.test_whole_games import create_game, page_totals, play_hand
from tests.conftest import load_record

pytestmark = pytest.mark.browser


@pytest.fixture
def laptop(full_browser: Any, live_server: str) -> Iterator[Any]:
    context = full_browser.new_context(viewport={"width": 375, "height": 800}, locale="es-ES",
                                       base_url=live_server, service_workers=BLOCK_WORKER)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_the_full_browser_is_debian_s_chromium(full_browser: Any) -> None:
    assert FULL_CHROMIUM == "/usr/bin/chromium"
    assert re.match(r"\d+\.", full_browser.version), full_browser.version


def test_hands_entered_in_the_full_browser_total_as_the_engine_and_it_installs(laptop: Any) -> None:
    login_through_the_form(laptop)
    record = load_record("fiestas_complete.json")
    result = load(record)
    gid = create_game(laptop, record, draw=False)
    for h in result.hands[:3]:
        play_hand(laptop, gid, h, result.profile, use_captures=False)
    assert laptop.locator("#hand-3").count() == 1
    assert page_totals(laptop) == score_record({**record, "hands": record["hands"][:3]})["totals"]

    cdp = laptop.context.new_cdp_session(laptop)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a Playwright context is incognito, which Chromium counts against installing
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
