"""Bulk PDF exports as jobs in the database, their files under ``instance/exports/``.

A request only records the job (:func:`create_job`); a worker's runner thread claims queued
jobs one at a time (:func:`claim_next`, an atomic ``UPDATE ... WHERE state = 'queued'``)
and renders them game by game (:func:`render_job`; or takes them in order from a pool of
processes, ``Renderer.render_all``), writing its progress -- and so its
heartbeat -- to the job's row. Any worker answers for any job from the row. Memory stays
bounded whatever the number of games: each game is rendered on its own (its footer reads
as on its own sheet) into a part file of :data:`CHUNK` games, and the parts are joined at
the end from disk (pypdf).

Limits, so that a few accounts can never lock everyone else out: one active (waiting or
rendering) job per requester (a second is told to wait); at most :data:`WAITING_MAX` jobs
waiting on the site (beyond that a request is refused: "try again in a few minutes"); at
most :data:`RUNNING_MAX` rendering at once (a worker finding them all busy leaves the job
waiting). The next job rendered is the waiting one of the requester served least recently
(:func:`claim_next`: round-robin by requester, not first come first served). A running job
whose heartbeat stopped for
:data:`STALE_AFTER` (its worker was killed) is marked interrupted; finished jobs and their
files are removed after :data:`KEEP_FOR`.
"""
from __future__ import annotations

import io
import os
import secrets
import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pypdf import PdfWriter
from sqlalchemy import case, delete, false, func, select, update
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import ExportJob, ExportState
from app.printing.join import join_pdfs

#: Jobs rendering at once on the whole site (the cap on the work).
RUNNING_MAX = 8
#: Jobs waiting on the whole site (the bounded queue). With one active job per requester
#: it takes this many accounts, each with a job waiting, to fill it.
WAITING_MAX = 64
#: Games per part file (what is in memory at once while rendering).
CHUNK = 20
#: A running job not heard from for this long was interrupted (its worker died).
STALE_AFTER = timedelta(minutes=2)
#: Finished jobs and their files are kept this long.
KEEP_FOR = timedelta(hours=24)
#: Games per export (a season of a big club is far fewer).
GAMES_MAX = 5000


class ExportBusy(Exception):
    """This requester already has an export queued or running (``job_id``)."""

    def __init__(self, job_id: str) -> None:
        super().__init__(job_id)
        self.job_id = job_id


class QueueFull(Exception):
    """:data:`WAITING_MAX` exports are waiting on the site."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:80]


def exports_dir(configured: str | None, instance_path: str | Path) -> Path:
    """Where finished exports are kept: ``EXPORTS_DIR``, else ``instance/exports``."""
    path = Path(configured) if configured else Path(instance_path) / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def expire_stale(session: Session) -> int:
    """Marks running jobs whose worker stopped reporting as interrupted."""
    limit = utcnow() - STALE_AFTER
    result = session.execute(
        update(ExportJob).where(ExportJob.state == ExportState.RUNNING,
                                ExportJob.updated_at < limit)
        .values(state=ExportState.ERROR, error="interrupted", finished_at=utcnow()))
    session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


def active_job(session: Session, owner: str) -> ExportJob | None:
    return session.scalars(select(ExportJob).where(ExportJob.owner == owner,
                                                   ExportJob.state.in_(ExportState.ACTIVE))
                           .order_by(ExportJob.created_at)).first()


def create_job(session: Session, *, owner: str | None, params: dict[str, Any]) -> ExportJob:
    """A queued job; ExportBusy if ``owner`` has one queued or running, QueueFull when
    :data:`WAITING_MAX` jobs are waiting on the site (rendering jobs do not count: they
    are bounded by :data:`RUNNING_MAX`)."""
    expire_stale(session)
    _one_at_a_time(session)
    if owner is not None:
        busy = active_job(session, owner)
        if busy is not None:
            raise ExportBusy(busy.id)
    waiting = session.scalar(select(func.count()).select_from(ExportJob)
                             .where(ExportJob.state == ExportState.QUEUED))
    if (waiting or 0) >= WAITING_MAX:
        raise QueueFull()
    now = utcnow()
    job = ExportJob(id=secrets.token_urlsafe(12), state=ExportState.QUEUED, progress=0, total=0,
                    pages=0, owner=owner, params=_jsonable(params), created_at=now, updated_at=now)
    session.add(job)
    session.commit()
    return job


#: The PostgreSQL advisory lock held while a job is created ("ksexport" in ASCII).
CREATE_LOCK_KEY = 0x6B736578706F7274


def _one_at_a_time(session: Session) -> None:
    """Takes the site's lock on new jobs until the commit, so that two requests at once can
    neither both see no active job of their requester nor both see room in the queue (the
    cap held 65 of 64 under a race): an advisory lock on PostgreSQL, SQLite's write lock
    (a write that changes nothing) on SQLite."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(CREATE_LOCK_KEY)))
    else:
        session.execute(update(ExportJob).where(false()).values(state=ExportJob.state))


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in params.items()}


