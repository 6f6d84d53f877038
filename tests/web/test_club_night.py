"""A whole club night where the features meet (issue 38), through the pages and the API:
13 players of the roster typed as people type them, each with their own PIN; round 1
drawn, a swap and a late arrival; every table played and confirmed by its players' own
PINs at the seats they ended up in; the rounds drawn without force; the event finished;
the standings CSV formula-safe; a second event without PINs locked by the director's
vouching; a scorer refused the director's actions. On SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db import get_session
from app.games.games import import_game
from app.models import Event, Game, Player
from tests.api.test_api import bearer, token_for
from tests.conftest import load_record
from tests.events_play import play

#: PINs, confirmations, locks, draws and the director's actions: the SQL that differs
pytestmark = pytest.mark.every_database

ROSTER = ["Inés", "Koldo", "Gema", "Óscar", "Maximiliano", "Guadalupe", "Berta", "Ana", "Luis",
          "=Pepe", "Nuria", "Sol", "Tomás"]
TYPED = ["ines", "KOLDO", "  gema ", *ROSTER[3:]]          # as the director types them
PINS = {name: f"{3000 + 11 * k}" for k, name in enumerate(ROSTER)}


def _seed_roster(app: Any) -> None:
    with app.app_context():
        session = get_session()
        for k in range(0, 12, 4):
            import_game(session, {**load_record("ru32_complete.json"), "players": ROSTER[k:k + 4]}, who="t")
        import_game(session, {**load_record("ru32_complete.json"),
                              "players": [ROSTER[12], "Uno", "Dos", "Tres"]}, who="t")


def _players_of(app: Any, game_id: int) -> list[str]:
    with app.app_context():
        return list(get_session().get(Game, game_id).record["players"])


def _confirm_with_own_pins(app: Any, client: Any, game_id: int) -> None:
    with app.app_context():
        version = get_session().get(Game, game_id).version
    for seat, name in enumerate(_players_of(app, game_id)):
        r = client.post(f"/games/{game_id}/confirm",
                        data={"seat": seat, "pin": PINS[name], "version": version})
        assert r.status_code == 303, (name, r.get_data(as_text=True)[:300])


def test_a_club_night_of_13_players_from_the_draw_to_the_final_standings(app, client):
    _seed_roster(app)
    with app.app_context():
        players_before = get_session().scalar(select(func.count()).select_from(Player))
    lines = [f"{typed}, {PINS[name]}" for typed, name in zip(TYPED, ROSTER, strict=True)]
    r = client.post("/events/new", data={
        "name": "Noche de club", "day": "2026-12-06", "profile": "ru32", "players": "\n".join(lines[:12]),
        "rounds": "3", "seating": "balanced", "scoring": "points", "ranking_points": "4-2-1-0",
        "sit_out": "nothing", "season": ""})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    event_id = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "no tiene PIN" not in page and "have no PIN" not in page          # every player has one
    with app.app_context():
        assert get_session().scalar(select(func.count()).select_from(Player)) == players_before
        rnd = get_session().get(Event, event_id).drawn[0]
        tables = [t.game_id for t in rnd.tables]
    # a swap between two tables before the first hand, and a late arrival through the API
    a, b = _players_of(app, tables[0])[1], _players_of(app, tables[2])[3]
    assert client.post(f"/events/{event_id}/swap", data={"first": a, "second": b}).status_code == 303
    assert _players_of(app, tables[0])[1] == b and _players_of(app, tables[2])[3] == a
    api = app.test_client(user=None)
    director_token = token_for(app, "api-directora")
    late = api.post(f"/api/v1/events/{event_id}/late", json={"player": "tomas", "pin": PINS["Tomás"]},
                    headers=bearer(director_token))
    assert late.status_code == 200 and "Tomás" in late.get_json()["players"]
    scorer_token = token_for(app, "api-anotador", "scorer")
    assert api.post(f"/api/v1/events/{event_id}/swap", json={"a": a, "b": b},
                    headers=bearer(scorer_token)).status_code == 403
    # three rounds: every table played and confirmed by its players' own PINs, no force
    seen_late = False
    for number in range(1, 4):
        with app.app_context():
            rnd = get_session().get(Event, event_id).drawn[-1]
            games = [t.game_id for t in rnd.tables]
            for gid in games:
                play(get_session(), get_session().get(Game, gid), 10 * number + gid)
        for gid in games:
            seen_late |= "Tomás" in _players_of(app, gid)
            _confirm_with_own_pins(app, client, gid)
        if number < 3:
            assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
    assert seen_late                                    # the late arrival sat at a table
    body = api.get(f"/api/v1/events/{event_id}", headers=bearer(director_token)).get_json()
    assert body["status"] == "finished" and len(body["rounds"]) == 3
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="event-finished"' in page and 'id="swap-form"' not in page and 'id="late-form"' not in page
    # the CSV: every player once, a name that starts like a formula kept as text
    text = client.get(f"/events/{event_id}/standings.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))[1:]
    assert sorted(r[1] for r in rows) == sorted(["'=Pepe" if n == "=Pepe" else n for n in ROSTER])
    formulas = [cell for r in rows for cell in r
                if cell and cell[0] in "=+-@" and not re.fullmatch(r"-?\d+(\.\d+)?", cell)]
    assert formulas == []


def test_an_event_without_pins_locks_when_the_director_vouches(app, client):
    r = client.post("/events/new", data={
        "name": "Sin PIN", "day": "2026-12-06", "profile": "ru32", "players": "\n".join(ROSTER[:4]),
        "rounds": "1", "seating": "balanced", "scoring": "points", "ranking_points": "4-2-1-0",
        "sit_out": "nothing", "season": ""})
    assert r.status_code == 303
    event_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert "4 players have no PIN" in client.get(r.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        gid = get_session().get(Event, event_id).drawn[0].tables[0].game_id
        play(get_session(), get_session().get(Game, gid), 5)
        version = get_session().get(Game, gid).version
    api = app.test_client(user=None)
    token = token_for(app, "api-directora")
    for seat in range(4):
        r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": seat, "version": version},
                     headers=bearer(token))
        assert r.status_code == 201, r.get_json()
    assert r.get_json()["locked"] is True
    assert api.get(f"/api/v1/events/{event_id}", headers=bearer(token)).get_json()["status"] == "finished"
