"""Issue 39: a keyed save survives any crash. gunicorn is killed with SIGKILL (the whole
process group, at a random moment while hands are being saved with an Idempotency-Key)
and started again on the same port and database, a few rounds per database: every key
that was in flight resolves within 5 s of the restart (its saved answer, or saved now),
and each game's hands are exactly those acknowledged, in order, none twice.

The write and its key's answer are one transaction (app/games/idempotency.py), so
there is no moment at which the key exists without its answer."""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_api import RIFKI, bearer, token_for
from tests.conftest import make_app
from tests.test_deploy import CONF, ROOT, free_port

pytestmark = [pytest.mark.every_database,
              pytest.mark.skipif(sys.platform == "win32", reason="gunicorn needs POSIX")]

ROUNDS = 4
GAMES = 3
RESOLVE_WITHIN = 5.0


@dataclass
class Table:
    """One game's phone: the hands acknowledged, and the save in flight (its key)."""

    gid: int
    version: int = 1
    acked: list[int] = field(default_factory=list)      # indexes into RIFKI["hands"]
    key: str | None = None
    seq: int = 0

    def next_key(self) -> str:
        self.seq += 1
        return f"g{self.gid}-save-{self.seq}"


def post(port: int, token: str, table: Table, timeout: float) -> tuple[int, Any]:
    n = len(table.acked)
    assert table.key is not None
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", f"/api/v1/games/{table.gid}/hands", body=json.dumps(RIFKI["hands"][n]),
                     headers=bearer(token, **{"If-Match": f'"v{table.version}"',
                                              "Idempotency-Key": table.key,
                                              "Content-Type": "application/json"}))
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        conn.close()


#: How a request's answer is lost when the server is killed: no connection, a reset, or a
#: body cut short (http.client's IncompleteRead is not an OSError).
LOST = (OSError, http.client.HTTPException)


def send_one(port: int, token: str, table: Table, timeout: float = 2.0) -> bool:
    """One try of the table's save in flight: True once it is answered (and acknowledged)."""
    if table.key is None:
        table.key = table.next_key()
    status, body = post(port, token, table, timeout)
    assert status == 201, (status, body)            # never "wait", never refused
    table.acked.append(len(table.acked))
    table.version = body["version"]
    table.key = None
    return True


def resolve(port: int, token: str, table: Table) -> None:
    """The key the kill left in flight, sent again until answered (within RESOLVE_WITHIN)."""
    deadline = time.monotonic() + RESOLVE_WITHIN
    while True:
        try:
            send_one(port, token, table, timeout=RESOLVE_WITHIN)
            return
        except LOST:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def saving(port: int, token: str, table: Table, stop: threading.Event) -> None:
    """Saves the table's next hands until the server is killed (or the game ends)."""
    while not stop.is_set() and len(table.acked) < len(RIFKI["hands"]):
        try:
            send_one(port, token, table)
        except LOST:
            return                                    # killed: the key stays in flight


@contextlib.contextmanager
def gunicorn(port: int, database_url: str, home: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="kill-test",
               KINGSHEET_BIND=f"127.0.0.1:{port}", KINGSHEET_WORKERS="1", KINGSHEET_THREADS="4",
               PYTHONPATH=str(ROOT), HOME=str(home))
    env.pop("GUNICORN_CMD_ARGS", None)
    log = open(home / "gunicorn.log", "ab")     # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(CONF)], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        log.close()


def answering(port: int, proc: subprocess.Popen[bytes], home: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail((home / "gunicorn.log").read_text()[-2000:])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/login")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.05)
        finally:
            conn.close()
    pytest.fail("gunicorn did not answer: " + (home / "gunicorn.log").read_text()[-2000:])


def stored_hands(database_url: str, gid: int) -> list[dict[str, Any]]:
    from app.db import get_db, get_session
    from app.models import Game

    app = make_app(database_url)
    try:
        with app.app_context():
            return list(get_session().get(Game, gid).record["hands"])
    finally:
        get_db(app).dispose()


def test_kill_9_under_gunicorn_every_key_resolves(database_url: str, tmp_path: Path) -> None:
    from app.db import get_db

    app = make_app(database_url)
    token = token_for(app, "directora")
    api = app.test_client(user=None)
    body = {"profile": "rifki", "players": RIFKI["players"], "first_chooser": RIFKI["first_chooser"],
            "options": RIFKI["options"]}
    tables = [Table(api.post("/api/v1/games", json=body, headers=bearer(token)).get_json()["id"])
              for _ in range(GAMES)]
    get_db(app).dispose()

    port = free_port()
    rng = random.Random(39)
    in_flight = 0
    for _round in range(ROUNDS):
        with gunicorn(port, database_url, tmp_path) as proc:
            answering(port, proc, tmp_path)
            up = time.monotonic()
            for table in tables:                       # the keys the last kill left in flight
                if table.key is not None:
                    in_flight += 1
                    resolve(port, token, table)
            assert time.monotonic() - up < RESOLVE_WITHIN
            stop = threading.Event()
            threads = [threading.Thread(target=saving, args=(port, token, t, stop)) for t in tables]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.05, 0.4))
            os.killpg(proc.pid, signal.SIGKILL)        # mid-save, most likely
            stop.set()
            for t in threads:
                t.join(10)
    with gunicorn(port, database_url, tmp_path) as proc:
        answering(port, proc, tmp_path)
        for table in tables:
            if table.key is not None:
                in_flight += 1
                resolve(port, token, table)

    assert in_flight > 0
    for table in tables:
        stored = stored_hands(database_url, table.gid)
        assert stored == [RIFKI["hands"][i] for i in table.acked]
        assert len(table.acked) == len(set(table.acked))