def criteria(params: dict[str, Any]) -> dict[str, Any]:
    """The game filter of a job's params (dates back from ISO text)."""
    def day(v: Any) -> date | None:
        return date.fromisoformat(v) if v else None

    return {"date_from": day(params.get("date_from")), "date_to": day(params.get("date_to")),
            "player_id": params.get("player_id")}


def pick_order(session: Session) -> list[str]:
    """The waiting jobs' ids, the next one to render first: round-robin by requester. A
    requester never served (no finished or running job on record, i.e. in the last
    :data:`KEEP_FOR`) comes first, then the one whose last job ended longest ago; ties go
    to the job waiting longest. With one active job per requester this is "whose turn"."""
    served = (select(ExportJob.owner.label("owner"),
                     func.max(func.coalesce(ExportJob.finished_at, ExportJob.updated_at))
                     .label("at"))
              .where(ExportJob.state != ExportState.QUEUED, ExportJob.owner.is_not(None))
              .group_by(ExportJob.owner).subquery())
    never = case((served.c.at.is_(None), 0), else_=1)    # NULLS FIRST on both databases
    return list(session.scalars(
        select(ExportJob.id).outerjoin(served, served.c.owner == ExportJob.owner)
        .where(ExportJob.state == ExportState.QUEUED)
        .order_by(never, served.c.at, ExportJob.created_at, ExportJob.id)).all())


def claim_next(session: Session, worker: str) -> ExportJob | None:
    """The next waiting job (:func:`pick_order`), now running on ``worker``; None when none
    is waiting or :data:`RUNNING_MAX` are rendering. Two workers never claim the same job
    (the update names the state it expects). The running count is checked in the same
    statement; two workers claiming at the very same instant on PostgreSQL may both pass
    it, so the cap can be exceeded by at most the workers claiming together."""
    running = (select(func.count()).select_from(ExportJob)
               .where(ExportJob.state == ExportState.RUNNING).scalar_subquery())
    for job_id in pick_order(session)[:5]:
        result = session.execute(
            update(ExportJob).where(ExportJob.id == job_id, ExportJob.state == ExportState.QUEUED,
                                    running < RUNNING_MAX)
            .values(state=ExportState.RUNNING, worker=worker, updated_at=utcnow()))
        session.commit()
        if getattr(result, "rowcount", 0) == 1:
            return session.get(ExportJob, job_id)
    return None


def report(session: Session, job_id: str, **values: Any) -> None:
    """Writes a job's progress (and heartbeat)."""
    values["updated_at"] = utcnow()
    session.execute(update(ExportJob).where(ExportJob.id == job_id).values(**values))
    session.commit()


@dataclass
class Renderer:
    """What the runner needs to turn one game into PDF bytes (templates need Flask)."""
    find_games: Callable[[Session, dict[str, Any]], list[int]]
    render_game: Callable[[Session, int], bytes | None]
    #: A game's bookmark in the joined PDF.
    label: Callable[[int], str] = str
    #: The PDFs of all the job's games in order, rendered elsewhere (a pool of processes),
    #: or None to render them one by one with :attr:`render_game`.
    render_all: Callable[[list[int]], AbstractContextManager[Iterator[bytes | None] | None]] | None = None


def _chunks(ids: list[int], size: int) -> Iterator[list[int]]:
    for k in range(0, len(ids), size):
        yield ids[k:k + size]


def render_job(make_session: Callable[[], Session], job_id: str, root: Path,
               renderer: Renderer, title: Callable[[int], str] | None = None) -> None:
    """Renders a claimed job into ``root/<id>.pdf``; the row says how it went."""
    with make_session() as session:
        job = session.get(ExportJob, job_id)
        if job is None:
            return
        params = dict(job.params)
        ids = renderer.find_games(session, params)[:GAMES_MAX]
        report(session, job_id, total=len(ids))
    if not ids:
        _finish(make_session, job_id, error="no-games")
        return
    parts: list[Path] = []
    bookmarks: list[tuple[str, int]] = []     # (label, first page) of each game
    done = 0
    pages_so_far = 0
    try:
        with (renderer.render_all(ids) if renderer.render_all else nullcontext(None)) as rendered:
            for k, chunk in enumerate(_chunks(ids, CHUNK)):
                writer = PdfWriter()
                with make_session() as session:   # a fresh session: no game stays loaded
                    for game_id in chunk:
                        data = (next(rendered) if rendered is not None
                                else renderer.render_game(session, game_id))
                        if data is not None:
                            before = len(writer.pages)
                            writer.append(io.BytesIO(data), import_outline=False)
                            bookmarks.append((renderer.label(game_id), pages_so_far))
                            pages_so_far += len(writer.pages) - before
                        done += 1
                        if done % 5 == 0:
                            report(session, job_id, progress=done)
                    report(session, job_id, progress=done)
                part = root / f"{job_id}.part{k:04d}.pdf"
                with open(part, "wb") as fh:
                    writer.write(fh)
                writer.close()
                parts.append(part)
        pages = _join(parts, root / f"{job_id}.pdf", title(len(ids)) if title else None,
                      bookmarks)
    except Exception as e:
        _finish(make_session, job_id, error=f"{type(e).__name__}: {e}")
        raise
    finally:
        for part in parts:
            part.unlink(missing_ok=True)
    _finish(make_session, job_id, pages=pages, file_path=f"{job_id}.pdf")


