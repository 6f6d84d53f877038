"""The version check's short way (app/games/sheet/fast_poll.py, issue 25): a game's version check
(304 unchanged, 200 with the new version) is answered before Flask is entered, with the
same checks, the same statement, the same headers and body; everything else reaches the
view as before."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from tests.conftest import TEST_PASSWORD, make_app
from tests.web.helpers import signal_log, sql_statements
from tests.web.test_access import _copy, _csrf, _log_in, set_role

pytestmark = pytest.mark.every_database

UNCHANGED = {"If-None-Match": '"v1"'}


@pytest.fixture
def fast_app(database_url: str) -> Any:
    """The app as production runs it: the short way's answers not compared with Flask's."""
    from app.db import get_db

    application = make_app(database_url, FAST_POLL_VERIFY=False, WTF_CSRF_ENABLED=True)
    yield application
    get_db(application).dispose()


def flask_requests(app: Any) -> Any:
    """The requests that entered Flask inside the block (Flask's request_started signal)."""
    from flask import request, request_started

    return signal_log(app, request_started, lambda _sender, **_extra: request.full_path)


def new_game(app: Any) -> int:
    from app.db import get_session
    from app.games.games import import_game
    from tests.conftest import base_record

    with app.app_context():
        return int(import_game(get_session(), base_record("ru32"), who="t").id)


def test_an_unchanged_poll_never_enters_flask_and_reads_one_statement(fast_app):
    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="scorer")
    assert eva.get("/").status_code == 200                 # the app's first requests, done
    with flask_requests(fast_app) as entered, sql_statements(fast_app) as statements:
        answer = eva.get(f"/games/{gid}/live", headers=UNCHANGED)
    assert answer.status_code == 304 and answer.data == b""
    assert entered == [] and len(statements) == 1, (entered, statements)
    assert answer.headers["ETag"] == '"v1"'
    assert answer.headers["Cache-Control"] == "no-cache, private"
    assert answer.headers["Vary"] == "Cookie" and "Set-Cookie" not in answer.headers
    assert answer.headers["X-Frame-Options"] == "DENY"


def test_the_short_ways_statement_is_sent_alone_without_a_transaction(fast_app):
    """No BEGIN before the poll's one statement and no ROLLBACK after it: the connection
    is in autocommit while it runs (two round trips fewer a poll; PostgreSQL's CPU for a
    club night's polls about halved, bench/evening.py)."""
    from sqlalchemy import event

    from app.db import get_db

    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="scorer")
    assert eva.get("/").status_code == 200
    modes: list[bool] = []

    def autocommit(conn, *_args):
        dbapi = conn.connection.dbapi_connection
        if hasattr(dbapi, "pgconn"):                  # psycopg
            modes.append(bool(dbapi.autocommit))
        else:                                         # sqlite3: no isolation level = autocommit
            modes.append(dbapi.isolation_level is None)

    engine = get_db(fast_app).engine
    event.listen(engine, "before_cursor_execute", autocommit)
    try:
        assert eva.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    finally:
        event.remove(engine, "before_cursor_execute", autocommit)
    assert modes == [True]


@pytest.mark.parametrize("asked,status", [(UNCHANGED, 304), ({"If-None-Match": '"v0"'}, 200), ({}, 200)])
def test_its_answer_is_the_views_answer_header_for_header(fast_app, asked, status):
    """The same request through the view (the short way stepped around) answers the same:
    304 while the phone's version is the game's, else 200 with the version as JSON."""
    from app.games.sheet.fast_poll import FastPoll

    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="player")
    assert eva.get("/").status_code == 200
    with flask_requests(fast_app) as entered, sql_statements(fast_app) as statements:
        short = eva.get(f"/games/{gid}/live", headers=asked)
    assert entered == [] and len(statements) == 1
    short_way = fast_app.wsgi_app
    assert isinstance(short_way, FastPoll)
    fast_app.wsgi_app = short_way.inner
    try:
        with flask_requests(fast_app) as entered:
            full = eva.get(f"/games/{gid}/live", headers=asked)
    finally:
        fast_app.wsgi_app = short_way
    assert entered and full.status_code == short.status_code == status
    assert list(full.headers.items()) == list(short.headers.items())
    assert full.data == short.data
    if status == 200:
        assert short.get_json()["version"] == 1 and short.headers["ETag"] == '"v1"'


def test_everything_but_a_games_stamp_for_a_valid_login_goes_to_the_view(fast_app):
    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="scorer")
    cases: list[tuple[str, dict[str, str], int]] = [
        (f"/games/{gid}/live?x=1", UNCHANGED, 304),                   # a query: the view's
        ("/games/999999/live", UNCHANGED, 404),                       # no such game
        (f"/games/{gid}/live", {**UNCHANGED, "Authorization": "Bearer nope"}, 401),
    ]
    for path, headers, status in cases:
        with flask_requests(fast_app) as entered:
            answer = eva.get(path, headers=headers)
        assert answer.status_code == status, (path, headers)
        assert len(entered) == 1, (path, headers)
    assert eva.get(f"/games/{gid}/live", headers={"If-None-Match": '"v0"'}).get_json()["version"] == 1
    head = eva.head(f"/games/{gid}/live", headers=UNCHANGED)
    assert head.status_code == 304


