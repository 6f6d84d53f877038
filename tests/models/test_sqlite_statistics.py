"""SQLite's query planner gets its statistics (app/db.py, `_sqlite_optimize`): a connection
going back to the pool runs ``PRAGMA optimize``, which analyzes the tables it read with an
index that have none yet; with them, four players' last rating steps are read through the
players' index instead of every step of the profile. It never waits for another writer."""
from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select, text

from app.db import Database
from app.models import Game, Player, RatingStep
from app.stats.ratings import _after
from tests.conftest import migrate

PLAYERS = 200
GAMES = 4000
PROFILES = ("ru32", "fiestas", "subastas", "rifki")


def _filled(path: Path) -> Database:
    url = f"sqlite:///{path}"
    migrate(url)
    db = Database(url)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    with db.engine.begin() as conn:
        conn.execute(insert(Player), [{"id": p, "name": f"P{p}", "folded_name": f"p{p}"}
                                      for p in range(1, PLAYERS + 1)])
        conn.execute(insert(Game), [{"id": g, "profile": PROFILES[g % 4], "record": {}, "version": 1,
                                     "status": "complete", "created_at": start + timedelta(hours=g)}
                                    for g in range(1, GAMES + 1)])
        steps, played = [], {(p, k): 0 for p in range(1, PLAYERS + 1) for k in PROFILES}
        for g in range(1, GAMES + 1):
            for seat in range(4):
                p = (g * 7 + seat * 53) % PLAYERS + 1
                played[p, PROFILES[g % 4]] += 1
                steps.append({"player_id": p, "profile": PROFILES[g % 4], "games": played[p, PROFILES[g % 4]],
                              "game_id": g,
                              "played_at": start + timedelta(hours=g), "seat": seat, "total": 0,
                              "place": 1, "won": False, "mu": 25.0, "sigma": 8.3, "points": 0,
                              "wins": 0, "streak": 0, "best_streak": 0})
        conn.execute(insert(RatingStep), steps)
    return db


def _later_steps_of(players: list[int], at: tuple[datetime, int]) -> str:
    rs = RatingStep
    query = select(rs.game_id).where(rs.profile == "rifki", rs.player_id.in_(players),
                                     _after(rs.played_at, rs.game_id, at, True)).limit(1)
    return str(query.compile(compile_kwargs={"literal_binds": True}))


def test_a_connection_back_in_the_pool_gives_the_planner_its_statistics(tmp_path: Path):
    db = _filled(tmp_path / "k.sqlite")
    try:
        sql = _later_steps_of([1, 2, 3, 4], (datetime(2024, 3, 1), 1400))
        with db.engine.connect() as conn:
            assert not conn.execute(text(
                "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")).first()
            conn.execute(text(sql)).all()
        with db.engine.connect() as conn:      # the first went back to the pool: analyzed
            analyzed = {r[0] for r in conn.execute(text("SELECT tbl FROM sqlite_stat1"))}
            plan = " ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))
        assert "rating_step" in analyzed
        assert "ix_rating_step_total" in plan, plan      # player_id=? AND profile=?
    finally:
        db.dispose()


def test_the_statistics_never_wait_for_another_writer(tmp_path: Path):
    path = tmp_path / "k.sqlite"
    db = _filled(path)
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        sql = _later_steps_of([5, 6, 7, 8], (datetime(2024, 3, 1), 1400))
        with db.engine.connect() as conn:
            conn.execute(text(sql)).all()
            writer.execute("BEGIN IMMEDIATE")        # another worker's save holds the write lock
            started = time.monotonic()
        assert time.monotonic() - started < 1.0        # not the 5 s busy timeout
        writer.execute("ROLLBACK")
        with db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 5000
            conn.execute(text(sql)).all()
        with db.engine.connect() as conn:
            assert "rating_step" in {r[0] for r in conn.execute(text("SELECT tbl FROM sqlite_stat1"))}
    finally:
        writer.close()
        db.dispose()
