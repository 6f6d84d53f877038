"""Stored results: after every kind of change they equal what a fresh replay of the record
says; player totals equal the sums of the seat rows; rebuild changes nothing."""
from __future__ import annotations

import copy
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, text, update

from app.games import hands
from app.games.games import import_game, start_game
from app.games.referee.referee import apply_ruling
from app.models import Game, GameStatus, PlayerTotal, SeatResult, StoredResult
from app.rules import digest, load
from app.stats.projections import rebuild as rebuild_results
from app.stats.results import all_player_total_rows
from app.stats.seasons import save_season
from tests.conftest import PLAYERS, load_record
from tests.web.test_referee import REVOKE, finish_without_deal

pytestmark = pytest.mark.every_database

PROFILES = ["ru32", "fiestas", "subastas", "rifki"]


def tie_on_top(record: dict[str, Any]) -> dict[str, Any]:
    """The complete record with its last hand adjusted (a ruling) so the two best seats
    finish level: a shared win."""
    record = copy.deepcopy(record)
    result = load(record)
    totals = list(result.totals)
    order = sorted(range(4), key=lambda s: -totals[s])
    top, second, last = order[0], order[1], order[3]
    points = list(result.hands[-1].points)
    gap = totals[top] - totals[second]
    points[second] += gap
    points[last] -= gap
    record["hands"][-1]["ruling"] = {"kind": "adjusted", "points": points, "reason": "tie"}
    return record


def revoke_hand() -> dict[str, Any]:
    plays = finish_without_deal(REVOKE)
    return {"contract": "no-tricks", "tricks": [plays[k:k + 4] for k in range(0, 32, 4)]}


def fresh_replay(game: Game) -> dict[str, Any]:
    """What the record says, straight from the engine."""
    result = load(game.record)
    winners = list(result.winners) if result.complete else []
    kings = [0, 0, 0, 0]
    for h in result.hands:
        if h.counted and h.made_king:
            kings[[t == max(h.counts["tricks"]) for t in h.counts["tricks"]].index(True)] += 1
    violations = [sum(1 for h in result.hands for v in h.violations if v.seat == s) for s in range(4)]
    return {"complete": result.complete, "totals": list(result.totals), "winners": winners,
            "hands_counted": sum(h.counted for h in result.hands), "n_rows": len(result.hands),
            "kings": kings, "violations": violations, "digest": digest(game.record),
            "rulings": sum("ruling" in h for h in game.record["hands"]),
            "players": list(game.record["players"])}


def assert_stored_equal_replay(session: Any) -> int:
    session.expire_all()
    games = session.scalars(select(Game).order_by(Game.id)).all()
    for game in games:
        want = fresh_replay(game)
        stored = session.get(StoredResult, game.id)
        assert stored is not None, game.id
        assert stored.error is None
        assert (stored.complete, stored.totals, stored.winners, stored.hands_counted, stored.n_rows,
                stored.kings_made, stored.violations, stored.rulings, stored.record_digest,
                stored.players, stored.profile) == (
            want["complete"], want["totals"], want["winners"], want["hands_counted"], want["n_rows"],
            sum(want["kings"]), sum(want["violations"]), want["rulings"], want["digest"],
            want["players"], game.profile)
        assert game.status == (GameStatus.COMPLETE if want["complete"] else GameStatus.IN_PROGRESS)
        seats = session.scalars(select(SeatResult).where(SeatResult.game_id == game.id)
                                .order_by(SeatResult.seat)).all()
        assert [s.player_id for s in seats] == [s.player_id for s in game.seats]
        for s, row in enumerate(seats):
            assert (row.total, row.won, row.shared, row.kings_made, row.violations, row.complete,
                    row.profile) == (
                want["totals"][s], s in want["winners"], s in want["winners"] and len(want["winners"]) > 1,
                want["kings"][s], want["violations"][s], want["complete"], game.profile)
    kept = [{"season_id": t.season_id, "player_id": t.player_id, "profile": t.profile,
             **{c: getattr(t, c) for c in ("games", "complete_games", "wins", "shared_wins", "points",
                                           "kings_made", "violations")}}
            for t in session.scalars(select(PlayerTotal).order_by(
                PlayerTotal.season_id, PlayerTotal.player_id, PlayerTotal.profile))
            if t.games]
    assert kept == all_player_total_rows(session)
    return len(games)


def snapshot(session: Any) -> list[Any]:
    out = []
    for table in ("game", "game_result", "seat_result", "player_total", "season"):
        rows = session.execute(text(f"SELECT * FROM {table}")).all()
        out.append(sorted((tuple(r) for r in rows), key=repr))
    return out


