"""Issue 8, item 10 in Chromium: under the Content-Security-Policy no page has a blocked
script, style or image, and the scripts still work (the export page polls and shows the
download link; the entry page's setup step and the sheet's live status run)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_referee import import_game
from tests.browser.test_table_ux import every_page
from tests.conftest import load_record

pytestmark = pytest.mark.browser


def _watch(page: Any) -> list[str]:
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    return blocked


def test_no_page_breaks_the_policy(page):
    blocked = _watch(page)
    for path in every_page(page):
        response = page.goto(path)
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")
    assert blocked == []


def test_the_export_page_script_runs_under_the_policy(page):
    blocked = _watch(page)
    import_game(page, load_record("ru32_complete.json"))
    page.goto("/exports")
    page.fill("#date_from", "2000-01-01")
    page.click("#export-form button[type=submit]")
    page.wait_for_url(re.compile(r"/exports/[\w-]+$"))
    page.wait_for_selector("#export-download:not([hidden])", timeout=60_000)
    assert page.get_attribute("#export-download", "href").endswith(".pdf")
    assert "%(" not in page.inner_text("#export-state")
    assert blocked == []
