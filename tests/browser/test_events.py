"""An event in Chromium (issue 25): the director's view at 375 px and the results screen at
1920x1080 (and 375 px) follow a table's saves without a reload; the screen's numbers are
at least 40 px, it never scrolls at 1920x1080 and pages through a long standings list.
On SQLite (the browser tests' shared server) and on PostgreSQL (a server of this file's
own on the session's PostgreSQL database)."""
from __future__ import annotations

import io
from datetime import date
from typing import Any

import pytest
from pypdf import PdfReader

from app.db import get_session
from app.events import events
from app.models import Event
from tests.browser.audit import axe_findings, small_targets
from tests.browser.conftest import BLOCK_WORKER, phone, shot
from tests.browser.live import served
from tests.browser.test_csp import _watch
from tests.conftest import ensure_user, make_app
from tests.events_play import PIN, confirm_all, play

pytestmark = pytest.mark.browser

NAMES = [f"Pantalla {i:02d}" for i in range(1, 23)]


def new_event(app: Any) -> tuple[int, str]:
    with app.app_context():
        spec = events.EventSpec(name="Noche de jueves", profile="fiestas", players=NAMES, rounds=3,
                                day=date(2026, 12, 3), pins={n: PIN for n in NAMES})
        event = events.create_event(get_session(), spec, who="directora", user_id=None, seed=5)
        return event.id, events.share_token(get_session(), event)


def save_hands(app: Any, event_id: int, table: int, hands: int) -> None:
    with app.app_context():
        game = get_session().get(Event, event_id).drawn[0].tables[table - 1].game
        play(get_session(), game, 7, hands=hands)


def mark_no_reload(page: Any) -> None:
    page.evaluate("window.__sameDocument = 'kept'")


def same_document(page: Any) -> bool:
    return page.evaluate("window.__sameDocument") == "kept"


DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture
def pg_live(pg_server: str, pg_emptier: Any) -> Any:
    """(address, app) of a live server of its own on the session's PostgreSQL database,
    emptied first (other tests of this worker use it between these)."""
    from app.db import get_db

    pg_emptier()
    app = make_app(pg_server, WTF_CSRF_ENABLED=True, TESTING=False, PAGE_CACHE_VERIFY=True,
                   FAST_POLL_VERIFY=True)
    ensure_user(app)
    with served(app) as address:
        yield address, app
    get_db(app).dispose()


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """(address, app) of a live server on SQLite or PostgreSQL."""
    if request.param == "sqlite":
        return request.getfixturevalue("live_server"), request.getfixturevalue("live_app")
    return request.getfixturevalue("pg_live")  # type: ignore[no-any-return]


@pytest.fixture
def page(browser: Any, server: tuple[str, Any]) -> Any:
    """The director's phone on that server."""
    yield from phone(browser, server[0])