def test_a_logout_a_role_change_or_a_forged_cookie_still_ends_the_polls_at_once(fast_app):
    gid = new_game(fast_app)
    from tests.conftest import ensure_user

    ensure_user(fast_app, "eva", "scorer")
    eva = _log_in(fast_app.test_client(user=None), "eva", TEST_PASSWORD)
    copy = _copy(fast_app, eva)
    assert eva.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    with flask_requests(fast_app) as entered:
        assert copy.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    assert entered == []
    assert eva.post("/logout", data={"csrf_token": _csrf(eva)}).status_code == 303
    with flask_requests(fast_app) as entered:
        assert copy.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 303
    assert len(entered) == 1                                   # the view refused it

    ana = fast_app.test_client(user="ana", role="scorer")
    assert ana.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    set_role(fast_app, "ana", "player")
    assert ana.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 303

    forged = fast_app.test_client(user=None)
    forged.set_cookie("session", copy.get_cookie("session").value[:-3] + "abc")
    assert forged.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 303


def test_a_kept_login_due_for_its_daily_renewal_gets_it_from_the_view(fast_app):
    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="scorer")
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    with eva.session_transaction() as s:
        s.permanent = True
        s["_renewed"] = yesterday
    with flask_requests(fast_app) as entered:
        answer = eva.get(f"/games/{gid}/live", headers=UNCHANGED)
    assert answer.status_code == 304 and len(entered) == 1
    assert "Set-Cookie" in answer.headers                      # renewed: today's first page
    with eva.session_transaction() as s:
        assert s["_renewed"] == date.today().isoformat()
    with flask_requests(fast_app) as entered:
        again = eva.get(f"/games/{gid}/live", headers=UNCHANGED)
    assert again.status_code == 304 and entered == [] and "Set-Cookie" not in again.headers


def test_verify_mode_catches_a_short_answer_that_differs_from_the_views(app, monkeypatch):
    """FAST_POLL_VERIFY (on in every test app): the suite's polls check the short way."""
    from app.games.sheet import fast_poll

    gid = new_game(app)
    eva = app.test_client(user="eva", role="scorer")
    assert eva.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    real = fast_poll.not_modified_headers
    monkeypatch.setattr(fast_poll, "not_modified_headers",
                        lambda etag: [h for h in real(etag) if h[0] != "Vary"])
    with pytest.raises(fast_poll.FastPollMismatch):
        eva.get(f"/games/{gid}/live", headers=UNCHANGED)


def test_a_cookie_past_its_lifetime_is_not_answered_from_the_verified_ones(fast_app, monkeypatch):
    """A verified cookie is kept (its signature is not checked again), but only until the
    session's lifetime from its signing is over: then the view decides again."""
    from types import SimpleNamespace

    from app.games.sheet import fast_poll

    gid = new_game(fast_app)
    eva = fast_app.test_client(user="eva", role="scorer")
    with flask_requests(fast_app) as entered:
        assert eva.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 304
    assert entered == [] and len(fast_app.wsgi_app.cookies) == 1
    week = fast_app.permanent_session_lifetime.total_seconds()
    import time

    later = time.time() + week + 60
    monkeypatch.setattr(fast_poll, "time", SimpleNamespace(time=lambda: later))
    with flask_requests(fast_app) as entered:
        eva.get(f"/games/{gid}/live", headers=UNCHANGED)
    assert len(entered) == 1


def test_verify_mode_lets_a_change_made_in_between_pass(app, monkeypatch):
    """Another phone's save between the short answer and the app's is no mismatch: the two
    answered different moments (the browser tests' phones save while others poll)."""
    from app.db import get_session
    from app.models import Game

    gid = new_game(app)
    eva = app.test_client(user="eva", role="scorer")
    inner = app.wsgi_app.inner

    def save_first(environ: Any, start_response: Any) -> Any:
        with app.app_context():
            session = get_session()
            session.get(Game, gid).version += 1
            session.commit()
        return inner(environ, start_response)

    monkeypatch.setattr(app.wsgi_app, "inner", save_first)
    answer = eva.get(f"/games/{gid}/live", headers=UNCHANGED)
    assert answer.status_code == 304 and answer.headers["ETag"] == '"v1"'
    monkeypatch.setattr(app.wsgi_app, "inner", inner)
    assert eva.get(f"/games/{gid}/live", headers=UNCHANGED).status_code == 200
