"""One roster (issue 38): renaming a player and merging two, with every game, event,
result, sum and rating following (app/players/roster.py)."""
from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select, update

from app.errors import BadInput
from app.events import events, scoreboard
from app.games import hands
from app.games.games import import_game
from app.games.table.confirm import is_locked
from app.models import (
    AuditAction,
    AuditEntry,
    Confirmation,
    ConfirmMethod,
    Game,
    Player,
    PlayerTotal,
    Rating,
    SeatResult,
    StoredResult,
)
from app.players import roster
from app.stats import projections
from app.stats.stats import sums_agree
from tests.services.test_projections import derived, seated


def _id(session: Any, name: str) -> int:
    return int(session.scalars(select(Player.id).where(Player.name == name)).one())


def _lock(session: Any, game: Game) -> None:
    for seat in range(4):
        session.add(Confirmation(game_id=game.id, seat=seat, version=game.version, n_rows=len(game.hands),
                                 method=ConfirmMethod.DIRECTOR))
    session.commit()
    assert is_locked(session, game)


def test_a_rename_reaches_every_game_and_keeps_a_locked_sheet_locked(session):
    locked = import_game(session, seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    full = seated("fiestas", ["Dani", "koldo", "Ana", "Eva"])
    short = copy.deepcopy(full)
    short["hands"] = short["hands"][:-1]
    open_game = import_game(session, short)
    other = import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    _lock(session, locked)
    versions = {g.id: g.version for g in (locked, open_game, other)}
    pid = _id(session, "koldo")

    change = roster.rename_player(session, pid, "  Koldo   Etxeberria ", who="directora")

    assert (change.name, change.games) == ("Koldo Etxeberria", 2)
    session.expire_all()
    assert session.get(Player, pid).name == "Koldo Etxeberria"
    assert session.get(Game, locked.id).record["players"][0] == "Koldo Etxeberria"
    assert session.get(Game, open_game.id).record["players"][1] == "Koldo Etxeberria"
    assert session.get(Game, locked.id).version == versions[locked.id] + 1
    assert session.get(Game, other.id).version == versions[other.id]       # not theirs: untouched
    assert is_locked(session, session.get(Game, locked.id))                   # no score changed
    stored = session.get(StoredResult, locked.id)
    assert stored.players[0] == "Koldo Etxeberria"
    entry = session.scalars(select(AuditEntry).where(AuditEntry.game_id == locked.id)
                            .order_by(AuditEntry.id.desc())).first()
    assert (entry.action, entry.who, entry.before, entry.after, entry.version) == (
        AuditAction.RENAME, "directora", {"seat": 0, "player": "koldo"},
        {"seat": 0, "player": "Koldo Etxeberria"}, versions[locked.id] + 1)
    # the next save of the old game creates no player with the old name
    game = session.get(Game, open_game.id)
    hands.record_hand(session, game, full["hands"][-1], expected_version=game.version)
    assert session.scalar(select(func.count()).select_from(Player).where(Player.name == "koldo")) == 0
    assert session.get(Game, open_game.id).record["players"][1] == "Koldo Etxeberria"
    assert sums_agree(session)


def test_a_rename_shows_in_the_ratings_and_the_event_standings(session):
    event = events.create_event(session, events.EventSpec(
        name="Jueves", profile="ru32", players=["koldo", "Ana", "Beto", "Carla"], rounds=1,
        day=date(2026, 12, 3)), who="directora", user_id=None, seed=1)
    import_game(session, seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = _id(session, "koldo")
    roster.rename_player(session, pid, "Koldo", who="directora")     # a change of case alone
    session.expire_all()
    assert "Koldo" in {r.name for r in scoreboard.standings(session, session.get(type(event), event.id)).rows}
    rating = session.get(Rating, (pid, "ru32"))
    assert rating is not None and rating.games == 1
    assert session.get(Player, pid).folded_name == "koldo"


@pytest.mark.parametrize(("name", "says"), [
    ("", "new name"),
    ("   ", "new name"),
    ("ána", "already on the roster"),            # Ana folded: merge instead
    ("\u0410na", "looks like"),                  # "Ana" with a Cyrillic А
    ("Bad\u200bName", "invisible"),
    ("x" * 61, "60"),
])
def test_a_refused_name_names_the_field_and_changes_nothing(session, name, says):
    game = import_game(session, seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    version = game.version
    with pytest.raises(BadInput) as refused:
        roster.rename_player(session, _id(session, "koldo"), name, who="directora")
    session.rollback()
    assert refused.value.field == "name"
    assert says in refused.value.message
    if says == "already on the roster":
        assert "merge" in refused.value.message
    session.expire_all()
    assert session.get(Game, game.id).version == version
    assert session.get(Game, game.id).record["players"][0] == "koldo"


def _by_name(session: Any, rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """The derived rows without where they lie (a merge writes rows again)."""
    return {table: sorted(r[1:] for r in found) for table, found in rows.items()}


def test_a_merge_adds_up_on_the_kept_player_as_a_rebuild_does(session):
    import_game(session, seated("ru32", ["Koldo", "Ana", "Beto", "Carla"]))
    import_game(session, seated("ru32", ["Dani", "koldo", "Ana", "Eva"]))
    import_game(session, seated("fiestas", ["koldo", "Beto", "Dani", "Carla"]))
    import_game(session, seated("ru32", ["Ana", "Koldo", "Eva", "Beto"]))
    gone, kept = _id(session, "koldo"), _id(session, "Koldo")
    totals = {pid: session.get(PlayerTotal, (0, pid, "ru32")).games for pid in (gone, kept)}
    assert totals == {gone: 1, kept: 2}

    change = roster.merge_players(session, gone, kept, who="directora")

    assert (change.player_id, change.games) == (kept, 2)
    session.expire_all()
    assert session.get(Player, gone) is None
    assert session.scalar(select(func.count()).select_from(SeatResult)
                          .where(SeatResult.player_id == gone)) == 0
    assert session.get(PlayerTotal, (0, kept, "ru32")).games == 3
    assert session.get(PlayerTotal, (0, kept, "fiestas")).games == 1
    assert session.get(Rating, (kept, "ru32")).games == 3
    for game in session.scalars(select(Game)):
        assert "koldo" not in game.record["players"]
    assert sums_agree(session)
    merged = _by_name(session, derived(session))
    projections.rebuild(session)
    assert _by_name(session, derived(session)) == merged


def _ratings(session: Any) -> dict[str, tuple[float, float, int]]:
    rows = session.execute(select(Player.name, Rating.mu, Rating.sigma, Rating.games)
                           .join(Rating, Rating.player_id == Player.id))
    return {name: (round(mu, 9), round(sigma, 9), games) for name, mu, sigma, games in rows}


def test_a_merge_equals_the_games_played_under_one_name(session):
    """The same games entered with the kept name from the start give the same ratings."""
    records = [seated("ru32", ["Koldo", "Ana", "Beto", "Carla"]),
               seated("ru32", ["Dani", "koldo", "Ana", "Eva"]),
               seated("ru32", ["Ana", "Koldo", "Eva", "Beto"])]
    for record in records:
        import_game(session, record)
    roster.merge_players(session, _id(session, "koldo"), _id(session, "Koldo"), who="directora")
    merged = _ratings(session)
    for game in session.scalars(select(Game)):
        session.delete(game)
    session.commit()
    for player in session.scalars(select(Player)):
        session.delete(player)
    session.commit()
    for record in records:
        record["players"] = ["Koldo" if p == "koldo" else p for p in record["players"]]
        import_game(session, record)
    direct = _ratings(session)
    assert merged == direct


def test_a_merge_keeps_a_locked_sheet_locked_and_logs_it(session):
    game = import_game(session, seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    import_game(session, seated("ru32", ["Koldo", "Ana", "Beto", "Carla"]))
    _lock(session, game)
    roster.merge_players(session, _id(session, "koldo"), _id(session, "Koldo"), who="directora")
    session.expire_all()
    game = session.get(Game, game.id)
    assert is_locked(session, game)
    entry = session.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id)
                            .order_by(AuditEntry.id.desc())).first()
    assert (entry.action, entry.before, entry.after) == (
        AuditAction.MERGE, {"seat": 0, "player": "koldo"}, {"seat": 0, "player": "Koldo"})


def test_a_merge_is_refused_when_they_shared_a_game(session):
    shared = import_game(session, seated("ru32", ["koldo", "Koldo", "Beto", "Carla"]))
    gone, kept = _id(session, "koldo"), _id(session, "Koldo")
    with pytest.raises(BadInput) as refused:
        roster.merge_players(session, gone, kept, who="directora")
    session.rollback()
    assert refused.value.field == "into"
    assert f"#{shared.id}" in refused.value.message
    assert session.get(Player, gone) is not None
    with pytest.raises(BadInput):
        roster.merge_players(session, gone, gone, who="directora")


def test_a_game_saved_meanwhile_refuses_the_rename_and_nothing_changes(session, monkeypatch):
    game = import_game(session, seated("ru32", ["koldo", "Ana", "Beto", "Carla"]))
    pid = _id(session, "koldo")
    real = roster._games_of

    def saved_meanwhile(s: Any, player_id: int) -> list[Game]:
        found = real(s, player_id)
        with s.get_bind().connect() as other:          # another request's save
            other.execute(update(Game).where(Game.id == game.id).values(version=Game.version + 1))
            other.commit()
        return found

    monkeypatch.setattr(roster, "_games_of", saved_meanwhile)
    with pytest.raises(BadInput) as refused:
        roster.rename_player(session, pid, "Koldo", who="directora")
    assert refused.value.field == "name" and "meanwhile" in refused.value.message
    session.expire_all()
    assert session.get(Player, pid).name == "koldo"
    assert session.get(Game, game.id).record["players"][0] == "koldo"
