"""The bulk export runner: one thread per worker process renders the queued export jobs
(:mod:`app.printing.exports`) one at a time, in the export's language and for its host (a
request context of its own), game by game or through a pool of processes
(:mod:`app.printing.pool`); an event's job through :mod:`app.printing.event_job`."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext as _
from flask_babel import ngettext

from app.db import get_db, is_database_away
from app.models import ExportJob, ExportState
from app.printing import docs, event_job, pool
from app.printing import exports as exports_service
from app.printing.responses import bulk_sheet_pdf


class ExportRunner:
    """One thread per process renders the queued jobs, one at a time (any process may
    claim any job: the database says which are waiting)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wake = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.db: Any = None         # the database the thread serves

    def notify(self) -> None:
        with self.lock:
            db = get_db(self.app)
            if self.thread is None or not self.thread.is_alive() or self.db is not db:
                # (a thread serving a database the app no longer uses -- a test's app given
                # another database -- ends at its next wake: it never claims this one's jobs)
                self.db = db
                self.thread = threading.Thread(target=self._loop, args=(db,), daemon=True,
                                               name="kingsheet-exports")
                self.thread.start()
        self.wake.set()

    def _loop(self, db: Any) -> None:
        away = False        # the database was away at the last look: said once per outage
        while get_db(self.app) is db:
            self.wake.clear()
            try:
                while get_db(self.app) is db and self.run_one(db):
                    pass
                if away:
                    self.app.logger.warning("bulk PDF export runner: the database answers again")
                away = False
            except Exception as e:  # noqa: BLE001 - logged; the loop serves the next job
                if not is_database_away(e):
                    self.app.logger.exception("bulk PDF export runner")
                elif not away:      # one line, not a traceback at every look (RUNNER_POLL)
                    away = True
                    self.app.logger.error("bulk PDF export runner: the database is away (%s); "
                                          "looking again every %.0f s", type(e).__name__, RUNNER_POLL)
            self.wake.wait(timeout=RUNNER_POLL)

    def run_one(self, db: Any = None) -> bool:
        """Claims and renders one queued job of ``db`` (the app's); False when none is waiting."""
        db = db or get_db(self.app)
        with db.sessionmaker() as session:
            exports_service.expire_stale(session)
            exports_service.cleanup(session, exports_dir(self.app),
                                    int(self.app.config.get("EXPORTS_MAX_MB") or 0) * 1024 * 1024)
            job = exports_service.claim_next(session, exports_service.worker_name())
            if job is None:
                return False
            job_id, params = job.id, dict(job.params)
        language = params.get("lang", "es")
        orientation = params.get("orientation", "auto")
        with self.app.test_request_context("/exports", base_url=params.get("base_url"),
                                           headers={"Accept-Language": language}):
            renderer = exports_service.Renderer(
                find_games=lambda s, p: docs.find_games(s, **exports_service.criteria(p)),
                render_game=lambda s, gid: _render_game(s, gid, language, orientation),
                label=lambda gid: str(_("Game %(id)s", id=gid)),
                render_all=lambda ids: pool.pool_renders(self.app, ids, language, orientation,
                                                         params.get("base_url")))
            title: Callable[[int], str] = _sheets_title
            if event_job.is_event_job(params):   # an event: its standings, then its tables
                renderer = event_job.event_renderer(
                    params, lambda s, gid: _render_game(s, gid, language, orientation))
                title = event_job.titled(params)
            try:
                exports_service.render_job(db.sessionmaker, job_id, exports_dir(self.app),
                                           renderer, title=title)
            except Exception:  # noqa: BLE001 - the job row says it failed; logged for us
                self.app.logger.exception("bulk PDF export %s failed", job_id)
        return True


def _sheets_title(n: int) -> str:
    return str(ngettext("Score sheets (%(num)s game)", "Score sheets (%(num)s games)", n))


#: Seconds between looks at the queue when nobody woke the runner (jobs of a worker that
#: died, the clean-up of old files).
RUNNER_POLL = 30.0


def exports_dir(app: Flask) -> Path:
    """Where ``app``'s finished exports are kept (``EXPORTS_DIR``, else instance/exports)."""
    return exports_service.exports_dir(app.config.get("EXPORTS_DIR"), app.instance_path)


def _render_game(session: Any, game_id: int, language: str, orientation: str) -> bytes | None:
    data = bulk_sheet_pdf(session, game_id, language, orientation)
    pool.release_memory()     # the runner renders a small job game by game
    return data


def runner(app: Flask | None = None) -> ExportRunner:
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("pdf_export_runner")
    if found is None:
        found = app.extensions.setdefault("pdf_export_runner", ExportRunner(app))
    return found  # type: ignore[no-any-return]


def wait_for_job(app: Flask, job_id: str, timeout: float = 600.0) -> ExportJob:
    """The job once it is done or failed (tests and the bench; polls the database)."""
    deadline = time.monotonic() + timeout
    while True:
        with get_db(app).sessionmaker() as session:
            job = session.get(ExportJob, job_id)
            if job is None or job.state not in ExportState.ACTIVE or time.monotonic() > deadline:
                if job is None:
                    raise LookupError(job_id)
                return job
        time.sleep(0.1)


