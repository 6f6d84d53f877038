"""Ratings (issue 26): openskill's own answer for a hand-made example, the incremental
ratings equal a computation from scratch after random corrections, rebuild changes nothing
when they agree and repairs what differs (SQLite and PostgreSQL)."""
from __future__ import annotations

import copy
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import delete, select, text, update

from app.games import hands
from app.games.games import import_game
from app.games.imports import import_paths
from app.games.referee.referee import apply_ruling
from app.models import Game, Player, Rating, RatingStep
from app.rules import load
from app.stats.leaderboard import leaderboard
from app.stats.projections import rebuild as rebuild_results
from app.stats.rating_model import shown
from app.stats.ratings import rate_from
from app.stats.ratings import rebuild as rebuild_ratings
from tests.conftest import load_record

pytestmark = pytest.mark.every_database

PROFILES = ["ru32", "fiestas", "subastas", "rifki"]


def seated(name: str, players: list[str]) -> dict[str, Any]:
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


def ratings_by_name(session: Any, profile: str) -> dict[str, tuple[float, float, int]]:
    rows = session.execute(select(Player.name, Rating.mu, Rating.sigma, Rating.games)
                           .join(Rating, Rating.player_id == Player.id).where(Rating.profile == profile))
    return {name: (mu, sigma, games) for name, mu, sigma, games in rows}


def test_three_games_equal_openskills_own_answer(session):
    """Three finished ru32 games among six players, the second with a shared top total."""
    from tests.services.test_results import tie_on_top

    games = [seated("ru32", ["Ana", "Beto", "Carla", "Dani"]),
             tie_on_top(seated("ru32", ["Eva", "Ana", "Fede", "Beto"])),
             seated("ru32", ["Carla", "Eva", "Dani", "Ana"])]
    for record in games:
        import_game(session, record)
    # openskill, by hand: each game ranks its seats by final total, equal totals share
    model = PlackettLuce()
    want = {name: model.rating() for record in games for name in record["players"]}
    played = dict.fromkeys(want, 0)
    for record in games:
        totals = list(load(record).totals)
        ranks = [1 + sum(t > mine for t in totals) for mine in totals]
        teams = [[want[name]] for name in record["players"]]
        for name, team in zip(record["players"], model.rate(teams, ranks=ranks), strict=True):
            want[name] = team[0]
            played[name] += 1
    assert len(set(load(games[1]).totals)) == 3          # the tie is there
    got = ratings_by_name(session, "ru32")
    assert got.keys() == want.keys()
    for name, (mu, sigma, n) in got.items():
        assert mu == pytest.approx(want[name].mu, rel=1e-12), name
        assert sigma == pytest.approx(want[name].sigma, rel=1e-12), name
        assert n == played[name]
    # the leaderboard: conservative ratings, best first, a minimum of games
    board = leaderboard(session, "ru32", min_games=2)
    assert {r.name for r in board} == {n for n, k in played.items() if k >= 2}
    assert [r.ordinal for r in board] == sorted((r.ordinal for r in board), reverse=True)
    assert board[0].shown == shown(want[board[0].name].ordinal())
    assert leaderboard(session, "ru32", min_games=4) == []


def test_games_are_rated_in_the_order_they_were_played(session, tmp_path: Path):
    """An import dated before the games already stored is rated before them."""
    import_game(session, seated("fiestas", ["Ana", "Beto", "Carla", "Dani"]))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(seated("fiestas", ["Dani", "Carla", "Beto", "Ana"])))
    summary = import_paths(session, [str(path)], played_at=datetime(2020, 5, 1, tzinfo=UTC), workers=1)
    assert summary.imported == 1
    steps = session.execute(select(Player.name, RatingStep.games, RatingStep.game_id)
                            .join(Player, Player.id == RatingStep.player_id)).all()
    first_game = {gid for _n, g, gid in steps if g == 1}
    assert first_game == {max(gid for _n, _g, gid in steps)}     # the imported (newer id) came first
    assert snapshot_ratings(session) == scratch(session)


