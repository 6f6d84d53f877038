"""/api/v1 (issue 22): tokens, the scorer's whole flow, preconditions, idempotent retries,
the guard, and the OpenAPI document covering every route (SQLite and PostgreSQL)."""
from __future__ import annotations

import copy
from typing import Any

import pytest
from sqlalchemy import func, select

from app.models import AuditEntry, Game
from app.rules import score_record
from tests.conftest import ensure_user, load_record

pytestmark = pytest.mark.every_database

RIFKI = load_record("rifki_complete.json")


def token_for(app: Any, username: str, role: str = "director", player: str | None = None) -> str:
    from app.accounts.tokens import create_token
    from app.db import get_session
    from app.models import User

    user_id = ensure_user(app, username, role, player)
    with app.app_context():
        session = get_session()
        _token, secret = create_token(session, session.get(User, user_id), "test")
        return secret


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


def new_rifki(api: Any, **extra: Any) -> dict[str, Any]:
    body = {"profile": "rifki", "players": RIFKI["players"], "first_chooser": RIFKI["first_chooser"],
            "options": RIFKI["options"], **extra}
    r = api.post("/api/v1/games", json=body, headers=bearer(api.token))
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json())


def post_hand(api: Any, gid: int, hand: dict[str, Any], version: int, **headers: str) -> Any:
    return api.post(f"/api/v1/games/{gid}/hands", json=hand,
                    headers=bearer(api.token, **{"If-Match": f'"v{version}"'}, **headers))


def count(app: Any, model: Any) -> int:
    from app.db import get_session

    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(model)))


def test_the_scorers_whole_flow(app, api):
    game = new_rifki(api, seat_pins=["1111", "2222", "3333", "4444"])
    gid, version = game["id"], game["version"]
    assert game["record"]["options"]["choice_limit"] == "3+2" and game["report"]["hands"] == []
    # no If-Match: 428; a stale one: 412 with the current version; nothing saved
    hand = RIFKI["hands"][0]
    r = api.post(f"/api/v1/games/{gid}/hands", json=hand, headers=bearer(api.token))
    assert r.status_code == 428 and r.get_json()["error"]["field"] == "If-Match"
    r = post_hand(api, gid, hand, version + 7)
    assert r.status_code == 412 and r.get_json()["version"] == version
    # a refused hand: 422, every problem with its field
    bad = {"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 5]}}
    r = post_hand(api, gid, bad, version)
    body = r.get_json()
    assert r.status_code == 422 and body["error"]["field"] == "hands[0].counts.tricks"
    assert body["problems"] and all(p["field"].startswith("hands[0]") for p in body["problems"])
    # the first hand, sent twice with one key (its answer lost): saved once
    r = post_hand(api, gid, hand, version, **{"Idempotency-Key": "k-1"})
    assert r.status_code == 201, r.get_json()
    first = r.get_json()
    again = post_hand(api, gid, hand, version, **{"Idempotency-Key": "k-1"})
    assert again.status_code == 201 and again.get_json() == first
    assert again.headers["Idempotent-Replayed"] == "true"
    other = post_hand(api, gid, RIFKI["hands"][1], first["version"], **{"Idempotency-Key": "k-1"})
    assert other.status_code == 422 and other.get_json()["error"]["code"] == "idempotency-key-reused"
    version = first["version"]
    for i, h in enumerate(RIFKI["hands"][1:], start=1):
        r = post_hand(api, gid, h, version, **{"Idempotency-Key": f"hand-{i}"})
        assert r.status_code == 201, (i, r.get_json())
        assert r.get_json()["hand"]["number"] == i + 1
        version = r.get_json()["version"]
    r = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token))
    assert r.status_code == 200 and r.headers["ETag"] == f'"v{version}"'
    assert r.get_json()["report"]["totals"] == __import__("app.rules", fromlist=["x"]).score_record(
        RIFKI)["totals"]
    assert api.get(f"/api/v1/games/{gid}", headers=bearer(api.token, **{
        "If-None-Match": f'"v{version}"'})).status_code == 304
    assert api.get(f"/api/v1/games/{gid}/next", headers=bearer(api.token)).get_json()["next"] is None
    # the table confirms with the four PINs: locked
    for seat, pin in enumerate(["1111", "2222", "3333", "4444"]):
        r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": seat, "pin": pin},
                     headers=bearer(api.token))
        assert r.status_code == 201, r.get_json()
    assert r.get_json()["locked"] is True
    wrong = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "pin": "9999"},
                     headers=bearer(api.token))
    assert wrong.status_code == 422 and wrong.get_json()["error"]["field"] == "pin"
    # a scorer may not change it now; a director's correction carries a reason
    scorer = app.test_client(user=None)
    scorer.token = token_for(app, "sam", "scorer")
    changed = copy.deepcopy(RIFKI["hands"][-1])
    r = api.put(f"/api/v1/games/{gid}/hands/20", json=changed,
                headers=bearer(api.token, **{"If-Match": f'"v{version}"'}))
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "locked"
    r = api.delete(f"/api/v1/games/{gid}/hands/last?reason=wrong%20hand%20entered",
                   headers=bearer(api.token, **{"If-Match": f'"v{version}"'}))
    assert r.status_code == 200, r.get_json()
    game = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token)).get_json()
    assert len(game["record"]["hands"]) == 19 and game["locked"] is False
    log = api.get("/api/v1/games?state=in_progress", headers=bearer(api.token)).get_json()
    assert [g["id"] for g in log["games"]] == [gid] and log["games"][0]["hands_played"] == 19


