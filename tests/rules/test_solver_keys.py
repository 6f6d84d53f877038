"""The solver's transposition key names no rank (app/rules/search/solver.py ``Search._key``): two
trick starts that differ only in the names of the ranks still out share an entry. Checked
here against the plain key of the cards played, on positions deep enough for such
transpositions to occur (the brute force of test_analysis.py is too slow there)."""
from __future__ import annotations

import random

import pytest

import app.rules.search.solver as solver
from app.rules.search import native
from app.rules.search.analysis import analyse
from app.rules.simulate import random_game


def _plain_key(self, hands, leader, paid):
    return (hands[0] | hands[1] | hands[2] | hands[3]) | leader << 52 | paid << 54


def _positions():
    found = []
    for profile, seed, left in (("ru32", 41, 5), ("ru32", 42, 6), ("rifki", 43, 5), ("subastas", 44, 5)):
        record = random_game(profile, random.Random(seed))
        rng = random.Random(seed)
        hands = [i for i, h in enumerate(record["hands"])
                 if "deal" in h and len(h["tricks"]) >= len(h["deal"][0]) - left + 1]
        for i in rng.sample(hands, 2):
            t = len(record["hands"][i]["deal"][0]) - left
            found.append((record, i, t, rng.randrange(4)))
    return found


@pytest.mark.parametrize(("record", "i", "t", "s"), _positions())
def test_the_rank_free_key_changes_no_value(record, i, t, s, monkeypatch):
    # the Python search (whose key is patched below); the core searches as it does
    # (test_native_search.py)
    monkeypatch.setattr(native, "ENABLED", False)
    answer = analyse(record, i, t, s)
    monkeypatch.setattr(solver.Search, "_key", _plain_key)
    assert analyse(record, i, t, s) == answer
