"""An evening at full size (issue 25): N tables (default 100, 400 players: one event; an
event holds 400 players at most, so 200 tables are two events) on gunicorn with PostgreSQL,
in compressed time.

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

    python bench/evening.py [--tables 100] [--seconds S] [--save-every 3] [--phones 4]
                            [--workers N] [--processes 4]

By default it lasts the round: until every table has saved its game's last hand, the
moment a club night's tables all finish near each other (those saves also write the
game's results, statistics and ratings; they are shown apart as well).
"""
from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import os
import queue
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


def documented_workers() -> int:
    """deploy/gunicorn.conf.py's processes on this machine (two per core)."""
    namespace: dict[str, Any] = {}
    exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), namespace)  # noqa: S102 - our own file
    return int(namespace["workers"])


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


def set_up(tables: int) -> tuple[Any, list[tuple[int, str]], list[dict[str, Any]]]:
    """The events (round 1 drawn: one game per table; an event holds at most
    ``events.MAX_PLAYERS`` players, so 200 tables are two events of 100, a federation's night
    in two rooms) and each table's hands to come. Returns the app, each event's id and share
    key, and the tables."""
    from app import create_app
    from app.db import get_session
    from app.events import events
    from app.models import Event
    from tests.events_play import whole_record

    app = create_app()
    per_event = events.MAX_PLAYERS // 4
    rooms: list[tuple[int, str]] = []
    plays = []
    with app.app_context():
        session = get_session()
        for first in range(0, tables, per_event):
            n = min(per_event, tables - first)
            names = [f"Jugador {i:03d}" for i in range(4 * first + 1, 4 * (first + n) + 1)]
            spec = events.EventSpec(name=f"Noche de federación {len(rooms) + 1}", profile="fiestas",
                                    players=names, rounds=3, day=date.today())
            event = events.create_event(session, spec, who="bench", user_id=None, seed=1)
            rooms.append((event.id, events.share_token(session, event)))
            for t in session.get(Event, event.id).drawn[0].tables:
                plays.append({"game_id": t.game_id, "hands": whole_record(t.game.record, t.number)["hands"],
                              "version": t.game.version})
    bench_director(app)
    return app, rooms, plays


