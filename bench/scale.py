"""Scale benchmark: the lists, statistics and ratings at 100 and at 100,000 games.

For each database (SQLite, and PostgreSQL when reachable on 127.0.0.1:5432) it builds two
databases of generated games, 100 and 100,000 (``--games``), played over five years by a
club of 200 players, a few dozen of them still in progress, then times in-process (Flask's
test client, one worker) these pages:

    /                      the game list (first page)
    /?player=ID            the list filtered by one player
    /players               the roster with everyone's statistics
    /players/ID            one player's page (ratings, statistics per profile, charts, their games)
    /players/ID/stats.csv  the CSV of that player's statistics
    /players/ratings       the ratings' leaderboard of a profile
    /seasons/ID            a season's standings (every profile, 50 rows each)

and, at each size, the ratings (issue 26): the update a save makes when the latest game
finishes (its stored seat rows go from unfinished to finished: that game rated, in the
save's transaction, rolled back), a correction of a game half way back (its save's share:
the ratings left to the job, issue 41; and the job's work, every later game of its profile
rated again, in one go), and at the large size ``games rebuild`` (every record
replayed, stored results and ratings compared: it must change nothing) and the ratings
computed from nothing.

Each figure is the median of ``--repeat`` requests after a warm-up, the two sizes' requests
taking turns (both databases are built first), so a busy machine weighs on both alike. Building 100,000 games
by replaying each record would take minutes, so the generator replays a pool of distinct
random games once, and writes every game as one of them with four players of the club,
its stored results inserted directly in bulk (the pool's results with the players' names:
names do not change scores); a sample of the stored games is then replayed and checked
against what was stored. A worker's memory is reported as its resident size before and
after serving ``--memory-requests`` more requests at the large size.

The last line is ``ratio: R``, the worst (large-size time / small-size time) over those
pages and databases. Targets (issue 12): R <= 2; moonshot R <= 1.2 with every page under
50 ms at 100,000 games.

    python bench/scale.py [--games 100000] [--small 100] [--repeat 15] [--no-postgres] [--no-rebuild]
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG_ADMIN = os.environ.get("KINGSHEET_BENCH_PG", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PLAYERS = 200
POOL = 48
START = date(2022, 1, 1)
DAYS = 5 * 365
#: The timed season spans the whole history, so that its tables are as long at 100 games as
#: at 100,000 (a page shows 50 rows per profile): what is timed is the number of games, not
#: the number of rows printed. Its standings cost the same whatever its length.
SEASON = ("Todo el club 2022-2026", START, START + timedelta(days=DAYS))
#: Player 1 is a regular, at most tables: their page and the list filtered by them are full
#: pages at 100 games too.
REGULAR = 0.6
IN_PROGRESS = 40          # the newest games are still being played
CHUNK = 5000


# --- the pool of distinct games ----------------------------------------------------------------

def _counts_hands(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every full trick-by-trick hand entered as counts (a smaller record,
    the same scores; checked by replaying both)."""
    from app.rules import load

    result = load(record)
    out = dict(record, hands=[])
    for raw, h in zip(record["hands"], result.hands, strict=True):
        hand = {k: v for k, v in raw.items() if k not in ("tricks", "deal")}
        if "tricks" in raw and not h.ended_early:
            counts: dict[str, Any] = {}
            for element, v in h.counts.items():
                if element == "kh":
                    counts[element] = list(v).index(1)
                elif element == "last_two":
                    counts[element] = list(h.trick_winners[-2:])
                else:
                    counts[element] = list(v)
            hand["counts"] = counts
        elif "tricks" in raw:
            hand["tricks"] = raw["tricks"]
        out["hands"].append(hand)
    try:
        if list(load(out).totals) == list(result.totals):
            return out
    except Exception:  # noqa: BLE001 - keep the original when the conversion does not replay
        pass
    return record


def build_pool(rng: random.Random) -> tuple[list[Any], list[Any]]:
    """(complete games, games in progress): each (canonical record, ResultValues)."""
    from app.games.imports import check_one
    from app.rules.simulate import random_game

    profiles = ["ru32", "fiestas", "subastas", "rifki"]
    complete, partial = [], []
    for k in range(POOL):
        profile = profiles[k % 4]
        record = _counts_hands(random_game(profile, rng, with_deal=False))
        checked = check_one(record)
        complete.append((checked.record, checked.values))
        if k < 8:
            cut = dict(checked.record, hands=checked.record["hands"][: rng.randrange(1, 6)])
            c2 = check_one(cut)
            partial.append((c2.record, c2.values))
    return complete, partial


# --- building a database -------------------------------------------------------------------------

