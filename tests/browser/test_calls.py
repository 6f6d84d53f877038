"""Calling the director in Chromium (issue 40): a seat's player calls from the table's page
on a phone (375 px); the call appears on the director's event page without a reload; the
director answers, and the answer appears on the phone's page without a reload. Screenshots
of the table's page (375 and 1280 px) and of the director's lists are kept in
test-artifacts/browser/."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from app.db import get_session
from app.events import events
from app.models import Event
from tests.browser.conftest import BLOCK_WORKER, login, phone, shot
from tests.conftest import ensure_user

pytestmark = pytest.mark.browser

NAMES = [f"Llamada {i:02d}" for i in range(1, 9)]


def _no_reload(page: Any) -> None:
    page.evaluate("window.__sameDocument = 'kept'")


def _same_document(page: Any) -> bool:
    return bool(page.evaluate("window.__sameDocument") == "kept")


@pytest.fixture
def desk(browser: Any, live_server: str) -> Iterator[Any]:
    """The director's laptop (1280 px), logged in as the director."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES",
                                  base_url=live_server, service_workers=BLOCK_WORKER)
    context.set_default_timeout(10_000)
    p = context.new_page()
    login(p)
    yield p
    context.close()


def test_a_call_from_a_phone_reaches_the_director_and_the_answer_comes_back(browser, live_server,
                                                                            live_app, desk):
    with live_app.app_context():
        spec = events.EventSpec(name="Noche de llamadas", profile="fiestas", players=NAMES, rounds=2,
                                day=date(2026, 12, 3))
        event = events.create_event(get_session(), spec, who="directora", user_id=None, seed=3)
        event_id = event.id
        table = get_session().get(Event, event_id).drawn[0].tables[1]
        game_id, seated = table.game_id, table.game.record["players"][1]
    ensure_user(live_app, "sentada", "player", player=seated)

    desk.goto(f"/events/{event_id}")
    desk.wait_for_selector("#event-calls", state="attached")
    _no_reload(desk)

    table_phone = next(iter(phone(browser, live_server, "sentada")))
    try:
        table_phone.goto(f"/games/{game_id}")
        table_phone.fill("#call-note", "Revoke de Beto en la baza 3")
        table_phone.click("#call-director")
        table_phone.wait_for_selector("#call-open")
        assert "Revoke de Beto en la baza 3" in table_phone.inner_text("#director-call")
        assert table_phone.evaluate("document.documentElement.scrollWidth") <= 375

        # the director's page shows it without a reload
        item = desk.wait_for_selector("#event-calls .call-item")
        text = item.inner_text()
        assert "Mesa 2 · Ronda 1" in text and "Revoke de Beto en la baza 3" in text
        assert f"{seated} llamó (asiento 2)" in text
        assert _same_document(desk)
        desk.screenshot(path=shot("calls-event-1280.png"), full_page=True)

        # the director starts typing; a table saving meanwhile swaps the region, the text stays
        answer = desk.locator("#event-calls input[name=note]")
        answer.fill("Voy a la mesa")
        answer.focus()
        _no_reload(table_phone)
        desk.locator("#event-calls button[type=submit]").click()
        desk.wait_for_selector(".flash >> text=Llamada respondida")
        assert desk.locator("#event-calls .call-item").count() == 0

        # the phone's page follows: the answer appears without a reload
        table_phone.wait_for_selector("#call-answer")
        assert "Voy a la mesa" in table_phone.inner_text("#call-answer")
        assert _same_document(table_phone)
        assert table_phone.locator("#call-director").is_visible()       # the table may call again
        assert table_phone.evaluate("document.documentElement.scrollWidth") <= 375
        table_phone.locator("#director-call").scroll_into_view_if_needed()
        table_phone.screenshot(path=shot("calls-table-375.png"), full_page=True)
        desk.goto(f"/games/{game_id}")
        desk.screenshot(path=shot("calls-table-1280.png"), full_page=True)

        # the directors' list of every game's calls (a second call waits there)
        table_phone.fill("#call-note", "¿Se puede cambiar de sitio?")
        table_phone.click("#call-director")
        table_phone.wait_for_selector("#call-open")
        desk.goto("/calls")
        desk.wait_for_selector("#calls-list .call-item")
        desk.screenshot(path=shot("calls-list-1280.png"), full_page=True)
        desk.set_viewport_size({"width": 375, "height": 800})
        desk.goto("/calls")
        assert desk.evaluate("document.documentElement.scrollWidth") <= 375
        desk.screenshot(path=shot("calls-list-375.png"), full_page=True)
    finally:
        table_phone.context.close()
