"""PDF rendering benchmark: figures and ratios against baselines measured in the same run.

(a) a complete rifki score sheet (20 hands, from a seeded random game) next to a bare
    WeasyPrint render of a plain 20x6 HTML table with the same @page and font, measured
    in turns (bare, sheet, bare, sheet...) so that a busy machine slows both alike;
    target (issue 15): sheet <= 1.5x the bare render (moonshot <= 1x).
(b) 50 score sheets in one document (export_bulk_pdf) next to 50 single renders. One
    document saves only the fixed cost of a render, and lays out a longer document: the
    app's bulk exports render game by game and join the files (issue 8, bench/exports.py).
(c) end to end over HTTP: GET /games/<id>/sheet.pdf of the same game from kingsheet under
    gunicorn (2 workers, one request at a time) next to GET /bare.pdf, the same bare render
    served by a bare Flask app (bench/bare_app.py), also in turns.
(e) the content floor: the text of (a)'s sheet table alone (header row, every hand's number,
    contract and who chose it, each seat's points over its running total, the check mark,
    the totals row: what the issue asks the sheet to show), set as a plain table in the bare
    render's own stylesheet (no colours, widths, rules or page furniture; fixed layout and
    each cell's two lines one text, as the sheet) and rendered as the bare one is, in turns
    with it. It shows how much of (a)'s ratio the required content costs
    before any look is added: WeasyPrint pays per cell and per line of text, and the sheet
    has twice the bare table's lines. Then (e') the whole sheet as printed (title band,
    footer with QR code and fingerprint, chart, verdict, signatures) with only its table
    swapped for that plain one: what the content and page furniture the issue asks for cost
    before the table's own look (rules, two-tone cells, winner column) is added.
(f) a repeat download: GET /games/<id>/sheet.pdf of a game whose PDF was downloaded before
    (the render kept on disk, app/printing/cache.py; logged in), and the same through its share
    link (anonymous), each in turns with GET /static/<file> of a file of the same size from
    the same server (issue 28: at most 1.5x).
(d) with --instructions (needs valgrind): the CPU instructions of one render of (a)'s sheet
    and of the bare render, counted by cachegrind (a process doing N renders minus one doing
    none), a figure that does not depend on what else the machine is doing.

Run: .venv/bin/python bench/pdf.py [--repeat N] [--games N] [--seed S] [--no-http] [--instructions]
The last line is `ratio: R` (sheet over bare render, (a)).
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

BARE_CSS = """@page { size: A4 portrait; margin: 12mm 11mm 15mm 11mm; }
html { font-family: "DejaVu Sans"; font-size: 8pt; }
table { border-collapse: collapse; width: 100%; }
td { border: 0.5pt solid #999; padding: 0.4mm 1mm; text-align: right; }"""


#: (e)'s stylesheet: the bare one, with the two levers the sheet uses that change nothing
#: seen here (no measuring of cells; a cell's two lines one text).
FLOOR_CSS = BARE_CSS + "\ntable { table-layout: fixed; } td { white-space: pre; }"


def bare_html(rng: random.Random) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{rng.randint(-400, 400)}</td>" for _ in range(6)) + "</tr>"
                   for _ in range(20))
    return f"<!doctype html><html><body><table>{rows}</table></body></html>"


def content_table(doc: dict[str, Any], attributes: str = "") -> str:
    """(e): the sheet table's text as a plain HTML table, two lines where the sheet has two."""
    from markupsafe import escape

    def row(cells: list[str]) -> str:
        return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"

    def two(a: Any, b: Any) -> str:   # one text of two lines (white-space: pre), as the sheet
        return f"{escape(a)}\n{escape(b)}"

    players = doc["players"]
    rows = [row(["#", two("Contrato", "Elige"), *map(str, map(escape, players)), "Control"])]
    for r in doc["hands"]:
        who = r["chooser"] if r["chooser"] is not None else r["dealer"]
        contract = r["contract"] + (f" {r['trump']}" if r["trump"] else "")
        rows.append(row([str(r["number"]), two(contract, players[who] if who is not None else ""),
                         *(two(p, t) for p, t in zip(r["points"], r["running_totals"], strict=True)),
                         "✓"]))
    rows.append(row(["Σ", "Totales", *map(str, doc["totals"]), "✓"]))
    return f"<table{attributes}>{''.join(rows)}</table>"


