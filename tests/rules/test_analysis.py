"""The analysis of a disputed play (ANALYSIS.md §1-§3) against a plain brute force.

The brute force here shares nothing with app/rules/search/solver.py: it plays every legal card
(the engine's judge over the whole holding, simulate.legal_cards), plays each line to the
end of the hand (or its early end) and scores it as the score report does (the game
builder replays the hand with the line's tricks, its ruling set aside: points + payments).
"""
from __future__ import annotations

import copy
import random

import pytest

from app.rules import RecordError, load
import app.rules.search.solver as solver
from app.rules.search.analysis import analyse, build_position
from app.rules.game.builder import GameBuilder
from app.rules.cards import BIT, SUITS
from app.rules.referee.play import play_rules, trick_winner
from app.rules.game.record import CANON, CARD_CODES
from app.rules.simulate import legal_cards, random_game
from app.rules.search.solver import INF, Search, legal_mask

OPTIONS = {"ru32": [{}, {"keep_kh": "on"}], "fiestas": [{}], "subastas": [{}, {"settlement": "bid"}],
           "rifki": [{}, {"must_overtake": "all", "rifki_void": "heart", "trump_lead_ban": "on",
                          "hearts_lead_ban": "all-penalties"}]}


class Brute:
    """Minimax over every legal line from a position, scored by the game builder."""

    def __init__(self, record: dict, i: int, t: int, s: int) -> None:
        self.result = load(record)
        self.h = self.result.hands[i]
        self.record, self.i, self.s = record, i, s
        prefix = load({**record, "hands": record["hands"][:i]})
        self.prefix = prefix.state
        self.raw = {k: v for k, v in record["hands"][i].items() if k != "ruling"}
        profile = self.result.profile
        self.n = profile.n_tricks
        self.trump = SUITS.index(self.h.trump) if self.h.trump else -1
        self.rules = play_rules(profile, self.result.options, self.h.contract)
        self.tricks = [list(tr) for tr in self.h.trick_cards[:t]]
        self.leader = self.h.trick_leaders[t]
        pos = (s - self.leader) & 3
        self.current = list(self.h.trick_cards[t][:pos])
        self.played_card = self.h.trick_cards[t][pos]
        deal = [sum(BIT[CARD_CODES[c]] for c in cards) for cards in self.h.deal_order]
        gone = 0
        for tr in self.tricks:
            for c in tr:
                gone |= BIT[c]
        self.hands = [deal[x] & ~gone for x in range(4)]
        for k, c in enumerate(self.current):
            self.hands[(self.leader + k) & 3] &= ~BIT[c]
        self.broken = gone

    def score(self, tricks: list[list[int]]) -> int:
        hand = {**self.raw, "tricks": [[CANON[c] for c in tr] for tr in tricks]}
        result = GameBuilder.resume(self.prefix).add(copy.deepcopy(hand), self.i)
        return result.points[self.s] + result.payments[self.s]

    def over(self, tricks: list[list[int]]) -> bool:
        if len(tricks) == self.n:
            return True
        taken = 0
        for tr in tricks:
            for c in tr:
                taken |= BIT[c]
        return self.h.contract.ends_after(taken)

    def values(self, card: int) -> tuple[int, int]:
        """(guaranteed, possible) after the seat plays ``card``."""
        hands = list(self.hands)
        return self._after(list(self.tricks), list(self.current), self.leader, hands, self.broken, card)

    def _after(self, tricks, trick, leader, hands, broken, card):
        seat = (leader + len(trick)) & 3
        hands = list(hands)
        hands[seat] &= ~BIT[card]
        trick = [*trick, card]
        if len(trick) < 4:
            return self._turn(tricks, trick, leader, hands, broken)
        tricks = [*tricks, trick]
        if self.over(tricks):
            v = self.score(tricks)
            return v, v
        winner = (leader + trick_winner(trick, self.trump)) & 3
        for c in trick:
            broken |= BIT[c]
        return self._turn(tricks, [], winner, hands, broken)

    def _turn(self, tricks, trick, leader, hands, broken):
        seat = (leader + len(trick)) & 3
        options = legal_cards(self.rules, self.trump, len(tricks) + 1, trick, hands[seat], broken)
        results = [self._after(tricks, trick, leader, hands, broken, c) for c in options]
        pick = max if seat == self.s else min
        return pick(g for g, _ in results), max(p for _, p in results)

    def legal(self) -> list[int]:
        return legal_cards(self.rules, self.trump, len(self.tricks) + 1, self.current,
                           self.hands[self.s], self.broken)