class Evening:
    """The scheduler of one load process: every task has its next due time; one thread hands
    each task out when it is due, ``connections`` threads (a keep-alive connection each)
    carry them out, until the evening's end. Latencies are kept per kind."""

    def __init__(self, port: int, until: float, cookies: dict[str, str], bearer: dict[str, str]) -> None:
        self.port, self.until = port, until
        self.cookies, self.bearer = cookies, bearer
        self.heap: list[tuple[float, int, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.due = threading.Condition(self.lock)
        self.ready: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
        self.times: dict[str, list[float]] = {"save": [], "finish": [], "poll": [], "screen": [], "page": []}
        self.errors: list[str] = []
        self.n = 0

    def add(self, due: float, task: dict[str, Any]) -> None:
        with self.due:
            self.n += 1
            heapq.heappush(self.heap, (due, self.n, task))
            self.due.notify()

    def run(self, connections: int) -> None:
        threads = [threading.Thread(target=self._worker) for _ in range(connections)]
        for t in threads:
            t.start()
        self._dispatch()
        for _t in threads:
            self.ready.put(None)
        for t in threads:
            t.join()

    def _dispatch(self) -> None:
        """Hands out each task when it is due (the workers wait on the queue: no polling)."""
        with self.due:
            while True:
                now = time.monotonic()
                if now >= self.until:
                    return
                if self.heap and self.heap[0][0] <= now:
                    self.ready.put(heapq.heappop(self.heap)[2])
                    continue
                self.due.wait((self.heap[0][0] if self.heap else self.until) - now)

    def _worker(self) -> None:
        client = Phone(self.port)
        client.cookies = dict(self.cookies)
        while True:
            task = self.ready.get()
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
    if not table["hands"]:
        ev.timed("finish", elapsed)     # the game's last hand: its results, stats and ratings
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


def load_process(out: Any, ev: Evening, connections: int) -> None:
    """One process of the load (run in a forked child): its share of the phones and tables;
    sends back its latencies, errors and CPU seconds."""
    cpu = time.process_time()
    ev.run(connections)
    out.send((ev.times, ev.errors, time.process_time() - cpu))
    out.close()


Times = dict[str, list[float]]


def evening_load(args: argparse.Namespace, port: int, rooms: list[tuple[int, str]],
                 plays: list[dict[str, Any]], cookies: dict[str, str], bearer: dict[str, str]
                 ) -> tuple[Times, list[str], float]:
    """The phones, the tables' saves, the screen and the director's view, spread over
    ``--processes`` processes (at a club every phone is a device of its own: one process's
    threads would wait for each other's turn and add it to the times they measure). Returns
    the latencies by kind, the errors and the load's own CPU seconds."""
    now = time.monotonic() + 0.5
    until = now + args.seconds
    rng = random.Random(1)
    evenings = [Evening(port, until, cookies, bearer) for _ in range(args.processes)]
    for k, table in enumerate(plays):
        ev = evenings[k % args.processes]
        ev.add(now + rng.uniform(0, args.save_every),
               {"kind": "save", "run": save, "table": table, "every": args.save_every})
        for _phone in range(args.phones):
            ev.add(now + rng.uniform(0, 1), {"kind": "poll", "run": poll, "game_id": table["game_id"]})
    for event_id, key in rooms:     # each room's screen and its director's view
        evenings[0].add(now, {"kind": "screen", "run": screen, "live": f"/events/{event_id}/live?key={key}",
                              "page": f"/events/{event_id}/screen?key={key}"})
        evenings[-1].add(now + 0.5, {"kind": "screen", "run": screen, "live": f"/events/{event_id}/live",
                                     "page": f"/events/{event_id}"})
    fork = multiprocessing.get_context("fork")
    pipes, procs = [], []
    for ev in evenings:
        mine, theirs = fork.Pipe(duplex=False)
        threads = max(1, args.connections // args.processes)
        proc = fork.Process(target=load_process, args=(theirs, ev, threads))
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    times: Times = {}
    errors: list[str] = []
    cpu = 0.0
    for pipe in pipes:
        got, errs, used = pipe.recv()
        for kind, values in got.items():
            times.setdefault(kind, []).extend(values)
        errors += errs
        cpu += used
    for proc in procs:
        proc.join()
    return times, errors, cpu


def main() -> None:  # noqa: C901 - one evening, told in order
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=None,
                    help="how long (default: until every table has saved its game's last hand)")
    ap.add_argument("--save-every", type=float, default=3.0)
    ap.add_argument("--phones", type=int, default=4, help="phones polling per table")
    ap.add_argument("--workers", type=int, default=documented_workers(),
                    help="gunicorn processes (default: deploy/gunicorn.conf.py's, two per core)")
    ap.add_argument("--connections", type=int, default=24)
    ap.add_argument("--processes", type=int, default=4, help="processes the load is spread over")
    args = ap.parse_args()

    url, drop = postgres_database()
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="bench-key", PYTHONPATH=str(ROOT))
    os.environ.update(DATABASE_URL=url, SECRET_KEY="bench-key")
    servers: list[subprocess.Popen[bytes]] = []
    try:
        app, rooms, plays = set_up(args.tables)
        if args.seconds is None:        # the round whole: the last hands come in the last turn
            args.seconds = max(len(t["hands"]) for t in plays) * args.save_every + 1.0
        bearer = {"Authorization": f"Bearer {bench_token(app)}"}
        port, bare_port = free_port(), free_port()
        servers = [start("app:create_app()", port, env, args.workers),
                   start("bench.bare_app:app", bare_port, env, args.workers)]
        cookies = log_in(Client(port))
        app_pids, pg_pids = children(servers[0].pid), postgres_pids()
        app_cpu, pg_cpu = cpu_seconds(app_pids), cpu_seconds(pg_pids)
        started = time.monotonic()
        times, errors, load_cpu = evening_load(args, port, rooms, plays, cookies, bearer)
        wall = time.monotonic() - started
        app_cpu, pg_cpu = cpu_seconds(app_pids) - app_cpu, cpu_seconds(pg_pids) - pg_cpu
        bare_p50, bare_cpu = bare_cost(bare_port, servers[1].pid, 2000, 4)
    finally:
        for proc in servers:
            proc.terminate()
            proc.wait(10)
        drop()

    saves, polls, finishes = times["save"], times["poll"], times["finish"]
    per100 = 100 / args.tables
    print(f"evening: {args.tables} tables in {len(rooms)} event(s), {args.phones * args.tables} phones, "
          f"{wall:.1f} s, {args.workers} gunicorn workers x 8 threads, PostgreSQL")
    print(f"saves/s: {len(saves) / wall:.1f} (a hand per table every {args.save_every:g} s)")
    print(f"polls/s: {len(polls) / wall:.1f} (target {args.phones * args.tables}/s)")
    print(f"save p50/p99: {percentile(saves, .5) * 1000:.1f} / {percentile(saves, .99) * 1000:.1f} ms "
          f"(target p99 <= 250 ms)")
    if finishes:
        print(f"  of which a game's last hand: {len(finishes)}, p50/p99 {percentile(finishes, .5) * 1000:.1f}"
              f" / {percentile(finishes, .99) * 1000:.1f} ms")
    print(f"poll p50/p99: {percentile(polls, .5) * 1000:.1f} / {percentile(polls, .99) * 1000:.1f} ms "
          f"(target p99 <= 50 ms)")
    screens = times["screen"] + times["page"]
    print(f"screen + director: {len(screens)} requests, page p50 "
          f"{percentile(times['page'], .5) * 1000:.1f} ms")
    print(f"CPU per 100 tables: app {app_cpu / wall * per100:.2f} cores, "
          f"PostgreSQL {pg_cpu / wall * per100:.2f} cores")
    print(f"CPU of the load itself ({args.processes} processes, on the same cores): "
          f"{load_cpu / wall:.2f} cores")
    requests = len(saves) + len(polls) + len(screens)
    print(f"CPU per request: {1000 * (app_cpu + pg_cpu) / max(requests, 1):.2f} ms "
          f"(app {1000 * app_cpu / max(requests, 1):.2f} ms)")
    print(f"bare page: p50 {bare_p50 * 1000:.2f} ms, CPU {bare_cpu * 1000:.2f} ms per request")
    if errors:
        print(f"errors: {len(errors)} (first: {errors[0]})")
    print(f"ratio: {percentile(polls, .5) / bare_p50:.2f}")


if __name__ == "__main__":
    main()
