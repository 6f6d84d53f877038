"""Web benchmark: the score sheet and a hand POST under gunicorn, against a bare Flask page.

One run starts two servers on 127.0.0.1, each gunicorn with 2 workers:
- kingsheet (`app:create_app()`) on a fresh SQLite database holding a complete 20-hand rifki
  game and 400 new ru32 games to post a first hand to;
- a bare Flask app (bench/bare_app.py) rendering a 20x6 table template.
It measures median and p95 latency of GET the sheet, GET the bare page and POST a hand
(counts, with its CSRF token, as the browser sends it), with a bounded load: wrk for the
GETs when it is installed, and a bounded keep-alive Python client (2 connections, a fixed
number of requests) for the POSTs and, always, for the GETs too. Targets (issue 3): sheet
median within 2x the bare page, POST median within 3x. It also measures the live sheet's
version check (issue 13: every open page polls it about once a second) while nothing
changed, a 304 with If-None-Match, which must cost less than the bare page; and starting a
game from the form without and with four seat PINs (issue 27.9). And the JSON
API (issue 22), with a director's token: POST a counts hand to /api/v1/games/<id>/hands
with If-Match (each to its own new ru32 game; target within 3x, as the form's POST), GET
/api/v1/games/<id> of the same rifki game as the sheet (record and report; within 2x, as
the sheet) and the same GET answered 304 to If-None-Match (below 1x, as the version
check). The last line is `ratio: R` (sheet median over bare median).

    python bench/web.py [--requests 400] [--seconds 5]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("WRK %d %f %f %d\\n", summary.requests, latency:percentile(50),
                         latency:percentile(95), summary.errors.status + summary.errors.connect
                         + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(spec: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}",
           "--no-control-socket", "--log-level", "warning", spec]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
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


class Client:
    """A keep-alive HTTP/1.1 client with a cookie jar (enough for CSRF and sessions)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.etag: str | None = None      # the last answer's (bench/evening.py's phones)

    def request(self, method: str, path: str, body: str | None = None,
                extra: dict[str, str] | None = None) -> tuple[int, str, float]:
        headers = {"Accept-Language": "es", **(extra or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        start = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        resp = self.conn.getresponse()
        data = resp.read()
        elapsed = time.perf_counter() - start
        self.etag = resp.getheader("ETag")
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return resp.status, data.decode("utf-8", "replace"), elapsed


def bounded_load(port: int, jobs: list[tuple[str, str, str | None]], connections: int = 2,
                 cookies: dict[str, str] | None = None,
                 headers: dict[str, str] | None = None) -> list[float]:
    """Runs the jobs (method, path, body) over `connections` keep-alive connections.

    With ``cookies`` every request sends that same session: a browser follows each POST's
    redirect to the sheet, which takes the "saved" message out of its session again; a
    client that kept the POST's cookie without following would grow it with every hand."""
    times: list[float] = []
    lock = threading.Lock()
    queue = list(jobs)

    def worker() -> None:
        client = Client(port)
        while True:
            with lock:
                if not queue:
                    return
                method, path, body = queue.pop()
            if cookies is not None:
                client.cookies = dict(cookies)
            status, _text, elapsed = client.request(method, path, body, headers)
            if status >= 400:
                raise SystemExit(f"{method} {path}: HTTP {status}")
            with lock:
                times.append(elapsed)

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


BENCH_USER, BENCH_PASSWORD = "bench", "bench password 1234"


def bench_director(app: Any) -> None:
    """The director every benchmark logs in as (pages need an account since issue 9)."""
    from app.accounts import accounts
    from app.db import get_session

    with app.app_context():
        session = get_session()
        if accounts.find_user(session, BENCH_USER) is None:
            accounts.create_user(session, BENCH_USER, BENCH_PASSWORD, "director")


def bench_token(app: Any) -> str:
    """An API token of the bench director (/api/v1 takes a token, not the session)."""
    from app.accounts import accounts, tokens
    from app.db import get_session

    with app.app_context():
        session = get_session()
        user = accounts.find_user(session, BENCH_USER)
        assert user is not None
        return tokens.create_token(session, user, "bench")[1]


def log_in(client: Client) -> dict[str, str]:
    """Logs `client` in through the login form; its session cookies."""
    _s, page, _e = client.request("GET", "/login")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    if not token:
        sys.exit("could not read the login form")
    body = urllib.parse.urlencode({"csrf_token": token.group(1), "username": BENCH_USER,
                                   "password": BENCH_PASSWORD, "next": "/"})
    status, _t, _e = client.request("POST", "/login", body)
    if status != 303:
        sys.exit(f"POST /login answered {status}")
    return dict(client.cookies)


def cookie_header(cookies: dict[str, str]) -> str:
    return "Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items())


def wrk(url: str, seconds: int, header: str | None = None, *more: str) -> tuple[float, float, int] | None:
    exe = shutil.which("wrk")
    if exe is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(WRK_SCRIPT)
    try:
        extra = [arg for h in (header, *more) if h for arg in ("-H", h)]
        out = subprocess.run([exe, "-t2", "-c4", f"-d{seconds}s", "-s", fh.name, *extra, url],
                             capture_output=True, text=True, timeout=seconds + 30).stdout
    finally:
        os.unlink(fh.name)
    m = re.search(r"WRK (\d+) ([\d.]+) ([\d.]+) (\d+)", out)
    if not m:
        return None
    return float(m.group(2)) / 1e6, float(m.group(3)) / 1e6, int(m.group(1))


def stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def time_new_games(port: int, client: Client, starts: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(median, p95) of starting a game from the form without and with four seat PINs
    (issue 27.9: each PIN is hashed with scrypt as it is stored)."""
    _s, page, _e = client.request("GET", "/games/new")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    if not token:
        sys.exit("could not read the new-game form")
    form = {"csrf_token": token.group(1), "profile": "ru32", "player_0": "Ana", "player_1": "Beto",
            "player_2": "Carla", "player_3": "Dani", "first_seat": "0"}
    pins = {**form, **{f"pin_{s}": f"{4821 + s}" for s in range(4)}}
    bounded_load(port, [("POST", "/games/new", urllib.parse.urlencode(pins))] * 5, cookies=client.cookies)
    Job = tuple[str, str, str | None]
    plain: list[Job] = [("POST", "/games/new", urllib.parse.urlencode(form))] * starts
    with_pins: list[Job] = [("POST", "/games/new", urllib.parse.urlencode(pins))] * starts
    return (stats(bounded_load(port, plain, cookies=client.cookies)),
            stats(bounded_load(port, with_pins, cookies=client.cookies)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=400, help="requests per measured URL")
    ap.add_argument("--seconds", type=int, default=5, help="wrk duration per URL")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="kingsheet-web-bench-"))
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite", SECRET_KEY="bench-key",
               PYTHONPATH=str(ROOT))
    # the database, migrated once here (so the two workers do not race to migrate it)
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], SECRET_KEY=env["SECRET_KEY"])
    from app import create_app
    from app.db import get_session
    from app.games.games import import_game
    from app.rules.simulate import random_game

    app = create_app()
    with app.app_context():
        session = get_session()
        sheet_id = import_game(session, random_game("rifki", random.Random(7)), who="bench").id
        empty = {"format": "kingsheet/1", "profile": "ru32",
                 "players": ["Ana", "Beto", "Carla", "Dani"], "first_dealer": 0, "hands": []}
        post_ids = [import_game(session, json.loads(json.dumps(empty)), who="bench").id
                    for _ in range(args.requests)]
        # the API's POSTs: 20 to warm up, then one first hand to each of the others
        api_ids = [import_game(session, json.loads(json.dumps(empty)), who="bench").id
                   for _ in range(args.requests + 20)]
    bench_director(app)
    bearer = {"Authorization": f"Bearer {bench_token(app)}"}

    port, bare_port = free_port(), free_port()
    servers = [start("app:create_app()", port, env), start("bench.bare_app:app", bare_port, env)]
    try:
        sheet_path, bare_path = f"/games/{sheet_id}", "/"
        client = Client(port)
        member = log_in(client)   # one director's session for every kingsheet request
        # warm both (templates compiled, connections open)
        bounded_load(port, [("GET", sheet_path, None)] * 20, cookies=member)
        bounded_load(bare_port, [("GET", bare_path, None)] * 20)

        rows = []
        sheet_t = stats(bounded_load(port, [("GET", sheet_path, None)] * args.requests, cookies=member))
        bare_t = stats(bounded_load(bare_port, [("GET", bare_path, None)] * args.requests))
        # the live sheet's version check while nothing changed: 304, no body, no record read
        live_path, unchanged = f"/games/{sheet_id}/live", {"If-None-Match": '"v1"'}
        probe = client.request("GET", live_path, None, unchanged)[0]
        if probe != 304:
            sys.exit(f"GET {live_path} with If-None-Match answered {probe}, not 304")
        bounded_load(port, [("GET", live_path, None)] * 20, headers=unchanged, cookies=member)
        live_t = stats(bounded_load(port, [("GET", live_path, None)] * args.requests, headers=unchanged,
                                    cookies=member))
        # POST a hand: the director's session, its CSRF token, a first hand to each new game
        _s, page, _e = client.request("GET", f"/games/{post_ids[0]}/hands/new")
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        version = re.search(r'name="version" value="(\d+)"', page)
        if not token or not version:
            sys.exit("could not read the hand form")
        form = {"csrf_token": token.group(1), "version": version.group(1),
                "contract": "no-tricks", "trump": "", "leader": "", "auction": "",
                "mode": "counts", "tricks_0": "2", "tricks_1": "3", "tricks_2": "1",
                "tricks_3": "2", "ruling_kind": "as-played"}
        body = urllib.parse.urlencode(form)
        jobs = [("POST", f"/games/{gid}/hands/new", body) for gid in post_ids]
        post_t = stats(bounded_load(port, jobs, cookies=client.cookies))
        new_t, pins_t = time_new_games(port, client, max(20, args.requests // 10))
        # the API: a token, no session; JSON in and out
        api_client = Client(port)
        api_game, api_seen = f"/api/v1/games/{sheet_id}", {**bearer, "If-None-Match": '"v1"'}
        for headers, want in ((bearer, 200), (api_seen, 304)):
            probe = api_client.request("GET", api_game, None, headers)[0]
            if probe != want:
                sys.exit(f"GET {api_game} with {sorted(headers)} answered {probe}, not {want}")
        bounded_load(port, [("GET", api_game, None)] * 20, headers=bearer)
        api_get_t = stats(bounded_load(port, [("GET", api_game, None)] * args.requests, headers=bearer))
        bounded_load(port, [("GET", api_game, None)] * 20, headers=api_seen)
        api_304_t = stats(bounded_load(port, [("GET", api_game, None)] * args.requests, headers=api_seen))
        hand = json.dumps({"contract": "no-tricks", "counts": {"tricks": [2, 3, 1, 2]}})
        api_post = {**bearer, "If-Match": '"v1"', "Content-Type": "application/json"}
        probe, answer, _e = api_client.request("POST", f"/api/v1/games/{api_ids[0]}/hands", hand,
                                               api_post)
        if probe != 201:
            sys.exit(f"POST /api/v1/games/{api_ids[0]}/hands answered {probe}: {answer[:300]}")
        bounded_load(port, [("POST", f"/api/v1/games/{gid}/hands", hand) for gid in api_ids[1:20]],
                     headers=api_post)
        api_post_t = stats(bounded_load(port, [("POST", f"/api/v1/games/{gid}/hands", hand)
                                               for gid in api_ids[20:]], headers=api_post))
        rows.append(("GET sheet (20-hand rifki)", sheet_t))
        rows.append(("GET bare 20x6 table page", bare_t))
        rows.append(("GET version check (304)", live_t))
        rows.append(("POST a hand (counts)", post_t))
        rows.append(("POST a new game, no PINs", new_t))
        rows.append(("POST a new game, 4 PINs", pins_t))
        rows.append(("API GET the game (200)", api_get_t))
        rows.append(("API GET the game (304)", api_304_t))
        rows.append(("API POST a hand (counts)", api_post_t))
        print(f"gunicorn 2 workers per app; bounded client: {args.requests} requests per URL over "
              "2 keep-alive connections")
        for name, (med, p95) in rows:
            print(f"{name:28s} median {med * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms")
        print(f"sheet / bare (median): {sheet_t[0] / bare_t[0]:.2f}x (target <= 2x)")
        print(f"POST / bare (median):  {post_t[0] / bare_t[0]:.2f}x (target <= 3x)")
        print(f"version check 304 / bare (median): {live_t[0] / bare_t[0]:.2f}x (target < 1x)")
        print(f"new game with 4 PINs / without (median): {pins_t[0] / new_t[0]:.2f}x "
              f"(+{(pins_t[0] - new_t[0]) * 1000:.1f} ms for four hashes)")
        print(f"API GET game / bare (median): {api_get_t[0] / bare_t[0]:.2f}x (target <= 2x, as the sheet)")
        print(f"API GET 304 / bare (median):  {api_304_t[0] / bare_t[0]:.2f}x (target < 1x, as the "
              "version check)")
        print(f"API POST / bare (median):     {api_post_t[0] / bare_t[0]:.2f}x (target <= 3x, as the "
              "form's POST)")
        w_sheet = wrk(f"http://127.0.0.1:{port}{sheet_path}", args.seconds, cookie_header(member))
        w_bare = wrk(f"http://127.0.0.1:{bare_port}{bare_path}", args.seconds)
        ratio = sheet_t[0] / bare_t[0]
        if w_sheet and w_bare:
            print(f"wrk -t2 -c4 {args.seconds}s: sheet median {w_sheet[0] * 1000:.2f} ms p95 "
                  f"{w_sheet[1] * 1000:.2f} ms ({w_sheet[2]} requests); bare median "
                  f"{w_bare[0] * 1000:.2f} ms p95 {w_bare[1] * 1000:.2f} ms ({w_bare[2]} requests)")
            ratio = w_sheet[0] / w_bare[0]
            print(f"sheet / bare under wrk (median): {ratio:.2f}x")
            w_live = wrk(f"http://127.0.0.1:{port}{live_path}", args.seconds, 'If-None-Match: "v1"',
                         cookie_header(member))
            if w_live:
                print(f"wrk: version check (304) median {w_live[0] * 1000:.2f} ms p95 "
                      f"{w_live[1] * 1000:.2f} ms ({w_live[2]} requests); "
                      f"{w_live[0] / w_bare[0]:.2f}x the bare page")
        else:
            print("wrk not installed: the bounded Python client's figures above are the result")
        print(f"ratio: {ratio:.2f}")
    finally:
        for proc in servers:
            proc.terminate()
        for proc in servers:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
