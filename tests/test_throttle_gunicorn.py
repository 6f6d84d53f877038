"""Issue 23.3 under gunicorn: with 4 worker processes, login guesses from one address are
counted in the shared database, so simultaneous guesses spread over the workers still get
at most the limit through (a per-process counter let 50 a minute through)."""
from __future__ import annotations

import http.client
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.accounts.throttle import LOGIN_PER_ADDRESS
from tests.test_deploy import ROOT, free_port, gunicorn_env, running_gunicorn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="gunicorn needs POSIX")
PASSWORD = "eva-password-1"


@pytest.fixture
def four_workers(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    env = gunicorn_env(tmp_path, port, KINGSHEET_WORKERS="4", KINGSHEET_THREADS="4")
    flask = [sys.executable, "-m", "flask", "--app", "app"]
    made = subprocess.run([*flask, "user", "create", "eva", "--role", "scorer"], cwd=ROOT, env=env,
                          input=PASSWORD + "\n", capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    with running_gunicorn(tmp_path, port, env) as running:
        yield running


def login(port: int, password: str) -> int:
    """A whole login as a browser does it: the form (its CSRF token and cookie), then POST."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/login")
    page = conn.getresponse()
    html = page.read().decode()
    cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert token and cookie, html[:300]
    body = f"csrf_token={token.group(1)}&username=eva&password={password}"
    conn.request("POST", "/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    status = conn.getresponse().status
    conn.close()
    return status


def test_simultaneous_guesses_over_four_workers_get_the_limit_through(four_workers):
    with ThreadPoolExecutor(max_workers=16) as pool:
        codes = list(pool.map(lambda _k: login(four_workers, "wrong-wrong"), range(24)))
    assert set(codes) <= {401, 429}, codes
    assert codes.count(401) <= LOGIN_PER_ADDRESS, codes
    assert login(four_workers, PASSWORD) == 429           # even the right password, for now
