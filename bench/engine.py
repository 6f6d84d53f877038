"""Benchmark: `kingsheet score FILE …` against a baseline that only reads the files.

Both run as one process over the same record files: complete rifki games (20 hands), every
hand entered as tricks with the deal. The baseline process loads each file with
``json.load`` and finds the 13 trick winners of each hand; kingsheet reads, checks, scores
and referees every play and prints the reports. Prints both times, the per-game figures and,
last, ``ratio: R`` (kingsheet over baseline). Targets (issue 2): R <= 4 and 1,000 games in
under 6 s on the 2-core machine.

    python bench/engine.py [--games 1000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.rules.simulate import random_game  # noqa: E402

BASELINE = r'''
import json, sys
RANK = {r: i for i, r in enumerate("23456789TJQKA")}
def winners(tricks, trump):
    out = []
    for trick in tricks:
        led = trick[0][-1]
        best, pos = None, 0
        for i, card in enumerate(trick):
            suit = card[-1]
            key = (2 if suit == trump else 1 if suit == led else 0, RANK[card[0]])
            if best is None or key > best:
                best, pos = key, i
        out.append(pos)
    return out
n = 0
for path in sys.argv[1:]:
    with open(path) as fh:
        record = json.load(fh)
    for hand in record["hands"]:
        n += len(winners(hand["tricks"], hand.get("trump")))
print(n)
'''


def run(cmd: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} failed: {proc.stderr.decode()[:500]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kingsheet-bench-"))
    try:
        rng = random.Random(20261129)
        paths = []
        for g in range(args.games):
            path = tmp / f"rifki-{g:04d}.json"
            path.write_text(json.dumps(random_game("rifki", rng)))
            paths.append(str(path))
        kingsheet = shutil.which("kingsheet", path=str(Path(sys.executable).parent)) or "kingsheet"
        base_cmd = [sys.executable, "-c", BASELINE, *paths]
        cmd = [kingsheet, "score", *paths]
        base = min(run(base_cmd) for _ in range(args.repeat))
        ours = min(run(cmd) for _ in range(args.repeat))
        hands = args.games * 20
        print(f"games: {args.games} complete rifki games, {hands} hands as tricks with the deal")
        print(f"baseline (json.load + trick winners): {base:.3f} s "
              f"({base / args.games * 1000:.3f} ms/game)")
        print(f"kingsheet score (check, score, referee, report): {ours:.3f} s "
              f"({ours / args.games * 1000:.3f} ms/game, {hands / ours:,.0f} hands/s)")
        print(f"target: 1,000 games under 6 s -> "
              f"{ours * 1000 / args.games:.2f} s per 1,000 games")
        print(f"ratio: {ours / base:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
