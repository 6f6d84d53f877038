"""/api/v1 one roster (issue 38): a director renames a player or merges two; refusals name
the field, anyone else gets 403."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from tests.api.test_api import bearer, token_for
from tests.conftest import load_record


def seated(name: str, players: list[str]) -> dict[str, Any]:
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def ids(app: Any) -> dict[str, int]:
    from app.db import get_session
    from app.models import Player

    with app.app_context():
        return {name: int(pid) for pid, name in get_session().execute(select(Player.id, Player.name))}


def test_a_director_renames_a_player(app, api, make_game):
    game = make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = ids(app)["koldo"]
    etag = api.get(f"/api/v1/games/{game}", headers=bearer(api.token)).headers.get("ETag")
    r = api.post(f"/api/v1/players/{pid}/rename", json={"name": "Koldo"}, headers=bearer(api.token))
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["id"], r.get_json()["name"]) == (pid, "Koldo")
    after = api.get(f"/api/v1/games/{game}", headers=bearer(api.token))
    assert after.get_json()["record"]["players"][0] == "Koldo"
    assert after.headers.get("ETag") != etag
    assert "koldo" not in ids(app)


def test_a_refused_rename_names_the_field(app, api, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = ids(app)["koldo"]
    for name in ("", "ANA", "\u0410na", "x" * 61):
        r = api.post(f"/api/v1/players/{pid}/rename", json={"name": name}, headers=bearer(api.token))
        assert r.status_code == 422 and r.get_json()["error"]["field"] == "name", name
    r = api.post(f"/api/v1/players/{pid}/rename", json={"name": "ana"}, headers=bearer(api.token))
    assert "fusiona" in r.get_json()["error"]["message"]           # Spanish first: merge them
    assert api.post(f"/api/v1/players/{pid}/rename", json={}, headers=bearer(api.token)).status_code == 422
    assert api.post("/api/v1/players/999999/rename", json={"name": "Zoe"},
                    headers=bearer(api.token)).status_code == 404
    assert "koldo" in ids(app)


def test_a_director_merges_two_players(app, api, make_game):
    make_game(record=seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    make_game(record=seated("ru32", ["Koldo", "Dani", "Eva", "Fede"]))
    shared = make_game(record=seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    found = ids(app)
    r = api.post(f"/api/v1/players/{found['Ana']}/merge", json={"into": found["Dani"]},
                 headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "into"
    assert f"#{shared}" in r.get_json()["error"]["message"]
    r = api.post(f"/api/v1/players/{found['koldo']}/merge", json={"into": 999999}, headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "into"
    r = api.post(f"/api/v1/players/{found['koldo']}/merge", json={"into": found["Koldo"]},
                 headers=bearer(api.token))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["id"] == found["Koldo"] and body["player"]["games"] == 2
    assert "koldo" not in ids(app)


def test_only_a_director_renames_or_merges(app, make_game):
    make_game(record=seated("ru32", ["koldo", "Koldo", "Beto", "Carla"]))
    found = ids(app)
    client = app.test_client(user=None)
    token = token_for(app, "sergio", "scorer")
    r = client.post(f"/api/v1/players/{found['koldo']}/rename", json={"name": "Zoe"}, headers=bearer(token))
    assert r.status_code == 403
    r = client.post(f"/api/v1/players/{found['koldo']}/merge", json={"into": found["Koldo"]},
                    headers=bearer(token))
    assert r.status_code == 403
    assert "koldo" in ids(app)
