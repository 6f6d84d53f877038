"""A player's statistics (issue 26) over hand-computed games: per contract, the auction,
Kings made, head-to-head, records and streaks; unfinished games are not counted; the sums
kept by differences equal a computation from the seat rows after corrections (SQLite and
PostgreSQL)."""
from __future__ import annotations

import copy
import json
from typing import Any

from sqlalchemy import select, text, update

from app.models import Game, HeadToHead, Player, PlayerStat
from app.services import hands
from app.services.games import import_game
from app.services.results import rebuild_results
from app.services.stats import csv_rows, player_profiles, recompute_sums
from tests.conftest import RECORDS, load_record

#: Ana (seat 0) in tests/data/records/subastas_complete.json, read off the record by hand:
#: 1 no-tricks 3 tricks at -20; 2 no-hearts 5 hearts at -20; 3 no-queens QS at -50; 4 no-men
#: one king (KD, trick 10) at -30; 5 no-kh (Beto took it); 6 no-last-two one of the two at
#: -90; 7 Dani buys her trump fiesta at +8 (pays her 200), she takes 1 trick at +25; 8 Beto
#: plays his own nulos, she scores 100; 9 Carla's 433 (3 tricks at 25 for her: 75); 10 she
#: buys Dani's nulos at -2, scores 25 and pays 75 (75 a trick Dani took, one).
ANA_SUBASTAS = {
    "no-tricks": (1, -60, [("tricks", 3)]), "no-hearts": (1, -100, [("hearts", 5)]),
    "no-queens": (1, -50, [("queens", 1)]), "no-men": (1, -30, [("kings", 1), ("jacks", 0)]),
    "no-kh": (1, 0, [("kh", 0)]), "no-last-two": (1, -90, [("last_two", 1)]),
    "trump": (1, 25, [("tricks", 1)]), "nulos": (2, 125, [("tricks", 7)]), "433": (1, 75, []),
}
ANA_AUCTION = {"bought": 1, "bid_points": 150, "paid": -75, "sold": 1, "received": 200, "433": 0}


def seated(name: str, players: list[str]) -> dict[str, Any]:
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def expected_totals(name: str) -> list[int]:
    return list(json.loads((RECORDS / f"{name}_expected.json").read_text())["totals"])


def player_id(session: Any, name: str) -> int:
    return int(session.scalar(select(Player.id).where(Player.name == name)))


def of_profile(session: Any, name: str, profile: str) -> Any:
    return next(p for p in player_profiles(session, player_id(session, name)) if p.profile == profile)


def test_statistics_of_hand_computed_games(session):
    import_game(session, seated("subastas", ["Ana", "Beto", "Carla", "Dani"]))
    import_game(session, seated("subastas", ["Dani", "Ana", "Eva", "Beto"]))
    unfinished = seated("subastas", ["Ana", "Beto", "Carla", "Dani"])
    unfinished["hands"] = unfinished["hands"][:3]
    import_game(session, unfinished)                     # not played to the end: not counted
    ana = of_profile(session, "Ana", "subastas")
    seat0, seat1 = expected_totals("subastas")[0], expected_totals("subastas")[1]
    assert (ana.games, ana.points, ana.wins) == (2, seat0 + seat1, 0)
    assert ana.best is not None and ana.worst is not None
    assert (ana.best.total, ana.worst.total) == (max(seat0, seat1), min(seat0, seat1))
    assert (ana.streak, ana.best_streak) == (0, 0)
    # the first game's seat 0 plus the second game's seat 1 (Beto's counters, read the same way)
    lines = {c.contract: (c.hands, c.points, c.took) for c in ana.contracts}
    assert lines["no-kh"] == (2, -160, [("kh", 1)])       # as Beto in game 2 she took the K♥
    assert lines["433"] == (2, 150, [])
    assert lines["no-tricks"][0] == 2 and lines["no-tricks"][2] == [("tricks", 6)]
    assert ana.auction["bought"] == 1 and ana.auction["sold"] == 1 and ana.auction["433"] == 0
    assert ana.average_bid == 150


def test_one_game_per_contract_and_auction_as_read_by_hand(session):
    import_game(session, seated("subastas", ["Ana", "Beto", "Carla", "Dani"]))
    ana = of_profile(session, "Ana", "subastas")
    assert {c.contract: (c.hands, c.points, c.took) for c in ana.contracts} == {
        k: (n, p, list(t)) for k, (n, p, t) in ANA_SUBASTAS.items()}
    assert ana.auction == ANA_AUCTION
    assert ana.points == expected_totals("subastas")[0] == 20
    carla = of_profile(session, "Carla", "subastas")
    assert carla.auction["433"] == 1
    dani = of_profile(session, "Dani", "subastas")
    assert (dani.wins, dani.streak, dani.best_streak) == (1, 1, 1)
    assert (dani.auction["bought"], dani.auction["bid_points"], dani.auction["paid"]) == (1, 200, -200)