def generate(app: Any, n: int, pool: tuple[list[Any], list[Any]], seed: int = 1) -> dict[str, Any]:
    """Writes n games (and their stored results) straight into the app's database."""
    from sqlalchemy import insert

    from app.collation import folded_name
    from app.db import get_session
    from app.models import AuditAction, AuditEntry, Game, GameStatus, Player, Seat
    from app.rules import get_profile
    from app.stats.projections import games_changed
    from app.stats.results import Facts, ResultValues
    from app.stats.seasons import save_season

    rng = random.Random(seed)
    complete, partial = pool
    started = time.perf_counter()
    with app.test_request_context():
        session = get_session()
        names = [f"Jugador {k:03d}" for k in range(1, PLAYERS + 1)]
        session.execute(insert(Player.__table__),
                        [{"id": k + 1, "name": name, "folded_name": folded_name(name)}
                         for k, name in enumerate(names)])
        now = datetime.now(UTC).replace(microsecond=0)
        span = DAYS * 86400
        for lo in range(0, n, CHUNK):
            games, seats, audits, results = [], [], [], []
            for k in range(lo, min(n, lo + CHUNK)):
                in_progress = k >= n - min(IN_PROGRESS, max(1, n // 50))
                record, values = rng.choice(partial if in_progress else complete)
                pids = rng.sample(range(2, PLAYERS + 1), 4)
                if rng.random() < REGULAR:
                    pids[rng.randrange(4)] = 1
                record = dict(record, players=[names[p - 1] for p in pids])
                text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                gvalues = dict(values.game, players=record["players"],
                               record_digest=hashlib.sha256(text.encode("utf-8")).hexdigest())
                when = datetime(START.year, START.month, START.day, tzinfo=UTC) + timedelta(
                    seconds=int(span * (k + rng.random()) / n))
                if in_progress:
                    when = now - timedelta(minutes=n - k)
                gid = k + 1
                status = GameStatus.COMPLETE if gvalues["complete"] else GameStatus.IN_PROGRESS
                games.append({"id": gid, "profile": record["profile"], "record": record, "status": status,
                              "version": 1, "created_at": when, "updated_at": when})
                seats.extend({"game_id": gid, "seat": s, "player_id": p} for s, p in enumerate(pids))
                audits.append({"game_id": gid, "at": when, "who": "bench", "action": AuditAction.IMPORT,
                               "hand_index": None, "before": None, "after": None})
                results.append(Facts(gid, when, pids, ResultValues(gvalues, values.seats, values.counters)))
            session.execute(insert(Game.__table__), games)
            session.execute(insert(Seat.__table__), seats)
            session.execute(insert(AuditEntry.__table__), audits)
            games_changed(session, results)
            session.commit()
        _fix_sequences(session)
        season = save_season(session, name=SEASON[0], starts_on=SEASON[1], ends_on=SEASON[2])
        get_profile("ru32")
        info = {"season": season.id, "player": 1, "seconds": time.perf_counter() - started}
    return info


def _fix_sequences(session: Any) -> None:
    """Explicit ids were inserted: move PostgreSQL's sequences past them."""
    from sqlalchemy import text

    if session.get_bind().dialect.name != "postgresql":
        return
    for table in ("game", "player", "audit_entry"):
        session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"))
    session.commit()


def verify(app: Any, sample: int, rng: random.Random) -> int:
    """Replays ``sample`` stored games and checks their stored results; returns how many."""
    from sqlalchemy import func, select

    from app.db import get_session
    from app.models import Game, SeatResult, StoredResult
    from app.stats.results import game_row, result_values, seat_rows

    with app.app_context():
        session = get_session()
        top = session.scalar(select(func.max(Game.id))) or 0
        ids = sorted({rng.randrange(1, top + 1) for _ in range(sample)})
        for gid in ids:
            game = session.get(Game, gid)
            assert game is not None
            values = result_values(game.record)
            stored = session.get(StoredResult, gid)
            assert stored is not None
            want = game_row(gid, game.created_at, values)
            for column, value in want.items():
                if column not in ("played_at", "game_id"):
                    assert getattr(stored, column) == value, (gid, column)
            rows = session.scalars(select(SeatResult).where(SeatResult.game_id == gid)
                                   .order_by(SeatResult.seat)).all()
            pids = [r.player_id for r in rows]
            for row, w in zip(rows, seat_rows(gid, game.created_at, pids, values), strict=True):
                for column in ("total", "won", "shared", "kings_made", "violations", "complete", "profile"):
                    assert getattr(row, column) == w[column], (gid, column)
    return len(ids)


# --- timing ------------------------------------------------------------------------------------------

def pages(info: dict[str, Any]) -> dict[str, str]:
    return {"/": "/", "/?player=": f"/?player={info['player']}", "/players": "/players",
            "/players/ID": f"/players/{info['player']}",
            "/players/ID/csv": f"/players/{info['player']}/stats.csv",
            "/players/ratings": "/players/ratings?profile=rifki&min=1",
            "/seasons/ID": f"/seasons/{info['season']}"}


# --- ratings -----------------------------------------------------------------------------------------

def _seat_rows(session: Any, game_id: int) -> list[dict[str, Any]]:
    from sqlalchemy import select

    from app.models import SeatResult
    from app.models.result import SEAT_COLUMNS

    return [dict(r._mapping) for r in session.execute(
        select(SeatResult.seat, *[SeatResult.__table__.c[c] for c in SEAT_COLUMNS])
        .where(SeatResult.game_id == game_id).order_by(SeatResult.seat))]


def time_rating_update(app: Any, repeat: int, back: float) -> tuple[float, int, float, float]:
    """The median time of the ratings' part of a save that finishes a game ``back`` of the
    way from the newest finished game to the oldest (0: the newest, its steps taken away
    first, as they stand before it finishes), each rolled back; how
    many games it rated; and the median CPU time of this process for it (on SQLite all the
    work, so a busy machine hardly changes it)."""
    from sqlalchemy import delete, select

    from app.db import get_session
    from app.models import RatingStep
    from app.stats import rating_backlog, ratings

    with app.app_context():
        session = get_session()
        ids = list(session.scalars(select(RatingStep.game_id).where(RatingStep.profile == "rifki")
                                   .distinct().order_by(RatingStep.game_id)))
        game_id = ids[int((len(ids) - 1) * (1 - back))]
        new = _seat_rows(session, game_id)
        old = [dict(r, complete=False) for r in new]          # as it stood before the last hand
        times, cpu, job, rated = [], [], [], 0
        for _ in range(repeat):
            if not back:        # the game finishing: it has no steps yet
                session.execute(delete(RatingStep).where(RatingStep.game_id == game_id))
            t, c = time.perf_counter(), time.process_time()
            rating_backlog.project(session, [(game_id, old, new)])     # the save's share
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            rated = sum(1 for i in ids if i >= game_id)
            session.rollback()
            t = time.perf_counter()        # the job's work, in one go (it runs in parts)
            ratings.rate_from(session, "rifki", (new[0]["played_at"], game_id))
            job.append(time.perf_counter() - t)
            session.rollback()
        return statistics.median(times), rated, statistics.median(cpu), statistics.median(job)


def time_rebuild(app: Any) -> tuple[float, Any, float]:
    """``games rebuild`` (seconds, its summary) and the ratings from nothing (seconds)."""
    from sqlalchemy import delete

    from app.db import get_session
    from app.models import Rating, RatingStep
    from app.rules import PROFILES
    from app.stats import ratings
    from app.stats.projections import rebuild as rebuild_results

    with app.app_context():
        session = get_session()
        t = time.perf_counter()
        summary = rebuild_results(session)
        rebuild = time.perf_counter() - t
        t = time.perf_counter()
        session.execute(delete(RatingStep))
        session.execute(delete(Rating))
        for profile in PROFILES:
            ratings.rate_from(session, profile, None)
        session.commit()
        scratch = time.perf_counter() - t
        return rebuild, summary, scratch


def member_client(app: Any) -> Any:
    """A test client logged in as a director when the app has accounts."""
    client = app.test_client()
    try:
        accounts = importlib.import_module("app.accounts.accounts")
    except ImportError:
        return client
    from app import models
    from app.db import get_session

    with app.app_context():
        session = get_session()
        user = accounts.find_user(session, "bench") or accounts.create_user(
            session, "bench", "bench password 1234", models.Role.DIRECTOR.value)
        ident = user.get_id()
    with client.session_transaction() as s:
        s["_user_id"] = ident
        s["_fresh"] = True
    return client


def time_pages(sites: dict[int, tuple[Any, dict[str, str]]], repeat: int) -> dict[int, dict[str, float]]:
    """The median time of each page at each size, the sizes' requests taking turns (a busy
    machine slows both sides of a ratio alike)."""
    clients = {n: member_client(app) for n, (app, _urls) in sites.items()}
    times: dict[int, dict[str, list[float]]] = {n: {} for n in sites}
    for n, (_app, urls) in sites.items():
        for url in urls.values():
            for _ in range(3):
                r = clients[n].get(url)
                assert r.status_code == 200, (url, r.status_code)
    names = list(next(iter(sites.values()))[1])
    for name in names:
        for _ in range(repeat):
            for n, (_app, urls) in sites.items():
                t = time.perf_counter()
                clients[n].get(urls[name])
                times[n].setdefault(name, []).append(time.perf_counter() - t)
    return {n: {name: statistics.median(v) for name, v in pages_.items()} for n, pages_ in times.items()}


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory(app: Any, urls: dict[str, str], requests: int) -> tuple[float, float]:
    client = member_client(app)
    names = list(urls.values())
    before = rss_mb()
    for k in range(requests):
        client.get(names[k % len(names)])
    return before, rss_mb()


# --- databases ---------------------------------------------------------------------------------------

def make_app(url: str) -> Any:
    from app import create_app

    return create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": False})


def sqlite_url(tmp: Path, n: int) -> tuple[str, Any]:
    return f"sqlite:///{tmp / f'scale-{n}.sqlite'}", lambda: None


def postgres_url(n: int) -> tuple[str, Any] | None:
    try:
        import psycopg

        admin = psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True)
    except Exception as e:  # noqa: BLE001 - unreachable means: skip PostgreSQL
        print(f"PostgreSQL skipped: {e}".splitlines()[0])
        return None
    name = f"kingsheet_scale_{n}_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}", drop


def run_db(label: str, urls: dict[int, tuple[str, Any]], pool: Any, args: argparse.Namespace
           ) -> dict[int, dict[str, float]]:
    from app.db import get_db

    apps: dict[int, Any] = {}
    infos: dict[int, dict[str, Any]] = {}
    try:
        for n, (url, _drop) in urls.items():
            apps[n] = make_app(url)
            infos[n] = generate(apps[n], n, pool)
            checked = verify(apps[n], 40, random.Random(n))
            print(f"{label} {n:>7} games: built in {infos[n]['seconds']:.1f} s; "
                  f"{checked} sampled games equal their replay")
        results = time_pages({n: (apps[n], pages(infos[n])) for n in urls}, args.repeat)
        for n in urls:
            print(f"{label} {n:>7} games: "
                  + "  ".join(f"{k} {v * 1000:.1f} ms" for k, v in results[n].items()))
        for n in urls:
            latest, _one, latest_cpu, _job = time_rating_update(apps[n], args.repeat, 0.0)
            middle, rated, _cpu, job = time_rating_update(apps[n], 3, 0.5)
            print(f"{label} {n:>7} games: rating update when the latest game finishes "
                  f"{latest * 1000:.2f} ms (CPU {latest_cpu * 1000:.2f} ms); a correction half way back "
                  f"costs its save {middle * 1000:.1f} ms and the job rates {rated} rifki games "
                  f"again in {job * 1000:.0f} ms (load average {os.getloadavg()[0]:.1f} on "
                  f"{os.cpu_count()} cores)")
        n = max(urls)
        before, after = memory(apps[n], pages(infos[n]), args.memory_requests)
        print(f"{label} {n:>7} games: worker memory {before:.0f} MB -> {after:.0f} MB after "
              f"{args.memory_requests} more requests")
        if not args.no_rebuild:
            rebuild, summary, scratch = time_rebuild(apps[n])
            print(f"{label} {n:>7} games: games rebuild {rebuild:.1f} s ({summary.games} games, "
                  f"{summary.changed} changed, {summary.rerated} rated again); "
                  f"ratings from nothing {scratch:.1f} s")
    finally:
        for app in apps.values():
            get_db(app).dispose()
        for _url, drop in urls.values():
            drop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--memory-requests", type=int, default=500)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--no-rebuild", action="store_true", help="skip timing games rebuild")
    args = parser.parse_args()
    started = time.perf_counter()
    pool = build_pool(random.Random(12))
    print(f"pool: {len(pool[0])} complete and {len(pool[1])} unfinished distinct games "
          f"({time.perf_counter() - started:.1f} s)")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        runs = {"sqlite": {n: sqlite_url(Path(tmp), n) for n in (args.small, args.games)}}
        if not args.no_postgres:
            first = postgres_url(args.small)
            if first is not None:
                second = postgres_url(args.games)
                assert second is not None
                runs["postgresql"] = {args.small: first, args.games: second}
        for label, urls in runs.items():
            res = run_db(label, urls, pool, args)
            for page in res[args.small]:
                ratio = res[args.games][page] / res[args.small][page]
                worst = max(worst, ratio)
                print(f"{label} {page:<12} {res[args.small][page] * 1000:6.1f} ms -> "
                      f"{res[args.games][page] * 1000:6.1f} ms   x{ratio:.2f}")
    print(f"ratio: {worst:.2f}")


if __name__ == "__main__":
    main()
