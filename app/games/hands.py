"""Recording, correcting and deleting hands: every change is a new record, replayed first.

A hand's save answers with a value, never a page: :func:`save_hand` returns what became of
the hand -- :class:`Saved` (stored, or already stored so), :class:`Refused` (the engine's
problems), :class:`Conflict` (another save came first) or :class:`Locked` (the table
confirmed the sheet) -- and the entry page, the trick page, the API and a phone's outbox
each turn that one value into their own answer (issue 37 item 4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.errors import BadInput, ConflictError, LockedError, NothingChanged, Text
from app.games.records import check_version, save_record
from app.models import AuditAction, Game
from app.rules import RecordError


@dataclass(frozen=True)
class Saved:
    """The hand is on row ``index`` (0-based) of ``game``; ``unchanged``: it was already
    recorded exactly so, and nothing was written (no new version, no log line)."""

    game: Game
    index: int
    unchanged: bool = False


@dataclass(frozen=True)
class Refused:
    """The engine refused the hand (nothing was written): ``first`` is the problem the save
    met, ``problems`` every problem of the hand at once when the caller looked for them."""

    first: RecordError
    problems: tuple[RecordError, ...] = ()

    @property
    def every(self) -> tuple[RecordError, ...]:
        """Every problem found, at least the save's own."""
        return self.problems or (self.first,)


@dataclass(frozen=True)
class Conflict:
    """Another save changed the game since the version the hand was entered against."""

    error: ConflictError

    @property
    def current_version(self) -> int | None:
        return self.error.current_version


@dataclass(frozen=True)
class Locked:
    """The table confirmed the sheet: only a director, giving a reason, changes it."""

    error: LockedError


Outcome = Saved | Refused | Conflict | Locked


def save_hand(session: Session, game: Game, hand: dict[str, Any], *, row: int | None,
              expected_version: int | None, who: str, reason: str | None = None) -> Outcome:
    """Records ``hand`` after the last one (``row`` None) or as the correction of row ``row``
    (0-based), and says what became of it. A row that does not exist is refused with
    ``BadInput`` (a request that names no hand, not an outcome of the hand)."""
    try:
        if row is None:
            index = len(game.hands)
            saved = record_hand(session, game, hand, expected_version=expected_version, who=who,
                                reason=reason)
        else:
            index = row
            saved = replace_hand(session, game, row, hand, expected_version=expected_version,
                                 who=who, reason=reason)
    except RecordError as e:
        return Refused(e)
    except ConflictError as e:
        return Conflict(e)
    except LockedError as e:
        return Locked(e)
    except NothingChanged:
        return Saved(game, index, unchanged=True)
    return Saved(saved, index)


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
