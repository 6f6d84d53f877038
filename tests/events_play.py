"""Playing an event's tables in tests: a whole legal game saved on a table's game, and its
four seats confirmed with the players' PINs (the table's machinery, as at the club)."""
from __future__ import annotations

import itertools
import random
from typing import Any

from app.games.records import save_record
from app.games.table.confirm import confirm_by_pin
from app.models import AuditAction, Game
from app.rules import get_profile
from app.rules.simulate import random_game

PIN = "2468"


def whole_record(record: dict[str, Any], seed: int = 0, hands: int | None = None) -> dict[str, Any]:
    """``record`` with the hands of a legal game (its players, options and first seat)."""
    key = get_profile(record["profile"]).seat_key
    for s in itertools.count(seed * 100):
        played = random_game(record["profile"], random.Random(s), options=record["options"], hands=hands)
        if played[key] == record[key]:
            return {**record, "hands": played["hands"]}
    raise AssertionError("unreachable")


def play(session: Any, game: Game, seed: int = 0, hands: int | None = None) -> Game:
    full = whole_record(game.record, seed, hands)
    return save_record(session, game, full, expected_version=game.version, who="mesa",
                       action=AuditAction.ADD_HAND, hand_index=len(full["hands"]) - 1,
                       before=None, after=None)


def confirm_all(session: Any, game: Game, pin: str = PIN) -> None:
    for seat in range(4):
        confirm_by_pin(session, game, seat, pin, None, game.version)
