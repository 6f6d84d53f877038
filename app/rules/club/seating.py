"""Seating a round of an event: tables of four, each with its seat order (the order of
play) and its first dealer, and who sits out when the players present are not a multiple
of four.

Pure and reproducible: a draw is a function of the players present, the rounds drawn
before, the method and a seed (the event stores the seed with the round), so the same
inputs always give the same draw. Players are ids (the roster's).

* ``random``: a shuffle.
* ``balanced``: the fewest repeated opponents (each pair at a table counts the rounds the
  two already shared a table), then the fewest repeated seats (each player counts the
  rounds they already sat in that seat). Exact (every grouping tried) when the round is
  small; a seeded local search (swaps between tables, until no swap improves) otherwise.
* ``swiss``: by the standings given, best first: 1-4, 5-8, ...; seats shuffled.

Sitting out is fair under every method: those who have missed the fewest rounds sit out
(a round a player was not present for counts as missed, so a late arrival is not the
first to sit out), ties broken by lot (``swiss``: the lowest placed sits out). So no one
sits out twice before everyone present from the start has sat out once.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

TABLE = 4
METHODS = ("random", "balanced", "swiss")
#: Balanced draws try every (sit-out set, grouping) up to this many candidates.
EXACT_LIMIT = 20000
#: Local-search restarts of a balanced draw of up to SMALL players (beyond, one search).
RESTARTS = 4
SMALL = 48
#: Every seat order of a table (indices into its players).
_ORDERS = tuple(itertools.permutations(range(TABLE)))


@dataclass(frozen=True)
class Table:
    """One table: ``seats`` are player ids in seat order 0-3, ``first_dealer`` a seat."""

    seats: tuple[int, ...]
    first_dealer: int


@dataclass(frozen=True)
class Draw:
    """A round's seating: its tables in order and who sits out (sorted)."""

    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...]

    def seated(self) -> tuple[int, ...]:
        return tuple(p for t in self.tables for p in t.seats)


@dataclass(frozen=True)
class Past:
    """What the rounds before tell a draw: pairs who met, seats sat in, rounds missed."""

    met: Counter[frozenset[int]]
    sat: Counter[tuple[int, int]]
    played: Counter[int]
    rounds: int

    @classmethod
    def of(cls, history: Sequence[Draw]) -> Past:
        met: Counter[frozenset[int]] = Counter()
        sat: Counter[tuple[int, int]] = Counter()
        played: Counter[int] = Counter()
        for draw in history:
            for table in draw.tables:
                met.update(frozenset(pair) for pair in itertools.combinations(table.seats, 2))
                sat.update((p, s) for s, p in enumerate(table.seats))
                played.update(table.seats)
        return cls(met, sat, played, len(history))

    def missed(self, player: int) -> int:
        return self.rounds - self.played[player]

    def opponents(self, group: Sequence[int]) -> int:
        """Repeated opponents of a table: the earlier meetings of each of its pairs."""
        return sum(self.met[frozenset(pair)] for pair in itertools.combinations(group, 2))

    def seat_repeats(self, seats: Sequence[int]) -> int:
        return sum(self.sat[(p, s)] for s, p in enumerate(seats))

    def repeats(self, draw: Draw) -> tuple[int, int]:
        """(repeated opponents, repeated seats) of a whole draw: lower is better."""
        return (sum(self.opponents(t.seats) for t in draw.tables),
                sum(self.seat_repeats(t.seats) for t in draw.tables))


def sit_out_pools(players: Sequence[int], past: Past) -> tuple[list[int], list[int], int]:
    """(must sit out, may sit out, how many of the second): those who missed fewer rounds
    than the k-th fewest must, those who missed exactly that many share what is left."""
    k = len(players) % TABLE
    if k == 0:
        return [], [], 0
    order = sorted(players, key=lambda p: (past.missed(p), p))
    threshold = past.missed(order[k - 1])
    must = [p for p in order if past.missed(p) < threshold]
    tied = [p for p in order if past.missed(p) == threshold]
    return must, tied, k - len(must)


def fair_sit_outs(players: Sequence[int], history: Sequence[Draw]) -> list[frozenset[int]]:
    """Every set of players that may sit out this round (used by the tests' brute force)."""
    must, tied, rest = sit_out_pools(players, Past.of(history))
    return [frozenset(must) | frozenset(c) for c in itertools.combinations(tied, rest)]


