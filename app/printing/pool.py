"""Bulk exports on every core: a job's games rendered by a pool of processes.

A WeasyPrint render is pure CPU in one thread (and serialized by the lock of
:mod:`app.printing.render`), so a runner rendering game by game uses one core. For a job of
:data:`POOL_FROM` games or more, the runner starts a pool of one process per core
(``EXPORT_PROCESSES``, default the cores this process may run on), each building its own
app from the runner's configuration (no migration) with the factory the runner's app was
given (its setting :data:`MAKE_APP`: this module never imports the factory, which imports
the printing views) and rendering games by id exactly as the runner would
(:func:`app.printing.responses.bulk_sheet_pdf`, the kept renders of
:mod:`app.printing.cache` included). The runner receives the PDFs in the games' order and
joins them as before (``app.printing.exports.render_job``): the job's rows, progress, limits
and turns are the runner's, unchanged.

Memory stays bounded: a process renders one game at a time and is replaced after
:data:`TASKS_PER_PROCESS` games (what a long render leaves behind goes with it), and the
runner holds at most the games of one part file. Processes are started by a fork server
(never a fork of a worker with threads and open connections) and stop with the job.
"""
from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask

from app.db import get_db
from app.printing.responses import bulk_sheet_pdf

#: Jobs with fewer games render in the runner's own process (starting processes costs more).
POOL_FROM = 8
#: Games a render process renders before it is replaced by a fresh one.
TASKS_PER_PROCESS = 40
#: How render processes start: from a fork server (never a fork of a worker with threads and
#: open connections); "spawn" where there is none (bench/exports.py uses it to measure them:
#: spawned processes are the runner's own children).
START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

#: The setting holding how a render process builds its app from a configuration (the
#: factory's ``build_app``, put there by :func:`app.printing.views.init_app`).
MAKE_APP = "EXPORT_MAKE_APP"

_worker: dict[str, Any] = {}


def processes(app: Flask) -> int:
    """How many render processes a job may use: ``EXPORT_PROCESSES``, else one per core."""
    configured = app.config.get("EXPORT_PROCESSES")
    if configured:
        return max(1, int(configured))
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:            # not on Linux
        return os.cpu_count() or 1


def worker_config(app: Flask) -> dict[str, Any]:
    """The runner's configuration for a render process's own app (what can be sent)."""
    out: dict[str, Any] = {}
    for key, value in app.config.items():
        try:
            pickle.dumps(value)
        except Exception:  # noqa: BLE001, S112 - a setting that cannot travel is not a render's
            continue
        out[key] = value
    out["AUTO_MIGRATE"] = False
    return out


def _start(make_app: Callable[[dict[str, Any]], Flask], config: dict[str, Any], language: str,
           orientation: str, base_url: str | None) -> None:
    """A render process's start: its app, and the export's request (language, host)."""
    app = make_app(config)
    context = app.test_request_context("/exports", base_url=base_url,
                                       headers={"Accept-Language": language})
    context.push()
    _worker.update(app=app, context=context, language=language, orientation=orientation)


def release_memory() -> None:
    """Gives what a finished render freed back to the system (a cycle collection, then
    glibc's ``malloc_trim``): without it a render process's resident size grew by ~50 MB
    over its first renders (freed blocks kept by the allocator), and its peak with it."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):   # not glibc: the collection alone
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _render(game_id: int) -> bytes | None:
    with get_db(_worker["app"]).sessionmaker() as session:
        data = bulk_sheet_pdf(session, game_id, _worker["language"], _worker["orientation"])
    release_memory()
    return data


@contextmanager
def pool_renders(app: Flask, ids: list[int], language: str, orientation: str,
                 base_url: str | None) -> Iterator[Iterator[bytes | None] | None]:
    """The PDFs of ``ids`` in order, rendered by a pool of processes; None when the job is
    too small for a pool or there is one core (the runner renders them itself)."""
    count = min(processes(app), len(ids))
    if count < 2 or len(ids) < POOL_FROM:
        yield None
        return
    context = multiprocessing.get_context(START_METHOD)
    with context.Pool(count, initializer=_start,
                      initargs=(app.config[MAKE_APP], worker_config(app), language, orientation,
                                base_url),
                      maxtasksperchild=TASKS_PER_PROCESS) as pool:
        yield pool.imap(_render, ids, chunksize=1)
