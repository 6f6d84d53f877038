"""An evening at full size (issue 25): one event of N tables (default 100, 400 players) on
gunicorn with PostgreSQL, in compressed time.

- every table saves a hand about every ``--save-every`` seconds (default 3 s: the real
  ~90 s compressed 30 times), through the API (POST /api/v1/games/<id>/hands, If-Match);
- four phones per table poll their game's live check every second
  (GET /games/<id>/live with If-None-Match, a logged-in session);
- the results screen polls the event's stamp every second and fetches the screen page
  again when it changed; the director's view does the same with /events/<id>.

All requests go to 127.0.0.1 only, from a bounded scheduler (a fixed number of keep-alive
connections, a fixed duration). It prints saves/s, polls/s, p50/p99 of a save and of a
poll, the CPU the app's workers and PostgreSQL used per 100 tables, and -- in the same run,
on the same machine -- the bare Flask page's p50 and CPU per request (bench/bare_app.py).
The last line is ``ratio: R`` (a poll's p50 over the bare page's p50).

    python bench/evening.py [--tables 100] [--seconds 20] [--save-every 3] [--workers 2]
"""
from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import Client, bench_director, bench_token, free_port, log_in  # noqa: E402

PG_ADMIN = os.environ.get("KINGSHEET_BENCH_PG", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
TICKS = os.sysconf("SC_CLK_TCK")


def start(spec: str, port: int, env: dict[str, str], workers: int) -> subprocess.Popen[bytes]:
    # the documented server (deploy/gunicorn.conf.py: gthread, its post_fork) in the
    # bench's size
    cmd = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "--workers", str(workers),
           "--threads", "8", "--bind", f"127.0.0.1:{port}", "--log-level", "warning", spec]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    import socket

    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            if proc.poll() is not None:
                sys.exit(f"{spec} did not start: {proc.stderr.read().decode()[-800:]}")  # type: ignore[union-attr]
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"{spec} did not start in 30 s")


class Phone(Client):
    """bench/web.py's keep-alive client (it remembers the last answer's ETag)."""


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes and their children that were waited for."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])      # utime stime cutime cstime
    return total / TICKS


def children(pid: int) -> list[int]:
    found = [pid]
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                ppid = int(p.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found.append(int(p.name))
    return found


def postgres_pids() -> list[int]:
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if p.joinpath("comm").read_text().strip() in ("postgres", "postmaster"):
                    out.append(int(p.name))
            except OSError:
                continue
    return out


def postgres_database() -> tuple[str, Any]:
    import psycopg

    admin = psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True)
    name = f"kingsheet_evening_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}", drop


def set_up(tables: int) -> tuple[Any, int, str, list[dict[str, Any]]]:
    """The event (round 1 drawn: one game per table) and each table's hands to come."""
    from app import create_app
    from app.db import get_session
    from app.models import Event
    from app.services import events
    from tests.events_play import whole_record

    app = create_app()
    names = [f"Jugador {i:03d}" for i in range(1, 4 * tables + 1)]
    with app.app_context():
        session = get_session()
        spec = events.EventSpec(name="Noche de federación", profile="fiestas", players=names,
                                rounds=3, day=date.today())
        event = events.create_event(session, spec, who="bench", user_id=None, seed=1)
        key = events.share_token(session, event)
        plays = []
        for t in session.get(Event, event.id).drawn[0].tables:
            plays.append({"game_id": t.game_id, "hands": whole_record(t.game.record, t.number)["hands"],
                          "version": t.game.version})
    bench_director(app)
    return app, event.id, key, plays


