"""Bulk PDF exports as jobs in the database, their files under ``instance/exports/``.

A request only records the job (:func:`create_job`); a worker's runner thread claims queued
jobs one at a time (:func:`claim_next`, an atomic ``UPDATE ... WHERE state = 'queued'``)
and renders them game by game (:func:`render_job`), writing its progress -- and so its
heartbeat -- to the job's row. Any worker answers for any job from the row. Memory stays
bounded whatever the number of games: each game is rendered on its own (its footer reads
as on its own sheet) into a part file of :data:`CHUNK` games, and the parts are joined at
the end from disk.

Limits: one active job per requester (a second is told to wait), at most
:data:`QUEUE_MAX` active jobs on the site; a running job whose heartbeat stopped for
:data:`STALE_AFTER` (its worker was killed) is marked interrupted; finished jobs and their
files are removed after :data:`KEEP_FOR`.
"""
from __future__ import annotations

import copy
import io
import os
import secrets
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
    TextStringObject,
)
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db import utcnow
from app.models import ExportJob, ExportState

#: Active (queued or running) jobs on the whole site.
QUEUE_MAX = 8
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
    """Too many exports are waiting on the site."""


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
    """A queued job; ExportBusy if ``owner`` has one queued or running, QueueFull when the
    site's queue is full."""
    expire_stale(session)
    if owner is not None:
        busy = active_job(session, owner)
        if busy is not None:
            raise ExportBusy(busy.id)
    active = session.scalar(select(func.count()).select_from(ExportJob)
                            .where(ExportJob.state.in_(ExportState.ACTIVE)))
    if (active or 0) >= QUEUE_MAX:
        raise QueueFull()
    now = utcnow()
    job = ExportJob(id=secrets.token_urlsafe(12), state=ExportState.QUEUED, progress=0, total=0,
                    pages=0, owner=owner, params=_jsonable(params), created_at=now, updated_at=now)
    session.add(job)
    session.commit()
    return job


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in params.items()}


def criteria(params: dict[str, Any]) -> dict[str, Any]:
    """The game filter of a job's params (dates back from ISO text)."""
    def day(v: Any) -> date | None:
        return date.fromisoformat(v) if v else None

    return {"date_from": day(params.get("date_from")), "date_to": day(params.get("date_to")),
            "player_id": params.get("player_id")}