def _join(parts: list[Path], target: Path, title: str | None,
          bookmarks: list[tuple[str, int]] | None = None) -> int:
    """The parts as one PDF at ``target``, with one bookmark per ``(label, first page)``
    and the title in its metadata, read one part at a time (app/printing/join.py: the
    memory it takes does not grow with the parts). Returns the number of pages."""
    return join_pdfs(parts, target, title=title, bookmarks=bookmarks or ())


def _finish(make_session: Callable[[], Session], job_id: str, *, error: str | None = None,
            pages: int = 0, file_path: str | None = None) -> None:
    with make_session() as session:
        values: dict[str, Any] = {"finished_at": utcnow()}
        if error is not None:
            values.update(state=ExportState.ERROR, error=error)
        else:
            values.update(state=ExportState.DONE, pages=pages, file_path=file_path)
        report(session, job_id, **values)


def cleanup(session: Session, root: Path, budget_bytes: int = 0) -> int:
    """Removes jobs finished before :data:`KEEP_FOR` and their files, and any file in
    ``root`` older than that (a part left by a killed worker); then, while the finished
    files take more than ``budget_bytes`` (0: no bound), the oldest finished job and its
    file. Returns files removed."""
    limit = utcnow() - KEEP_FOR
    old = session.scalars(select(ExportJob).where(
        ExportJob.state.in_((ExportState.DONE, ExportState.ERROR)),
        ExportJob.finished_at < limit)).all()
    removed = 0
    for job in old:
        if job.file_path:
            path = root / job.file_path
            if path.exists():
                path.unlink()
                removed += 1
    if old:
        session.execute(delete(ExportJob).where(ExportJob.id.in_([j.id for j in old])))
        session.commit()
    stamp = limit.timestamp()
    for path in root.iterdir():
        if path.is_file() and path.stat().st_mtime < stamp:
            path.unlink(missing_ok=True)
            removed += 1
    return removed + (_within_budget(session, root, budget_bytes) if budget_bytes > 0 else 0)


def _file_size(root: Path, job: ExportJob) -> int:
    """The size of the job's file on disk (0: none, or gone)."""
    try:
        return (root / job.file_path).stat().st_size if job.file_path else 0
    except OSError:
        return 0


def _within_budget(session: Session, root: Path, budget_bytes: int) -> int:
    """The oldest finished jobs removed, file and row, until their files fit the budget."""
    finished = session.scalars(select(ExportJob).where(
        ExportJob.state.in_((ExportState.DONE, ExportState.ERROR)))
        .order_by(ExportJob.finished_at.desc(), ExportJob.id)).all()
    sizes = [(job, _file_size(root, job)) for job in finished]     # newest first
    total = sum(size for _job, size in sizes)
    dropped = []
    while total > budget_bytes and sizes:
        job, size = sizes.pop()                  # the oldest
        if size and job.file_path:
            (root / job.file_path).unlink(missing_ok=True)
        total -= size
        dropped.append(job.id)
    if dropped:
        session.execute(delete(ExportJob).where(ExportJob.id.in_(dropped)))
        session.commit()
    return len(dropped)


def file_of(job: ExportJob, root: Path) -> Path | None:
    """The finished PDF of a job, if it is still there."""
    if job.state != ExportState.DONE or not job.file_path:
        return None
    path = root / job.file_path
    return path if path.is_file() else None


__all__ = ["CHUNK", "KEEP_FOR", "RUNNING_MAX", "STALE_AFTER", "WAITING_MAX", "ExportBusy",
           "QueueFull", "Renderer", "active_job", "claim_next", "cleanup", "create_job",
           "criteria", "expire_stale", "exports_dir", "file_of", "pick_order", "render_job",
           "report", "worker_name"]
