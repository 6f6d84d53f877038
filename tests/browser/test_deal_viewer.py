"""The hand page's deal viewer in Chromium at 375 px (issue 40): ▶, the arrow keys and
"Ver la baza" step through the tricks without reloading, the hands shrinking as their cards
are played, with no sideways scroll and no script the policy blocks."""
from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.web.test_deal_viewer import RECORD

pytestmark = pytest.mark.browser


def _game(live_app: Any) -> int:
    from app.db import get_session
    from app.games.games import import_game

    with live_app.app_context():
        return int(import_game(get_session(), RECORD, who="test").id)


def _shown(page: Any) -> int:
    return int(page.evaluate("document.querySelectorAll('#viewer .dv-card:not([hidden])').length"))


def test_stepping_shrinks_the_hands_at_375px(page: Any, live_app: Any) -> None:
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    gid = _game(live_app)
    page.goto(f"/games/{gid}/hands/1")
    assert page.inner_text("#dv-label") == "Baza 1 de 8"
    assert _shown(page) == 32
    for button in ("#dv-prev", "#dv-next"):
        box = page.locator(button).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, button
    page.evaluate("window.__same_page = true")        # gone if the page reloaded

    page.click("#dv-next")
    page.wait_for_function("document.getElementById('dv-label').textContent === 'Baza 2 de 8'")
    assert _shown(page) == 28 and page.url.endswith("trick=1")
    middle = page.locator("#viewer .dv-trick:not([hidden]) .dv-slot.flagged")
    assert middle.count() == 1 and "9♠" in middle.inner_text()
    assert "Jugada ilegal: Beto" in page.inner_text("#viewer .dv-caption:not([hidden])")
    page.screenshot(path=shot("deal-viewer-375.png"), full_page=True)

    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('dv-label').textContent === 'Baza 3 de 8'")
    assert _shown(page) == 24
    assert page.inner_text('#viewer .dv-hand[data-seat="1"] .dv-left') == "(6)"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('dv-label').textContent === 'Baza 2 de 8'")
    assert _shown(page) == 28

    for _ in range(7):
        page.click("#dv-next")
    assert page.inner_text("#dv-label") == "Baza 8 de 8"
    assert page.get_attribute("#dv-next", "aria-disabled") == "true" and _shown(page) == 4
    page.click("#alternatives .dv-jump")               # "Ver la baza" of the revoke
    page.wait_for_function("document.getElementById('dv-label').textContent === 'Baza 2 de 8'")
    assert page.evaluate("window.__same_page") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert blocked == []