#: (e')'s plain table inside the sheet: the bare stylesheet's rules, scoped to its class.
UNSTYLED_TABLE_CSS = """table.plain { border-collapse: collapse; width: 100%; table-layout: fixed;
  font-family: "DejaVu Sans"; font-size: 8pt; line-height: normal; }
table.plain td { border: 0.5pt solid #999; padding: 0.4mm 1mm; text-align: right; white-space: pre; }"""


def unstyled_table_sheet(doc: dict[str, Any]) -> str:
    """(e'): the sheet's HTML with its table replaced by :func:`content_table`'s."""
    import re

    from flask import render_template

    table = content_table(doc, ' class="plain"')
    html = render_template("pdf/sheet.html", docs=[doc], orientation="auto")
    out, n = re.subn(r'<table class="ruled sheet(?: long)?">.*?</table>', lambda _m: table, html, flags=re.S)
    assert n == 1, "the sheet template has no ruled sheet table"
    return out


def renders(doc: dict[str, Any], seed: int) -> dict[str, Callable[[], Any]]:
    """Each render the benchmark measures, ready to call (in an app and request context):
    "bare" and "sheet" (a), "floor" (e), "unstyled" (e')."""
    import weasyprint

    from app.printing import responses
    from app.printing.render import render_pdf, stylesheet

    def plain(html: str, css: str) -> Callable[[], Any]:
        sheet = weasyprint.CSS(string=css)
        return lambda: weasyprint.HTML(string=html).write_pdf(stylesheets=[sheet])

    floor_html = f"<!doctype html><html><body>{content_table(doc)}</body></html>"
    unstyled_html = unstyled_table_sheet(doc)
    unstyled_css = [stylesheet(), weasyprint.CSS(string=UNSTYLED_TABLE_CSS)]
    return {"bare": plain(bare_html(random.Random(seed)), BARE_CSS),
            "sheet": lambda: responses.export_sheet_pdf(doc),
            "floor": plain(floor_html, FLOOR_CSS),
            "unstyled": lambda: render_pdf(unstyled_html, stylesheets=unstyled_css)}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median seconds of `repeat` runs (after one warm-up run) and the last result."""
    out = fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def in_turns(a: Callable[[], Any], b: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Medians of a() and b() run in turns, after one warm-up run of each."""
    a(), b()
    ta, tb = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        a()
        ta.append(time.perf_counter() - t)
        t = time.perf_counter()
        b()
        tb.append(time.perf_counter() - t)
    return statistics.median(ta), statistics.median(tb)


