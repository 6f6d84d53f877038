"""Flask commands of the app: ``flask --app app games rebuild``, ``games import`` and
``analyse FILE --hand i --trick t --seat s`` (ANALYSIS.md §3)."""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import NoReturn

import click
from flask import Flask
from flask.cli import AppGroup
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from sqlalchemy import func, select

from app.db import get_session
from app.files import FileProblem, read_limited
from app.games.imports import import_paths, record_paths
from app.models import Game
from app.rules import RecordError
from app.rules.limits import read_json
from app.rules.search.analysis import MISSING
from app.rules.search.analysis import analyse as analyse_position
from app.stats import rating_backlog
from app.stats.projections import rebuild as rebuild_all

games_cli = AppGroup("games", help="Stored games: import records, rebuild stored results.")


class _Bar:
    """A progress bar on standard error (rich): ``with _Bar(total, "import") as advance:``."""

    def __init__(self, total: int, desc: str) -> None:
        self.progress = Progress(TextColumn(desc), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=Console(stderr=True))
        self.task = self.progress.add_task(desc, total=total)

    def __enter__(self) -> Callable[[int], None]:
        self.progress.start()
        return self.advance

    def advance(self, n: int = 1) -> None:
        self.progress.advance(self.task, n)

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


@games_cli.command("rebuild")
def rebuild() -> None:
    """Recompute every game's stored result and the ratings from the records (changes
    nothing when they already agree)."""
    session = get_session()
    total = session.scalar(select(func.count()).select_from(Game)) or 0
    start = time.perf_counter()
    with _Bar(total, "rebuild") as advance:
        summary = rebuild_all(session, progress=advance)
    click.echo(f"{summary.games} games, {summary.changed} changed, {summary.broken} no longer replay, "
               f"{summary.rerated} rated again ({time.perf_counter() - start:.1f} s)")


@games_cli.command("rerate")
def rerate() -> None:
    """Bring ratings left behind by a correction up to date now (the job does it after the
    correction's commit; this waits for it)."""
    start = time.perf_counter()
    parts = rating_backlog.catch_up_all(get_session())
    click.echo(f"ratings up to date ({parts} part(s), {time.perf_counter() - start:.1f} s)")


@games_cli.command("import")
@click.argument("paths", nargs=-1, required=True)
@click.option("--date", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="The day the games were played (default: today).")
@click.option("--who", default="import", show_default=True, help="Name kept in the audit log.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes replaying the records (default: one per core for large imports).")
def import_(paths: tuple[str, ...], day: datetime | None, who: str, workers: int | None) -> None:
    """Import RECORD.md JSON files: files, folders of *.json, or - for standard input.

    Every file is checked before anything is written; a refused file is reported as
    PATH: field: message and leaves nothing behind. Exits 1 when any file was refused."""
    files = list(record_paths(paths))
    played_at = day.replace(tzinfo=UTC) if day is not None else None
    start = time.perf_counter()
    with _Bar(len(files), "import") as advance:
        summary = import_paths(get_session(), files, who=who, played_at=played_at, workers=workers,
                               progress=lambda _path, _ok: advance(1))
    elapsed = time.perf_counter() - start
    for line in summary.refused:
        click.echo(line, err=True)
    click.echo(f"imported: {summary.imported}, refused: {len(summary.refused)} ({elapsed:.1f} s)")
    if summary.refused:
        sys.exit(1)


def _whole(text: str | None) -> object:
    """An option as an integer when it is one; else as given (the engine names the field)."""
    if text is None:
        return MISSING
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] == "-" else stripped
    return int(stripped) if digits.isascii() and digits.isdigit() and len(digits) <= 18 else text


@click.command("analyse")
@click.argument("path", metavar="FILE")
@click.option("--hand", help="The hand's index in the record, from 0.")
@click.option("--trick", help="The trick's index in the hand, from 0.")
@click.option("--seat", help="The seat about to play there, 0-3.")
def analyse(path: str, hand: str | None, trick: str | None, seat: str | None) -> None:
    """Analyse a play of a record file (- for standard input): print every card the seat
    could have played, with what it could make sure of and reach (ANALYSIS.md §3).

    An invalid record or position prints one line naming the field and exits 1."""
    try:
        answer = analyse_position(read_json(read_limited(path)), _whole(hand), _whole(trick),
                                  _whole(seat))
    except FileProblem as e:
        _fail(f"{path}: {e}")
    except RecordError as e:
        _fail(str(e))
    except (RecursionError, MemoryError):
        _fail("record: too large to analyse")
    click.echo(json.dumps(answer, ensure_ascii=False, indent=2))


def _fail(line: str) -> NoReturn:
    click.echo(line.replace("\n", " "), err=True)
    sys.exit(1)


def init_app(app: Flask) -> None:
    app.cli.add_command(games_cli)
    app.cli.add_command(analyse)
