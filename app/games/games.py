"""Starting and importing games."""
from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from app.errors import BadInput, Text
from app.games.records import create_game, save_record
from app.models import AuditAction, Game
from app.rules import RecordError, get_profile
from app.rules.limits import read_json

RECORD_FORMAT = "kingsheet/1"


def draw_first_seat(rng: random.Random | None = None) -> int:
    """The first dealer (or the 2♦ holder) drawn by lot."""
    return (rng or random.SystemRandom()).randrange(4)


def start_game(session: Session, *, profile: str, players: list[str], first_seat: int | None,
               options: dict[str, str] | None = None, who: str = "?",
               rng: random.Random | None = None, scorer_id: int | None = None,
               pins: list[str | None] | None = None, commit: bool = True) -> Game:
    """A new game with no hands. `first_seat` None means: drawn by lot now, and recorded."""
    prof = get_profile(profile)
    seat = draw_first_seat(rng) if first_seat is None else first_seat
    record: dict[str, Any] = {"format": RECORD_FORMAT, "profile": prof.id,
                              "options": dict(options or {})}     # every one: create_game
    record["players"] = list(players)
    record[prof.seat_key] = seat
    record["hands"] = []
    return create_game(session, record, who=who, action=AuditAction.CREATE, scorer_id=scorer_id, pins=pins,
                       commit=commit)


def read_record_file(raw: bytes) -> Any:
    """The JSON value of an uploaded record (as ``kingsheet score`` reads a file)."""
    try:
        return read_json(raw)
    except RecordError as e:
        raise BadInput(e.field, e.message, cause=e) from None


def import_game(session: Session, data: Any, *, who: str = "?", scorer_id: int | None = None) -> Game:
    """A game created from a record (RECORD.md); the record is kept as normalized."""
    return create_game(session, data, who=who, action=AuditAction.IMPORT, scorer_id=scorer_id)


def set_first_seat(session: Session, game: Game, seat: int, *, expected_version: int | None,
                   who: str = "?") -> Game:
    """The first dealer (rifki: whoever holds the 2♦, the first chooser) as the table has it,
    while no hand is recorded. An event draws its tables before the cards are dealt, and a
    drawn rifki chooser is a guess until the deal shows who holds the 2♦ (RULES.md §3: it
    is "entered at the start"); a table that cut for the deal otherwise than drawn says so
    here. Logged like every change, with the version it produces."""
    if seat not in range(4):
        raise BadInput("seat", Text("There is no such seat."))
    if game.hands:
        raise BadInput("seat", Text("The first seat is set before the first hand; a hand is "
                                    "recorded already."))
    key = get_profile(game.profile).seat_key
    record = {**game.record, key: seat}
    return save_record(session, game, record, expected_version=expected_version, who=who,
                       action=AuditAction.FIRST_SEAT, hand_index=None,
                       before={key: game.record.get(key)}, after={key: seat})
