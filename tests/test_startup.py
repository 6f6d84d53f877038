"""Issue 8, item 2: the production command on an empty database comes up every time.

Each start launches gunicorn with the repository's config and 4 workers on a fresh, empty
database: every worker migrates on start, so without the migration lock one of them could
die on "alembic_version already exists" and take gunicorn down. Also: the secret key kept
in instance/ is created once (all workers sign with the same key) and only its owner can
read it.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.conftest import PG_DSN, REPO

pytestmark = pytest.mark.every_database

GUNICORN = Path(sys.executable).with_name("gunicorn")
STARTS = {"sqlite": 2, "postgres": 2}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_and_stop(database_url: str, instance: Path) -> str:
    """Starts gunicorn with 4 workers, waits until every worker has booted and the home page
    answers 200, stops it; returns its log."""
    port = _free_port()
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="startup-test")
    log = instance / "gunicorn.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(GUNICORN), "-c", "deploy/gunicorn.conf.py", "--workers", "4", "--threads", "2",
             "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120   # a guard against a hang, not a measurement
            status = None
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                        status = r.status
                    if log.read_text().count("Booting worker") >= 4:
                        break
                except OSError:
                    pass
                time.sleep(0.3)
            # every worker still up: none failed to boot
            assert proc.poll() is None, log.read_text()
            assert status == 200, log.read_text()
            for _ in range(8):  # several requests, spread over the workers
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/players", timeout=10) as r:
                    assert r.status == 200
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    text = log.read_text()
    assert "Worker failed to boot" not in text and "Traceback" not in text, text
    return text


def test_four_workers_on_an_empty_sqlite_database_start_every_time(tmp_path):
    for k in range(STARTS["sqlite"]):
        folder = tmp_path / f"start{k}"
        folder.mkdir()
        _start_and_stop(f"sqlite:///{folder / 'kingsheet.sqlite'}", folder)


@pytest.mark.postgres
def test_four_workers_on_an_empty_postgres_database_start_every_time(tmp_path, pg_server):
    psycopg = pytest.importorskip("psycopg")
    admin = psycopg.connect(PG_DSN, autocommit=True)
    try:
        for k in range(STARTS["postgres"]):
            name = f"kingsheet_start_{uuid.uuid4().hex[:10]}"
            admin.execute(f'CREATE DATABASE "{name}"')
            try:
                folder = tmp_path / f"start{k}"
                folder.mkdir()
                _start_and_stop(f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}", folder)
            finally:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.close()


def test_migrating_from_many_threads_at_once(tmp_path):
    """The lock itself: eight apps migrating one empty SQLite database at the same moment."""
    from app.db import Database, upgrade

    url = f"sqlite:///{tmp_path / 'race.sqlite'}"
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def migrate() -> None:
        db = Database(url)
        try:
            barrier.wait()
            upgrade(db)
        except BaseException as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)
        finally:
            db.dispose()

    threads = [threading.Thread(target=migrate) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_the_secret_key_is_created_once_and_private(tmp_path):
    from app.config import _instance_secret

    keys: list[str] = []
    barrier = threading.Barrier(8)

    def read() -> None:
        barrier.wait()
        keys.append(_instance_secret(tmp_path))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(keys)) == 1
    path = tmp_path / "secret_key"
    assert path.read_text().strip() == keys[0]
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"]


def test_slow_clients_do_not_stall_the_production_config(tmp_path):
    """Issue 8.10: two clients that send half a request and then wait held the old command's
    workers; with the repository's config (gthread) the next client is still served."""
    port = _free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'k.sqlite'}", SECRET_KEY="slow")
    log = tmp_path / "gunicorn.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(GUNICORN), "-c", "deploy/gunicorn.conf.py", "--workers", "1",
             "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
        slow: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 120    # a guard against a hang, not a measurement
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10):
                        break
                except OSError:
                    time.sleep(0.3)
            for _ in range(2):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(b"GET /players HTTP/1.1\r\nHost: x\r\nX-Slow: ")   # headers never end
                slow.append(s)
            time.sleep(1)   # let the worker pick the slow requests up first
            for _ in range(3):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/players", timeout=20) as r:
                    assert r.status == 200
        finally:
            for s in slow:
                s.close()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
