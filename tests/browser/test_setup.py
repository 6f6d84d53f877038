"""Setting a fiesta up in Chromium at 375 px (issue 14 item 2): "Quién sale" offers only the
seats the engine accepts for the chosen contract, and "cambiar el contrato" keeps the counts
typed so far."""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from playwright.sync_api import expect

from tests.browser.test_referee import SHOTS, import_game
from tests.conftest import base_record
from tests.web.test_setup_entry import HAND_9, NEGATIVES


def wait_for_points(page: Any) -> None:
    """The live check scored the hand: the engine accepted the setup and the counts."""
    # A locator assertion, not wait_for_function: the page's CSP forbids evaluating strings.
    expect(page.locator('[data-live-seat="0"]')).not_to_have_text("\u2013")


def visible_leaders(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#leader-choice label[data-contracts]",
        "ls => ls.filter(l => l.offsetParent !== null).map(l => l.innerText.trim())")


def test_subastas_nulos_after_a_rejection_offers_one_leader_and_keeps_counts(page: Any) -> None:
    gid = import_game(page, base_record("subastas", hands=NEGATIVES + [{"contract": "433"}] * 2))
    page.goto(f"/games/{gid}/hands/new?auction={quote(HAND_9)}")
    page.wait_for_selector("#fiesta-form[data-ready]")
    page.click('#fiesta-contract label:has(input[name="contract"][value="trump"])')
    assert visible_leaders(page) == ["Ana", "Beto"]
    page.click('#fiesta-contract label:has(input[name="contract"][value="nulos"])')
    assert visible_leaders(page) == ["Beto"]
    assert page.is_checked('input[name="leader"][value="1"]')
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fiesta-leader-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("#fiesta-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    assert "Beto" in page.inner_text("#entry .hint")
    for seat, n in enumerate([2, 3, 4]):
        page.fill(f"#tricks_{seat}", str(n))
    assert page.input_value("#tricks_3") == "4"          # the page filled the last seat
    # the live check agrees with what the page offered: no leader problem
    wait_for_points(page)
    assert not page.locator(".live-problem").count()
    # change the contract: back to the fiesta step, then trumps; the counts are still there
    page.click("#change-setup")
    page.wait_for_selector("#fiesta-form[data-ready]")
    page.click('#fiesta-contract label:has(input[name="contract"][value="trump"])')
    page.click('#fiesta-contract label:has(input[name="trump"][value="H"])')
    page.click('#fiesta-contract label:has(input[name="leader"][value="0"])')
    page.click("#fiesta-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    assert [page.input_value(f"#tricks_{s}") for s in range(4)] == ["2", "3", "4", "4"]
    page.screenshot(path=str(SHOTS / "fiesta-counts-kept-375.png"), full_page=True)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}(#hand-9)?$"))
    hand = page.request.get(f"/games/{gid}/record.json").json()["hands"][8]
    assert hand == {"contract": "trump", "trump": "H", "leader": 0,
                    "auction": HAND_9.split(","), "counts": {"tricks": [2, 3, 4, 4]}}


def test_fiestas_refused_eight_or_nulos_offers_one_leader(page: Any) -> None:
    gid = import_game(page, base_record("fiestas", hands=NEGATIVES))
    calls = "3:+6,0:pass,1:pass,owner:eight-or-nulos,3:refuse"
    page.goto(f"/games/{gid}/hands/new?auction={quote(calls)}")
    page.wait_for_selector("#fiesta-form[data-ready]")
    assert visible_leaders(page) == ["Dani"]
    page.click("#fiesta-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    for seat, n in enumerate([2, 3, 4]):
        page.fill(f"#tricks_{seat}", str(n))
    wait_for_points(page)
    assert not page.locator(".live-problem").count()
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}(#hand-7)?$"))
    assert page.request.get(f"/games/{gid}/record.json").json()["hands"][6]["leader"] == 3
