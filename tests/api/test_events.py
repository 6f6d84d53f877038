"""Events through /api/v1 (issue 25): an 18-player balanced night of 3 rounds played end
to end with the API alone (hands with If-Match, seats confirmed with PINs), a forced
round, the 409 while a table is open, standings equal to the games' totals."""
from __future__ import annotations

from collections import Counter
from typing import Any

from app.db import get_session
from app.models import Game, StoredResult
from tests.api.test_api import bearer, token_for
from tests.events_play import PIN, whole_record

# SQLite only: these tests drive the API layer, which adds no SQL of its own to the event
# operations. The same operations run on PostgreSQL too in tests/services/test_events.py (an
# 18-player balanced evening, rounds, swaps and draws), and the If-Match and idempotency
# checks in tests/api/test_idempotency.py and tests/api/test_api.py; the 18-player night
# through the API took 17 s on PostgreSQL for nothing the database does differently.

NAMES = [f"Api {i:02d}" for i in range(1, 19)]


def new_event(api: Any, names: list[str] = NAMES, **body: Any) -> Any:
    payload = {"name": "Liga de los jueves", "profile": "fiestas", "players": names, "rounds": 3,
               "seating": "balanced", "pins": {n: PIN for n in names}, "date": "2026-12-03", **body}
    return api.post("/api/v1/events", json=payload, headers=bearer(api.token))


def play_table(app: Any, api: Any, game_id: int, seed: int) -> None:
    """Every hand of a legal game posted with If-Match, then the four seats confirmed."""
    with app.app_context():
        record = get_session().get(Game, game_id).record
    version = 1
    for hand in whole_record(record, seed)["hands"]:
        r = api.post(f"/api/v1/games/{game_id}/hands", json=hand,
                     headers=bearer(api.token, **{"If-Match": f'"v{version}"'}))
        assert r.status_code == 201, r.get_json()
        version += 1
    for seat in range(4):
        r = api.post(f"/api/v1/games/{game_id}/confirmations",
                     json={"seat": seat, "pin": PIN, "version": version}, headers=bearer(api.token))
        assert r.status_code == 201, r.get_json()


def test_an_18_player_balanced_night_through_the_api(app, api):
    r = new_event(api)
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    event_id = body["id"]
    assert r.headers["Location"] == f"/api/v1/events/{event_id}"
    (first,) = body["rounds"]
    assert first["round"] == 1 and first["method"] == "random" and len(first["tables"]) == 4
    assert len(first["sitting_out"]) == 2
    for number in range(1, 4):
        current = api.get(f"/api/v1/events/{event_id}", headers=bearer(api.token)).get_json()["rounds"][-1]
        if number < 3:
            blocked = api.post(f"/api/v1/events/{event_id}/rounds", json={}, headers=bearer(api.token))
            assert blocked.status_code == 409 and blocked.get_json()["error"]["code"] == "round-open"
            assert blocked.get_json()["open_tables"] == [1, 2, 3, 4]
        for t in current["tables"]:
            play_table(app, api, t["game_id"], 10 * number + t["table"])
        if number < 3:
            r = api.post(f"/api/v1/events/{event_id}/rounds", json={}, headers=bearer(api.token))
            assert r.status_code == 201 and len(r.get_json()["rounds"]) == number + 1
    done = api.get(f"/api/v1/events/{event_id}", headers=bearer(api.token)).get_json()
    assert [rnd["method"] for rnd in done["rounds"]] == ["random", "balanced", "balanced"]
    assert all(t["locked"] for rnd in done["rounds"] for t in rnd["tables"])
    sat = Counter(name for rnd in done["rounds"] for name in rnd["sitting_out"])
    assert len(sat) == 6 and set(sat.values()) == {1}
    totals: Counter[str] = Counter()
    with app.app_context():
        for rnd in done["rounds"]:
            for t in rnd["tables"]:
                row = get_session().get(StoredResult, t["game_id"])
                for name, total in zip(row.players, row.totals, strict=True):
                    totals[name] += total
    table = api.get(f"/api/v1/events/{event_id}/standings", headers=bearer(api.token)).get_json()
    assert {r["player"]: r["total"] for r in table} == {n: totals.get(n, 0) for n in NAMES}
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table) and table[0]["rank"] == 1
    assert all(len(r["rounds"]) == 3 for r in table)
    last = api.post(f"/api/v1/events/{event_id}/rounds", json={"force": True, "reason": "x"},
                    headers=bearer(api.token))
    assert last.status_code == 422 and last.get_json()["error"]["field"] == "round"


