"""Bulk PDF export memory: peak RSS of a worker exporting N games, against a baseline
measured in the same run.

Each figure comes from a fresh process (``ru_maxrss`` is a high-water mark):

  baseline  the app rendering an export of ONE game (imports, fonts, one render);
  job       the export job of N games as the app runs it (``ExportRunner.run_one``: its
            games rendered by a pool of one process per core, app/printing/pool.py, into
            part files of ``CHUNK`` games, joined at the end); the peak of the largest
            child process (a render process, started by "spawn" here) is shown beside
            the runner's;
  serial    the same job rendered game by game in the runner (EXPORT_PROCESSES=1), timed
            against ``job`` for the speed-up;
  one-doc   (``--old``) the former way: every game's doc built first, then ONE WeasyPrint
            document for all of them (what grew a worker from 112 to 523 MB for 425 games).

Run: .venv/bin/python bench/exports.py [--games N] [--old]
The last line is `ratio: R` (job peak over baseline peak; issue 8 asks for a worker under
~200 MB with 1,000 games; issue 28 for a speed-up of at least 1.6x on 2 cores).
Kept renders (app/printing/cache.py) are off: every export renders every game.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _app(db: str, exports: str, processes: int | None = None) -> Any:
    from app import create_app

    # nothing kept: every export renders every game (app/printing/cache.py would serve repeats)
    return create_app({"DATABASE_URL": db, "SECRET_KEY": "bench", "EXPORTS_DIR": exports,
                       "TESTING": True, "PDF_CACHE_MB": 0, "EXPORT_PROCESSES": processes})


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _children_peak_mb() -> float:
    """The largest peak of this process's finished children (the render processes)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def child(mode: str, db: str, exports: str, games: int) -> dict[str, Any]:
    """One measurement, in this (fresh) process."""
    from app.db import get_db
    from app.models import ExportJob
    from app.printing import exports as exports_service
    from app.printing import pool
    from app.printing.runner import ExportRunner

    pool.START_METHOD = "spawn"   # render processes as this process's own children,
    app = _app(db, exports, 1 if mode == "serial" else None)   # whose peaks getrusage reports
    start = time.perf_counter()
    if mode == "one-doc":
        from app.printing import docs as pdf_docs
        from app.printing import responses

        with app.test_request_context("/exports", headers={"Accept-Language": "es"}):
            from app.db import get_session

            session = get_session()
            ids = pdf_docs.find_games(session)[:games]
            docs = [pdf_docs.game_sheet_doc(session, i, "es") for i in ids]
            data = responses.export_bulk_pdf([d for d in docs if d is not None])
            size = len(data)
        pages = -1
    else:
        exports_service.GAMES_MAX = games
        with get_db(app).sessionmaker() as session:
            job = exports_service.create_job(session, owner=f"bench-{mode}",
                                             params={"date_from": "2000-01-01", "lang": "es",
                                                     "orientation": "auto"})
            job_id = job.id
        assert ExportRunner(app).run_one()
        with get_db(app).sessionmaker() as session:
            done = session.get(ExportJob, job_id)
            assert done is not None and done.state == "done", done
            pages = done.pages
            size = (Path(exports) / str(done.file_path)).stat().st_size
    return {"mode": mode, "games": games, "seconds": time.perf_counter() - start,
            "peak_mb": _peak_mb(), "child_peak_mb": _children_peak_mb(), "pages": pages,
            "bytes": size}


def measure(mode: str, db: str, exports: str, games: int) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--db", db,
                          "--exports", exports, "--games", str(games)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def make_games(db: str, exports: str, n: int) -> None:
    from app.db import get_session
    from app.games.games import import_game

    app = _app(db, exports)
    records = [json.loads((ROOT / "tests" / "data" / "records" / f"{p}_complete.json").read_text())
               for p in ("ru32", "fiestas", "subastas", "rifki")]
    with app.app_context():
        session = get_session()
        for k in range(n):
            import_game(session, records[k % 4], who="bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--old", action="store_true", help="also measure the one-document way")
    parser.add_argument("--child")
    parser.add_argument("--db")
    parser.add_argument("--exports")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.db, args.exports, args.games)))
        return
    with tempfile.TemporaryDirectory(prefix="kingsheet-bench-exports-") as tmp:
        db = f"sqlite:///{tmp}/bench.sqlite"
        exports = f"{tmp}/exports"
        make_games(db, exports, args.games)
        rows = [measure("serial", db, exports, 1), measure("job", db, exports, args.games),
                measure("serial", db, exports, args.games)]
        if args.old:
            rows.append(measure("one-doc", db, exports, args.games))
    names = ["baseline (1 game)", f"export job ({args.games} games)",
             f"serial export ({args.games} games)", f"one document ({args.games} games)"]
    for name, row in zip(names, rows, strict=False):
        children = (f" (its largest child process {row['child_peak_mb']:.1f} MB)"
                    if row["child_peak_mb"] > 0 else "")
        print(f"{name:30s}: peak RSS {row['peak_mb']:7.1f} MB{children}  {row['seconds']:7.1f} s  "
              f"{row['pages']} pages  {row['bytes'] / 1e6:.1f} MB PDF")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"speed-up of the export job on {cores} cores over the serial export: "
          f"{rows[2]['seconds'] / rows[1]['seconds']:.2f}x (target >= 1.6x on 2 cores)")
    print(f"ratio: {rows[1]['peak_mb'] / rows[0]['peak_mb']:.2f}")


if __name__ == "__main__":
    main()
