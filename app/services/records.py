"""Saving a game's record: the one path every change takes.

The new record is normalized and replayed by the engine before anything is written; a
RecordError leaves the database untouched. The write carries the version the scorer saw
(optimistic locking): a stale version raises ConflictError and nothing is lost.
"""
from __future__ import annotations

import copy
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.models import AuditAction, AuditEntry, Game, GameStatus, Player, Seat
from app.rules import load
from app.services.errors import ConflictError
from app.services.results import result_values, store_results


def checked_record(data: Any) -> tuple[dict[str, Any], Any]:
    """(canonical record, GameResult) or RecordError."""
    result = load(data)
    return result.record.to_json(), result


def status_of(result: Any) -> GameStatus:
    return GameStatus.COMPLETE if result.complete else GameStatus.IN_PROGRESS


def get_or_create_player(session: Session, name: str) -> Player:
    player = session.scalars(select(Player).where(Player.name == name)).first()
    if player is None:
        player = Player(name=name)
        session.add(player)
        session.flush()
    return player


def create_game(session: Session, data: Any, *, who: str, action: AuditAction) -> Game:
    record, result = checked_record(data)
    players = [get_or_create_player(session, name) for name in record["players"]]
    game = Game(profile=record["profile"], record=record, status=status_of(result))
    session.add(game)
    for seat, player in enumerate(players):
        game.seats.append(Seat(seat=seat, player=player))
    game.audit.append(AuditEntry(who=who, action=action, after=copy.deepcopy(record), version=1))
    session.flush()
    store_results(session, game, result_values(record, result), [p.id for p in players])
    session.commit()
    return game


def check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and game.version != expected_version:
        raise ConflictError(
            f"game {game.id} changed since this page was loaded "
            f"(version {expected_version}, now {game.version})", game.version)


def save_record(session: Session, game: Game, data: dict[str, Any], *, expected_version: int | None,
                who: str, action: AuditAction, hand_index: int | None,
                before: Any, after: Any) -> Game:
    check_version(game, expected_version)
    record, result = checked_record(data)
    game.record = record
    game.status = status_of(result)
    # the version this write produces (the version column counts up by one per write)
    session.add(AuditEntry(game=game, who=who, action=action, hand_index=hand_index,
                           before=copy.deepcopy(before), after=copy.deepcopy(after),
                           version=game.version + 1))
    try:
        session.flush()
        store_results(session, game, result_values(record, result))
        session.commit()
    except StaleDataError:
        session.rollback()
        current = session.get(Game, game.id)
        raise ConflictError(f"game {game.id} was changed by someone else meanwhile",
                            current.version if current else None) from None
    return game