def _positions(profile: str, seed: int, count: int, left: tuple[int, ...]):
    """(record, hand, trick, seat) of random games: hands entered with tricks and deal,
    ``left`` tricks left (the hand may have ended early before; then skipped)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        options = rng.choice(OPTIONS[profile])
        record = random_game(profile, rng, options=options)
        for i, hand in enumerate(record["hands"]):
            if "tricks" not in hand or rng.random() < 0.5:
                continue
            n = len(hand["deal"][0])
            t = n - rng.choice(left)
            if t < len(hand["tricks"]):
                found.append((record, i, t, rng.randrange(4)))
    return found[:count]


def _sale_positions(profile: str, seed: int, null_bid: bool, count: int):
    """Fiesta hands after a sale (a -N sale of subastas settles by the owner's tricks), seen
    by the owner and by the buyer, 2-3 tricks from the end."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        record = random_game(profile, rng)
        result = load(record)
        for i, h in enumerate(result.hands):
            if h.bid is None or not h.trick_cards or (h.bid[0] == "-") != null_bid:
                continue
            t = 13 - rng.choice((2, 3))
            if t < len(h.trick_cards):
                found += [(record, i, t, h.owner), (record, i, t, h.declarer)]
    return found[:count]


CASES = [(p, *pos) for p in ("ru32", "fiestas", "subastas", "rifki")
         for pos in _positions(p, {"ru32": 11, "fiestas": 12, "subastas": 13, "rifki": 14}[p], 8,
                               (2, 3) if p != "ru32" else (2, 3, 4))]
CASES += [("subastas", *pos) for pos in _sale_positions("subastas", 15, True, 4)]
CASES += [("subastas", *pos) for pos in _sale_positions("subastas", 16, False, 2)]
CASES += [("fiestas", *pos) for pos in _sale_positions("fiestas", 17, False, 2)]


@pytest.mark.parametrize(("profile", "record", "i", "t", "s"), CASES,
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES)])
def test_every_alternative_matches_the_brute_force(profile, record, i, t, s):
    brute = Brute(record, i, t, s)
    answer = analyse(record, i, t, s)
    legal = brute.legal()
    assert {a["card"] for a in answer["alternatives"]} == {CANON[c] for c in {*legal, brute.played_card}}
    assert answer["played"] == CANON[brute.played_card]
    assert answer["tricks_left"] == brute.n - t
    for a in answer["alternatives"]:
        card = CARD_CODES[a["card"]]
        assert a["legal"] == (card in legal)
        assert (a["guaranteed"], a["possible"]) == brute.values(card), a["card"]
        assert a["exact"] is True
    _assert_sorted(answer["alternatives"])


