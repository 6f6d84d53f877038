"""Import benchmark: ``flask --app app games import FOLDER`` with 20,000 record files into a
fresh SQLite database (issue 12's target: under a minute), against a baseline process that
only reads and parses the same files with ``json.load``.

The files are random complete games of the four profiles (bench/scale.py's pool, hands
entered as counts or tricks) with players drawn from a club of 200. Prints both times, the
games per second and, last, ``ratio: R`` (import time over baseline time).

    python bench/import.py [--games 20000] [--workers N]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import PLAYERS, build_pool  # noqa: E402

BASELINE = r'''
import json, sys
from pathlib import Path
n = 0
for path in sorted(Path(sys.argv[1]).rglob("*.json")):
    with open(path, encoding="utf-8") as fh:
        n += len(json.load(fh)["hands"])
print(n)
'''


def _children_cpu() -> float:
    """User + system seconds of the finished child processes (and theirs) so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(5)
    complete, _partial = build_pool(rng)
    names = [f"Jugador {k:03d}" for k in range(1, PLAYERS + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        for k in range(args.games):
            record, _values = complete[k % len(complete)]
            record = dict(record, players=rng.sample(names, 4))
            (folder / f"{k:06d}.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", BASELINE, str(folder)], check=True, stdout=subprocess.DEVNULL)
        baseline = time.perf_counter() - start
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp}/import.sqlite")
        flask = Path(sys.executable).with_name("flask")
        cmd = [str(flask), "--app", "app", "games", "import", str(folder)]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        subprocess.run([str(flask), "--app", "app", "games", "rebuild"], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)   # creates the database
        cpu_before = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
        elapsed = time.perf_counter() - start
        cpu = _children_cpu() - cpu_before
        if proc.returncode != 0:
            sys.exit(f"import failed: {proc.stdout[-500:]}")
    print(proc.stdout.strip().splitlines()[-1])
    print(f"baseline (json.load of every file): {baseline:.1f} s")
    print(f"games import, {args.games} games: {elapsed:.1f} s ({args.games / elapsed:.0f} games/s; "
          f"target under 60 s)")
    print(f"CPU time of the import (its worker processes included): {cpu:.1f} s "
          f"({args.games / cpu:.0f} games per CPU second; on a machine shared with other work the "
          f"wall time above varies, this much less)")
    print(f"ratio: {elapsed / baseline:.2f}")


if __name__ == "__main__":
    main()
