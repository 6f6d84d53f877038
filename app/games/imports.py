"""Importing many records at once (``flask --app app games import``).

Every record is read and replayed by the engine BEFORE anything is written: a refused file
(``PATH: field: message``) never leaves a partial game. Accepted games are written in
chunks, each chunk one transaction of a few multi-row inserts: the games, their seats,
their audit entries and their stored results (the same values the one-game path stores).
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from app.db import utcnow
from app.errors import BadInput
from app.files import FileProblem, read_limited
from app.games.records import new_game_record
from app.models import AuditAction, AuditEntry, Game, GameStatus, Seat
from app.rules import RecordError
from app.rules.limits import read_json
from app.stats import projections
from app.stats.results import Facts, ResultValues, player_ids_for, result_values

CHUNK = 500
PARALLEL_FROM = 400
#: Core tables: multi-row inserts without the ORM's per-row bookkeeping.
GAME = cast(Table, Game.__table__)
SEAT = cast(Table, Seat.__table__)
AUDIT = cast(Table, AuditEntry.__table__)


@dataclass
class ImportSummary:
    imported: int = 0
    refused: list[str] = field(default_factory=list)   # "PATH: field: message"
    game_ids: list[int] = field(default_factory=list)


def record_paths(paths: Iterable[str]) -> Iterator[str]:
    """Each path as given; a folder gives its ``*.json`` files (recursively, sorted);
    ``-`` is standard input."""
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            yield from (str(f) for f in sorted(p.rglob("*.json")) if f.is_file())
        else:
            yield path


def read_path(path: str) -> tuple[Any, str | None]:
    """(JSON value, None) or (None, "field: message") for a file that cannot be read: the
    same reading as ``kingsheet score`` (size limit, UTF-8 with or without BOM, strict JSON)."""
    try:
        return read_json(read_limited(path)), None
    except FileProblem as e:
        return None, f"record: {e}"
    except RecordError as e:
        return None, str(e)


@dataclass
class Checked:
    record: dict[str, Any]
    values: ResultValues


def check_one(data: Any) -> Checked:
    """The canonical record and its stored result; RecordError or BadInput."""
    try:
        record, result = new_game_record(data)
    except RecursionError:
        raise BadInput("record", "nested too deeply") from None
    return Checked(record, result_values(record, result))


def read_and_check(path: str) -> tuple[str, Checked | None, str | None]:
    """(path, checked record, None) or (path, None, "field: message"): one file, read and
    replayed (runs in the worker processes of a large import)."""
    data, error = read_path(path)
    if error is not None:
        return path, None, error
    try:
        return path, check_one(data), None
    except (RecordError, BadInput) as e:
        return path, None, str(e)


def checked_files(paths: list[str], workers: int) -> Iterator[tuple[str, Checked | None, str | None]]:
    """Every file read and checked, in order; by ``workers`` processes when more than one
    (replaying is most of an import's time). Standard input is read here."""
    if workers <= 1:
        yield from (read_and_check(p) for p in paths)
        return
    files = [p for p in paths if p != "-"]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = pool.map(read_and_check, files, chunksize=64)
        for path in paths:
            yield read_and_check(path) if path == "-" else next(done)


def default_workers(n_files: int) -> int:
    """Worker processes for an import of n files: one per core for large imports (starting
    a process costs about as much as replaying a few hundred records)."""
    return min(os.cpu_count() or 1, 8) if n_files >= PARALLEL_FROM else 1


def write_chunk(session: Session, chunk: list[Checked], *, who: str, played_at: datetime | None,
                players: dict[str, int]) -> list[int]:
    """Inserts the games of one chunk and their results; commits once. Returns their ids."""
    now = utcnow()
    when = played_at or now
    rows = [{"profile": c.record["profile"], "record": c.record,
             "status": GameStatus.COMPLETE if c.values.game["complete"] else GameStatus.IN_PROGRESS,
             "version": 1, "created_at": when, "updated_at": now} for c in chunk]
    ids = [int(r[0]) for r in session.execute(
        insert(GAME).returning(GAME.c.id, sort_by_parameter_order=True), rows)]
    seats: list[dict[str, Any]] = []
    audits: list[dict[str, Any]] = []
    facts: list[Facts] = []
    # The audit entry's "after" is the game's own record dict, not a copy: these are Core
    # inserts, each row serialized to JSON when the statement runs, and nothing changes the
    # record afterwards (a deep copy per game was two thirds of the writing time).
    for game_id, c in zip(ids, chunk, strict=True):
        pids = player_ids_for(session, c.record["players"], players)
        seats.extend({"game_id": game_id, "seat": s, "player_id": pid} for s, pid in enumerate(pids))
        audits.append({"game_id": game_id, "at": now, "who": who, "action": AuditAction.IMPORT,
                       "hand_index": None, "before": None, "after": c.record,
                       "version": 1})
        facts.append(Facts(game_id, when, pids, c.values))
    session.execute(insert(SEAT), seats)
    session.execute(insert(AUDIT), audits)
    projections.games_changed(session, facts)
    session.commit()
    return ids


def import_paths(session: Session, paths: Iterable[str], *, who: str = "import",
                 played_at: datetime | None = None, chunk_size: int = CHUNK,
                 progress: Callable[[str, bool], None] | None = None,
                 workers: int | None = None) -> ImportSummary:
    """Imports every record of ``paths`` (files, folders, ``-``); the refused ones are listed
    as ``PATH: field: message`` and change nothing. ``progress(path, ok)`` after each file."""
    files = list(record_paths(paths))
    summary = ImportSummary()
    pending: list[Checked] = []
    players: dict[str, int] = {}

    def flush() -> None:
        if pending:
            summary.game_ids.extend(write_chunk(session, pending, who=who, played_at=played_at,
                                                players=players))
            summary.imported += len(pending)
            pending.clear()

    n_workers = default_workers(len(files)) if workers is None else workers
    for path, checked, error in checked_files(files, n_workers):
        if checked is not None:
            pending.append(checked)
        if error is not None:
            summary.refused.append(f"{path}: {error}")
        if progress is not None:
            progress(path, error is None)
        if len(pending) >= chunk_size:
            flush()
    flush()
    return summary
