"""The account page in Chromium at 375 px (issue 22): a token made, shown once with how to
use it, copied, listed and revoked; every target 44 px, no serious axe finding, no sideways
scrolling, in Spanish."""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.audit import axe_findings, small_targets
from tests.browser.conftest import shot

pytestmark = pytest.mark.browser


def problems_of(page: Any) -> list[str]:
    found = [f"tap target {t}" for t in small_targets(page)] + axe_findings(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    return found + ([f"{width}px wide"] if width > 375 else [])


def test_a_token_made_shown_once_and_revoked_at_375px(page: Any) -> None:
    page.goto("/")
    page.click("#current-user")                           # the header's link to the account
    page.wait_for_url("**/account")
    assert problems_of(page) == []
    page.fill("#label", "portátil del club")
    page.click("#create-token")
    page.wait_for_selector("#token-secret")
    secret = page.inner_text("#token-secret").strip()
    assert secret.startswith("ks_")
    assert "no se volverá a mostrar" in page.inner_text("#new-token")
    assert f"Authorization: Bearer {secret}" in page.inner_text("#token-usage")
    assert page.is_visible("#copy-token")                 # 127.0.0.1 is a secure context
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#copy-token")
    # a locator assertion, not wait_for_function: the page's CSP forbids evaluating strings
    expect(page.locator("#copy-token")).to_contain_text("✓")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    assert problems_of(page) == []
    page.screenshot(path=shot("account-new-token-375.png"), full_page=True)
    assert page.request.get("/api/v1/games", headers={"Authorization": f"Bearer {secret}"}).ok

    page.goto("/account")
    assert secret not in page.content()
    row = page.locator("#tokens li", has_text="portátil del club").first
    assert secret[:8] in row.inner_text()
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("button.danger").click()
    page.wait_for_selector(".flash")
    assert page.locator("#tokens li[data-revoked]", has_text="portátil del club").count() == 1
    assert problems_of(page) == []
    refused = page.request.get("/api/v1/games", headers={"Authorization": f"Bearer {secret}"})
    assert refused.status == 401