def snapshot_ratings(session: Any) -> dict[str, list[tuple[Any, ...]]]:
    session.expire_all()
    out = {}
    for table, order in (("rating", "player_id, profile"), ("rating_step", "player_id, profile, games")):
        out[table] = [tuple(round(v, 9) if isinstance(v, float) else v for v in row)
                      for row in session.execute(text(f"SELECT * FROM {table} ORDER BY {order}"))]
    return out


def scratch(session: Any) -> dict[str, list[tuple[Any, ...]]]:
    """The ratings computed from nothing (rolled back afterwards)."""
    session.commit()
    session.execute(delete(RatingStep))
    session.execute(delete(Rating))
    for profile in PROFILES:
        rate_from(session, profile, None)
    out = snapshot_ratings(session)
    session.rollback()
    return out


def correct_at_random(session: Any, rng: random.Random, game: Game, full: dict[str, Any]) -> None:
    """One correction of ``game``: its last hand deleted or put back, or a ruling that gives a
    hand's points to one seat, or such a ruling taken back."""
    n = len(game.record["hands"])
    if n < len(full["hands"]):
        hands.record_hand(session, game, full["hands"][n], expected_version=game.version)
        return
    roll = rng.random()
    if roll < 0.3:
        hands.delete_last_hand(session, game, expected_version=game.version)
        return
    ruled = [i for i, h in enumerate(game.record["hands"]) if "ruling" in h]
    if ruled and roll < 0.5:
        apply_ruling(session, game, rng.choice(ruled), None, expected_version=game.version, who="Eva")
        return
    result = load(game.record)
    index = rng.choice([i for i, h in enumerate(result.hands) if h.counted and h.contract.played])
    points = [0, 0, 0, 0]
    points[rng.randrange(4)] = result.hands[index].total
    if list(result.hands[index].points) == points:
        return
    apply_ruling(session, game, index, {"kind": "adjusted", "points": points, "reason": "r"},
                 expected_version=game.version, who="Eva")


@pytest.mark.parametrize("seed", [7, 26])
def test_incremental_ratings_equal_ratings_from_scratch_after_random_corrections(session, seed):
    rng = random.Random(seed)
    pool = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede"]
    made: list[tuple[int, dict[str, Any]]] = []
    for _ in range(6):
        profile = rng.choice(["ru32", "rifki"])
        full = seated(profile, rng.sample(pool, 4))
        made.append((import_game(session, copy.deepcopy(full)).id, full))
    assert snapshot_ratings(session) == scratch(session)
    for _ in range(12):
        game_id, full = rng.choice(made)     # an old game (rated again from it on) or the latest
        correct_at_random(session, rng, session.get(Game, game_id), full)
        assert snapshot_ratings(session) == scratch(session)
    assert rebuild_ratings(session) == 0
    session.commit()
    assert snapshot_ratings(session)["rating_step"]


def test_a_game_that_is_no_longer_finished_leaves_the_ratings(session):
    full = seated("rifki", ["Ana", "Beto", "Carla", "Dani"])
    game = import_game(session, copy.deepcopy(full))
    assert len(ratings_by_name(session, "rifki")) == 4
    hands.delete_last_hand(session, game, expected_version=game.version)
    assert ratings_by_name(session, "rifki") == {}
    assert session.scalars(select(RatingStep)).all() == []
    hands.record_hand(session, game, full["hands"][-1], expected_version=game.version)
    rated = ratings_by_name(session, "rifki")
    assert {n for n, (_m, _s, g) in rated.items() if g == 1} == set(full["players"])


