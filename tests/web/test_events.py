"""Events on the web (issue 25): a director creates and runs a club night; the director's
view shows every table of the round and its live stamp; the next round waits for every
table locked (or is forced with a reason); the results screen opens with the event's
link and no login; standings as CSV."""
from __future__ import annotations

import csv
import io
import re
from collections import Counter

from pypdf import PdfReader
from sqlalchemy import func, select

from app.db import get_session
from app.events import events
from app.models import Event, Game, Player, SeatPin, StoredResult
from tests.api.test_api import token_for
from tests.conftest import load_record
from tests.events_play import PIN, confirm_all, play

NAMES = [f"Socio {i:02d}" for i in range(1, 19)]


def create(client, names=NAMES, **fields):
    data = {"name": "Noche de club", "day": "2026-12-02", "profile": "fiestas",
            "players": "\n".join(f"{n}, {PIN}" for n in names), "rounds": "3", "seating": "balanced",
            "scoring": "points", "ranking_points": "4-2-1-0", "sit_out": "nothing", "season": ""}
    return client.post("/events/new", data={**data, **fields})


def event_of(app, event_id) -> Event:
    return get_session().get(Event, event_id)


def confirm_table(client, game) -> None:
    for seat in range(4):
        r = client.post(f"/games/{game.id}/confirm", data={"seat": seat, "pin": PIN, "version": game.version})
        assert r.status_code == 303, r.get_data(as_text=True)[:500]


def test_a_balanced_evening_of_18_players_through_the_pages(app, client):
    r = create(client)
    assert r.status_code == 303
    event_id = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert page.count('class="card event-table') == 4 and 'id="sitting-out"' in page
    with app.app_context():
        for number in range(1, 4):
            event = event_of(app, event_id)
            rnd = event.drawn[-1]
            blocked = client.post(f"/events/{event_id}/rounds", data={})
            if number < 3:
                assert blocked.status_code == 409
                text = blocked.get_data(as_text=True)
                assert "not locked yet" in text
                # the refused page opens at its reason, where the button was
                assert f'action="/events/{event_id}/rounds#draw"' in text
                assert text.index('id="draw"') < text.index('id="draw-error"') < text.index('id="draw-form"')
            for t in rnd.tables:
                game = play(get_session(), t.game, 100 * number + t.number)
                confirm_table(client, game)
            view = client.get(f"/events/{event_id}").get_data(as_text=True)
            assert 'id="all-locked"' in view and view.count('data-flag="locked"') == 4
            if number < 3:
                assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
        event = event_of(app, event_id)
        sat = Counter(p for rnd in event.drawn for p in rnd.sitting_out)
        assert len(sat) == 6 and set(sat.values()) == {1}
        totals: Counter[str] = Counter()
        for rnd in event.drawn:
            for t in rnd.tables:
                row = get_session().get(StoredResult, t.game_id)
                for name, total in zip(row.players, row.totals, strict=True):
                    totals[name] += total
    last = client.post(f"/events/{event_id}/rounds", data={})
    assert last.status_code == 422 and "All 3 rounds" in last.get_data(as_text=True)
    # the CSV: one line a player, the total each the sum of their games' totals
    body = client.get(f"/events/{event_id}/standings.csv").get_data(as_text=True)
    lines = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert lines[0][:2] == ["Place", "Player"] and len(lines) == 19
    assert {row[1]: int(row[5]) for row in lines[1:]} == {n: totals.get(n, 0) for n in NAMES}
    assert [int(row[0]) for row in lines[1:]] == sorted(int(row[0]) for row in lines[1:])
    # the PDF: one export job, the standings first, then every table's sheet
    from app.printing.runner import wait_for_job

    r = client.post(f"/events/{event_id}/pdf", data={})
    assert r.status_code == 303 and r.headers["Location"].startswith("/exports/")
    job_id = r.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/exports/{job_id}").status_code == 200     # the page starts the runner
    job = wait_for_job(app, job_id)
    assert job.state == "done" and job.total == 13, job.error
    with client.get(f"/exports/{job_id}.pdf") as pdf:
        reader = PdfReader(io.BytesIO(pdf.data))
    first = reader.pages[0].extract_text()
    assert "Standings" in first and all(name in first for name in NAMES)
    assert len(reader.pages) >= 13
    assert [o.title for o in reader.outline][:2] == ["Standings", "Round 1, table 1"]
    # each player's page lists their events
    with app.app_context():
        pid = get_session().scalar(select(Player.id).where(Player.name == NAMES[0]))
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    assert 'id="player-events"' in page and f'href="/events/{event_id}"' in page