def test_the_directors_view_follows_a_tables_save_at_375px(page, server):
    live_app = server[1]
    event_id, _key = new_event(live_app)
    page.goto(f"/events/{event_id}")
    page.wait_for_selector("#table-1")
    assert page.locator(".event-table").count() == 5
    mark_no_reload(page)
    save_hands(live_app, event_id, 1, 2)
    page.wait_for_selector('#table-1 [data-hands="2"]')
    assert same_document(page)
    assert "2" in page.inner_text("#table-1 [data-hands]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=shot("event-director-375.png"), full_page=True)
    assert small_targets(page) == []
    assert axe_findings(page) == []


def open_screen(browser: Any, live_server: str, size: tuple[int, int],
                path: str) -> tuple[Any, Any, list[str]]:
    """(context, page, what the CSP blocked) of the club's TV, without login, showing ``path``."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="es-ES",
                                  base_url=live_server, service_workers=BLOCK_WORKER)
    context.set_default_timeout(15_000)
    screen = context.new_page()
    blocked = _watch(screen)
    screen.goto(path)
    return context, screen, blocked


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (375, 800)])
def test_the_results_screen_updates_by_itself_without_login(browser, server, width, height):
    live_server, live_app = server
    event_id, key = new_event(live_app)
    context, screen, _blocked = open_screen(browser, live_server, (width, height),
                                  f"/events/{event_id}/screen?key={key}")
    try:
        screen.wait_for_selector("#screen-seating #screen-table-2")
        mark_no_reload(screen)
        save_hands(live_app, event_id, 2, 3)
        # the first hand saved: the seating gives way to the standings and the tables' state
        screen.wait_for_selector('#screen-tables #screen-table-2[data-hands="3"]')
        assert same_document(screen)
        assert screen.inner_text("#screen-table-2").split() == ["Mesa", "2", "3/10"]
        screen.screenshot(path=shot(f"event-screen-{width}.png"))
        if width == 1920:
            sizes = screen.evaluate("""() => [...document.querySelectorAll(
                    '.screen-rows td.total, .screen-rows td.rank')]
                .filter(td => td.offsetParent !== null && td.innerText.trim())
                .map(td => parseFloat(getComputedStyle(td).fontSize))""")
            assert sizes and min(sizes) >= 40
            assert screen.evaluate("document.documentElement.scrollHeight") <= height
            # 22 players: every row on one page, in two columns
            assert screen.locator("#screen-standings .page").count() == 1
            assert screen.locator("#screen-standings table").count() == 2
            assert inside(screen, "#screen-standings tbody tr", width, height) == 22
        else:
            assert screen.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def inside(page: Any, selector: str, width: int, height: int) -> int:
    """How many elements match ``selector``, each checked wholly inside the viewport and not
    cut (its text is not wider than its box)."""
    boxes = page.eval_on_selector_all(selector, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {text: e.innerText, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                cut: [...e.querySelectorAll('td.name'), e].some(x => x.scrollWidth > x.clientWidth + 1)};
    })""")
    for b in boxes:
        assert b["left"] >= 0 and b["top"] >= 0 and b["right"] <= width and b["bottom"] <= height, b
        assert not b["cut"], b
    return len(boxes)


def test_the_room_screen_of_a_13_player_evening_at_1920x1080(browser, live_server, live_app):
    """Issue 38, the screen for the room: at the round's start every table's four players and
    the one sitting out, large, inside the viewport; once a hand is saved every standings
    row (13) inside it without paging or scrolling; at the end the final standings. The
    screen follows by itself; the event page at 375 px keeps every round."""
    names = [f"Jugadora {i:02d}" for i in range(1, 14)]
    with live_app.app_context():
        spec = events.EventSpec(name="Noche de club", profile="fiestas", players=names, rounds=2,
                                day=date(2026, 12, 4), pins={n: PIN for n in names})
        event = events.create_event(get_session(), spec, who="directora", user_id=None, seed=11)
        event_id, key = event.id, events.share_token(get_session(), event)
    # the fitting script sizes the type under the CSP: nothing is blocked
    context, screen, blocked = open_screen(browser, live_server, (1920, 1080),
                                           f"/events/{event_id}/screen?key={key}")
    try:
        screen.wait_for_selector("#screen-seating")
        screen.screenshot(path=shot("event-screen-1920-round-start.png"))
        assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
        assert screen.evaluate("document.documentElement.scrollWidth") <= 1920
        seated = screen.eval_on_selector_all(".seat-card li", "els => els.map(e => e.innerText.trim())")
        out = screen.inner_text("#screen-sitting-out")
        assert sorted(seated + [out.split(":", 1)[1].strip()]) == names
        assert inside(screen, ".seat-card li", 1920, 1080) == 12
        assert inside(screen, "#screen-sitting-out", 1920, 1080) == 1
        sizes = screen.eval_on_selector_all(
            ".seat-card li", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= 48, sizes          # read from 3 m

        mark_no_reload(screen)
        save_hands(live_app, event_id, 1, 4)
        screen.wait_for_selector('#screen[data-phase="play"]')
        assert same_document(screen)
        screen.screenshot(path=shot("event-screen-1920-playing.png"))
        assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
        assert inside(screen, "#screen-standings tbody tr", 1920, 1080) == 13
        assert screen.locator("#screen-standings .page").count() == 1
        assert inside(screen, "#screen-tables li", 1920, 1080) == 3

        with live_app.app_context():
            session = get_session()
            event = session.get(Event, event_id)
            for k, t in enumerate(event.drawn[0].tables):
                confirm_all(session, play(session, t.game, 40 + k))
            events.draw_next_round(session, event, who="directora", user_id=None, seed=3)
            for k, t in enumerate(session.get(Event, event_id).drawn[1].tables):
                confirm_all(session, play(session, t.game, 50 + k))
        screen.wait_for_selector('#screen[data-phase="final"]')
        assert same_document(screen)
        assert screen.inner_text("#screen-final").strip() == "Clasificación final"
        assert inside(screen, "#screen-standings tbody tr", 1920, 1080) == 13
        # two columns of standings, each with a column per round
        assert screen.locator("#screen-standings thead th.round").count() == 4
        screen.screenshot(path=shot("event-screen-1920-final.png"))
        assert blocked == []
    finally:
        context.close()
    director = phone(browser, live_server)
    page = next(director)
    page.goto(f"/events/{event_id}")
    page.wait_for_selector("#round-1")
    assert page.locator("#event-rounds .round-past").count() == 1      # round 2 in full above
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=shot("event-page-375-rounds.png"), full_page=True)
    # printed: the round's seating on one A4, the QR codes one table to a page
    page.goto(f"/events/{event_id}/seating")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", path=shot("event-seating.pdf"))
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    page.emulate_media(media="screen")
    page.goto(f"/events/{event_id}/qr")
    page.click("#make-codes")
    page.wait_for_selector("#qr-table-3 img")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", path=shot("event-qr-cards.pdf"))
    texts = [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]
    assert len(texts) == 3 and all(f"Mesa {n}" in t for n, t in enumerate(texts, start=1)), texts
    next(director, None)        # its context closes