def draw_round(players: Sequence[int], history: Sequence[Draw], method: str, seed: int,
               standings: Sequence[int] = ()) -> Draw:
    """The draw of the next round for the ``players`` present. ``standings`` (best first)
    is what ``swiss`` seats by; players it does not name come last, by id."""
    present = sorted(set(players))
    if len(present) != len(players):
        raise ValueError("a player is present twice")
    if len(present) < TABLE:
        raise ValueError("a round needs at least four players")
    if method not in METHODS:
        raise ValueError(f"unknown seating method {method!r}")
    rng = random.Random(seed)
    past = Past.of(history)
    if method == "swiss":
        return _swiss(present, past, rng, standings)
    if method == "balanced":
        return _balanced(present, past, rng)
    return _random(present, past, rng)


def _with_dealers(groups: Sequence[Sequence[int]], out: Sequence[int], rng: random.Random) -> Draw:
    return Draw(tuple(Table(tuple(g), rng.randrange(TABLE)) for g in groups), tuple(sorted(out)))


def _chunks(seated: Sequence[int]) -> list[list[int]]:
    return [list(seated[i:i + TABLE]) for i in range(0, len(seated), TABLE)]


def _random(present: list[int], past: Past, rng: random.Random) -> Draw:
    must, tied, rest = sit_out_pools(present, past)
    out = must + rng.sample(tied, rest)
    seated = [p for p in present if p not in out]
    rng.shuffle(seated)
    return _with_dealers(_chunks(seated), out, rng)


def _swiss(present: list[int], past: Past, rng: random.Random, standings: Sequence[int]) -> Draw:
    place = {p: i for i, p in enumerate(standings)}
    ranked = sorted(present, key=lambda p: (place.get(p, len(place)), p))
    must, tied, rest = sit_out_pools(present, past)
    lowest_first = sorted(tied, key=lambda p: -ranked.index(p))
    out = must + lowest_first[:rest]
    groups = _chunks([p for p in ranked if p not in out])
    for group in groups:
        rng.shuffle(group)
    return _with_dealers(groups, out, rng)


# -- balanced ---------------------------------------------------------------------------

Cost = tuple[int, int]


class _Tables:
    """The best seat order and cost of a group of four, kept per group (a draw's search
    meets the same group many times)."""

    def __init__(self, past: Past, rng: random.Random) -> None:
        self.past = past
        self.orders = list(_ORDERS)
        rng.shuffle(self.orders)              # which of equally good seat orders: by lot
        self.known: dict[frozenset[int], tuple[Cost, tuple[int, ...]]] = {}

    def best(self, group: Sequence[int]) -> tuple[Cost, tuple[int, ...]]:
        key = frozenset(group)
        if key not in self.known:
            base = sorted(group)
            seats = min((tuple(base[i] for i in order) for order in self.orders),
                        key=self.past.seat_repeats)
            self.known[key] = ((self.past.opponents(base), self.past.seat_repeats(seats)), seats)
        return self.known[key]

    def cost(self, groups: Sequence[Sequence[int]]) -> Cost:
        costs = [self.best(g)[0] for g in groups]
        return (sum(c[0] for c in costs), sum(c[1] for c in costs))


