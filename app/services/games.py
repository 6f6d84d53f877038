"""Starting and importing games."""
from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from app.models import AuditAction, Game
from app.rules import RecordError, get_profile
from app.rules.limits import read_json
from app.services.errors import BadInput
from app.services.records import create_game

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
