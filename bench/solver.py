"""Benchmark: the analysis of a disputed play (app/rules/search/analysis.py) on its hardest sizes.

Positions each answered exactly (ANALYSIS.md §2 requires it within 10 s on the 2-core
machine): the hardest ru32 position at trick 0 (the seat leading the hand, 8 cards each) and
the hardest 13-card position with 7 tricks left, each the slowest of a scan of random games;
and the plus-eralash position the Python search had not solved in 30 s (hand 13 of the
91st game of seed 5, which made the compiled core necessary). Each is analysed by the
compiled core (app/rules/search/_core.c, what the app runs) and by the Python search it
ports (solver.py, the fallback without a C compiler), with the same budget. The baseline,
measured in the same run, is the engine's plain replay of the same record (``load``: every
hand read, checked, refereed and scored). Prints per position and search the time, the
nodes searched, nodes/s, whether every value is exact, the baseline, the core's speed over
Python's and, last, ``ratio: R`` (the core's analysis over replay) of the hardest.

    python bench/solver.py [--games 16] [--budget 30]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.rules import load  # noqa: E402
from app.rules.search import analysis, native  # noqa: E402
from app.rules.search.analysis import analyse  # noqa: E402
from app.rules.simulate import random_game  # noqa: E402

_SEARCHES: list[Any] = []
_NEW = native.new_search


def _counting_new(*args: Any) -> Any:
    search = _NEW(*args)
    _SEARCHES.append(search)
    return search


analysis.new_search = _counting_new  # type: ignore[assignment]


def measure(record: dict[str, Any], hand: int, trick: int, seat: int, budget: float
            ) -> tuple[float, int, bool]:
    """Seconds, nodes searched and whether every value came out exact."""
    _SEARCHES.clear()
    start = time.perf_counter()
    answer = analyse(record, hand, trick, seat, budget_s=budget)
    elapsed = time.perf_counter() - start
    exact = all(a["exact"] for a in answer["alternatives"])
    return elapsed, sum(s.nodes for s in _SEARCHES), exact


def baseline(record: dict[str, Any], repeat: int = 20) -> float:
    """The engine's replay of the record (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        load(record)
        best = min(best, time.perf_counter() - start)
    return best


def hardest(profile: str, trick_from_end: int | None, games: int, seed: int, budget: float
            ) -> tuple[float, int, bool, dict[str, Any], int, int, int]:
    """The slowest position of a scan: every played hand of ``games`` random games, at trick 0
    (``trick_from_end`` None) or that many tricks from the end, seen by the hand's leader."""
    rng = random.Random(seed)
    worst: tuple[float, int, bool, dict[str, Any], int, int, int] | None = None
    for _ in range(games):
        record = random_game(profile, rng)
        result = load(record)
        for i, h in enumerate(result.hands):
            n = result.profile.n_tricks
            t = 0 if trick_from_end is None else n - trick_from_end
            if not h.trick_cards or t >= len(h.trick_cards):
                continue
            seat = h.trick_leaders[t]
            elapsed, nodes, exact = measure(record, i, t, seat, budget)
            if worst is None or elapsed > worst[0]:
                worst = (elapsed, nodes, exact, record, i, t, seat)
    assert worst is not None
    return worst


def plus_eralash() -> tuple[dict[str, Any], int, int, int]:
    """The plus-eralash position the Python search had not solved in 30 s."""
    rng = random.Random(5)
    for _ in range(90):
        random_game("ru32", rng)
    record = random_game("ru32", rng)
    return record, 13, 0, load(record).hands[13].trick_leaders[0]


def report(label: str, record: dict[str, Any], i: int, t: int, seat: int, budget: float) -> float:
    """Both searches on one position; the core's time over the replay's."""
    base = baseline(record)
    print(f"{label}: hand {i} ({record['hands'][i]['contract']}), trick {t}, seat {seat}; "
          f"replay of the record {base * 1000:.2f} ms")
    times = {}
    for name, enabled in (("core", True), ("python", False)):
        native.ENABLED = enabled and native.BUILT
        elapsed, nodes, exact = measure(record, i, t, seat, budget)
        times[name] = (elapsed, nodes)
        print(f"  {name:6}: {elapsed:6.2f} s, {nodes:>11,} nodes, {nodes / elapsed:>11,.0f} nodes/s, "
              f"exact {exact}, ratio {elapsed / base:,.0f}")
    native.ENABLED = native.BUILT
    (core_s, core_n), (py_s, py_n) = times["core"], times["python"]
    print(f"  core over python: {(core_n / core_s) / (py_n / py_s):.0f}x the nodes/s "
          f"(python {'as far as' if py_n != core_n else 'to the same'} {py_n:,} nodes)")
    return core_s / base


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=16, help="random games scanned per size")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="the analysis budget (s); above 10 to see the real time")
    args = ap.parse_args()
    if not native.BUILT:
        print("the compiled core is not built (pip install -e . with a C compiler)")
    ratio = 0.0
    for label, profile, from_end, seed in (("ru32, trick 0", "ru32", None, 5),
                                           ("52 cards, 7 tricks left", "rifki", 7, 21)):
        _, _, _, record, i, t, seat = hardest(profile, from_end, args.games, seed, args.budget)
        ratio = max(ratio, report(f"hardest {label} of {args.games} games", record, i, t, seat,
                                  args.budget))
    ratio = max(ratio, report("ru32 plus-eralash, trick 0", *plus_eralash(), args.budget))
    print(f"ratio: {ratio:.0f}")


if __name__ == "__main__":
    main()
