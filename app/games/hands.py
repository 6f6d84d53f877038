"""Recording, correcting and deleting hands: every change is a new record, replayed first."""
from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.errors import BadInput, Text
from app.games.records import check_version, save_record
from app.models import AuditAction, Game


def _with_hands(game: Game, hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's record with these hands: a new dict and list; the hands themselves are
    shared, never changed in place (the engine reads a record and builds a new canonical
    one; a deep copy of a whole trick-by-trick game was a sixth of a save's time)."""
    return {**game.record, "hands": list(hands)}


def record_hand(session: Session, game: Game, hand: dict[str, Any], *, expected_version: int | None,
                who: str = "?", reason: str | None = None) -> Game:
    """Append the next hand."""
    hands = game.hands + [hand]
    return save_record(session, game, _with_hands(game, hands), expected_version=expected_version,
                       who=who, reason=reason, action=AuditAction.ADD_HAND, hand_index=len(hands) - 1,
                       before=None, after=hand)


def replace_hand(session: Session, game: Game, index: int, hand: dict[str, Any], *,
                 expected_version: int | None, who: str = "?", reason: str | None = None) -> Game:
    """Correct hand `index` (0-based); later hands are replayed and must stay valid."""
    hands = game.hands
    if not 0 <= index < len(hands):
        raise BadInput("hand", Text("There is no hand row %(n)s.", n=index + 1))
    before = hands[index]
    hands[index] = hand
    return save_record(session, game, _with_hands(game, hands), expected_version=expected_version,
                       who=who, reason=reason, action=AuditAction.EDIT_HAND, hand_index=index,
                       before=before, after=hand)


def delete_last_hand(session: Session, game: Game, *, expected_version: int | None,
                     who: str = "?", reason: str | None = None) -> Game:
    check_version(game, expected_version)
    hands = game.hands
    if not hands:
        raise BadInput("hand", Text("There are no hands to delete."))
    before = hands.pop()
    return save_record(session, game, _with_hands(game, hands), expected_version=expected_version,
                       who=who, reason=reason, action=AuditAction.DELETE_HAND, hand_index=len(hands),
                       before=before, after=None)
