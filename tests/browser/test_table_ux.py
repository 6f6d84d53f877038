"""The table's phone (issue 14) in Chromium at 375 px: after a save the message, the next
action and the new row are all in view; the fiesta sheet shows points, payments, running
totals and the check without sideways scrolling; the hand page is one tap from the row."""
from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from app.rules import load
from tests.browser.test_referee import import_game
from tests.browser.test_whole_games import play_hand
from tests.conftest import load_record

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp")
PHONE = {"width": 375, "height": 812}


@pytest.fixture
def phone(browser: Any, live_server: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale="es-ES", base_url=live_server)
    context.set_default_timeout(10_000)
    p = context.new_page()
    yield p
    context.close()


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def with_hands(name: str, n: int) -> dict[str, Any]:
    record = copy.deepcopy(load_record(f"{name}_complete.json"))
    record["hands"] = record["hands"][:n]
    return record


@pytest.mark.parametrize("name,before", [("fiestas", 8), ("ru32", 12)])
def test_after_a_save_the_message_next_action_and_new_row_are_in_view(phone: Any, name: str,
                                                                       before: int) -> None:
    record = load_record(f"{name}_complete.json")
    result = load(record)
    gid = import_game(phone, with_hands(name, before))
    assert before < len(result.hands)
    for h in result.hands[before:]:
        play_hand(phone, gid, h, result.profile, use_captures=False)
        row = len(phone.locator("#sheet tbody tr").all())
        assert phone.url.endswith(f"#hand-{row}")
        phone.wait_for_load_state("load")
        assert in_view(phone, ".flash"), "the confirmation scrolled away"
        assert in_view(phone, f"#hand-{row}"), "the new row is not in view"
        if row < len(result.hands):
            assert in_view(phone, "#enter-hand"), "the next-hand button scrolled away"
        phone.screenshot(path=str(SHOTS / f"kingsheet-saved-{name}-{row}-375.png"))
    assert in_view(phone, "#winners"), "the winner banner scrolled away"


def test_fiesta_sheet_shows_payments_without_sideways_scrolling(phone: Any) -> None:
    record = load_record("fiestas_complete.json")
    gid = import_game(phone, record)
    phone.goto(f"/games/{gid}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    wrap = phone.locator("#sheet-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), "the sheet scrolls sideways"
    report = phone.request.get(f"/games/{gid}/report.json").json()
    for i, hand in enumerate(report["hands"]):
        for s in range(4):
            cell = phone.locator(f"#hand-{i + 1} td.pts[data-seat='{s}']")
            box = cell.bounding_box()
            assert box and box["x"] + box["width"] <= PHONE["width"], (i, s)
            text = cell.inner_text().replace("−", "-").split()
            assert text[0].lstrip("+") == str(hand["points"][s])
            if any(hand["payments"]):
                assert text[1].lstrip("+±") == str(hand["payments"][s])
            assert text[-1].lstrip("+") == str(hand["running_totals"][s])
        check = phone.locator(f"#hand-{i + 1} td.check").bounding_box()
        assert check and check["x"] + check["width"] <= PHONE["width"]
    # hand 7 of this record pays: the cell reads "+125 −100" and the total moves by +25
    assert phone.locator("#hand-7 td.pts[data-seat='0'] .pay").inner_text() == "−100"
    phone.screenshot(path=str(SHOTS / "kingsheet-fiesta-sheet-375.png"), full_page=True)