def test_tokens_anonymous_revoked_and_foreign_games(app, api):
    from app.accounts.tokens import list_tokens, revoke_token
    from app.db import get_session

    gid = new_rifki(api)["id"]
    anonymous = app.test_client(user=None)
    r = anonymous.get("/api/v1/games")
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "login-required"
    assert anonymous.get("/api/v1/games", headers=bearer("ks_nope")).status_code == 401
    scorer = token_for(app, "sam", "scorer")
    audit = count(app, AuditEntry)
    r = anonymous.post(f"/api/v1/games/{gid}/hands", json=RIFKI["hands"][0],
                       headers=bearer(scorer, **{"If-Match": '"v1"'}))
    assert r.status_code == 403 and count(app, AuditEntry) == audit
    player = token_for(app, "pia", "player")
    r = anonymous.post("/api/v1/games", json={"profile": "ru32", "players": ["A", "B", "C", "D"]},
                       headers=bearer(player))
    assert r.status_code == 403 and count(app, Game) == 1
    # a token revoked is refused, even from a logged-in browser
    with app.app_context():
        session = get_session()
        user_id = ensure_user(app, "sam", "scorer")
        for t in list_tokens(session, user_id):
            assert revoke_token(session, user_id, t.id)
    assert anonymous.get("/api/v1/games", headers=bearer(scorer)).status_code == 401
    browser = app.test_client()            # the director's session ...
    assert browser.get("/api/v1/games", headers=bearer(scorer)).status_code == 401


def test_session_writes_need_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    r = client.post("/api/v1/games", json={"profile": "ru32", "players": ["A", "B", "C", "D"]})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "csrf"
    token = token_for(csrf_app, "directora")
    r = csrf_app.test_client(user=None).post(
        "/api/v1/games", json={"profile": "ru32", "players": ["A", "B", "C", "D"]},
        headers=bearer(token))
    assert r.status_code == 201


def test_every_api_route_is_in_the_openapi_document(app):
    client = app.test_client(user=None)
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/") or rule.rule in ("/api/v1/openapi.json",
                                                                 "/api/v1/docs"):
            continue
        path = rule.rule.replace("<int:", "{").replace(">", "}")
        assert path in paths, path
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            op = paths[path][method.lower()]
            assert op["responses"], (path, method)
    html = client.get("/api/v1/docs").get_data(as_text=True)
    assert "POST /api/v1/games/{game_id}/hands" in html