def test_the_new_event_form_shows_the_chosen_games_options_only_at_375px(browser, live_server):
    """Issue 38: the form showed every game's table options; now only the chosen game's, and
    nothing of it is cut or scrolls sideways on a phone."""
    p = next(phone(browser, live_server))
    p.goto("/events/new")
    visible = lambda: sorted(p.eval_on_selector_all(  # noqa: E731
        "details.options", "ds => ds.filter(d => !d.hidden).map(d => d.dataset.profile)"))
    chosen = p.input_value("select[name=profile]")
    has_options = p.locator(f'details[data-profile="{chosen}"]').count() == 1
    assert visible() == ([chosen] if has_options else [])
    for profile in ("rifki", "subastas", "ru32"):
        p.select_option("select[name=profile]", profile)
        assert visible() == [profile]
        p.click(f'details[data-profile="{profile}"] > summary')
        assert p.evaluate("document.documentElement.scrollWidth") <= 375
        edges = p.eval_on_selector_all(
            "#new-event-form select",
            "ss => ss.filter(s => s.offsetParent).map(s => s.getBoundingClientRect().right)")
        assert edges and max(edges) <= 375, edges
    p.context.close()


def test_the_event_players_box_takes_names_from_the_roster(browser, live_server):
    """Issue 38: a name typed in the event's "add a player" box is suggested from the roster
    (its datalist asks /players/names) and "Add" puts the roster's spelling on a line of
    its own, once, whatever the case or accents typed."""
    p = next(phone(browser, live_server))
    p.goto("/games/new")                           # a roster name to find: one game with Inés
    from tests.browser.test_referee import import_game
    from tests.conftest import base_record

    import_game(p, base_record("ru32", players=["Inés", "Koldo", "Gema", "Carla"]))
    p.goto("/events/new")
    p.fill("#add-player", "ine")
    p.wait_for_function("() => [...document.querySelectorAll('#roster option')]"
                        ".some(o => o.value === 'Inés')")
    p.fill("#add-player", "Inés")
    p.click("#add-player-button")
    p.fill("#add-player", "koldo")
    p.press("#add-player", "Enter")
    p.fill("#add-player", "INES")
    p.click("#add-player-button")
    lines = p.input_value("#players").split()
    assert lines[0] == "Inés" and [n.casefold() for n in lines] == ["inés", "koldo"]
    assert p.evaluate("document.documentElement.scrollWidth") <= 375
    assert p.eval_on_selector("#add-player-button", "b => b.getBoundingClientRect().height") >= 44
    p.context.close()