def test_rebuild_changes_nothing_when_they_agree_and_repairs_what_differs(app, session, runner):
    four = ["Ana", "Beto", "Carla", "Dani"]
    for k, name in enumerate(PROFILES):
        import_game(session, seated(name, four[k:] + four[:k]))
        import_game(session, seated(name, ["Eva", "Beto", "Ana", "Fede"]))
    before = snapshot_ratings(session)
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "0 changed" in result.output and "0 rated again" in result.output
    assert snapshot_ratings(session) == before
    # damage: a step's mu, a lost step, a rating's games -> rebuild puts them back
    session.execute(update(RatingStep).where(RatingStep.profile == "rifki", RatingStep.games == 2)
                    .values(mu=1.0))
    session.execute(delete(RatingStep).where(RatingStep.profile == "ru32", RatingStep.games == 2))
    session.execute(update(Rating).where(Rating.profile == "fiestas").values(games=40))
    session.commit()
    assert rebuild_results(session).rerated >= 2
    assert snapshot_ratings(session) == before
    assert rebuild_results(session).rerated == 0
    assert snapshot_ratings(session) == before


def test_history_is_spread_over_the_players_games(session):
    for _ in range(5):
        import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    from app.stats.leaderboard import history

    ana = int(session.scalar(select(Player.id).where(Player.name == "Ana")))
    assert [s["games"] for s in history(session, ana, "ru32", points=3)] == [1, 3, 5]
    assert [s["games"] for s in history(session, ana, "ru32")] == [1, 2, 3, 4, 5]
    steps = history(session, ana, "ru32")
    assert steps[-1]["points"] == 5 * load(seated("ru32", ["Ana", "Beto", "Carla", "Dani"])).totals[0]
    assert history(session, ana, "rifki") == []


