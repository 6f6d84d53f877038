"""Saving a game's record: the one path every change takes.

The new record is normalized and replayed by the engine before anything is written; a
RecordError leaves the database untouched. The write carries the version the scorer saw
(optimistic locking): a stale version raises ConflictError and nothing is lost.
"""
from __future__ import annotations

import copy
from typing import Any

from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.accounts.accounts import add_scorer
from app.errors import ConflictError, NothingChanged
from app.games.queries import remember, replay_game
from app.games.table.confirm import check_unlocked, hash_pins, set_pins
from app.models import AuditAction, AuditEntry, Game, GameStatus, Seat
from app.rules import digest, load
from app.stats.projections import game_changed
from app.stats.results import player_ids_for


def checked_record(data: Any, *, keep: bool = False) -> tuple[dict[str, Any], Any]:
    """(canonical record, GameResult) or RecordError: the one replay of a save. With
    ``keep`` the result is kept under the canonical record's digest, so the sheet shown next
    replays nothing (an import of thousands of files keeps none)."""
    result = load(data)
    record = result.canonical_record()
    if keep:
        remember(result, digest(record))
    return record, result


def new_game_record(data: Any) -> tuple[dict[str, Any], Any]:
    """(canonical record, GameResult) of a game kingsheet is about to store for the first
    time (created, imported): every option of its profile named, with the value it was
    read with -- the one given, or today's default for a missing one (RECORD.md: "missing
    ones take defaults") -- so that a later change of a default never re-scores it
    (RULES.md §4). The options go right after ``profile``."""
    record, result = checked_record(data)
    options = result.options.as_dict(result.profile)
    stored: dict[str, Any] = {}
    for key, value in record.items():
        if key != "options":
            stored[key] = value
        if key == "profile":
            stored["options"] = options
    return stored, result


def status_of(result: Any) -> GameStatus:
    return GameStatus.COMPLETE if result.complete else GameStatus.IN_PROGRESS


def create_game(session: Session, data: Any, *, who: str, action: AuditAction,
                scorer_id: int | None = None, pins: list[str | None] | None = None,
                commit: bool = True) -> Game:
    """A new game from a record; `scorer_id` (its creator) becomes its first scorer and
    `pins` the seats' confirmation PINs (hashed), in the same transaction (``commit``
    False: the caller's, which commits it with more, e.g. an event's round)."""
    record, result = new_game_record(data)
    pin_hashes = hash_pins(pins) if pins else None      # before anything is written
    player_ids = player_ids_for(session, record["players"], {})
    game = Game(profile=record["profile"], record=record, status=status_of(result))
    session.add(game)
    for seat, player_id in enumerate(player_ids):
        game.seats.append(Seat(seat=seat, player_id=player_id))
    game.audit.append(AuditEntry(who=who, action=action, after=copy.deepcopy(record), version=1))
    session.flush()
    game_changed(session, game, result)
    if scorer_id is not None:
        add_scorer(session, game.id, scorer_id)
    if pin_hashes:
        set_pins(session, game.id, pin_hashes, hashed=True)
    if commit:
        session.commit()
    return game


def _essential(record: dict[str, Any], result: Any) -> dict[str, Any]:
    """The record without what a hand may state or leave to the engine with the same
    meaning (a contract fixed by the schedule, the default leader): two records with the
    same essentials are the same game, and saving one over the other changes nothing."""
    hands = []
    for raw, h in zip(record["hands"], result.hands, strict=True):
        hand = dict(raw)
        if "contract" in hand and hand["contract"] == h.contract.id:
            del hand["contract"]
        if "leader" in hand and hand["leader"] == h.leader:
            del hand["leader"]
        hands.append(hand)
    return {**record, "hands": hands}


def check_version(game: Game, expected_version: int | None) -> None:
    """ConflictError unless the save was made from the stored version (a save that names no
    version is a conflict too: every save checks)."""
    if game.version != expected_version:
        raise ConflictError(
            f"game {game.id} changed since this page was loaded "
            f"(version {expected_version}, now {game.version})", game.version)


def save_record(session: Session, game: Game, data: dict[str, Any], *, expected_version: int | None,
                who: str, action: AuditAction, hand_index: int | None,
                before: Any, after: Any, reason: str | None = None) -> Game:
    """Writes the new record. A sheet the table confirmed (locked) is changed only with a
    director's `reason` (the caller passes one only for a director); the change then goes
    into the log with it, raises the version and so asks the table to confirm again."""
    check_version(game, expected_version)
    reason = check_unlocked(session, game, reason)
    record, result = checked_record(data, keep=True)
    same_length = len(record["hands"]) == len(game.record.get("hands", ()))
    if record == game.record or (same_length and _essential(record, result) == _essential(
            game.record, replay_game(game))):
        # writing it would log a change that is none, and (the row being unchanged) skip the
        # UPDATE that checks the version in the database: write nothing and say so (a hand
        # added or removed is a change: the stored record is not replayed for it)
        raise NothingChanged(f"game {game.id}: the record is unchanged")
    game.record = record
    game.status = status_of(result)
    # the version this write produces (the version column counts up by one per write)
    session.add(AuditEntry(game=game, who=who, action=action, hand_index=hand_index, reason=reason,
                           before=copy.deepcopy(before), after=copy.deepcopy(after),
                           version=game.version + 1))
    try:
        session.flush()
        game_changed(session, game, result)
        session.commit()
    except StaleDataError:
        session.rollback()
        current = session.get(Game, game.id)
        raise ConflictError(f"game {game.id} was changed by someone else meanwhile",
                            current.version if current else None) from None
    return game
