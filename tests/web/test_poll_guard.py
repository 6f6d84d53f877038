"""The version check's guard (app.accounts.auth.login_only_guard, issue 28): every open page of a game
polls it about once a second, so it checks the login in the statement that reads the
game's stamp, and refuses exactly what the full guard refuses."""
from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TEST_PASSWORD, ensure_user
from tests.web.helpers import sql_statements
from tests.web.test_access import _copy, _csrf, _log_in, set_role

pytestmark = pytest.mark.every_database

UNCHANGED = {"If-None-Match": '"v1"'}


def poll(client: Any, gid: int, **headers: str) -> int:
    return int(client.get(f"/games/{gid}/live", headers={**UNCHANGED, **headers}).status_code)


def test_a_logged_in_poll_is_one_statement_and_needs_no_role(app, make_game):
    """Through the view (the short way of app/games/sheet/fast_poll.py stepped around; it reads the
    same one statement: tests/web/test_fast_poll.py)."""
    gid = make_game("ru32")
    app.wsgi_app = app.wsgi_app.inner
    for role in ("player", "scorer", "director"):
        client = app.test_client(user=f"u-{role}", role=role)
        assert poll(client, gid) == 304             # (the app's first request: "any user?")
        with sql_statements(app) as seen:
            assert poll(client, gid) == 304
        assert len(seen) == 1, seen
        changed = client.get(f"/games/{gid}/live", headers={"If-None-Match": '"v0"'})
        assert changed.status_code == 200 and changed.get_json()["version"] == 1


def test_a_poll_without_a_valid_login_is_refused(csrf_app):
    from app.db import get_session
    from app.games.games import import_game
    from tests.conftest import base_record

    with csrf_app.app_context():
        gid = int(import_game(get_session(), base_record("ru32"), who="t").id)
    ensure_user(csrf_app, "eva", "scorer")
    stranger = csrf_app.test_client(user=None)
    assert poll(stranger, gid) == 303
    assert poll(stranger, gid, Accept="application/json") == 401
    assert poll(stranger, 999) == 303                       # no game: nothing learnt
    eva = _log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD)
    copy = _copy(csrf_app, eva)
    assert poll(eva, gid) == 304 and poll(copy, gid) == 304
    assert poll(eva, 999) == 404                            # logged in: the game is missing
    assert eva.post("/logout", data={"csrf_token": _csrf(eva)}).status_code == 303
    assert poll(copy, gid) == 303                           # the copied cookie ended with it
    assert poll(copy, 999) == 303
    with copy.session_transaction() as s:                   # a forged id, a bad generation
        s["_user_id"] = "1:x"
    assert poll(copy, gid) == 303


def test_a_role_change_ends_the_poll_too(app, make_game):
    gid = make_game("ru32")
    eva = app.test_client(user="eva", role="scorer")
    assert poll(eva, gid) == 304
    set_role(app, "eva", "player")
    assert poll(eva, gid) == 303


def test_a_repeat_pdf_download_checks_the_login_without_loading_the_user(app, make_game):
    from tests.conftest import load_record

    gid = make_game(record=load_record("ru32_complete.json"))
    eva = app.test_client(user="eva", role="player")
    first = eva.get(f"/games/{gid}/sheet.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    with sql_statements(app) as seen:
        again = eva.get(f"/games/{gid}/sheet.pdf")
    assert again.data == first.data
    assert len(seen) == 2 and not any("password_hash" in s for s in seen), seen
    set_role(app, "eva", "scorer")                          # her sessions end with the change
    assert eva.get(f"/games/{gid}/sheet.pdf").status_code == 303
    assert app.test_client(user=None).get(f"/games/{gid}/hands/1.pdf").status_code == 303
    assert app.test_client(user="ana").get("/games/999/blank.pdf").status_code == 404
