"""Calls to the director through /api/v1 (issue 40): a seat's player or the game's scorer
calls (201, or 200 with the call already open), directors list and answer them (409 once
answered); everyone else is refused and nothing is stored."""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from app.db import get_session
from app.models import AuditEntry, DirectorCall
from tests.api.test_api import bearer, token_for
from tests.conftest import PLAYERS


def _count(app: Any) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(DirectorCall)) or 0)


def test_a_seat_calls_and_a_director_answers(app, api, make_game):
    gid = make_game()
    seat_token = token_for(app, "carla", "player", player=PLAYERS[2])
    r = api.post(f"/api/v1/games/{gid}/calls", json={"note": "Revoke en la baza 3"},
                 headers=bearer(seat_token))
    assert r.status_code == 201, r.get_json()
    call = r.get_json()
    assert {k: call[k] for k in ("game_id", "seat", "player", "called_by", "note", "status", "event_id",
                                 "answer", "answered_at")} == {
        "game_id": gid, "seat": 2, "player": PLAYERS[2], "called_by": "carla", "note": "Revoke en la baza 3",
        "status": "open", "event_id": None, "answer": None, "answered_at": None}
    assert call["called_at"].endswith("+00:00")
    # a second call while it is open: the same call, 200, none added
    again = api.post(f"/api/v1/games/{gid}/calls", json={}, headers=bearer(seat_token))
    assert again.status_code == 200 and again.get_json() == call and _count(app) == 1

    listed = api.get("/api/v1/calls?status=open", headers=bearer(api.token))
    assert listed.status_code == 200 and listed.get_json() == {"calls": [call]}
    assert api.get("/api/v1/calls", headers=bearer(api.token)).get_json() == {"calls": [call]}

    r = api.post(f"/api/v1/calls/{call['id']}/answer", json={"note": "Voy"}, headers=bearer(api.token))
    assert r.status_code == 200
    answered = r.get_json()
    assert (answered["status"], answered["answer"], answered["answered_by"]) == (
        "answered", "Voy", "directora")
    assert api.get("/api/v1/calls?status=open", headers=bearer(api.token)).get_json() == {"calls": []}
    for status in ("answered", "all"):
        r = api.get(f"/api/v1/calls?status={status}", headers=bearer(api.token))
        assert r.get_json() == {"calls": [answered]}

    r = api.post(f"/api/v1/calls/{call['id']}/answer", json={"note": "otra"},
                 headers=bearer(api.token, **{"Accept-Language": "en"}))
    assert r.status_code == 409 and r.get_json()["error"] == {
        "code": "answered", "field": None, "message": "directora answered this call already."}
    # the table may call again once answered
    r = api.post(f"/api/v1/games/{gid}/calls", headers=bearer(seat_token))
    assert r.status_code == 201 and r.get_json()["id"] != call["id"] and r.get_json()["note"] is None
    with app.app_context():
        actions = list(get_session().scalars(select(AuditEntry.action).where(AuditEntry.game_id == gid)
                                             .order_by(AuditEntry.id)))
    assert [a.value for a in actions][-3:] == ["call_director", "answer_call", "call_director"]


def test_the_call_does_not_change_the_games_version(app, api, make_game):
    gid = make_game()
    etag = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token)).headers["ETag"]
    r = api.post(f"/api/v1/games/{gid}/calls", json={"note": "x"}, headers=bearer(api.token))
    assert r.status_code == 201
    # a hand sent with the version read before the call is still current (the outbox's If-Match)
    r = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token, **{"If-None-Match": etag}))
    assert r.status_code == 304


def test_who_may_call_and_answer(app, api, make_game):
    gid = make_game()
    other = make_game()
    anonymous = app.test_client(user=None)
    r = anonymous.post(f"/api/v1/games/{gid}/calls", json={})
    assert r.status_code == 401
    for username, role, player in (("beto_s", "scorer", None), ("pia", "player", None)):
        token = token_for(app, username, role, player)
        r = api.post(f"/api/v1/games/{gid}/calls", json={}, headers=bearer(token))
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "forbidden", username
    assert _count(app) == 0
    seat_token = token_for(app, "ana", "player", player=PLAYERS[0])
    made = api.post(f"/api/v1/games/{other}/calls", json={}, headers=bearer(seat_token))
    assert made.status_code == 201            # Ana sits at both games
    call_id = made.get_json()["id"]
    for token in (seat_token, token_for(app, "beto_s", "scorer")):
        assert api.get("/api/v1/calls", headers=bearer(token)).status_code == 403
        r = api.post(f"/api/v1/calls/{call_id}/answer", json={"note": "no"}, headers=bearer(token))
        assert r.status_code == 403
    assert anonymous.post(f"/api/v1/calls/{call_id}/answer", json={"note": "no"}).status_code == 401
    assert api.post("/api/v1/games/999/calls", json={}, headers=bearer(api.token)).status_code == 404
    r = api.post("/api/v1/calls/999/answer", json={"note": "x"}, headers=bearer(api.token))
    assert r.status_code == 404


def test_notes_of_the_wrong_shape_name_their_field(app, api, make_game):
    gid = make_game()
    es = bearer(api.token, **{"Accept-Language": "es"})
    r = api.post(f"/api/v1/games/{gid}/calls", json={"note": "x" * 201}, headers=es)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "note"
    r = api.post(f"/api/v1/games/{gid}/calls", json={"note": "a\u202eb"}, headers=es)
    assert r.status_code == 422 and r.get_json()["error"] == {
        "code": "input", "field": "note", "message": "Solo caracteres visibles, por favor."}
    assert api.post(f"/api/v1/games/{gid}/calls", json={"colour": 1}, headers=es).status_code == 422
    assert _count(app) == 0
    call_id = api.post(f"/api/v1/games/{gid}/calls", json={"note": None}, headers=es).get_json()["id"]
    for body in ({}, {"note": ""}, {"note": "y" * 301}):
        r = api.post(f"/api/v1/calls/{call_id}/answer", json=body, headers=es)
        assert r.status_code == 422 and r.get_json()["error"]["field"] == "note", body
    r = api.post(f"/api/v1/calls/{call_id}/answer", json={"note": "   "}, headers=es)
    assert r.status_code == 422 and r.get_json()["error"]["message"] == "Escribe la respuesta."
    r = api.get("/api/v1/calls?status=closed", headers=es)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "status"


def test_a_session_call_needs_its_csrf_token(csrf_app):
    from app.games.games import import_game
    from tests.conftest import base_record

    with csrf_app.app_context():
        gid = import_game(get_session(), base_record("fiestas"), who="test").id
    director = csrf_app.test_client()
    r = director.post(f"/api/v1/games/{gid}/calls", json={})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "csrf"
    assert _count(csrf_app) == 0
