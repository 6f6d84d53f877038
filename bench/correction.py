"""A correction far back while the club saves (issue 41): how long the correction's save
takes, and the other tables' saves meanwhile, against the same saves with no correction,
measured in the same run, on SQLite and PostgreSQL.

    .venv/bin/python bench/correction.py [--games 20000] [--tables 4] [--no-postgres]

Builds ``--games`` finished games (bench/scale.py's generator: a pool of replayed random
games written in bulk with their stored results, then the ratings from nothing), then
twice: ``--tables`` threads each play a new ru32 game hand by hand through the services (a
save per hand, each its own transaction, the way a request saves) -- first alone (the
baseline), then while a correction deletes the last hand of a rifki game half way back
(every later rifki game must be rated again: the job does it after the correction's commit,
issue 41). Prints the correction's save time, the job's time until the ratings are up to
date, the saves' p50/p99 in both runs and their ratio, and any save that failed.
"""
from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scale import build_pool, generate, make_app, postgres_url, sqlite_url  # noqa: E402


def _record() -> dict[str, Any]:
    import json

    path = Path(__file__).resolve().parent.parent / "tests" / "data" / "records" / "ru32_complete.json"
    return dict(json.loads(path.read_text()))


def play_tables(app: Any, tables: int, tag: str) -> tuple[list[float], list[str]]:
    """``tables`` threads, each a new ru32 game saved hand by hand: every save's seconds."""
    from app.db import get_session
    from app.games import hands
    from app.games.games import import_game
    from app.models import Game

    full = _record()
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def table(k: int) -> None:
        with app.app_context():
            session = get_session()
            record = copy.deepcopy(full)
            record["players"] = [f"{tag}{k}-{s}" for s in range(4)]
            record["hands"] = []
            game_id = import_game(session, record).id
            for hand in full["hands"]:
                game = session.get(Game, game_id, populate_existing=True)
                start = time.perf_counter()
                try:
                    hands.record_hand(session, game, hand, expected_version=game.version)
                except Exception as e:  # noqa: BLE001 - counted and reported
                    session.rollback()
                    with lock:
                        errors.append(f"{e.__class__.__name__}: {str(e).splitlines()[0][:80]}")
                    continue
                with lock:
                    times.append(time.perf_counter() - start)

    threads = [threading.Thread(target=table, args=(k,)) for k in range(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, errors


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def correct_far_back(app: Any) -> tuple[float, int]:
    """Deletes the last hand of the rifki game half way back: the save's seconds and the
    rifki games after it."""
    from sqlalchemy import select

    from app.db import get_session
    from app.games import hands
    from app.models import Game, RatingStep

    with app.app_context():
        session = get_session()
        ids = list(session.scalars(select(RatingStep.game_id).where(RatingStep.profile == "rifki")
                                   .distinct().order_by(RatingStep.game_id)))
        game = session.get(Game, ids[len(ids) // 2])
        start = time.perf_counter()
        hands.delete_last_hand(session, game, expected_version=game.version)
        return time.perf_counter() - start, len(ids) - len(ids) // 2 - 1


def wait_for_the_job(app: Any) -> float:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from app.db import get_db
    from app.models import RatingBacklog

    start = time.perf_counter()
    while True:
        with Session(get_db(app).engine) as s:
            if s.scalar(select(RatingBacklog.profile).limit(1)) is None:
                return time.perf_counter() - start
        time.sleep(0.05)


def run(label: str, url: str, args: argparse.Namespace, pool: Any) -> None:
    app = make_app(url)
    info = generate(app, args.games, pool)
    start = time.perf_counter()
    with app.app_context():
        from app.db import get_session
        from app.stats import ratings

        session = get_session()
        ratings.rebuild(session)
        session.commit()
    print(f"{label}: {args.games} games built in {info['seconds']:.1f} s, rated in "
          f"{time.perf_counter() - start:.1f} s")
    base, base_errors = play_tables(app, args.tables, "base")
    box: dict[str, Any] = {}

    def correction() -> None:
        time.sleep(0.3)          # the tables are saving
        box["save"], box["later"] = correct_far_back(app)
        box["job"] = wait_for_the_job(app)

    corrector = threading.Thread(target=correction)
    corrector.start()
    during, errors = play_tables(app, args.tables, "during")
    corrector.join()
    print(f"{label}: the correction's save {box['save'] * 1000:.0f} ms; the job rated {box['later']} later "
          f"rifki games in {box['job']:.1f} s after it")
    print(f"{label}: other saves alone p50/p99 {p(base, .5):.1f}/{p(base, .99):.1f} ms ({len(base)} saves, "
          f"{len(base_errors)} failed); during the correction {p(during, .5):.1f}/{p(during, .99):.1f} ms "
          f"({len(during)} saves, {len(errors)} failed); p99 ratio {p(during, .99) / p(base, .99):.2f}")
    for e in sorted(set(errors + base_errors)):
        print(f"{label}:   failed: {e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--part", type=int, default=None, help="games per part of the job")
    args = parser.parse_args()
    if args.part:
        from app.stats import rating_backlog

        rating_backlog.PART_GAMES = args.part
    pool = build_pool(random.Random(1))
    with tempfile.TemporaryDirectory() as tmp:
        url, _ = sqlite_url(Path(tmp), args.games)
        run("SQLite", url, args, pool)
    if not args.no_postgres:
        found = postgres_url(args.games)
        if found:
            url, drop = found
            try:
                run("PostgreSQL", url, args, pool)
            finally:
                drop()
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
