"""Export jobs created at the same moment (issue 41): one active job per requester and the
waiting queue's cap hold under a race, on SQLite and PostgreSQL (app/services/exports.py
`_one_at_a_time`)."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db import get_db
from app.models import ExportJob
from app.services import exports

pytestmark = pytest.mark.every_database


def race(app: Any, owners: list[str]) -> list[str]:
    """Each owner asks for a job in its own thread and session, all at once: what each got."""
    start = threading.Barrier(len(owners))
    got: list[str] = [""] * len(owners)

    def ask(k: int) -> None:
        with get_db(app).sessionmaker() as session:
            start.wait()
            try:
                exports.create_job(session, owner=owners[k], params={"k": k})
                got[k] = "created"
            except exports.ExportBusy:
                got[k] = "busy"
            except exports.QueueFull:
                got[k] = "full"

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(len(owners))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return got


def jobs(app: Any) -> int:
    with get_db(app).sessionmaker() as session:
        return int(session.scalar(select(func.count()).select_from(ExportJob)))


def test_one_requester_asking_eight_times_at_once_gets_one_job(app):
    got = race(app, ["user:1"] * 8)
    assert sorted(got) == ["busy"] * 7 + ["created"]
    assert jobs(app) == 1


def test_the_waiting_cap_holds_when_many_ask_at_once(app, monkeypatch):
    monkeypatch.setattr(exports, "WAITING_MAX", 5)
    got = race(app, [f"user:{k}" for k in range(12)])
    assert got.count("created") == 5 and got.count("full") == 7
    assert jobs(app) == 5