def test_rebuild_removes_the_steps_of_games_no_longer_finished(session):
    """Steps left over after every computed one (the last two games, no longer finished in
    the stored results) and in the middle are removed; the rest is rated again."""
    from app.models import SeatResult

    ids = [import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"])).id for _ in range(5)]
    for gone in ([ids[-1], ids[-2]], [ids[1]]):
        session.execute(update(SeatResult).where(SeatResult.game_id.in_(gone)).values(complete=False))
        session.commit()
        assert rebuild_ratings(session) > 0 or gone == [ids[-1], ids[-2]]
        session.commit()
        assert snapshot_ratings(session) == scratch(session)
        assert not session.scalars(select(RatingStep).where(RatingStep.game_id.in_(gone))).all()
    assert ratings_by_name(session, "ru32")["Ana"][2] == 2


def rated_counts(monkeypatch: Any, paths: list[str] | None = None) -> list[int]:
    """The games each rating of a change wrote (ratings.rate_from's answers, and 1 for a game
    that ratings.rate_alone rated on its own); ``paths`` gets "walk" or "alone" for each."""
    from app.stats import ratings

    counts: list[int] = []
    taken = paths if paths is not None else []
    real, alone = ratings.rate_from, ratings.rate_alone

    def counted(*args: Any, **kwargs: Any) -> int:
        counts.append(real(*args, **kwargs))
        taken.append("walk")
        return counts[-1]

    def counted_alone(*args: Any, **kwargs: Any) -> bool:
        done = alone(*args, **kwargs)
        if done:
            counts.append(1)
            taken.append("alone")
        return done

    monkeypatch.setattr(ratings, "rate_from", counted)
    monkeypatch.setattr(ratings, "rate_alone", counted_alone)
    return counts


def test_a_table_that_finishes_last_rates_its_own_game_only(session, monkeypatch):
    """A club night's round: four tables without a player in common, started in order and
    finished in the other order. The first table's last hand comes after the other three
    were rated: its game is rated alone and theirs keep their steps (the same rows), and
    the steps and ratings are what rating everything from nothing gives."""
    tables = [[f"P{4 * t + s}" for s in range(4)] for t in range(4)]
    fulls = [seated("fiestas", names) for names in tables]
    games = []
    for full in fulls:
        short = copy.deepcopy(full)
        short["hands"] = short["hands"][:-1]
        games.append(import_game(session, short))
    paths: list[str] = []
    counts = rated_counts(monkeypatch, paths)
    for game, full in reversed(list(zip(games, fulls, strict=True))):
        hands.record_hand(session, game, full["hands"][-1], expected_version=game.version)
    assert counts == [1, 1, 1, 1]
    # each finishing save rated its game alone, without the walk reading the later tables'
    # games under the profile's lock (bench/evening.py: a game's last hand p50 210 ms with
    # it, 820 ms without)
    assert paths == ["alone"] * 4
    # where each step row lies: a row written again gets a new rowid (SQLite), ctid (PostgreSQL)
    where = "rowid" if session.get_bind().dialect.name == "sqlite" else "ctid::text"
    places = f"SELECT {where} FROM rating_step WHERE game_id = :g ORDER BY seat"
    steps = {g.id: session.execute(text(places), {"g": g.id}).scalars().all() for g in games[1:]}
    assert snapshot_ratings(session) == scratch(session)
    # a correction of the first table's game again (a ruling): still its game alone
    total = load(games[0].record).hands[0].total
    apply_ruling(session, games[0], 0, {"kind": "adjusted", "points": [total, 0, 0, 0], "reason": "r"},
                 expected_version=games[0].version, who="Eva")
    assert counts[-1] == 1 and paths[-1] == "walk"       # a finished game changed: the walk
    assert snapshot_ratings(session) == scratch(session)
    for gid, rows in steps.items():
        assert session.execute(text(places), {"g": gid}).scalars().all() == rows


def test_a_change_rates_again_the_later_games_it_reaches(session, monkeypatch):
    """Round 2 seats a player of round 1's first table: a change to that table rates it, the
    round-2 game with that player, and (through that game's other players) the later game
    of one of them; a later game of players it never reaches keeps its steps."""
    first = import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    import_game(session, seated("ru32", ["Eva", "Fede", "Gala", "Hugo"]))       # not reached
    import_game(session, seated("ru32", ["Ana", "Iris", "Juan", "Kike"]))       # Ana: reached
    import_game(session, seated("ru32", ["Iris", "Luz", "Mar", "Nico"]))        # Iris: reached
    import_game(session, seated("ru32", ["Eva", "Fede", "Oto", "Pau"]))         # not reached
    counts = rated_counts(monkeypatch)
    hands.delete_last_hand(session, first, expected_version=first.version)
    assert counts == [2]        # no longer finished: the two later games it reaches
    assert snapshot_ratings(session) == scratch(session)
    hands.record_hand(session, first, seated("ru32", ["Ana", "Beto", "Carla", "Dani"])["hands"][-1],
                      expected_version=first.version)
    assert counts == [2, 3]
    assert snapshot_ratings(session) == scratch(session)


@pytest.mark.parametrize("seed,chunk", [(3, 1000), (11, 1000), (25, 1000), (11, 2), (25, 1)])
def test_rating_only_what_a_change_reaches_equals_rating_everything(session, monkeypatch, seed, chunk):
    """Random games among a larger pool (tables that share players and tables that do not),
    corrected at random: after each change the steps and ratings are those computed from
    nothing (also when the games after a change are read a few at a time,
    ratings.GAMES_PER_CHUNK: a game's old steps in one chunk, its new ones in another)."""
    from app.stats import ratings

    monkeypatch.setattr(ratings, "GAMES_PER_CHUNK", chunk)
    rng = random.Random(seed)
    pool = [f"J{k}" for k in range(12)]
    made: list[tuple[int, dict[str, Any]]] = []
    for _ in range(10):
        full = seated(rng.choice(["ru32", "fiestas"]), rng.sample(pool, 4))
        made.append((import_game(session, copy.deepcopy(full)).id, full))
    for _ in range(10):
        game_id, full = rng.choice(made)
        correct_at_random(session, rng, session.get(Game, game_id), full)
        assert snapshot_ratings(session) == scratch(session)
    assert rebuild_ratings(session) == 0