def over_http(record: dict[str, Any], repeat: int) -> dict[str, float]:
    """Medians over HTTP, each pair in turns: (c) GET /games/<id>/sheet.pdf rendered every
    time (a kingsheet server whose kept renders are off, PDF_CACHE_MB=0) and GET /bare.pdf
    (bare app); (f) the same sheet.pdf downloaded again from a server that keeps renders
    (its first download rendered it), and through the game's share link, each against
    GET /static/<file> of a file of the same size on that same server."""
    import os

    from bench.web import Client, bench_director, free_port, log_in, start

    tmp = Path(tempfile.mkdtemp(prefix="kingsheet-pdf-bench-"))
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite", SECRET_KEY="bench-key",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent),
               PDF_CACHE_DIR=str(tmp / "pdf-cache"))
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], SECRET_KEY=env["SECRET_KEY"])
    from app import create_app
    from app.db import get_session
    from app.games import links
    from app.games.games import import_game

    app = create_app()
    with app.app_context():
        game_id = import_game(get_session(), record, who="bench").id
        token = links.share_link(get_session(), game_id).token
    bench_director(app)
    port, bare_port, kept_port = free_port(), free_port(), free_port()
    servers = [start("app:create_app()", port, dict(env, PDF_CACHE_MB="0")),
               start("bench.bare_app:app", bare_port, env),
               start("app:create_app()", kept_port, env)]
    static = STATIC_DIR / f"bench-same-size-{os.getpid()}.pdf"
    try:
        sheet_client, bare_client, kept_client = Client(port), Client(bare_port), Client(kept_port)
        share_client = Client(kept_port)
        for client in (sheet_client, bare_client, kept_client):  # a first render on a busy
            client.conn.timeout = 600                           # machine is slow
        log_in(sheet_client)   # the sheet is for the club's accounts
        log_in(kept_client)

        def get(client: Any, path: str) -> str:
            status, body, _t = client.request("GET", path)
            if status != 200:
                raise SystemExit(f"GET {path}: HTTP {status}")
            return str(body)

        def raw(client: Any, path: str) -> bytes:
            headers = {"Accept-Language": "es",
                       "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}
            client.conn.request("GET", path, headers=headers)
            response = client.conn.getresponse()
            data = response.read()
            if response.status != 200:
                raise SystemExit(f"GET {path}: HTTP {response.status}")
            return bytes(data)

        out: dict[str, float] = {}
        out["sheet"], out["bare"] = in_turns(lambda: get(sheet_client, f"/games/{game_id}/sheet.pdf"),
                                             lambda: get(bare_client, "/bare.pdf"), repeat)
        sheet_path, share_path = f"/games/{game_id}/sheet.pdf", f"/s/{token}/sheet.pdf"
        first = raw(kept_client, sheet_path)             # rendered and kept
        if raw(share_client, share_path) != first or not first.startswith(b"%PDF-"):
            raise SystemExit("the share link's PDF differs from the game's")
        static.write_bytes(first)                        # a static file of the same size
        static_path = f"/static/{static.name}"
        many = max(repeat * 20, 100)
        out["size"] = len(first)
        out["kept"], out["static"] = in_turns(lambda: raw(kept_client, sheet_path),
                                              lambda: raw(kept_client, static_path), many)
        out["shared"], out["static2"] = in_turns(lambda: raw(share_client, share_path),
                                                 lambda: raw(share_client, static_path), many)
        return out
    finally:
        static.unlink(missing_ok=True)
        for proc in servers:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def render_loop(kind: str, n: int, seed: int) -> None:
    """One warm-up render of ``kind`` (a key of :func:`renders`), then ``n`` more."""
    from app import create_app
    from app.printing import docs as pdf_docs
    from app.rules.simulate import random_game

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                          "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite"})
        with app.test_request_context("/", headers={"Accept-Language": "es"}):
            doc = pdf_docs.sheet_doc(pdf_docs.RecordGame(random_game("rifki", random.Random(seed)),
                                                               id=1), "es")
            render = renders(doc, seed)[kind]
            for _ in range(n + 1):
                render()


def instructions(kind: str, seed: int, n: int = 2) -> int:
    """CPU instructions of one render of ``kind``, counted by valgrind's cachegrind."""
    import re

    def count(renders: int) -> int:
        proc = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             sys.executable, __file__, "--render-loop", kind, str(renders), "--seed", str(seed)],
            capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
        if found is None:
            raise SystemExit(f"no instruction count from valgrind: {proc.stderr[-300:]}")
        return int(found.group(1).replace(",", ""))

    return (count(n) - count(0)) // n