class Evening:
    """The scheduler: every task has its next due time; ``connections`` threads take the
    due ones in turn until the evening's end. Latencies are kept per kind."""

    def __init__(self, port: int, until: float, cookies: dict[str, str], bearer: dict[str, str]) -> None:
        self.port, self.until = port, until
        self.cookies, self.bearer = cookies, bearer
        self.heap: list[tuple[float, int, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {"save": [], "poll": [], "screen": [], "page": []}
        self.errors: list[str] = []
        self.n = 0

    def add(self, due: float, task: dict[str, Any]) -> None:
        with self.lock:
            self.n += 1
            heapq.heappush(self.heap, (due, self.n, task))

    def run(self, connections: int) -> None:
        threads = [threading.Thread(target=self._worker) for _ in range(connections)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def _next(self) -> dict[str, Any] | None:
        while True:
            with self.lock:
                if not self.heap:
                    return None
                due, _n, task = self.heap[0]
                if due > self.until:
                    return None
                now = time.monotonic()
                if due <= now:
                    heapq.heappop(self.heap)
                    return task
            time.sleep(min(0.005, max(0.0, due - now)))

    def _worker(self) -> None:
        client = Phone(self.port)
        client.cookies = dict(self.cookies)
        while True:
            task = self._next()
            if task is None:
                return
            try:
                task["run"](self, client, task)
            except Exception as e:  # noqa: BLE001 - counted and printed, the evening goes on
                self.errors.append(f"{task['kind']}: {e}")
                client = Phone(self.port)
                client.cookies = dict(self.cookies)

    def timed(self, kind: str, elapsed: float) -> None:
        with self.lock:
            self.times[kind].append(elapsed)


def save(ev: Evening, client: Phone, task: dict[str, Any]) -> None:
    table = task["table"]
    if not table["hands"]:
        return
    hand = table["hands"].pop(0)
    headers = {**ev.bearer, "Content-Type": "application/json", "If-Match": f'"v{table["version"]}"'}
    status, _body, elapsed = client.request("POST", f"/api/v1/games/{table['game_id']}/hands",
                                            json.dumps(hand), headers)
    if status != 201:
        raise RuntimeError(f"save answered {status}")
    table["version"] += 1
    ev.timed("save", elapsed)
    ev.add(time.monotonic() + task["every"], task)


def poll(ev: Evening, client: Phone, task: dict[str, Any]) -> None:
    status, _body, elapsed = client.request("GET", f"/games/{task['game_id']}/live",
                                            extra={"If-None-Match": task.get("tag", '"v1"')})
    if status not in (200, 304):
        raise RuntimeError(f"poll answered {status}")
    if status == 200 and client.etag:
        task["tag"] = client.etag     # the phone's sheet would fetch itself again here
    ev.timed("poll", elapsed)
    ev.add(time.monotonic() + 1.0, task)


def screen(ev: Evening, client: Phone, task: dict[str, Any]) -> None:
    """The results screen (or the director's view): the event's stamp, and the page again
    when it changed."""
    status, _body, elapsed = client.request("GET", task["live"], extra={"If-None-Match": task.get("tag", "")})
    ev.timed("screen", elapsed)
    if status == 200:
        task["tag"] = client.etag or ""
        code, _page, page_time = client.request("GET", task["page"])
        if code != 200:
            raise RuntimeError(f"{task['page']} answered {code}")
        ev.timed("page", page_time)
    ev.add(time.monotonic() + 1.0, task)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def bare_cost(port: int, pid: int, requests: int, connections: int) -> tuple[float, float]:
    """(p50 seconds, CPU seconds per request) of the bare page under the same client."""
    jobs = list(range(requests))
    times: list[float] = []
    lock = threading.Lock()

    def worker() -> None:
        client = Client(port)
        while True:
            with lock:
                if not jobs:
                    return
                jobs.pop()
            _s, _b, elapsed = client.request("GET", "/")
            with lock:
                times.append(elapsed)

    pids = children(pid)
    before = cpu_seconds(pids)
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statistics.median(times), (cpu_seconds(pids) - before) / requests


def main() -> None:  # noqa: C901 - one evening, told in order
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--save-every", type=float, default=3.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--connections", type=int, default=24)
    args = ap.parse_args()

    url, drop = postgres_database()
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="bench-key", PYTHONPATH=str(ROOT))
    os.environ.update(DATABASE_URL=url, SECRET_KEY="bench-key")
    servers: list[subprocess.Popen[bytes]] = []
    try:
        app, event_id, key, plays = set_up(args.tables)
        bearer = {"Authorization": f"Bearer {bench_token(app)}"}
        port, bare_port = free_port(), free_port()
        servers = [start("app:create_app()", port, env, args.workers),
                   start("bench.bare_app:app", bare_port, env, args.workers)]
        cookies = log_in(Client(port))
        now = time.monotonic()
        ev = Evening(port, now + args.seconds, cookies, bearer)
        rng = random.Random(1)
        for table in plays:
            ev.add(now + rng.uniform(0, args.save_every),
                   {"kind": "save", "run": save, "table": table, "every": args.save_every})
            for _phone in range(4):
                ev.add(now + rng.uniform(0, 1), {"kind": "poll", "run": poll, "game_id": table["game_id"]})
        ev.add(now, {"kind": "screen", "run": screen, "live": f"/events/{event_id}/live?key={key}",
                     "page": f"/events/{event_id}/screen?key={key}"})
        ev.add(now + 0.5, {"kind": "screen", "run": screen, "live": f"/events/{event_id}/live",
                           "page": f"/events/{event_id}"})
        app_pids, pg_pids = children(servers[0].pid), postgres_pids()
        app_cpu, pg_cpu = cpu_seconds(app_pids), cpu_seconds(pg_pids)
        started = time.monotonic()
        ev.run(args.connections)
        wall = time.monotonic() - started
        app_cpu, pg_cpu = cpu_seconds(app_pids) - app_cpu, cpu_seconds(pg_pids) - pg_cpu
        bare_p50, bare_cpu = bare_cost(bare_port, servers[1].pid, 2000, 4)
    finally:
        for proc in servers:
            proc.terminate()
            proc.wait(10)
        drop()

    saves, polls = ev.times["save"], ev.times["poll"]
    per100 = 100 / args.tables
    print(f"evening: {args.tables} tables, {4 * args.tables} phones, {wall:.1f} s, "
          f"{args.workers} gunicorn workers x 8 threads, PostgreSQL")
    print(f"saves/s: {len(saves) / wall:.1f} (a hand per table every {args.save_every:g} s)")
    print(f"polls/s: {len(polls) / wall:.1f} (target {4 * args.tables}/s)")
    print(f"save p50/p99: {percentile(saves, .5) * 1000:.1f} / {percentile(saves, .99) * 1000:.1f} ms "
          f"(target p99 <= 250 ms)")
    print(f"poll p50/p99: {percentile(polls, .5) * 1000:.1f} / {percentile(polls, .99) * 1000:.1f} ms "
          f"(target p99 <= 50 ms)")
    screens = ev.times["screen"] + ev.times["page"]
    print(f"screen + director: {len(screens)} requests, page p50 "
          f"{percentile(ev.times['page'], .5) * 1000:.1f} ms")
    print(f"CPU per 100 tables: app {app_cpu / wall * per100:.2f} cores, "
          f"PostgreSQL {pg_cpu / wall * per100:.2f} cores")
    requests = len(saves) + len(polls) + len(screens)
    print(f"CPU per request: {1000 * (app_cpu + pg_cpu) / max(requests, 1):.2f} ms "
          f"(app {1000 * app_cpu / max(requests, 1):.2f} ms)")
    print(f"bare page: p50 {bare_p50 * 1000:.2f} ms, CPU {bare_cpu * 1000:.2f} ms per request")
    if ev.errors:
        print(f"errors: {len(ev.errors)} (first: {ev.errors[0]})")
    print(f"ratio: {percentile(polls, .5) / bare_p50:.2f}")


if __name__ == "__main__":
    main()