def test_a_hand_of_the_wrong_shape_names_its_record_path(app, api):
    gid = new_rifki(api)["id"]
    r = post_hand(api, gid, {"contract": "el-almaz", "leader": "2", "counts": {"tricks": [4, 3, 3, 3]}}, 1)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands[0].leader"
    r = post_hand(api, gid, {"contract": "el-almaz", "colour": 1}, 1)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands[0].colour"


def test_a_token_opens_the_api_only(app, api, make_game):
    """A token is for /api/v1: the pages and their forms go with a session and its CSRF
    token, so a leaked token cannot drive them."""
    gid = make_game("ru32")
    r = app.test_client(user=None).get(f"/games/{gid}", headers=bearer(api.token))
    assert r.status_code == 401
    r = app.test_client(user=None).post(f"/games/{gid}/hands/new", headers=bearer(api.token),
                                        data={"version": "1"})
    assert r.status_code == 401
    assert api.get(f"/api/v1/games/{gid}", headers=bearer(api.token)).status_code == 200


# --- found by tests/api/test_schemathesis.py ---------------------------------------------

def test_a_method_the_address_does_not_take_says_which_it_does(api):
    r = api.put("/api/v1/games", headers=bearer(api.token))
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "method-not-allowed"
    assert set(r.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}


def test_a_401_says_how_to_authenticate(app, api):
    anonymous = app.test_client(user=None)
    r = anonymous.get("/api/v1/games")
    assert r.status_code == 401 and r.headers["WWW-Authenticate"] == 'Bearer realm="kingsheet"'
    r = anonymous.get("/api/v1/games", headers=bearer("ks_revoked-or-never-made"))
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="kingsheet", error="invalid_token"'
    assert api.get("/api/v1/games", headers=bearer(api.token)).status_code == 200


def test_times_carry_their_offset(api):
    from datetime import datetime

    game = new_rifki(api, seat_pins=["1111", "2222", "3333", "4444"])
    r = api.post(f"/api/v1/games/{game['id']}/confirmations", json={"seat": 0, "pin": "1111"},
                 headers=bearer(api.token))
    assert r.status_code == 201, r.get_json()
    listed = api.get("/api/v1/games", headers=bearer(api.token)).get_json()["games"][0]
    confirmed = api.get(f"/api/v1/games/{game['id']}", headers=bearer(api.token)).get_json()
    for stamp in (listed["updated_at"], confirmed["confirmations"][0]["at"]):
        assert datetime.fromisoformat(stamp).utcoffset() is not None, stamp


def test_a_hand_of_the_wrong_shape_for_a_missing_game_is_not_found(api):
    r = post_hand(api, 999, {"contract": "el-almaz", "colour": 1}, 1)
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not-found"


def test_every_error_is_documented_in_the_apis_own_shape(app, api):
    doc = app.test_client(user=None).get("/api/v1/openapi.json").get_json()
    default = doc["components"]["responses"]["DEFAULT_ERROR"]
    assert default["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorAnswer"}
    assert "Error" not in doc["components"]["schemas"]
    r = api.post("/api/v1/games", data=b"\x00not json", content_type="application/json",
                 headers=bearer(api.token))
    assert r.status_code == 400 and set(r.get_json()) == {"error"}


