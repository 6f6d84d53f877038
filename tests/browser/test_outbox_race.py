"""A hand saved while the outbox is already sending (static/js/offline.js): the Save waits
for that send and sends its own hand, so the page opens the sheet at the new row. Before,
the Save took the report of the send already on its way, which had read the outbox before
the hand was in it: the sheet opened without the row, the hand still waiting there (CI,
the page audit's save of a trick-by-trick hand)."""
from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.test_referee import import_game
from tests.conftest import base_record

pytestmark = pytest.mark.browser


def test_a_save_during_a_send_opens_the_sheet_at_its_row(page: Any, live_app: Any) -> None:
    from flask import request

    first = import_game(page, base_record("ru32"))
    second = import_game(page, base_record("ru32"))

    # the first game's hand waits in the outbox: saved with no network
    page.goto(f"/games/{first}/hands/new")
    page.wait_for_selector("#hand-form[data-ready]")
    for s, n in enumerate([2, 2, 2]):
        page.fill(f"#tricks_{s}", str(n))
    page.context.set_offline(True)
    page.click("#save-hand")
    page.wait_for_timeout(500)
    page.context.set_offline(False)

    def slow() -> None:            # the server is slow to answer that hand
        if request.method == "POST" and request.path == f"/games/{first}/hands/new":
            time.sleep(2.5)

    hooks = live_app.before_request_funcs.setdefault(None, [])
    hooks.append(slow)
    try:
        # the second game's entry page sends the waiting hand as it opens (2.5 s) ...
        page.goto(f"/games/{second}/hands/new")
        page.wait_for_selector("#hand-form[data-ready]")
        for s, n in enumerate([1, 3, 2]):
            page.fill(f"#tricks_{s}", str(n))
        page.click("#save-hand")     # ... and this Save comes while it is on its way
        page.wait_for_url(re.compile(rf"/games/{second}#hand-1$"), timeout=15_000)
    finally:
        hooks.remove(slow)
    record = page.request.get(f"/games/{second}/record.json").json()
    assert len(record["hands"]) == 1
    assert len(page.request.get(f"/games/{first}/record.json").json()["hands"]) == 1
