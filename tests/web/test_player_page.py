"""A player's page (issue 26): ratings, statistics per contract, head-to-head, a CSV of them,
the ratings' leaderboard; bad input names its field, never a 500."""
from __future__ import annotations

import csv
import io
import re

import pytest
from sqlalchemy import select

from app.models import Player
from tests.conftest import load_record

pytestmark = pytest.mark.every_database


def seated(name, players):
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def player_id(app, name):
    from app.db import get_session

    with app.app_context():
        return get_session().scalar(select(Player.id).where(Player.name == name))


def test_player_page_shows_ratings_statistics_and_head_to_head(app, client, make_game):
    make_game(record=seated("subastas", ["Ana", "Beto", "Carla", "Dani"]))
    make_game(record=seated("subastas", ["Dani", "Ana", "Eva", "Beto"]))
    make_game("ru32", players=["Ana", "Beto", "Carla", "Dani"])           # not finished
    html = client.get(f"/players/{player_id(app, 'Ana')}").get_data(as_text=True)
    assert 'data-finished="2" data-unfinished="1"' in html
    assert re.search(r'data-rating="\d+"', html) and "rests on 2 games" in html
    assert 'id="contracts-subastas"' in html and 'data-contract="no-kh"' in html
    assert 'id="auction-subastas"' in html
    assert html.count('data-opponent="') == 4
    assert html.count("<svg") >= 2 and "Rating over time" in html
    assert 'id="contracts-ru32"' not in html            # the unfinished game counts for nothing
    assert "1000 + 25 × (μ − 3σ)" in html


def test_player_csv_holds_every_statistic(app, client, make_game):
    make_game(record=seated("subastas", ["Ana", "Beto", "Carla", "=Dani"]))
    response = client.get(f"/players/{player_id(app, 'Ana')}/stats.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["section", "profile", "subject", "measure", "value"]
    assert ["contract", "subastas", "no-tricks", "took_tricks", "3"] in rows
    assert ["auction", "subastas", "Ana", "received", "200"] in rows
    assert ["head_to_head", "subastas", "'=Dani", "games", "1"] in rows      # never a formula
    assert any(r[:4] == ["rating", "subastas", "Ana", "mu"] for r in rows)
    # what the charts show, game by game, and the average bid
    shown = next(r[4] for r in rows if r[:4] == ["rating", "subastas", "Ana", "shown"])
    assert ["rating_history", "subastas", "1", "shown", shown] in rows
    assert ["points_over_time", "subastas", "1", "points", "20"] in rows
    assert ["auction", "subastas", "Ana", "average_bid", "150.0"] in rows
    assert client.get("/players/999999/stats.csv").status_code == 404


def test_ratings_leaderboard_and_its_bad_input(app, client, make_game):
    make_game(record=seated("rifki", ["Ana", "Beto", "Carla", "Dani"]))
    html = client.get("/players/ratings?profile=rifki&min=1").get_data(as_text=True)
    assert html.count("data-rank=") == 4
    empty = client.get("/players/ratings?profile=rifki").get_data(as_text=True)
    assert "No player has 5 rated games" in empty
    bad = client.get("/players/ratings?profile=nope&min=x")
    assert bad.status_code == 400
    text = bad.get_data(as_text=True)
    assert 'id="profile-error"' in text and 'id="min-error"' in text
    es = app.test_client()
    es.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    assert "Escribe un número entero" in es.get("/players/ratings?min=0").get_data(as_text=True)


def test_head_to_head_shows_twenty_opponents_and_the_csv_all_of_them(app, client, make_game):
    """24 opponents: the page lists stats.OPPONENTS_SHOWN = 20 of them, most games together
    first, then by name, and says how many more the CSV holds; the CSV lists all 24."""
    from app.stats.stats import OPPONENTS_SHOWN

    names = [f"Rival {k:02d}" for k in range(1, 25)]
    for k in range(0, 24, 3):
        make_game(record=seated("ru32", ["Ana", *names[k:k + 3]]))
    make_game(record=seated("ru32", ["Ana", "Rival 24", "Rival 23", "Rival 01"]))
    ids = {name: player_id(app, name) for name in names}
    ana = player_id(app, "Ana")
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    table = html[html.index('id="h2h-ru32"'):]
    table = table[:table.index("</table>")]
    shown = [int(i) for i in re.findall(r'data-opponent="(\d+)"', table)]
    assert OPPONENTS_SHOWN == 20 and len(shown) == 20
    # two games together with Rival 01, 23 and 24 (by name), then one game each by name
    assert shown == [ids[n] for n in ["Rival 01", "Rival 23", "Rival 24", *names[1:18]]]
    assert "4 more opponents in the CSV." in html
    rows = list(csv.reader(io.StringIO(client.get(f"/players/{ana}/stats.csv").get_data(as_text=True))))
    games = {r[2]: r[4] for r in rows if r[:2] == ["head_to_head", "ru32"] and r[3] == "games"}
    assert games == {n: "2" if n in ("Rival 01", "Rival 23", "Rival 24") else "1" for n in names}
    es = app.test_client()
    es.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    assert "4 rivales más en el CSV." in es.get(f"/players/{ana}").get_data(as_text=True)


def test_the_ratings_page_opens_on_the_clubs_most_played_game(app, client, make_game):
    """Without ?profile= the leaderboard is the club's most played game's, not the first of
    the list (a club that plays only rifki opened on an empty ru32 board: issue 38)."""
    assert 'value="ru32" selected' in client.get("/players/ratings").get_data(as_text=True)  # none yet
    make_game(record=seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    for _ in range(2):
        make_game(record=seated("rifki", ["Ana", "Beto", "Carla", "Dani"]))
    html = client.get("/players/ratings?min=1").get_data(as_text=True)
    assert 'value="rifki" selected' in html and html.count("data-rank=") == 4
