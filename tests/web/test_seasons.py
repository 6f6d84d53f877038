"""Seasons: standings per profile computed by hand for a small fixture, the leaderboard,
the season form (errors name the field), the printable PDF."""
from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime

import pytest

from app.games.imports import check_one, write_chunk
from app.models import Season
from app.stats import standings
from app.stats.seasons import save_season
from tests.conftest import base_record, load_record
from tests.services.test_results import tie_on_top

pytestmark = pytest.mark.every_database

FIESTAS = load_record("fiestas_complete.json")    # Ana +20, Beto −80, Carla +90, Dani −30
RU32 = load_record("ru32_complete.json")          # Ana −22, Beto +42, Carla −14, Dani −6


def play(session, record, day):
    when = datetime(day.year, day.month, day.day, 20, 30, tzinfo=UTC)
    return write_chunk(session, [check_one(record)], who="t", played_at=when, players={})[0]


@pytest.fixture
def season(session):
    assert FIESTAS["players"] == RU32["players"] == ["Ana", "Beto", "Carla", "Dani"]
    play(session, FIESTAS, date(2026, 1, 10))
    play(session, tie_on_top(FIESTAS), date(2026, 3, 31))   # Ana +90, Beto −150, Carla +90, Dani −30
    play(session, RU32, date(2026, 2, 1))
    play(session, FIESTAS, date(2026, 4, 1))                 # after the season
    play(session, FIESTAS, date(2025, 12, 31))               # before it
    play(session, base_record("fiestas"), date(2026, 1, 15))  # in progress: not counted
    return save_season(session, name="Liga de invierno 2026", starts_on=date(2026, 1, 1),
                       ends_on=date(2026, 3, 31))


def table(rows):
    return [(r.rank, r.name, r.games, r.wins, r.shared_wins, r.points) for r in rows]


def test_season_standings_computed_by_hand(session, season):
    tables = standings.season_standings(session, season)
    assert list(tables) == ["ru32", "fiestas"]
    assert table(tables["fiestas"]) == [
        (1, "Carla", 2, 2, 1, 180),
        (2, "Ana", 2, 1, 1, 110),
        (3, "Dani", 2, 0, 0, -60),
        (4, "Beto", 2, 0, 0, -230),
    ]
    assert table(tables["ru32"]) == [
        (1, "Beto", 1, 1, 0, 42), (2, "Dani", 1, 0, 0, -6), (3, "Carla", 1, 0, 0, -14),
        (4, "Ana", 1, 0, 0, -22)]
    assert tables["fiestas"][1].average == 55
    only = standings.season_standings(session, season, "rifki")
    assert only == {"rifki": []}
    board = standings.season_leaderboard(session, season)
    assert [(r.rank, r.name, r.games, r.wins) for r in board] == [
        (1, "Carla", 3, 2), (2, "Ana", 3, 1), (2, "Beto", 3, 1), (4, "Dani", 3, 0)]


def test_season_pages_and_leaderboard(client, season):
    html = client.get(f"/seasons/{season.id}").get_data(as_text=True)
    assert "Liga de invierno 2026" in html
    fiestas = html[html.index('id="standings-fiestas"'):]
    names = re.findall(r'<a href="/players/\d+">(\w+)</a>', fiestas.split("</table>")[0])
    assert names == ["Carla", "Ana", "Dani", "Beto"]
    assert 'data-points="180"' in fiestas and 'data-average="90.0"' in fiestas
    only = client.get(f"/seasons/{season.id}?profile=ru32").get_data(as_text=True)
    assert 'id="standings-ru32"' in only and 'id="standings-fiestas"' not in only
    board = client.get(f"/players?season={season.id}").get_data(as_text=True)
    assert 'id="leaderboard"' in board
    assert re.findall(r'data-rank="(\d)"', board) == ["1", "2", "2", "4"]
    assert client.get("/seasons/999").status_code == 404


def test_long_standings_show_the_top_rows_and_link_to_all(client, season, monkeypatch):
    from app.web import common as view  # SHOWN: the rows a long table shows

    monkeypatch.setattr(view, "SHOWN", 2)
    html = client.get(f"/seasons/{season.id}?profile=fiestas").get_data(as_text=True)
    assert html.count("data-rank=") == 2 and "Show all 4 players" in html
    html = client.get(f"/seasons/{season.id}?profile=fiestas&all=1").get_data(as_text=True)
    assert html.count("data-rank=") == 4 and "Show all" not in html
    board = client.get(f"/players?season={season.id}").get_data(as_text=True)
    assert board.count("data-rank=") == 2 and "Show all 4 players" in board


def test_standings_pdf(client, season):
    from pypdf import PdfReader

    r = client.get(f"/seasons/{season.id}/standings.pdf?profile=fiestas", headers={"Accept-Language": "es"})
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = PdfReader(io.BytesIO(r.data)).pages[0].extract_text()
    assert "Liga de invierno 2026" in text and "Carla" in text
    assert text.index("Carla") < text.index("Ana") < text.index("Dani") < text.index("Beto")
    # the column of Kings made says so, as the web standings do, not "Reyes" (the cards)
    assert "Kings hechos" in " ".join(text.split()) and "Reyes" not in text


def test_season_form_creates_edits_deletes(client, session):
    r = client.post("/seasons", data={"name": " Liga  de verano ", "starts_on": "2026-06-01",
                                      "ends_on": "2026-08-31"})
    assert r.status_code == 302
    season = session.query(Season).one()
    assert season.name == "Liga de verano"
    r = client.post(f"/seasons/{season.id}/edit", data={"name": "Verano", "starts_on": "2026-06-01",
                                                        "ends_on": "2026-09-30"})
    assert r.status_code == 302
    session.expire_all()
    assert (season.name, season.ends_on) == ("Verano", date(2026, 9, 30))
    assert client.post(f"/seasons/{season.id}/delete").status_code == 302
    assert session.query(Season).count() == 0


@pytest.mark.parametrize("data, field", [
    ({"name": "", "starts_on": "2026-01-01", "ends_on": "2026-02-01"}, "Name"),
    ({"name": "X", "starts_on": "2026-02-30", "ends_on": "2026-03-01"}, "First day"),
    ({"name": "X", "starts_on": "2026-03-01", "ends_on": "2026-02-01"}, "Last day"),
    ({"name": "x" * 81, "starts_on": "2026-01-01", "ends_on": "2026-02-01"}, "Name"),
    ({"name": "liga", "starts_on": "2026-01-01", "ends_on": "2026-02-01"}, "Name"),
])
def test_season_form_errors_name_the_field(client, session, data, field):
    save_season(session, name="Liga", starts_on=date(2025, 1, 1), ends_on=date(2025, 2, 1))
    r = client.post("/seasons", data=data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert re.search(rf'role="alert">{field}: ', html)
    assert f'value="{data["name"]}"' in html or not data["name"]          # nothing typed is lost
    assert session.query(Season).count() == 1


def test_season_form_needs_csrf(csrf_app):
    client = csrf_app.test_client()
    r = client.post("/seasons", data={"name": "X", "starts_on": "2026-01-01", "ends_on": "2026-02-01"})
    assert r.status_code == 400
    from app.db import get_session

    with csrf_app.app_context():
        assert get_session().query(Season).count() == 0


def test_a_services_refusal_is_shown_in_the_pages_language(client, session):
    """The service says what is wrong as an English template; the page translates it."""
    data = {"name": "X", "starts_on": "2026-03-01", "ends_on": "2026-02-01"}
    page = client.post("/seasons", data=data, headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "El último día es anterior al primero." in page
    assert "The last day comes before the first." not in page