def pages(data: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--no-http", action="store_true", help="skip (c), the measure over HTTP")
    parser.add_argument("--instructions", action="store_true",
                        help="also (d), instructions per render counted by valgrind")
    parser.add_argument("--render-loop", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.render_loop:
        render_loop(args.render_loop[0], int(args.render_loop[1]), args.seed)
        return

    from app import create_app
    from app.printing import docs as pdf_docs
    from app.printing import responses
    from app.printing.render import render_pdf
    from app.rules.simulate import random_game

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                          "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite"})
        with app.test_request_context("/", headers={"Accept-Language": "es"}):
            record = random_game("rifki", random.Random(args.seed))
            t = time.perf_counter()
            doc = pdf_docs.sheet_doc(pdf_docs.RecordGame(record, id=1), "es")
            build = time.perf_counter() - t
            assert len(doc["hands"]) == 20 and doc["complete"]

            render = renders(doc, args.seed)
            bare_pdf, sheet_pdf = render["bare"](), render["sheet"]()
            bare, sheet = in_turns(render["bare"], render["sheet"], args.repeat)
            ratio = sheet / bare
            print(f"(a) bare 20x6 table render : {bare * 1000:8.1f} ms  ({pages(bare_pdf)} page, "
                  f"{len(bare_pdf)} bytes)")
            print(f"    rifki sheet, 20 hands  : {sheet * 1000:8.1f} ms  ({pages(sheet_pdf)} page(s), "
                  f"{len(sheet_pdf)} bytes; doc built in {build * 1000:.1f} ms)")
            print(f"    sheet / bare           : {ratio:8.2f}x  (target <= 1.5x, moonshot <= 1x)")

            bare_e, floor = in_turns(render["bare"], render["floor"], args.repeat)
            print(f"(e) the sheet table's text alone, unstyled: {floor * 1000:8.1f} ms, "
                  f"{floor / bare_e:.2f}x the bare render ({bare_e * 1000:.1f} ms in this pairing): "
                  f"the content's own share of (a)")
            bare_f, unstyled = in_turns(render["bare"], render["unstyled"], args.repeat)
            print(f"(e') the whole sheet, its table unstyled: {unstyled * 1000:8.1f} ms, "
                  f"{unstyled / bare_f:.2f}x the bare render ({bare_f * 1000:.1f} ms in this pairing)")

            profiles = ["rifki", "fiestas", "subastas", "ru32"]
            docs = []
            for k in range(args.games):
                rec = random_game(profiles[k % 4], random.Random(args.seed * 1000 + k))
                docs.append(pdf_docs.sheet_doc(pdf_docs.RecordGame(rec, id=k + 1), "es"))
            t = time.perf_counter()
            for d in docs:
                responses.export_sheet_pdf(d)
            singles = time.perf_counter() - t
            t = time.perf_counter()
            bulk_pdf = responses.export_bulk_pdf(docs)
            bulk = time.perf_counter() - t
            print(f"(b) {args.games} single sheet renders : {singles * 1000:8.1f} ms  "
                  f"({singles / args.games * 1000:.1f} ms each)")
            print(f"    one bulk PDF           : {bulk * 1000:8.1f} ms  ({pages(bulk_pdf)} pages, "
                  f"{len(bulk_pdf)} bytes)")
            print(f"    bulk / singles         : {bulk / singles:8.2f}x")
            # What one pass can save is the per-document cost; measure it on an empty page.
            empty, _ = timed(lambda: render_pdf("<!doctype html><p>x</p>"), args.repeat)
            per_sheet = singles / args.games
            print(f"    fixed cost of a render (empty page): {empty * 1000:.1f} ms of "
                  f"{per_sheet * 1000:.1f} ms per single sheet; the per-page rest (layout, "
                  f"text, drawing) is paid in bulk too, so bulk/singles cannot go below "
                  f"~{(per_sheet - empty) / per_sheet:.2f}x")
    if not args.no_http:
        http = over_http(record, args.repeat)
        http_sheet, http_bare = http["sheet"], http["bare"]
        print(f"(c) over HTTP, GET /games/<id>/sheet.pdf : {http_sheet * 1000:8.1f} ms  (rendered "
              "each time: kept renders off)")
        print(f"    GET /bare.pdf (bare 20x6 render)    : {http_bare * 1000:8.1f} ms")
        print(f"    sheet.pdf / bare.pdf                : {http_sheet / http_bare:8.2f}x  "
              f"(against the in-process bare render: {http_sheet / bare:.2f}x)")
        print(f"(f) a repeat download (the render kept, {http['size'] / 1000:.1f} kB), in turns with "
              f"GET /static/ of a file of the same size on the same server:")
        print(f"    GET /games/<id>/sheet.pdf again     : {http['kept'] * 1000:8.2f} ms  against "
              f"{http['static'] * 1000:.2f} ms: {http['kept'] / http['static']:.2f}x (target <= 1.5x); "
              f"{http_sheet / http['kept']:.0f}x faster than rendering it")
        print(f"    GET /s/<token>/sheet.pdf again      : {http['shared'] * 1000:8.2f} ms  against "
              f"{http['static2'] * 1000:.2f} ms: {http['shared'] / http['static2']:.2f}x (target <= 1.5x)")
    if args.instructions:
        bare_i, sheet_i = instructions("bare", args.seed), instructions("sheet", args.seed)
        floor_i, unstyled_i = instructions("floor", args.seed), instructions("unstyled", args.seed)
        print(f"(d) instructions per render (cachegrind): bare {bare_i / 1e6:.0f} M, "
              f"sheet {sheet_i / 1e6:.0f} M: {sheet_i / bare_i:.2f}x; (e) the table's text alone "
              f"{floor_i / 1e6:.0f} M: {floor_i / bare_i:.2f}x; (e') the sheet, its table unstyled "
              f"{unstyled_i / 1e6:.0f} M: {unstyled_i / bare_i:.2f}x")
    print(f"ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
