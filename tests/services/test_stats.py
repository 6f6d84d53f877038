"""A player's statistics (issue 26) over hand-computed games: per contract, the auction,
Kings made, head-to-head, records and streaks; unfinished games are not counted; the sums
kept by differences equal a computation from the seat rows after corrections (SQLite and
PostgreSQL)."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from sqlalchemy import select, text, update

from app.games import hands
from app.games.games import import_game
from app.models import Game, HeadToHead, Player, PlayerStat
from app.players.player_csv import csv_rows
from app.stats.projections import rebuild as rebuild_results
from app.stats.stats import player_profiles, sums_agree
from tests.conftest import RECORDS, load_record

pytestmark = pytest.mark.every_database

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
    assert sums_agree(session)
    assert sums(session) == kept
    # damage, then rebuild puts the sums back
    session.execute(update(PlayerStat).values(value=PlayerStat.value + 1))
    session.execute(update(HeadToHead).values(points=0))
    session.commit()
    rebuild_results(session)
    assert sums(session) == kept
    line = {c.contract: c for c in of_profile(session, "Ana", "subastas").contracts}["no-tricks"]
    assert line.took == [("tricks", 4 + 3)]


def test_csv_holds_the_charts_every_game_and_the_average_bid(session):
    """The rating history and the points over time behind the page's two charts, one row a
    measure and game (numbered 1, 2, 3 in the subject), and the auction's average bid: Ana
    bids 150 from seat 0 and 200 from seat 3 (read off the record by hand, above)."""
    from openskill.models import PlackettLuce

    from app.models import StoredResult
    from app.players.player_csv import player_csv
    from app.rules import load
    from app.stats.rating_model import shown

    games = [seated("subastas", ["Ana", "Beto", "Carla", "Dani"]),
             seated("subastas", ["Beto", "Carla", "Dani", "Ana"]),
             seated("subastas", ["Ana", "Dani", "Beto", "Carla"])]
    ids = [import_game(session, copy.deepcopy(record)).id for record in games]
    totals = expected_totals("subastas")
    ana_totals = [totals[0], totals[3], totals[0]]
    # openskill by hand, game after game, as the page's rating chart shows it
    model = PlackettLuce()
    want = {name: model.rating() for name in games[0]["players"]}
    steps = []
    for record in games:
        got = list(load(record).totals)
        ranks = [1 + sum(t > mine for t in got) for mine in got]
        rated = model.rate([[want[n]] for n in record["players"]], ranks=ranks)
        want.update({n: team[0] for n, team in zip(record["players"], rated, strict=True)})
        steps.append(want["Ana"])
    rows = player_csv(session, player_id(session, "Ana"), "Ana")
    assert rows[0] == ["section", "profile", "subject", "measure", "value"]

    def series(section: str, measure: str) -> list[tuple[Any, Any]]:
        return [(r[2], r[4]) for r in rows if r[0] == section and r[1] == "subastas" and r[3] == measure]

    assert series("points_over_time", "total") == list(enumerate(ana_totals, 1))
    assert series("points_over_time", "points") == [
        (1, ana_totals[0]), (2, ana_totals[0] + ana_totals[1]), (3, sum(ana_totals))]
    assert series("points_over_time", "game_id") == list(enumerate(ids, 1))
    assert series("rating_history", "game_id") == list(enumerate(ids, 1))
    played = {gid: at for gid, at in session.execute(select(StoredResult.game_id, StoredResult.played_at))}
    assert [at for _n, at in series("rating_history", "played_at")] == [
        played[gid].replace(tzinfo=None).isoformat() + "+00:00" for gid in ids]
    assert series("points_over_time", "played_at") == series("rating_history", "played_at")
    for measure, value in (("mu", lambda r: r.mu), ("sigma", lambda r: r.sigma)):
        got_values = series("rating_history", measure)
        assert [n for n, _v in got_values] == [1, 2, 3]
        for (_n, v), r in zip(got_values, steps, strict=True):
            assert v == pytest.approx(value(r), rel=1e-12)
    assert [v for _n, v in series("rating_history", "shown")] == [shown(r.ordinal()) for r in steps]
    # the last step is the rating the page shows
    assert ["rating", "subastas", "Ana", "shown", shown(steps[-1].ordinal())] in rows
    assert ["auction", "subastas", "Ana", "bid_points", 150 + 200 + 150] in rows
    assert ["auction", "subastas", "Ana", "average_bid", round(500 / 3, 2)] in rows
    assert ["auction", "subastas", "Ana", "bought", 3] in rows



def test_csv_chart_rows_are_the_charts_points(session, monkeypatch):
    """Past ratings.CHART_POINTS games, the CSV holds the games the charts show (spread
    evenly, the first and the latest always), so it costs the same at any club's size."""
    from app.players.player_csv import player_csv
    from app.stats import ratings

    for _ in range(3):
        import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    monkeypatch.setattr(ratings, "CHART_POINTS", 2)
    rows = player_csv(session, player_id(session, "Ana"), "Ana")
    for section in ("rating_history", "points_over_time"):
        assert sorted({r[2] for r in rows if r[0] == section}) == [1, 3]
    total = expected_totals("ru32")[0]
    assert ["points_over_time", "ru32", 3, "points", 3 * total] in rows