@pytest.mark.parametrize("query", ["player=9223372036854775808", "season=2147483648", "player=-1"])
def test_an_id_in_the_query_beyond_any_id_is_refused(api, query):
    r = api.get(f"/api/v1/games?{query}", headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == query.split("=")[0]


def test_an_unreadable_cursor_is_refused_not_read_as_the_first_page(api):
    for _ in range(3):
        new_rifki(api)
    first = api.get("/api/v1/games?limit=2", headers=bearer(api.token)).get_json()
    assert len(first["games"]) == 2 and first["next_cursor"]
    rest = api.get(f"/api/v1/games?limit=2&cursor={first['next_cursor']}", headers=bearer(api.token))
    assert [g["id"] for g in rest.get_json()["games"]] == [first["games"][-1]["id"] - 1]
    r = api.get("/api/v1/games?limit=2&cursor=abc", headers=bearer(api.token))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "cursor"
    assert api.get("/api/v1/games?cursor=", headers=bearer(api.token)).status_code == 200


def test_one_key_with_another_query_is_another_request(api):
    """A key names one request: method, address with its query (a director's reason), body."""
    gid = new_rifki(api)["id"]
    r = post_hand(api, gid, RIFKI["hands"][0], 1, **{"Idempotency-Key": "k-q"})
    assert r.status_code == 201
    r = api.delete(f"/api/v1/games/{gid}/hands/last?reason=first",
                   headers=bearer(api.token, **{"If-Match": '"v2"', "Idempotency-Key": "k-del"}))
    assert r.status_code == 200
    r = api.delete(f"/api/v1/games/{gid}/hands/last?reason=second",
                   headers=bearer(api.token, **{"If-Match": '"v2"', "Idempotency-Key": "k-del"}))
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "idempotency-key-reused"


def test_a_put_of_the_hand_as_stored_answers_200_and_writes_nothing(app, api):
    """Replacing a hand with itself (a client sending its copy again) is no change: 200 with
    the same version and report, no log entry; a stale If-Match is still 412 (issue 41)."""
    game = new_rifki(api)
    gid = game["id"]
    r = post_hand(api, gid, RIFKI["hands"][0], game["version"])
    assert r.status_code == 201, r.get_json()
    version, entries = r.get_json()["version"], count(app, AuditEntry)
    r = api.put(f"/api/v1/games/{gid}/hands/1", json=copy.deepcopy(RIFKI["hands"][0]),
                headers=bearer(api.token, **{"If-Match": f'"v{version}"'}))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["version"] == version and r.headers["ETag"] == f'"v{version}"'
    first = score_record({**RIFKI, "hands": RIFKI["hands"][:1]})["hands"][0]
    assert body["hand"]["points"] == first["points"]
    assert count(app, AuditEntry) == entries
    stale = api.put(f"/api/v1/games/{gid}/hands/1", json=copy.deepcopy(RIFKI["hands"][0]),
                    headers=bearer(api.token, **{"If-Match": f'"v{version - 1}"'}))
    assert stale.status_code == 412


def test_a_director_vouches_for_seats_without_pins(app, api):
    """Issue 38: a table without PINs (an event created without them) locks when a director
    confirms its seats from their account, and the game's log says they vouched; a scorer
    without a PIN may not, and a director's confirmation of a stale sheet is refused."""
    from app.models import Confirmation, ConfirmMethod

    gid = new_rifki(api)["id"]
    version = 1
    for i, h in enumerate(RIFKI["hands"]):
        r = post_hand(api, gid, h, version, **{"Idempotency-Key": f"vouch-{i}"})
        assert r.status_code == 201, r.get_json()
        version = r.get_json()["version"]
    scorer = token_for(app, "sam", "scorer")
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0}, headers=bearer(scorer))
    assert r.status_code == 403
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "version": version - 1},
                 headers=bearer(api.token))
    assert r.status_code == 409
    for seat in range(4):
        r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": seat}, headers=bearer(api.token))
        assert r.status_code == 201, r.get_json()
    assert r.get_json()["locked"] is True
    game = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token)).get_json()
    assert {c["method"] for c in game["confirmations"]} == {"director"}
    with app.app_context():
        from app.db import get_session

        rows = get_session().query(Confirmation).filter_by(game_id=gid).all()
        assert {c.method for c in rows} == {ConfirmMethod.DIRECTOR} and len({c.user_id for c in rows}) == 1
    browser = app.test_client()
    browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    page = browser.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert "avalado por un director" in page