def test_bad_input_is_shown_next_to_its_field_in_the_pages_language(client):
    r = create(client, names=NAMES[:3])
    assert r.status_code == 400
    assert "Players: An event needs at least four players." in r.get_data(as_text=True)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = create(client, ranking_points="1-2-3-4", scoring="ranking")
    assert r.status_code == 400
    assert "Un puesto nunca gana más que el anterior." in r.get_data(as_text=True)


def test_a_forced_round_needs_a_reason_which_the_log_shows(app, client):
    event_id = int(create(client, names=NAMES[:8]).headers["Location"].rsplit("/", 1)[1])
    r = client.post(f"/events/{event_id}/rounds", data={"force": "y", "reason": "  "})
    assert r.status_code == 422 and "Reason: Give a reason" in r.get_data(as_text=True)
    r = client.post(f"/events/{event_id}/rounds", data={"force": "y", "reason": "Se acaba el local"})
    assert r.status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "forced: Se acaba el local" in page and "Round 2 of 3" in page


def test_swap_and_late_arrival_from_the_directors_view(app, client):
    event_id = int(create(client, names=NAMES[:9]).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        rnd = event_of(app, event_id).drawn[0]
        sitter = get_session().get(Player, rnd.sitting_out[0]).name
        seated = rnd.tables[0].game.record["players"][0]
    r = client.post(f"/events/{event_id}/swap", data={"first": sitter, "second": seated})
    assert r.status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert f"Sitting out: {seated}" in page and f"swapped {sitter} and {seated}" in page
    r = client.post(f"/events/{event_id}/swap", data={"first": sitter, "second": sitter})
    assert r.status_code == 422 and "Choose two different players." in r.get_data(as_text=True)
    r = client.post(f"/events/{event_id}/late", data={"name": "Rezagada", "pin": "12"})
    assert r.status_code == 400 and "PIN: A PIN is 4 digits." in r.get_data(as_text=True)
    r = client.post(f"/events/{event_id}/late", data={"name": "Rezagada", "pin": "1357"})
    assert r.status_code == 303
    assert "registered Rezagada from round 2" in client.get(f"/events/{event_id}").get_data(as_text=True)


def test_the_screen_opens_with_its_link_and_the_live_stamp_follows_a_save(app, client):
    event_id = int(create(client, names=NAMES[:8]).headers["Location"].rsplit("/", 1)[1])
    anonymous = app.test_client(user=None)
    assert anonymous.get(f"/events/{event_id}/screen").status_code == 404
    assert anonymous.get(f"/events/{event_id}/screen?key=wrong").status_code == 404
    assert client.post(f"/events/{event_id}/share").status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    key = re.search(r'screen\?key=([\w-]+)', page).group(1)
    screen = anonymous.get(f"/events/{event_id}/screen?key={key}")
    assert screen.status_code == 200 and 'id="screen-seating"' in screen.get_data(as_text=True)
    live = anonymous.get(f"/events/{event_id}/live?key={key}")
    tag = live.headers["ETag"]
    again = anonymous.get(f"/events/{event_id}/live?key={key}", headers={"If-None-Match": tag})
    assert again.status_code == 304
    with app.app_context():
        play(get_session(), event_of(app, event_id).drawn[0].tables[0].game, 4, hands=2)
    after = anonymous.get(f"/events/{event_id}/live?key={key}", headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.headers["ETag"] != tag
    shown = anonymous.get(f"/events/{event_id}/screen?key={key}").get_data(as_text=True)
    assert 'data-hands="2"' in shown
    # the link shows the screen and nothing else of the event
    assert anonymous.get(f"/events/{event_id}?key={key}").status_code == 303


def test_a_scorer_reads_the_event_but_may_not_run_it(app, client):
    event_id = int(create(client, names=NAMES[:8]).headers["Location"].rsplit("/", 1)[1])
    scorer = app.test_client(user="ana_s", role="scorer")
    page = scorer.get(f"/events/{event_id}")
    assert page.status_code == 200 and 'id="draw-form"' not in page.get_data(as_text=True)
    assert scorer.get("/events/new").status_code == 403
    with app.app_context():
        assert len(event_of(app, event_id).drawn) == 1
        assert get_session().scalar(select(Event.id)) == event_id
    assert events.SEATINGS == ("random", "balanced", "swiss")


def test_the_tables_qr_codes_hand_each_game_to_its_tables_phone(app, client):
    event_id = int(create(client, names=NAMES[:8]).headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/events/{event_id}/qr").get_data(as_text=True)
    assert page.count("No code: used already, or not made yet.") == 2
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title and "<" not in title[1] and "QR codes of the tables" in title[1]   # no script in it
    assert client.post(f"/events/{event_id}/qr", data={}).status_code == 303
    page = client.get(f"/events/{event_id}/qr").get_data(as_text=True)
    paths = re.findall(r'href="(/h/[\w-]+)"', page)
    assert len(paths) == 2 and page.count('src="/qr.svg?path=/h/') == 2
    # the table's phone (a scorer) opens its table's link: it now keeps that game's score
    phone = app.test_client(user="mesa_1", role="scorer")
    with app.app_context():
        game_id = event_of(app, event_id).drawn[0].tables[0].game_id
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 403
    assert phone.post(paths[0], data={}).status_code in (302, 303)
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 200


def test_the_swap_lists_read_as_wtforms_writes_them(app, client):
    """The director's two lists of names are written by a template loop (fast for a night
    of 400 players): the same HTML as WTForms' own select, a refused choice kept selected."""
    from app.events.forms import SwapForm

    names = NAMES[:8] + ['Ana "la <b>"']
    event_id = int(create(client, names=names).headers["Location"].rsplit("/", 1)[1])
    first = names[0]
    r = client.post(f"/events/{event_id}/swap", data={"first": first, "second": first})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    choices = sorted(((n, n) for n in names), key=lambda c: c[0].casefold())
    for field_name, element_id in (("first", "swap-first"), ("second", "swap-second")):
        written = re.search(rf'<select id="{element_id}".*?</select>', page, re.S)
        assert written is not None
        with app.test_request_context(method="POST", data={"first": first, "second": first}):
            field = getattr(SwapForm(), field_name)
            field.choices = choices
            assert written.group(0) == str(field(id=element_id))
    assert "<b>" not in page.split('id="swap-first"')[1].split("</select>")[0]


def test_the_standings_csv_keeps_a_name_that_looks_like_a_formula_as_text(app, client):
    """A player named like a formula is written with a leading apostrophe, so a spreadsheet
    shows it as text and never runs it (issue 38: the standings CSV was not formula-safe)."""
    names = ["=SUM(A1:A9)", "+Tomás", "@Carla", "-Dani", "Eva", "Fermín", "Gema", "Hugo"]
    r = create(client, names=names, rounds="1")
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    event_id = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    body = client.get(f"/events/{event_id}/standings.csv").get_data(as_text=True)
    cells = [c for row in csv.reader(io.StringIO(body.lstrip("\ufeff"))) for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not c[1:].isdigit())], cells
    assert {"'=SUM(A1:A9)", "'+Tomás", "'@Carla", "'-Dani"} <= set(cells)


def test_only_a_director_queues_the_events_pdf(app, client):
    """The event's PDF is a bulk export job: a director's to start (issues 38 and 41). A
    player or scorer sees no PDF button and is refused (403), and no job is queued."""
    from app.models import ExportJob
    from tests.conftest import ensure_user

    r = create(client, names=NAMES[:8], rounds="1")
    assert r.status_code == 303
    event_id = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert 'id="event-pdf"' in client.get(f"/events/{event_id}").get_data(as_text=True)
    for role in ("player", "scorer"):
        ensure_user(app, f"u-{role}", role)
        other = app.test_client(user=f"u-{role}", role=role)
        page = other.get(f"/events/{event_id}")
        assert page.status_code == 200 and 'id="event-pdf"' not in page.get_data(as_text=True)
        assert other.post(f"/events/{event_id}/pdf", data={}).status_code == 403
    with app.app_context():
        assert get_session().scalar(select(func.count()).select_from(ExportJob)) == 0
    assert client.post(f"/events/{event_id}/pdf", data={}).status_code == 303


def test_an_event_table_is_named_by_its_table_and_round_with_a_way_back(app, client):
    """Issue 38: an event's table page and its sheet PDF say "Mesa 1 · Ronda 1" (and the
    event's name), not "Partida 5", and the page links back to the event."""
    from pypdf import PdfReader

    r = create(client, names=NAMES[:8], rounds="2")
    event_id = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        second = event_of(app, event_id).drawn[0].tables[1]
        game_id = second.game_id
    es = app.test_client()
    es.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    page = es.get(f"/games/{game_id}").get_data(as_text=True)
    assert '<h1 id="event-place">Mesa 2 · Ronda 1</h1>' in page
    assert f'href="/events/{event_id}"' in page and "← Noche de club" in page
    assert "<title>Mesa 2 · Ronda 1 · Noche de club" in page
    pdf = es.get(f"/games/{game_id}/sheet.pdf")
    assert pdf.status_code == 200
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Mesa 2 · Ronda 1 · Noche de club" in text and f"Partida {game_id}" not in text


def test_a_players_pin_follows_them_through_a_swap(app, client):
    """Issue 38: PINs belong to the player for the night. After swapping two players of
    different tables (and a seated player with one sitting out), each player's own PIN
    confirms their new seat; their old seat's PIN no longer does, and a player without a PIN
    leaves none behind."""
    pins = {name: f"{1000 + 7 * k}" for k, name in enumerate(NAMES[:9])}
    pins[NAMES[8]] = ""                                    # one player without a PIN
    players = "\n".join(f"{n}, {p}" if p else n for n, p in pins.items())
    event_id = int(create(client, players=players).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        rnd = event_of(app, event_id).drawn[0]
        tables = [list(t.game.record["players"]) for t in rnd.tables]
        sitter = get_session().get(Player, rnd.sitting_out[0]).name
        game_ids = [t.game_id for t in rnd.tables]
    # a and c at table 1, b at table 2: players with a PIN (the one without may sit anywhere)
    sa, sc = [s for s in range(4) if pins[tables[0][s]]][:2]
    sb = next(s for s in range(4) if pins[tables[1][s]])
    a, b, c = tables[0][sa], tables[1][sb], tables[0][sc]
    assert client.post(f"/events/{event_id}/swap", data={"first": a, "second": b}).status_code == 303
    assert client.post(f"/events/{event_id}/swap", data={"first": c, "second": sitter}).status_code == 303

    def confirm(game_id: int, seat: int, pin: str) -> int:
        with app.app_context():
            version = get_session().get(Game, game_id).version
        return client.post(f"/games/{game_id}/confirm",
                           data={"seat": seat, "pin": pin, "version": version}).status_code

    with app.app_context():
        now = [list(get_session().get(Game, g).record["players"]) for g in game_ids]
    assert now[0][sa] == b and now[1][sb] == a and now[0][sc] == sitter
    assert confirm(game_ids[0], sa, pins[a]) == 422          # a's PIN no longer opens a's old seat
    assert confirm(game_ids[1], sb, pins[b]) == 422
    assert confirm(game_ids[0], sa, pins[b]) == 303          # b's own PIN at b's new seat
    assert confirm(game_ids[1], sb, pins[a]) == 303
    with app.app_context():
        seat_pin = get_session().get(SeatPin, (game_ids[0], sc))
    if pins[sitter]:
        assert confirm(game_ids[0], sc, pins[c]) == 422 and confirm(game_ids[0], sc, pins[sitter]) == 303
    else:
        assert seat_pin is None                              # c's PIN did not stay behind


def test_creating_an_event_without_every_pin_says_what_it_means(app, client):
    """Issue 38: an event whose players lack PINs warns at creation that their seats are
    confirmed from an account or vouched for by a director (in the page's language)."""
    players = "\n".join([f"{n}, {PIN}" for n in NAMES[:6]] + NAMES[6:8])
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = create(client, players=players)
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "2 jugadores no tienen PIN" in page and "los avala un director" in page
    flashes = re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', page)
    assert len(flashes) == 2                             # created, and the warning
    r = create(client, names=NAMES[:8])
    flashes = re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', client.get(r.headers["Location"]).get_data(
        as_text=True))
    assert len(flashes) == 1 and "PIN" not in flashes[0]     # every player has one: no warning


def test_an_event_matches_names_to_the_roster_and_refuses_look_alikes(app, client):
    """Issue 38, one roster: "ines", "  koldo " and "GEMA" are Inés, Koldo and Gema of the
    roster (their stored spelling, no new player); a PIN given under the typed spelling
    stays theirs; a name that only looks like a roster name (a Cyrillic А) is refused, on
    creation and for a late arrival, in the page's language."""
    from app.games.games import import_game

    with app.app_context():
        import_game(get_session(), {**load_record("ru32_complete.json"),
                                    "players": ["Inés", "Koldo", "Gema", "Ana"]}, who="test")
        before = get_session().scalar(select(func.count()).select_from(Player))
    players = "\n".join(["ines, 1357", "  koldo ", "GEMA", "Berta"])
    r = create(client, players=players)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    event_id = int(r.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        event = event_of(app, event_id)
        names = {get_session().get(Player, e.player_id).name: e.pin_hash for e in event.entrants}
        assert set(names) == {"Inés", "Koldo", "Gema", "Berta"} and names["Inés"] is not None
        assert get_session().scalar(select(func.count()).select_from(Player)) == before + 1
    r = create(client, players="\n".join(["\u0410na", "Koldo", "Gema", "Berta"]))
    assert r.status_code == 400
    assert "\u0410na looks like Ana on the roster" in r.get_data(as_text=True)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = client.post(f"/events/{event_id}/late", data={"name": "\u0410na", "pin": ""})
    assert r.status_code in (400, 422) and "se parece a Ana" in r.get_data(as_text=True)
    r = client.post(f"/events/{event_id}/late", data={"name": "ana", "pin": ""})
    assert r.status_code == 303
    with app.app_context():
        entrants = event_of(app, event_id).entrants
        assert "Ana" in {get_session().get(Player, e.player_id).name for e in entrants}


def test_an_event_is_finished_once_its_last_round_is_locked(app, client):
    """Issue 38, the event's life: running while a table of the last planned round is open;
    once each is locked, the page says the event is over, shows the final standings and
    offers no swap nor late arrival, and the API says "finished"."""
    event_id = int(create(client, names=NAMES[:8], rounds="1").headers["Location"].rsplit("/", 1)[1])
    token = token_for(app, "ev-api")
    body = client.get(f"/api/v1/events/{event_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["status"] == "running"
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="swap-form"' in page and 'id="event-finished"' not in page
    with app.app_context():
        session = get_session()
        for table in event_of(app, event_id).drawn[0].tables:
            confirm_all(session, play(session, table.game, 3))
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="event-finished"' in page and "Final standings" in page
    assert 'id="swap-form"' not in page and 'id="late-form"' not in page
    body = client.get(f"/api/v1/events/{event_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["status"] == "finished"


def _screen(app, client, event_id) -> str:
    assert client.post(f"/events/{event_id}/share").status_code == 303
    with app.app_context():
        key = event_of(app, event_id).share_token
    page = app.test_client(user=None).get(f"/events/{event_id}/screen?key={key}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def test_the_room_screen_shows_the_seating_then_the_standings_per_round_then_the_final(app, client):
    """Issue 38, the screen for the room: until the round's first hand, every table with its
    four players and who sits out; then the standings with a column per round and each
    table's state, all on one page; at the end the final standings, marked final."""
    names = [f"Sala {i:02d}" for i in range(1, 14)]       # 13: three tables, one sits out
    event_id = int(create(client, names=names, rounds="2").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        rnd = event_of(app, event_id).drawn[0]
        seated = [t.game.record["players"] for t in rnd.tables]
        out = get_session().get(Player, rnd.sitting_out[0]).name
    shown = _screen(app, client, event_id)
    assert 'data-phase="seating"' in shown and 'id="screen-standings"' not in shown
    for n, players in enumerate(seated, start=1):
        card = shown[shown.index(f'id="screen-table-{n}"'):].split("</li>\n")[0]
        assert f">Mesa {n}<" in card and all(f"<li class=\"name\">{p}</li>" in card for p in players)
    assert f"Descansan: {out}" in shown      # the screen's link opens in the club's language
    with app.app_context():
        session = get_session()
        tables = event_of(app, event_id).drawn[0].tables
        play(session, tables[0].game, 1, hands=2)
        confirm_all(session, play(session, tables[1].game, 2))
    shown = _screen(app, client, event_id)
    assert 'data-phase="play"' in shown and 'id="screen-seating"' not in shown
    assert shown.count('<tr data-player=') == 13 and shown.count('class="standing-columns page') == 1
    assert ">R1<" in shown and "Clasificación final" not in shown
    assert 'id="screen-table-1" data-hands="2"' in shown and 'data-state="playing"' in shown
    assert 'data-state="locked"' in shown
    with app.app_context():
        session = get_session()
        event = event_of(app, event_id)
        confirm_all(session, play(session, event.drawn[0].tables[0].game, 1))
        confirm_all(session, play(session, event.drawn[0].tables[2].game, 3))
    assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
    shown = _screen(app, client, event_id)
    assert 'data-phase="seating"' in shown and "Ronda 2 de 2" in shown
    with app.app_context():
        session = get_session()
        for k, t in enumerate(event_of(app, event_id).drawn[1].tables):
            confirm_all(session, play(session, t.game, 10 + k))
    shown = _screen(app, client, event_id)
    assert 'data-phase="final"' in shown and 'id="screen-final"' in shown and "Clasificación final" in shown
    assert ">R1<" in shown and ">R2<" in shown and shown.count('<tr data-player=') == 13
    # each row carries a value per round (a sit-out's in brackets)
    row = shown[shown.index('<tr data-player='):].split("</tr>")[0]
    assert row.count('class="num round"') == 2


def test_the_event_page_keeps_every_round_and_offers_only_results_once_finished(app, client):
    """Issue 38, the event's life: the page lists every round drawn (its tables with players,
    totals and state, who sat out, the forced reason); once finished it offers neither the
    draw, nor a swap, a late arrival or a withdrawal, only the results, the PDF and the CSV."""
    names = [f"Historia {i:02d}" for i in range(1, 10)]      # 9: two tables, one sits out
    event_id = int(create(client, names=names, rounds="2").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        session = get_session()
        rnd = event_of(app, event_id).drawn[0]
        first_out = session.get(Player, rnd.sitting_out[0]).name
        for k, t in enumerate(rnd.tables):
            play(session, t.game, 20 + k)
        totals = get_session().get(StoredResult, rnd.tables[0].game_id).totals
    r = client.post(f"/events/{event_id}/rounds", data={"force": "y", "reason": "Cierra el bar"})
    assert r.status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    history = page[page.index('id="event-rounds"'):page.index('id="screen-link"')]
    # the current round in full above (its forced reason too), the earlier ones below it
    assert 'id="round-1"' in history and 'id="round-2"' not in history and "Earlier rounds" in history
    current = page[:page.index('id="event-rounds"')]
    assert "Cierra el bar" in current
    round_1 = history[history.index('id="round-1"'):]
    assert f"Sitting out: {first_out}" in round_1
    assert "0 of 2 tables locked" in round_1 and round_1.count('data-state="done"') == 2
    signed = lambda n: f"+{n}" if n > 0 else str(n).replace("-", "\u2212")  # noqa: E731
    assert all(f"<b>{signed(x) if x else '0'}</b>" in round_1 for x in totals)
    assert "data-forced" not in round_1
    assert 'id="draw"' in page and 'id="swap-form"' in page and 'id="table-codes"' in page
    with app.app_context():
        session = get_session()
        for k, t in enumerate(event_of(app, event_id).drawn[1].tables):
            confirm_all(session, play(session, t.game, 30 + k))
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="event-finished"' in page and 'id="round-1"' in page
    assert 'id="round-title">Round 2 of 2' in page               # the last round, in full
    for offered in ('id="draw"', 'id="draw-form"', 'id="swap-form"', 'id="late-form"',
                    'id="withdraw-form"', 'id="table-codes"', 'id="print-seating"'):
        assert offered not in page, offered
    assert 'id="standings-csv"' in page and 'id="event-pdf"' in page


def test_the_rounds_seating_prints_on_one_page(app, client):
    names = [f"Pared {i:02d}" for i in range(1, 14)]
    event_id = int(create(client, names=names).headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/events/{event_id}/seating").get_data(as_text=True)
    with app.app_context():
        rnd = event_of(app, event_id).drawn[0]
        seated = [p for t in rnd.tables for p in t.game.record["players"]]
        out = get_session().get(Player, rnd.sitting_out[0]).name
    assert page.count('id="seating-table-') == 3 and all(f"<li>{p}</li>" in page for p in seated)
    assert f"Sitting out: {out}" in page and "data-print" in page
    assert app.test_client(user=None).get(f"/events/{event_id}/seating").status_code in (302, 303)