def groupings(players: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``players`` (a multiple of four) into unordered tables of four."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, TABLE - 1):
        remaining = [p for p in rest if p not in others]
        for tail in groupings(remaining):
            yield [(first, *others), *tail]


def _grouping_count(n: int) -> int:
    t = n // TABLE
    count: int = math.factorial(n) // (math.factorial(TABLE) ** t * math.factorial(t))
    return count


def _balanced(present: list[int], past: Past, rng: random.Random) -> Draw:
    must, tied, rest = sit_out_pools(present, past)
    rng.shuffle(tied)
    outs = [must + list(c) for c in itertools.combinations(tied, rest)]
    seated_count = len(present) - len(present) % TABLE
    tables = _Tables(past, rng)
    if len(outs) * _grouping_count(seated_count) <= EXACT_LIMIT:
        out, groups = _exact(present, outs, tables, rng)
    else:
        out, groups = _searched(present, must, tied, rest, tables, rng)
    return _with_dealers([tables.best(g)[1] for g in groups], out, rng)


def _exact(present: list[int], outs: list[list[int]], tables: _Tables,
           rng: random.Random) -> tuple[list[int], list[tuple[int, ...]]]:
    best: tuple[Cost, list[int], list[tuple[int, ...]]] | None = None
    for out in outs:
        seated = [p for p in present if p not in out]
        rng.shuffle(seated)                   # which of equally good draws: by lot
        for groups in groupings(seated):
            cost = tables.cost(groups)
            if best is None or cost < best[0]:
                best = (cost, out, groups)
    assert best is not None
    return best[1], best[2]


def _searched(present: list[int], must: list[int], tied: list[int], rest: int,
              tables: _Tables, rng: random.Random) -> tuple[list[int], list[tuple[int, ...]]]:
    best: tuple[Cost, list[int], list[list[int]]] | None = None
    for _ in range(RESTARTS if len(present) <= SMALL else 1):
        tried = _one_try(present, must, tied, rest, tables, rng)
        if best is None or tried[0] < best[0]:
            best = tried
    assert best is not None
    return best[1], [tuple(g) for g in best[2]]


def _one_try(present: list[int], must: list[int], tied: list[int], rest: int, tables: _Tables,
             rng: random.Random) -> tuple[Cost, list[int], list[list[int]]]:
    """A draw from a random start (those sitting out drawn by lot among the tied), improved
    to a local minimum: its cost, who sits out and the tables."""
    out = must + rng.sample(tied, rest)
    seated = [p for p in present if p not in out]
    rng.shuffle(seated)
    groups = _chunks(seated)
    free = [p for p in tied if p not in must]
    out, groups = _improve(out, groups, free, tables)
    return tables.cost(groups), out, groups


def _improve(out: list[int], groups: list[list[int]], free: list[int],
             tables: _Tables) -> tuple[list[int], list[list[int]]]:
    """Swaps two players of different tables (or a seated one with one sitting out who
    is as due to sit out) while a swap lowers the cost; ends at a local minimum."""
    improved = True
    while improved:
        improved = _swap_tables(groups, tables)
        improved = _swap_out(out, groups, free, tables) or improved
    return out, groups


def _swap_tables(groups: list[list[int]], tables: _Tables) -> bool:
    """One sweep over every pair of tables, keeping each swap that lowers their cost."""
    improved = False
    for a, b in itertools.permutations(range(len(groups)), 2):
        if tables.best(groups[a])[0] == (0, 0):
            continue                          # no swap helps two tables without repeats
        for i, j in itertools.product(range(TABLE), repeat=2):
            ga, gb = list(groups[a]), list(groups[b])
            ga[i], gb[j] = gb[j], ga[i]
            if _add(tables.best(ga)[0], tables.best(gb)[0]) < _add(tables.best(groups[a])[0],
                                                                   tables.best(groups[b])[0]):
                groups[a], groups[b] = ga, gb
                improved = True
    return improved


def _swap_out(out: list[int], groups: list[list[int]], free: list[int], tables: _Tables) -> bool:
    for k, sitter in enumerate(out):
        if sitter not in free:
            continue
        for g, group in enumerate(groups):
            for i, player in enumerate(group):
                if player not in free:
                    continue
                changed = [*group[:i], sitter, *group[i + 1:]]
                if tables.best(changed)[0] < tables.best(group)[0]:
                    groups[g], out[k] = changed, player
                    return True
    return False


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1])


# -- changes by the director ------------------------------------------------------------

def swap(draw: Draw, a: int, b: int) -> Draw:
    """The draw with players ``a`` and ``b`` exchanged (seat for seat, or one sitting out
    for one seated); the first dealers stay with their seats."""
    everyone = set(draw.seated()) | set(draw.sitting_out)
    if a not in everyone or b not in everyone:
        raise ValueError("both players must be in the round")

    def other(p: int) -> int:
        return b if p == a else a if p == b else p

    return Draw(tuple(Table(tuple(other(p) for p in t.seats), t.first_dealer) for t in draw.tables),
                tuple(sorted(other(p) for p in draw.sitting_out)))