def claim_next(session: Session, worker: str) -> ExportJob | None:
    """The oldest queued job, now running on ``worker``; None when none is queued. Two
    workers never claim the same job (the update names the state it expects)."""
    ids = session.scalars(select(ExportJob.id).where(ExportJob.state == ExportState.QUEUED)
                          .order_by(ExportJob.created_at).limit(5)).all()
    for job_id in ids:
        result = session.execute(
            update(ExportJob).where(ExportJob.id == job_id, ExportJob.state == ExportState.QUEUED)
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


def _chunks(ids: list[int], size: int) -> Iterator[list[int]]:
    for k in range(0, len(ids), size):
        yield ids[k:k + size]


def render_job(make_session: sessionmaker[Session], job_id: str, root: Path,
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
        for k, chunk in enumerate(_chunks(ids, CHUNK)):
            writer = PdfWriter()
            with make_session() as session:   # a fresh session: no game stays loaded
                for game_id in chunk:
                    data = renderer.render_game(session, game_id)
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
    """The parts as one PDF at ``target``, written as it is read: one part's objects are in
    memory at a time (a PDF writer would hold every page until the end). Each part's pages
    and what they use are copied with new object numbers under one page tree, with one
    bookmark per ``(label, first page)``. Returns the number of pages."""
    aside = target.with_suffix(".pdf.tmp")
    with open(aside, "wb") as out:
        joiner = _Joiner(out)
        for part in parts:
            joiner.add(part)
        pages = joiner.finish(title, bookmarks or [])
    os.replace(aside, target)
    return pages


class _Joiner:
    """A streaming PDF concatenation (objects 1 and 2 are the catalog and the page tree)."""

    CATALOG, PAGES = 1, 2

    def __init__(self, out: Any) -> None:
        self.out = out
        self.offsets: dict[int, int] = {}
        self.next_id = 3
        self.page_ids: list[int] = []
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _write(self, idnum: int, obj: Any) -> None:
        self.offsets[idnum] = self.out.tell()
        self.out.write(f"{idnum} 0 obj\n".encode())
        obj.write_to_stream(self.out)
        self.out.write(b"\nendobj\n")

    def add(self, part: Path) -> None:
        """Copies the pages of ``part`` (and everything they use) to the output."""
        reader = PdfReader(part)
        self._mapping: dict[tuple[int, int], int] = {}
        self._queue: list[tuple[int, IndirectObject]] = []
        pages = {}
        for page in reader.pages:       # inherited attributes already copied into each page
            page_ref = page.indirect_reference
            assert page_ref is not None
            self.page_ids.append(self._ref(page_ref).idnum)
            pages[(page_ref.idnum, page_ref.generation)] = page
        while self._queue:
            new_id, old = self._queue.pop()
            found = pages.get((old.idnum, old.generation))
            obj = found if found is not None else old.get_object()
            if found is not None:
                found[NameObject("/Parent")] = IndirectObject(self.PAGES, 0, None)
            self._write(new_id, self._renumber(obj))

    def _ref(self, old: IndirectObject) -> IndirectObject:
        key = (old.idnum, old.generation)
        if key not in self._mapping:
            self._mapping[key] = self._new_id()
            self._queue.append((self._mapping[key], old))
        return IndirectObject(self._mapping[key], 0, None)

    def _renumber(self, obj: Any) -> Any:
        """A copy of ``obj`` with every reference renumbered (a page's /Parent is already
        the new tree). Copies, never in place: pages share inherited dictionaries."""
        if isinstance(obj, IndirectObject):
            return self._ref(obj)
        if isinstance(obj, DictionaryObject):
            new = copy.copy(obj)          # a stream keeps its (encoded) data
            page = obj.get("/Type") == "/Page"
            for key in list(new.keys()):
                if not (page and key == "/Parent"):
                    new[NameObject(key)] = self._renumber(obj.raw_get(key))   # unresolved
            return new
        if isinstance(obj, ArrayObject):
            return ArrayObject(self._renumber(list.__getitem__(obj, k)) for k in range(len(obj)))
        return obj

    def _outline(self, bookmarks: list[tuple[str, int]]) -> int | None:
        """Writes the bookmarks (one level); the outline root's id, or None."""
        if not bookmarks:
            return None
        root = self._new_id()
        ids = [self._new_id() for _ in bookmarks]
        for k, (label, page) in enumerate(bookmarks):
            item = DictionaryObject({
                NameObject("/Title"): TextStringObject(label),
                NameObject("/Parent"): IndirectObject(root, 0, None),
                NameObject("/Dest"): ArrayObject([IndirectObject(self.page_ids[page], 0, None),
                                                  NameObject("/Fit")])})
            if k:
                item[NameObject("/Prev")] = IndirectObject(ids[k - 1], 0, None)
            if k + 1 < len(ids):
                item[NameObject("/Next")] = IndirectObject(ids[k + 1], 0, None)
            self._write(ids[k], item)
        self._write(root, DictionaryObject({
            NameObject("/Type"): NameObject("/Outlines"),
            NameObject("/First"): IndirectObject(ids[0], 0, None),
            NameObject("/Last"): IndirectObject(ids[-1], 0, None),
            NameObject("/Count"): NumberObject(len(ids))}))
        return root

    def finish(self, title: str | None, bookmarks: list[tuple[str, int]]) -> int:
        kids = ArrayObject(IndirectObject(i, 0, None) for i in self.page_ids)
        self._write(self.PAGES, DictionaryObject({NameObject("/Type"): NameObject("/Pages"),
                                                  NameObject("/Kids"): kids,
                                                  NameObject("/Count"): NumberObject(len(kids))}))
        catalog = DictionaryObject({NameObject("/Type"): NameObject("/Catalog"),
                                    NameObject("/Pages"): IndirectObject(self.PAGES, 0, None)})
        outline = self._outline(bookmarks)
        if outline is not None:
            catalog[NameObject("/Outlines")] = IndirectObject(outline, 0, None)
            catalog[NameObject("/PageMode")] = NameObject("/UseOutlines")
        self._write(self.CATALOG, catalog)
        info_id = self._new_id()
        info = DictionaryObject({NameObject("/Producer"): TextStringObject("kingsheet")})
        if title:
            info[NameObject("/Title")] = TextStringObject(title)
        self._write(info_id, info)
        start = self.out.tell()
        size = self.next_id
        lines = [f"xref\n0 {size}\n", "0000000000 65535 f \n"]
        lines += [f"{self.offsets[i]:010d} 00000 n \n" for i in range(1, size)]
        self.out.write("".join(lines).encode())
        self.out.write(f"trailer\n<< /Size {size} /Root {self.CATALOG} 0 R /Info {info_id} 0 R >>\n"
                       f"startxref\n{start}\n%%EOF\n".encode())
        return len(self.page_ids)


def _finish(make_session: sessionmaker[Session], job_id: str, *, error: str | None = None,
            pages: int = 0, file_path: str | None = None) -> None:
    with make_session() as session:
        values: dict[str, Any] = {"finished_at": utcnow()}
        if error is not None:
            values.update(state=ExportState.ERROR, error=error)
        else:
            values.update(state=ExportState.DONE, pages=pages, file_path=file_path)
        report(session, job_id, **values)


def cleanup(session: Session, root: Path) -> int:
    """Removes jobs finished before :data:`KEEP_FOR` and their files, and any file in
    ``root`` older than that (a part left by a killed worker). Returns files removed."""
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
    return removed


def file_of(job: ExportJob, root: Path) -> Path | None:
    """The finished PDF of a job, if it is still there."""
    if job.state != ExportState.DONE or not job.file_path:
        return None
    path = root / job.file_path
    return path if path.is_file() else None


__all__ = ["CHUNK", "KEEP_FOR", "QUEUE_MAX", "STALE_AFTER", "ExportBusy", "QueueFull", "Renderer",
           "active_job", "claim_next", "cleanup", "create_job", "criteria", "expire_stale",
           "exports_dir", "file_of", "render_job", "report", "worker_name"]
