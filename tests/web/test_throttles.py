"""Throttles that hold (issue 23.3): login attempts and seat PINs are counted in the shared
database, so the limits hold across workers and app servers and against simultaneous
guesses; the client address comes from X-Forwarded-For only behind configured proxies."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.conftest import TEST_PASSWORD, ensure_user, make_app
from tests.web.test_accounts import by_pin, complete_game, tc

pytestmark = pytest.mark.every_database


def login(client: Any, password: str, user: str = "eva", **environ: str) -> int:
    extra = {"environ_base": environ} if environ else {}
    r = client.post("/login", data={"username": user, "password": password}, **extra)
    return int(r.status_code)


def dispose(*apps: Any) -> None:
    from app.db import get_db

    for a in apps:
        get_db(a).dispose()


def test_login_failures_count_across_app_servers(app, database_url):
    ensure_user(app, "eva", "scorer")
    other = make_app(database_url)                 # a second worker / app server
    a, b = tc(app, user=None), tc(other, user=None)
    for k in range(10):
        assert login(a if k % 2 else b, "wrong-wrong") == 401
    assert login(a, TEST_PASSWORD) == 429 and login(b, TEST_PASSWORD) == 429
    r = b.post("/login", data={"username": "eva", "password": "x"})
    assert r.headers["Retry-After"] == "60"
    assert login(b, TEST_PASSWORD, REMOTE_ADDR="10.0.0.9") == 303    # another address
    dispose(other)


def _age_attempts(app: Any, seconds: int) -> None:
    """Every login attempt made `seconds` earlier (the clock moved on)."""
    from datetime import timedelta

    from sqlalchemy import select

    from app.db import get_session
    from app.models import LoginAttempt

    with app.app_context():
        session = get_session()
        for attempt in session.scalars(select(LoginAttempt)):
            attempt.at = attempt.at - timedelta(seconds=seconds)
        session.commit()


def test_failures_from_many_addresses_slow_an_account_but_never_lock_its_owner_out(app):
    """Issue 41: an account is never held (anyone could keep its owner out, directors too):
    after ACCOUNT_FREE failures each try waits a growing delay, at most a minute, and a try
    refused meanwhile does not prolong it; the owner's right password works once it passed.
    A director sees the name on the accounts page."""
    from app.accounts.throttle import ACCOUNT_DELAY_MAX, ACCOUNT_FREE, account_delay

    assert [account_delay(ACCOUNT_FREE + k) for k in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    ensure_user(app, "eva", "scorer")
    client = tc(app, user=None)
    for k in range(ACCOUNT_FREE + 8):
        code = login(client, "wrong-wrong", REMOTE_ADDR=f"10.1.0.{k}")
        if code == 429:
            _age_attempts(app, ACCOUNT_DELAY_MAX)          # the attacker waits it out
            code = login(client, "wrong-wrong", REMOTE_ADDR=f"10.1.0.{k}")
        assert code == 401
    r = client.post("/login", data={"username": "eva", "password": TEST_PASSWORD},
                    environ_base={"REMOTE_ADDR": "10.2.0.1"})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= ACCOUNT_DELAY_MAX
    for _ in range(5):                                      # refused tries do not prolong it
        assert login(client, "wrong-wrong", REMOTE_ADDR="10.1.9.9") == 429
    _age_attempts(app, ACCOUNT_DELAY_MAX)
    assert login(client, TEST_PASSWORD, REMOTE_ADDR="10.2.0.1") == 303     # the owner gets in
    ensure_user(app, "ivo", "scorer")
    assert login(tc(app, user=None), TEST_PASSWORD, user="ivo", REMOTE_ADDR="10.2.0.2") == 303
    director = app.test_client()
    director.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = director.get("/users").get_data(as_text=True)
    assert 'data-failed="eva"' in page and 'data-failed="ivo"' not in page
    assert f"eva: {ACCOUNT_FREE + 8} failed logins from {ACCOUNT_FREE + 8} addresses" in page


def test_simultaneous_guesses_count_each_other(app):
    ensure_user(app, "eva", "scorer")
    codes: list[int] = []
    start = threading.Barrier(16)

    def guess() -> None:
        client = tc(app, user=None)
        start.wait()
        codes.append(login(client, "wrong-wrong"))

    threads = [threading.Thread(target=guess) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(codes) == 16 and codes.count(401) <= 10 and set(codes) <= {401, 429}


def test_forwarded_for_is_trusted_only_from_configured_proxies(database_url):
    behind = make_app(database_url, PROXY_COUNT=1)
    ensure_user(behind, "eva", "scorer")
    client = tc(behind, user=None)
    for _ in range(10):
        assert login(client, "wrong-wrong", HTTP_X_FORWARDED_FOR="203.0.113.7") == 401
    assert login(client, TEST_PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7") == 429
    # another member behind the same proxy (127.0.0.1 to the app) is not held back
    assert login(client, TEST_PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.4") == 303
    direct = make_app(database_url)                # no proxy configured: the header is ignored
    ensure_user(direct, "ivo", "scorer")
    other = tc(direct, user=None)
    for k in range(10):
        assert login(other, "wrong-wrong", "ivo", HTTP_X_FORWARDED_FOR=f"203.0.113.{k}") == 401
    assert login(other, TEST_PASSWORD, "ivo", HTTP_X_FORWARDED_FOR="198.51.100.5") == 429
    dispose(behind, direct)


def test_simultaneous_pins_are_counted_one_after_another(app):
    gid = complete_game(app)
    clients = [tc(app, user="sam", role="scorer") for _ in range(12)]
    codes: list[int] = []
    start = threading.Barrier(len(clients))

    def guess(client: Any, pin: str) -> None:
        start.wait()
        codes.append(by_pin(client, gid, 1, pin).status_code)

    threads = [threading.Thread(target=guess, args=(c, f"{k:04d}")) for k, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes.count(422) <= 5 and codes.count(429) >= len(clients) - 5, codes


def test_the_scorer_sees_the_wait_and_a_director_ends_it(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    for _ in range(5):
        assert by_pin(sam, gid, 0, "0000").status_code == 422
    r = by_pin(sam, gid, 0, "1111")
    assert r.status_code == 429 and int(r.headers["Retry-After"]) <= 30
    html = sam.get(f"/games/{gid}/confirm").get_data(as_text=True)
    assert 'id="pin-wait-0"' in html and "5 wrong PINs" in html and 'id="clear-wait-0"' not in html
    assert sam.post(f"/games/{gid}/seats/0/pin-wait").status_code == 403
    director = tc(app)
    assert 'id="clear-wait-0"' in director.get(f"/games/{gid}/confirm").get_data(as_text=True)
    assert director.post(f"/games/{gid}/seats/0/pin-wait").status_code == 303
    assert by_pin(sam, gid, 0, "1111").status_code == 303         # the right PIN, at last


def test_the_api_counts_the_same_pin_tries(app):
    from tests.api.test_api import bearer, token_for

    gid = complete_game(app)
    token = token_for(app, "sam", "scorer")
    api = app.test_client(user=None)
    for _ in range(5):
        r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 2, "pin": "0000"},
                     headers=bearer(token))
        assert r.status_code == 422
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 2, "pin": "3333"},
                 headers=bearer(token))
    assert r.status_code == 429 and r.get_json()["error"]["field"] == "pin"
    assert "Retry-After" in r.headers
    # the page's scorer sees the same wait
    assert by_pin(tc(app, user="sam", role="scorer"), gid, 2, "3333").status_code == 429
