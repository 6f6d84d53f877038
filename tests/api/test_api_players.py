"""/api/v1 players and ratings (issue 26): a player's openskill μ and σ (anyone can recompute
them), statistics, the name filter, the leaderboard; bad queries answer 422 naming the field."""
from __future__ import annotations

from openskill.models import PlackettLuce

from app.rules import load
from tests.api.test_api import bearer
from tests.conftest import load_record


def seated(name, players):
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def test_player_ratings_and_statistics(api, make_game):
    record = seated("rifki", ["Ana", "Beto", "Carla", "Dani"])
    make_game(record=record)
    make_game("ru32", players=["Ana", "Beto", "Carla", "Dani"])          # not finished
    found = api.get("/api/v1/players?name=ANA", headers=bearer(api.token)).get_json()["players"]
    assert [p["name"] for p in found] == ["Ana"]
    body = api.get(f"/api/v1/players/{found[0]['id']}", headers=bearer(api.token)).get_json()
    assert (body["id"], body["name"]) == (found[0]["id"], "Ana")
    # openskill's own answer for one game: ranks from the final totals
    totals = list(load(record).totals)
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)],
                       ranks=[1 + sum(t > mine for t in totals) for mine in totals])
    [rating] = body["ratings"]
    assert rating["profile"] == "rifki" and rating["games"] == 1
    assert abs(rating["mu"] - rated[0][0].mu) < 1e-9 and abs(rating["sigma"] - rated[0][0].sigma) < 1e-9
    assert abs(rating["ordinal"] - rated[0][0].ordinal()) < 1e-9
    assert list(body["stats"]) == ["rifki"]                       # the unfinished ru32 game: nothing
    rifki = body["stats"]["rifki"]
    assert rifki["games"] == 1 and rifki["points"] == totals[0] and rifki["kings_made"] == 1
    assert {o["name"] for o in rifki["head_to_head"]} == {"Beto", "Carla", "Dani"}
    assert any(c["contract"] == "rifki" and "kh" in c["took"] for c in rifki["contracts"])
    assert api.get("/api/v1/players/999999", headers=bearer(api.token)).status_code == 404


def test_ratings_leaderboard(api, make_game):
    make_game(record=seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    board = api.get("/api/v1/ratings?profile=ru32&min=1", headers=bearer(api.token)).get_json()
    assert board["profile"] == "ru32" and board["min"] == 1
    assert [r["rank"] for r in board["ratings"]] == sorted(r["rank"] for r in board["ratings"])
    assert len(board["ratings"]) == 4
    assert api.get("/api/v1/ratings?profile=ru32", headers=bearer(api.token)).get_json()["ratings"] == []
    bad = api.get("/api/v1/ratings?profile=chess", headers=bearer(api.token))
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "profile"
    bad = api.get("/api/v1/ratings?profile=ru32&min=0", headers=bearer(api.token))
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "min"
    assert api.get("/api/v1/ratings?profile=ru32").status_code == 401