def test_a_forced_round_needs_a_reason(app, api):
    event_id = new_event(api, NAMES[:8]).get_json()["id"]
    r = api.post(f"/api/v1/events/{event_id}/rounds", json={"force": True}, headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "reason"
    r = api.post(f"/api/v1/events/{event_id}/rounds", json={"force": True, "reason": "Cierra el bar"},
                 headers=bearer(api.token))
    assert r.status_code == 201
    assert r.get_json()["rounds"][-1]["forced_reason"] == "Cierra el bar"


def test_swiss_and_random_events_and_their_draws_are_given_back(app, api):
    swiss = new_event(api, NAMES[:12], seating="swiss", scoring="ranking", ranking_points=[3, 2, 1, 0],
                      seed=42).get_json()
    assert swiss["seating"] == "swiss" and swiss["ranking_points"] == [3, 2, 1, 0]
    assert swiss["rounds"][0]["seed"] == 42
    again = new_event(api, NAMES[:12], name="Otra", seed=42).get_json()
    assert [t["players"] for t in again["rounds"][0]["tables"]] == [
        t["players"] for t in swiss["rounds"][0]["tables"]]
    rnd = new_event(api, NAMES[:6], seating="random", sit_out="average").get_json()
    assert rnd["sit_out"] == "average" and len(rnd["rounds"][0]["sitting_out"]) == 2


def test_refusals_name_the_field(app, api):
    r = new_event(api, NAMES[:3])
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "players"
    r = new_event(api, seating="chaos")
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "seating"
    assert api.get("/api/v1/events/999", headers=bearer(api.token)).status_code == 404
    scorer = app.test_client(user=None)
    token = token_for(app, "ana_s", "scorer")
    assert scorer.post("/api/v1/events", json={"name": "x", "profile": "ru32", "players": NAMES[:4],
                                               "rounds": 1}, headers=bearer(token)).status_code == 403
    event_id = new_event(api, NAMES[:4], rounds=1).get_json()["id"]
    assert scorer.get(f"/api/v1/events/{event_id}", headers=bearer(token)).status_code == 200
    assert scorer.post(f"/api/v1/events/{event_id}/rounds", json={}, headers=bearer(token)).status_code == 403


def test_the_event_routes_are_in_the_openapi_document(app, api):
    paths = api.get("/api/v1/openapi.json").get_json()["paths"]
    assert {"post", "get"} <= set(paths["/api/v1/events"])
    assert "get" in paths["/api/v1/events/{event_id}"]
    assert "409" in paths["/api/v1/events/{event_id}/rounds"]["post"]["responses"]
    assert "get" in paths["/api/v1/events/{event_id}/standings"]
    assert "post" in paths["/api/v1/events/{event_id}/swap"]
    assert "post" in paths["/api/v1/events/{event_id}/late"]


def test_the_director_swaps_and_registers_a_late_arrival_through_the_api(app, api):
    """Issue 38: POST /events/{id}/swap and /late, as on the event's page: the swapped
    players' PINs go with them, refusals name the API's fields, only a director may."""
    pins = {n: f"{2000 + k}" for k, n in enumerate(NAMES[:9])}
    body = new_event(api, NAMES[:9], pins=pins).get_json()
    event_id, first = body["id"], body["rounds"][0]
    a, b = first["tables"][0]["players"][0], first["tables"][1]["players"][1]
    r = api.post(f"/api/v1/events/{event_id}/swap", json={"a": a, "b": b}, headers=bearer(api.token))
    assert r.status_code == 200, r.get_json()
    tables = r.get_json()["rounds"][0]["tables"]
    assert tables[0]["players"][0] == b and tables[1]["players"][1] == a
    game_id = tables[1]["game_id"]
    r = api.post(f"/api/v1/games/{game_id}/confirmations", json={"seat": 1, "pin": pins[b]},
                 headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "pin"      # b's old seat
    r = api.post(f"/api/v1/games/{game_id}/confirmations", json={"seat": 1, "pin": pins[a]},
                 headers=bearer(api.token))
    assert r.status_code == 201
    r = api.post(f"/api/v1/events/{event_id}/swap", json={"a": a, "b": "Nadie"}, headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "b"
    r = api.post(f"/api/v1/events/{event_id}/late", json={"player": "Tardía", "pin": "12"},
                 headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "pin"
    r = api.post(f"/api/v1/events/{event_id}/late", json={"player": "Tardía", "pin": "1357"},
                 headers=bearer(api.token))
    assert r.status_code == 200 and "Tardía" in r.get_json()["players"]
    r = api.post(f"/api/v1/events/{event_id}/late", json={"player": "Tardía"}, headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "player"
    scorer = app.test_client(user=None)
    token = token_for(app, "sam_s", "scorer")
    for path, payload in (("swap", {"a": a, "b": b}), ("late", {"player": "Otra"})):
        assert scorer.post(f"/api/v1/events/{event_id}/{path}", json=payload,
                           headers=bearer(token)).status_code == 403
    r = api.post(f"/api/v1/events/{event_id}/rounds", json={"force": True, "reason": "prueba"},
                 headers=bearer(api.token))
    assert r.status_code == 201
    second = r.get_json()["rounds"][1]
    seated = {p for t in second["tables"] for p in t["players"]} | set(second["sitting_out"])
    assert "Tardía" in seated


def test_a_player_withdraws_through_the_api_and_the_page(app, api, client):
    """Issue 38: a director withdraws a player from the next round on (the API's
    /withdraw and the event page's form): the round being played keeps their seat, the next
    draw leaves them out, the log says so; refusals name the field; a round keeps four."""
    body = new_event(api, NAMES[:9]).get_json()
    event_id = body["id"]
    first = body["rounds"][0]
    leaving = first["tables"][0]["players"][2]
    scorer = app.test_client(user=None)
    token = token_for(app, "sam_w", "scorer")
    assert scorer.post(f"/api/v1/events/{event_id}/withdraw", json={"player": leaving},
                       headers=bearer(token)).status_code == 403
    r = api.post(f"/api/v1/events/{event_id}/withdraw", json={"player": leaving}, headers=bearer(api.token))
    assert r.status_code == 200, r.get_json()
    assert leaving in r.get_json()["rounds"][0]["tables"][0]["players"]          # their seat stays
    url, auth = f"/api/v1/events/{event_id}/withdraw", bearer(api.token)
    again = api.post(url, json={"player": leaving}, headers=auth)
    assert again.status_code == 422 and again.get_json()["error"]["field"] == "player"
    nobody = api.post(url, json={"player": "Nadie"}, headers=auth)
    assert nobody.status_code == 422 and nobody.get_json()["error"]["field"] == "player"
    # the page: the form offers the players of the next round, the log names the withdrawal
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    form = page.split('id="withdraw-form"')[1].split("</form>")[0]
    assert f'value="{leaving}"' not in form and f'value="{first["tables"][1]["players"][0]}"' in form
    other = first["tables"][1]["players"][0]
    r = client.post(f"/events/{event_id}/withdraw", data={"player": other})
    assert r.status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert f"{leaving} withdrew: not drawn from round 2 on" in page and f"{other} withdrew" in page
    r = api.post(f"/api/v1/events/{event_id}/rounds", json={"force": True, "reason": "prueba"},
                 headers=bearer(api.token))
    assert r.status_code == 201, r.get_json()
    second = r.get_json()["rounds"][1]
    drawn = {p for t in second["tables"] for p in t["players"]} | set(second["sitting_out"])
    assert leaving not in drawn and other not in drawn and len(drawn) == 7
    # seven left: three more may leave, the fourth would leave a round of three
    names = sorted(drawn)
    for name in names[:3]:
        assert api.post(f"/api/v1/events/{event_id}/withdraw", json={"player": name},
                        headers=bearer(api.token)).status_code == 200
    r = api.post(f"/api/v1/events/{event_id}/withdraw", json={"player": names[3]}, headers=bearer(api.token))
    assert r.status_code == 422 and "al menos cuatro jugadores" in r.get_json()["error"]["message"]
