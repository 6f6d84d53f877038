"""Export jobs created at the same moment (issue 41): one active job per requester and the
waiting queue's cap hold under a race, on SQLite and PostgreSQL (app/printing/exports.py
`_one_at_a_time`)."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db import get_db
from app.models import ExportJob
from app.printing import exports

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


def test_finished_exports_are_kept_under_the_disk_budget(app, tmp_path_factory):
    """Past the budget (EXPORTS_MAX_MB), the oldest finished exports go, file and row; a
    waiting job and the newest files stay (issue 41: 437 MB after 74 jobs)."""
    from datetime import timedelta

    from app.db import utcnow
    from app.models import ExportState

    tmp_path = tmp_path_factory.mktemp("exports")
    now = utcnow()
    with get_db(app).sessionmaker() as session:
        for k in range(5):                                  # job-0 the oldest
            (tmp_path / f"job-{k}.pdf").write_bytes(b"%" * 1000)
            session.add(ExportJob(id=f"job-{k}", state=ExportState.DONE, progress=1, total=1, pages=1,
                                  owner=f"user:{k}", params={}, created_at=now, updated_at=now,
                                  finished_at=now - timedelta(minutes=10 - k), file_path=f"job-{k}.pdf"))
        session.add(ExportJob(id="waiting", state=ExportState.QUEUED, progress=0, total=0, pages=0,
                              owner="user:9", params={}, created_at=now, updated_at=now))
        session.commit()
        assert exports.cleanup(session, tmp_path, budget_bytes=2500) == 3
        left = set(session.scalars(select(ExportJob.id)))
    assert left == {"job-3", "job-4", "waiting"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job-3.pdf", "job-4.pdf"]
    with get_db(app).sessionmaker() as session:
        assert exports.cleanup(session, tmp_path, budget_bytes=0) == 0       # no bound: age alone
    assert app.config["EXPORTS_MAX_MB"] == 200