def _assert_sorted(alternatives):
    def key(a):
        c = CARD_CODES[a["card"]]
        return (-a["guaranteed"], -a["possible"], c // 13, -(c % 13))
    assert alternatives == sorted(alternatives, key=key)
    assert len({a["card"] for a in alternatives}) == len(alternatives)


@pytest.mark.parametrize(("profile", "record", "i", "t", "s"), CASES[::3])
def test_bounds_contain_the_exact_values(profile, record, i, t, s, monkeypatch):
    exact = {a["card"]: a for a in analyse(record, i, t, s)["alternatives"]}
    result = load(record)
    position = build_position(result, result.hands[i], t, s)
    for horizon in range(t, position.table.n_tricks + 1):
        for card_text, a in exact.items():
            card = CARD_CODES[card_text]
            g = Search(position.table, False, horizon, INF).value_after(position.state, card, -INF, INF, 0)
            p = Search(position.table, True, horizon, INF).value_after(position.state, card, -INF, INF, 0)
            assert position.base + g <= a["guaranteed"] <= a["possible"] <= position.base + p
    monkeypatch.setattr(solver, "CLOCK_MASK", 0)        # the clock read at every node
    bounds = analyse(record, i, t, s, budget_s=0.0)["alternatives"]
    assert {a["card"] for a in bounds} == set(exact)
    for a in bounds:
        e = exact[a["card"]]
        assert a["guaranteed"] <= e["guaranteed"] <= e["possible"] <= a["possible"]
        assert a["exact"] == (a["guaranteed"] == a["possible"]) or a["exact"] is False
        if a["exact"]:
            assert (a["guaranteed"], a["possible"]) == (e["guaranteed"], e["possible"])


def _with_illegal_play(profile: str, seed: int):
    """A record whose last hand has a seat play an illegal card 2-3 tricks from the end."""
    rng = random.Random(seed)
    while True:
        record = random_game(profile, rng)
        for i, hand in enumerate(record["hands"]):
            if "tricks" not in hand:
                continue
            cut = {**record, "hands": record["hands"][:i + 1]}
            brute_args = _illegal_line(cut, i, rng)
            if brute_args is not None:
                return brute_args


def _illegal_line(record, i, rng):
    """Replays hand i at random, one seat breaking a rule once; (record, i, t, s) or None."""
    result = load(record)
    h = result.hands[i]
    n = result.profile.n_tricks
    trump = SUITS.index(h.trump) if h.trump else -1
    rules = play_rules(result.profile, result.options, h.contract)
    hands = [sum(BIT[CARD_CODES[c]] for c in cards) for cards in h.deal_order]
    tricks, leader, broken, target = [], h.trick_leaders[0], 0, None
    for k in range(n):
        trick = []
        for pos in range(4):
            seat = (leader + pos) & 3
            legal = legal_cards(rules, trump, k + 1, trick, hands[seat], broken)
            illegal = [c for c in range(52) if hands[seat] & BIT[c] and c not in legal]
            if target is None and k >= n - 3 and illegal:
                card, target = rng.choice(illegal), (k, seat)
            else:
                card = rng.choice(legal)
            trick.append(card)
            hands[seat] &= ~BIT[card]
        tricks.append(trick)
        for c in trick:
            broken |= BIT[c]
        leader = (leader + trick_winner(trick, trump)) & 3
        if h.contract.ends_after(broken):
            break
    if target is None:
        return None
    out = copy.deepcopy(record)
    out["hands"][i]["tricks"] = [[CANON[c] for c in tr] for tr in tricks]
    out["hands"][i].pop("ruling", None)
    return out, i, target[0], target[1]


@pytest.mark.parametrize(("profile", "seed"), [("ru32", 1), ("fiestas", 2), ("rifki", 3), ("subastas", 4)])
def test_an_illegal_played_card_is_listed_as_not_legal(profile, seed):
    record, i, t, s = _with_illegal_play(profile, seed)
    answer = analyse(record, i, t, s)
    played = [a for a in answer["alternatives"] if a["card"] == answer["played"]]
    assert len(played) == 1 and played[0]["legal"] is False
    brute = Brute(record, i, t, s)
    for a in answer["alternatives"]:
        assert (a["guaranteed"], a["possible"]) == brute.values(CARD_CODES[a["card"]])
    _assert_sorted(answer["alternatives"])


def test_the_fast_legal_plays_are_the_engines():
    rng = random.Random(5)
    checked = 0
    for profile in ("ru32", "fiestas", "subastas", "rifki"):
        for options in OPTIONS[profile]:
            record = random_game(profile, rng, options=options)
            result = load(record)
            for h in result.hands:
                if not h.trick_cards:
                    continue
                for t in range(len(h.trick_cards)):
                    s = rng.randrange(4)
                    position = build_position(result, h, t, s)
                    st = position.state
                    fast = legal_mask(position.table, st, s)
                    slow = legal_cards(position.table.rules, position.table.trump, t + 1, st.trick,
                                       st.hands[s], st.played)
                    assert fast == sum(BIT[c] for c in slow)
                    checked += 1
    assert checked > 500


# ---------------------------------------------------------------- the 422s, in order

def _game():
    record = random_game("ru32", random.Random(8), hands=3)
    record["hands"].append({"contract": "no-hearts", "counts": {"hearts": [2, 2, 2, 2]}})
    return record


@pytest.mark.parametrize(("change", "args", "field"), [
    (lambda r: r.update(format="x"), (0, 0, 0), "record.format"),
    (lambda r: r["hands"][1].update(tricks=[]), (9, 99, 9), "record.hands[1].tricks"),
    (lambda r: r.update(hands="x"), ("a", None, 7), "record.hands"),
    (None, (4, 0, 0), "hand"),
    (None, (-1, 0, 0), "hand"),
    (None, ("1", 0, 0), "hand"),
    (None, (None, 0, 0), "hand"),
    (None, (True, 0, 0), "hand"),
    (None, (3, 0, 0), "hand"),                   # entered as counts
    (lambda r: r["hands"][1].pop("deal"), (1, 99, 9), "hand"),
    (None, (1, 8, 9), "trick"),
    (None, (1, -1, 0), "trick"),
    (None, (1, 1.0, 0), "trick"),
    (None, (1, 0, 4), "seat"),
    (None, (1, 0, "2"), "seat"),
    (None, (1, 0, None), "seat"),
])
def test_refusals_name_their_field_in_order(change, args, field):
    record = _game()
    if change is not None:
        change(record)
    with pytest.raises(RecordError) as info:
        analyse(record, *args)
    assert info.value.field == field


def test_a_record_that_is_not_an_object():
    with pytest.raises(RecordError) as info:
        analyse([], 0, 0, 0)
    assert info.value.field.startswith("record")


# ---------------------------------------------------------------- size


@pytest.mark.parametrize(("profile", "seed", "left"), [("ru32", 2, 8), ("rifki", 21, 7), ("fiestas", 22, 7)])
def test_required_positions_are_exact_within_the_budget(profile, seed, left):
    record = random_game(profile, random.Random(seed))
    i = next(k for k, h in enumerate(record["hands"]) if "tricks" in h and len(h["tricks"]) > len(h["deal"][0]) - left)
    n = len(record["hands"][i]["deal"][0])
    answer = analyse(record, i, n - left, 1)
    assert answer["tricks_left"] == left
    assert all(a["exact"] for a in answer["alternatives"])
    _assert_sorted(answer["alternatives"])


def test_a_whole_52_card_hand_answers_with_sound_bounds():
    record = random_game("rifki", random.Random(30))
    i = next(k for k, h in enumerate(record["hands"]) if h.get("contract") == "koz")
    answer = analyse(record, i, 0, 2, budget_s=0.5)
    assert answer["tricks_left"] == 13
    for a in answer["alternatives"]:
        assert a["guaranteed"] <= a["possible"]
        assert a["guaranteed"] >= 0
        assert a["possible"] <= 650


def _deeper_positions(wanted: tuple[int, ...] = (41, 44, 49, 53)) -> list[tuple]:
    """Positions with 4 to 6 tricks left, drawn as a scan drew them (seed 5): at a horizon
    short of the end they each had an alternative called exact with a bound's value before
    the cut flags stayed set across the alternatives of a horizon."""
    rng = random.Random(5)
    out = []
    for n in range(max(wanted) + 1):
        profile = rng.choice(["ru32", "ru32", "rifki", "fiestas", "subastas"])
        record = random_game(profile, rng)
        hands = [i for i, h in enumerate(record["hands"]) if "tricks" in h and "deal" in h]
        if not hands:
            continue
        i = rng.choice(hands)
        record = {**record, "hands": record["hands"][:i + 1]}
        n_tricks = len(record["hands"][i]["tricks"])
        low = 2 if profile == "ru32" else max(0, n_tricks - 6)
        t, s = rng.randint(min(low, n_tricks - 1), n_tricks - 1), rng.randrange(4)
        if n in wanted:
            out.append((profile, record, i, t, s))
    return out


@pytest.mark.parametrize(("profile", "record", "i", "t", "s"), CASES + _deeper_positions())
def test_a_value_called_exact_at_a_shallow_horizon_is_the_exact_value(profile, record, i, t, s):
    """At a horizon short of the hand's end, the shared transposition table may hold a
    value that a stopped line made a bound: an alternative searched after it is exact only
    when nothing of that horizon was cut (analysis._at_horizon)."""
    from app.rules.search import analysis

    exact = {CARD_CODES[a["card"]]: a for a in analyse(record, i, t, s)["alternatives"]}
    assert all(a["exact"] for a in exact.values())
    result = load(record)
    position = build_position(result, result.hands[i], t, s)
    cards = sorted(exact)
    for horizon in range(position.state.k + 1, position.table.n_tricks):
        found = {c: analysis._static(position.table, position.state) for c in cards}
        assert analysis._at_horizon(position.table, position.state, cards, horizon, INF, found)
        for c, (g, p, is_exact) in found.items():
            if is_exact:
                e = exact[c]
                assert (position.base + g, position.base + p) == (e["guaranteed"], e["possible"]), \
                    (horizon, e["card"])