@pytest.mark.parametrize("name", PROFILES)
def test_imported_record_stores_its_replay(session, name):
    import_game(session, load_record(f"{name}_complete.json"))
    import_game(session, tie_on_top(load_record(f"{name}_complete.json")))
    assert assert_stored_equal_replay(session) == 2
    shared = session.scalars(select(SeatResult).where(SeatResult.shared)).all()
    assert len(shared) == 2


def seasons_around_today(session):
    """A season holding today's games and one long past: totals are kept per season too."""
    today = datetime.now(UTC).date()
    save_season(session, name="Now", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=1))
    save_season(session, name="Past", starts_on=date(2020, 1, 1), ends_on=date(2020, 12, 31))


def test_every_kind_of_change_keeps_stored_results_equal_to_replay(session):
    seasons_around_today(session)
    full = load_record("rifki_complete.json")
    game = start_game(session, profile="rifki", players=full["players"], first_seat=full["first_chooser"])
    assert_stored_equal_replay(session)
    for hand in full["hands"]:                      # hands, one by one, to the end
        hands.record_hand(session, game, hand, expected_version=game.version)
        assert_stored_equal_replay(session)
    kings = session.get(StoredResult, game.id).kings_made
    assert kings == 1 and session.get(StoredResult, game.id).complete
    koz = next(i for i, h in enumerate(full["hands"]) if h.get("counts", {}).get("tricks") == [13, 0, 0, 0])
    corrected = dict(full["hands"][koz], counts={"tricks": [12, 1, 0, 0]})
    hands.replace_hand(session, game, koz, corrected, expected_version=game.version)   # correction
    assert session.get(StoredResult, game.id).kings_made == 0
    assert_stored_equal_replay(session)
    hands.delete_last_hand(session, game, expected_version=game.version)                 # delete
    assert not session.get(StoredResult, game.id).complete
    assert_stored_equal_replay(session)
    ruling = {"kind": "adjusted", "points": [0, 0, -640, 0], "reason": "ok"}
    first_penalty = next(i for i, h in enumerate(game.hands) if h["contract"] == "kupa-almaz")
    r = load(game.record).hands[first_penalty]
    ruling["points"] = [r.contract.total, 0, 0, 0]
    apply_ruling(session, game, first_penalty, ruling, expected_version=game.version, who="Eva")  # ruling
    assert session.get(StoredResult, game.id).rulings == 1
    assert_stored_equal_replay(session)
    apply_ruling(session, game, first_penalty, None, expected_version=game.version, who="Eva")
    assert session.get(StoredResult, game.id).rulings == 0
    assert_stored_equal_replay(session)


def test_violations_are_counted_for_the_offending_seat(session):
    seasons_around_today(session)
    game = start_game(session, profile="ru32", players=PLAYERS, first_seat=0)
    hands.record_hand(session, game, revoke_hand(), expected_version=game.version)
    assert_stored_equal_replay(session)
    stored = session.get(StoredResult, game.id)
    assert stored.violations >= 1
    carla = session.scalars(select(SeatResult).where(SeatResult.game_id == game.id,
                                                      SeatResult.seat == 2)).one()
    assert carla.violations >= 1
    total = session.scalars(select(PlayerTotal).where(PlayerTotal.player_id == carla.player_id,
                                                      PlayerTotal.season_id == 0)).one()
    assert total.violations == carla.violations and total.games == 1 and total.complete_games == 0


def test_rebuild_changes_nothing_and_repairs_what_was_damaged(app, session):
    seasons_around_today(session)
    for name in PROFILES:
        import_game(session, load_record(f"{name}_complete.json"))
    game = start_game(session, profile="ru32", players=PLAYERS, first_seat=1)
    hands.record_hand(session, game, revoke_hand(), expected_version=game.version)
    before = snapshot(session)
    summary = rebuild_results(session)
    assert (summary.games, summary.changed, summary.broken) == (5, 0, 0)
    assert snapshot(session) == before
    assert rebuild_results(session).changed == 0
    assert snapshot(session) == before
    # damage: a wrong total, a lost row, a wrong player sum -> rebuild puts back the replay
    session.execute(update(SeatResult).where(SeatResult.seat == 0).values(total=12345))
    session.execute(StoredResult.__table__.delete().where(StoredResult.game_id == game.id))
    session.execute(update(PlayerTotal).values(wins=99))
    session.commit()
    assert rebuild_results(session).changed == 5
    assert snapshot(session) == before
    assert_stored_equal_replay(session)


def test_rebuild_command(app, runner, make_game):
    make_game(record=load_record("fiestas_complete.json"))
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "1 games" in result.output and "0 changed" in result.output
