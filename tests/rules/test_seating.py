"""The seating of an event's rounds (app/rules/club/seating.py): tables of four, fair sit-outs,
reproducible draws, balanced draws no other draw beats (brute force on small rounds),
swiss by the standings, late arrivals and a director's swap."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.club.seating import Draw, Table, draw_round, fair_sit_outs, swap


def check_shape(draw: Draw, present: list[int]) -> None:
    seated = draw.seated()
    assert sorted(seated + draw.sitting_out) == sorted(present)
    assert len(draw.sitting_out) == len(present) % 4
    assert all(len(t.seats) == 4 and 0 <= t.first_dealer < 4 for t in draw.tables)


def play_rounds(players: list[int], rounds: int, method: str, seed: int = 1) -> list[Draw]:
    history: list[Draw] = []
    for r in range(rounds):
        standings = sorted(players, key=lambda p: (p * 7 + r) % 11)
        history.append(draw_round(players, history, method, seed + r, standings))
    return history


# -- what every draw must be -------------------------------------------------------------

@pytest.mark.parametrize("method", ["random", "balanced", "swiss"])
@pytest.mark.parametrize("n", [4, 5, 7, 8, 9, 18, 23, 40])
def test_every_present_player_is_seated_once_or_sits_out(method: str, n: int) -> None:
    players = list(range(1, n + 1))
    for draw in play_rounds(players, 3, method):
        check_shape(draw, players)


@pytest.mark.parametrize("method", ["random", "balanced", "swiss"])
def test_same_seed_same_draw_whatever_the_order_players_are_given_in(method: str) -> None:
    players = list(range(1, 19))
    history = play_rounds(players, 2, "random")
    first = draw_round(players, history, method, 42, players)
    again = draw_round(list(reversed(players)), history, method, 42, players)
    assert first == again
    others = {draw_round(players, history, method, seed, players) for seed in range(43, 48)}
    if method != "swiss":
        assert others - {first}, "the seed changes the draw"


@pytest.mark.parametrize("method", ["random", "balanced", "swiss"])
@pytest.mark.parametrize("n", [5, 6, 7, 9, 18, 22])
def test_no_one_sits_out_twice_before_everyone_has_sat_out_once(method: str, n: int) -> None:
    players = list(range(1, n + 1))
    sat_out: Counter[int] = Counter()
    for draw in play_rounds(players, 12, method):
        sat_out.update(draw.sitting_out)
        assert max(sat_out.values()) - min(sat_out[p] for p in players) <= 1, sat_out


def test_eighteen_players_nine_rounds_each_sits_out_exactly_once() -> None:
    players = list(range(1, 19))
    history = play_rounds(players, 9, "balanced")
    assert sorted(p for d in history for p in d.sitting_out) == players


def test_too_few_players_or_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="four"):
        draw_round([1, 2, 3], [], "random", 1)
    with pytest.raises(ValueError, match="method"):
        draw_round([1, 2, 3, 4], [], "chaos", 1)
    with pytest.raises(ValueError, match="twice"):
        draw_round([1, 2, 3, 4, 4], [], "random", 1)


# -- balanced: no other draw has fewer repeats -------------------------------------------

def repeats(draw_tables: list[tuple[int, ...]], history: list[Draw]) -> tuple[int, int]:
    """Written from the issue's words, not from the module: a pair at a table counts every
    earlier round the two shared a table; a player in a seat, every earlier round in it."""
    opponents = seats = 0
    for table in draw_tables:
        for a, b in itertools.combinations(table, 2):
            opponents += sum(1 for d in history for t in d.tables if a in t.seats and b in t.seats)
        for s, p in enumerate(table):
            seats += sum(1 for d in history for t in d.tables if t.seats[s] == p)
    return opponents, seats


def brute_force_best(players: list[int], history: list[Draw]) -> tuple[int, int]:
    fair = set(fair_sit_outs(players, history))
    seated_count = len(players) - len(players) % 4
    best = None
    for order in itertools.permutations(players):
        if frozenset(order[seated_count:]) not in fair:
            continue
        tables = [order[i:i + 4] for i in range(0, seated_count, 4)]
        cost = repeats(tables, history)
        best = cost if best is None or cost < best else best
    assert best is not None
    return best


@st.composite
def small_rounds(draw: st.DrawFn) -> tuple[list[int], list[Draw], int]:
    n = draw(st.integers(4, 8))
    players = list(range(1, n + 1))
    history: list[Draw] = []
    for r in range(draw(st.integers(0, 3))):
        # some rounds had fewer players: late arrivals
        present = players[: max(4, n - draw(st.integers(0, 2)))]
        history.append(draw_round(present, history, "random", draw(st.integers(0, 10**6)) + r))
    return players, history, draw(st.integers(0, 10**6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_rounds())
def test_balanced_draw_has_the_fewest_repeats_of_any_fair_draw(case: tuple[list[int], list[Draw], int]) -> None:
    players, history, seed = case
    draw = draw_round(players, history, "balanced", seed)
    check_shape(draw, players)
    assert frozenset(draw.sitting_out) in fair_sit_outs(players, history)
    assert repeats([t.seats for t in draw.tables], history) == brute_force_best(players, history)


def test_sixteen_players_meet_new_opponents_in_round_two_and_seats_rotate() -> None:
    players = list(range(1, 17))
    history = play_rounds(players, 1, "random")
    second = draw_round(players, history, "balanced", 5)
    assert repeats([t.seats for t in second.tables], history) == (0, 0)
    # the exact search is past its limit here: the local search found it
    many = list(range(1, 41))
    history = play_rounds(many, 2, "balanced")
    third = draw_round(many, history, "balanced", 9)
    assert repeats([t.seats for t in third.tables], history)[0] == 0


# -- swiss ------------------------------------------------------------------------------

def test_swiss_seats_by_the_standings_and_the_lowest_placed_sits_out() -> None:
    players = list(range(1, 11))
    standings = [7, 3, 9, 1, 10, 2, 8, 4, 6, 5]
    draw = draw_round(players, [], "swiss", 3, standings)
    assert [set(t.seats) for t in draw.tables] == [{7, 3, 9, 1}, {10, 2, 8, 4}]
    assert draw.sitting_out == (5, 6)
    # the next round the two who sat out play, the lowest placed of the rest sit out
    following = draw_round(players, [draw], "swiss", 4, standings)
    assert following.sitting_out == (4, 8)
    assert [set(t.seats) for t in following.tables] == [{7, 3, 9, 1}, {10, 2, 6, 5}]


def test_swiss_puts_players_the_standings_do_not_name_last() -> None:
    draw = draw_round([1, 2, 3, 4, 5, 6, 7, 8], [], "swiss", 1, [8, 7, 6, 5])
    assert [set(t.seats) for t in draw.tables] == [{8, 7, 6, 5}, {1, 2, 3, 4}]


# -- late arrivals and swaps ------------------------------------------------------------

@pytest.mark.parametrize("method", ["random", "balanced", "swiss"])
def test_a_late_arrival_plays_the_round_they_join_and_others_sit_out(method: str) -> None:
    history = play_rounds(list(range(1, 9)), 2, method)
    draw = draw_round(list(range(1, 10)), history, method, 11)
    assert 9 in draw.seated()
    assert len(draw.sitting_out) == 1


def test_swap_exchanges_two_players_and_keeps_the_dealers() -> None:
    draw = Draw((Table((1, 2, 3, 4), 2), Table((5, 6, 7, 8), 0)), (9,))
    assert swap(draw, 2, 7) == Draw((Table((1, 7, 3, 4), 2), Table((5, 6, 2, 8), 0)), (9,))
    assert swap(draw, 9, 1) == Draw((Table((9, 2, 3, 4), 2), Table((5, 6, 7, 8), 0)), (1,))
    with pytest.raises(ValueError, match="both"):
        swap(draw, 1, 10)