def test_wins_in_a_row_now_and_at_most(session):
    """Dani wins the subastas record from seat 3 and loses it from seat 0: won, won, lost,
    won -> wins in a row now 1, at most 2."""
    assert max(expected_totals("subastas")) == expected_totals("subastas")[3] > expected_totals("subastas")[0]
    four = ["Ana", "Beto", "Carla", "Dani"]
    for players in (four, four, ["Dani", "Ana", "Beto", "Carla"], four):
        import_game(session, seated("subastas", players))
    dani = of_profile(session, "Dani", "subastas")
    assert (dani.games, dani.wins, dani.streak, dani.best_streak) == (4, 3, 1, 2)
    ana = of_profile(session, "Ana", "subastas")
    assert (ana.wins, ana.streak, ana.best_streak) == (0, 0, 0)


def test_kings_made_in_rifki(session):
    import_game(session, seated("rifki", ["Ana", "Beto", "Carla", "Dani"]))
    assert of_profile(session, "Ana", "rifki").kings == 1       # 13 tricks of a koz hand
    assert of_profile(session, "Beto", "rifki").kings == 0


def test_head_to_head_from_final_totals(session):
    sub, fie = expected_totals("subastas"), expected_totals("fiestas")
    import_game(session, seated("subastas", ["Ana", "Beto", "Carla", "Dani"]))
    import_game(session, seated("subastas", ["Dani", "Ana", "Eva", "Beto"]))
    import_game(session, seated("fiestas", ["Ana", "Dani", "Carla", "Beto"]))
    ana = of_profile(session, "Ana", "subastas")
    dani = {o.name: o for o in ana.opponents}["Dani"]
    # game 1: Ana seat 0 vs Dani seat 3; game 2: Ana seat 1 vs Dani seat 0
    diffs = [sub[0] - sub[3], sub[1] - sub[0]]
    assert (dani.games, dani.ahead, dani.behind, dani.points) == (
        2, sum(d > 0 for d in diffs), sum(d < 0 for d in diffs), sum(diffs))
    assert {o.name for o in ana.opponents} == {"Beto", "Carla", "Dani", "Eva"}
    assert ana.opponents[0].games == 2 and ana.opponents[-1].games == 1
    fiestas = {o.name: o for o in of_profile(session, "Ana", "fiestas").opponents}
    assert fiestas["Dani"].points == fie[0] - fie[1]          # per profile: points never mixed
    rows = csv_rows("Ana", player_profiles(session, player_id(session, "Ana")))
    assert ["head_to_head", "subastas", "Dani", "points", sum(diffs)] in rows
    assert ["contract", "fiestas", "no-tricks", "hands", 1] in rows


def sums(session: Any) -> tuple[list[Any], list[Any]]:
    session.expire_all()
    return ([tuple(r) for r in session.execute(text("SELECT * FROM player_stat WHERE value != 0 "
                                                    "ORDER BY player_id, profile, key"))],
            [tuple(r) for r in session.execute(text("SELECT * FROM head_to_head WHERE games != 0 "
                                                    "ORDER BY player_id, opponent_id, profile"))])


def test_sums_kept_by_differences_equal_the_seat_rows_after_corrections(session):
    full = seated("subastas", ["Ana", "Beto", "Carla", "Dani"])
    game = import_game(session, copy.deepcopy(full))
    import_game(session, seated("subastas", ["Dani", "Ana", "Eva", "Beto"]))
    hands.delete_last_hand(session, game, expected_version=game.version)     # no longer finished
    assert of_profile(session, "Ana", "subastas").auction["bought"] == 0
    hands.record_hand(session, game, full["hands"][-1], expected_version=game.version)
    game = session.get(Game, game.id)
    corrected = dict(full["hands"][0], counts={"tricks": [4, 3, 3, 3]})
    hands.replace_hand(session, game, 0, corrected, expected_version=game.version)
    kept = sums(session)
    assert recompute_sums(session) is False          # nothing to write: they agree
    session.commit()
    assert sums(session) == kept
    # damage, then rebuild puts the sums back
    session.execute(update(PlayerStat).values(value=PlayerStat.value + 1))
    session.execute(update(HeadToHead).values(points=0))
    session.commit()
    rebuild_results(session)
    assert sums(session) == kept
    line = {c.contract: c for c in of_profile(session, "Ana", "subastas").contracts}["no-tricks"]
    assert line.took == [("tricks", 4 + 3)]
