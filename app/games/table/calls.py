"""Calling the director (issue 40): a seat's player or the game's scorer opens a call with
an optional note, one open call per game at a time; a director answers it with a note.
Both are written to the game's change log (no new version: the record is unchanged), and
both count in the table's live stamp (``call_events``), so the table's page, the event's
director view and the directors' list of calls follow them."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.accounts.accounts import can_score
from app.db import utcnow
from app.errors import BadInput, ForbiddenError, Text
from app.models import AuditAction, AuditEntry, DirectorCall, Event, EventRound, EventTable, Game, Role, User
from app.models.call import ANSWER_MAX, NOTE_MAX
from app.rules.limits import has_visible_text

STATUSES = ("open", "answered", "all")
#: The most calls a list shows (the newest of them, oldest first).
LIST_MAX = 200


class AlreadyAnswered(Exception):
    """The call was answered already (by another director, or a second press)."""

    def __init__(self, call: DirectorCall) -> None:
        super().__init__(f"call {call.id} was answered already")
        self.call = call


@dataclass(frozen=True)
class CallView:
    """A call as the pages and the API show it: where (the event's table and round, or the
    game alone), who called and from which seat, since when, the note, and the answer."""

    id: int
    game_id: int
    profile: str
    event_id: int | None
    event_name: str | None
    round: int | None
    table: int | None
    seat: int | None
    player: str | None          # the name at ``seat``
    called_by: str
    note: str | None
    called_at: datetime
    answered_at: datetime | None
    answered_by: str | None
    answer: str | None

    @property
    def status(self) -> str:
        return "open" if self.answered_at is None else "answered"


def call_events(game_id: Any) -> Any:
    """The calls of game ``game_id`` (a column or a parameter) plus those answered: a
    scalar subquery the table's live stamp adds to its confirmations, so that a call and
    its answer show on every open page of the game."""
    return (select(func.count() + func.count(DirectorCall.answered_at))
            .where(DirectorCall.game_id == game_id).scalar_subquery())


def calls_stamp(session: Session, event_id: int | None = None) -> str:
    """What the list of calls polls: calls made and answered (of one event's games, or of
    all games)."""
    stmt = select(func.count(), func.count(DirectorCall.answered_at)).select_from(DirectorCall)
    if event_id is not None:
        stmt = stmt.where(DirectorCall.game_id.in_(_event_games(event_id)))
    made, answered = session.execute(stmt).one()
    return f"k{made}a{answered}"


def _event_games(event_id: int) -> Any:
    return (select(EventTable.game_id).join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventRound.event_id == event_id))


def clean_note(text: str | None, field: str, limit: int, *, required: bool = False) -> str | None:
    """A note as it is kept: spaces folded, at most ``limit`` characters, no control or
    text-direction characters; None when it shows nothing (BadInput naming ``field``
    when it is required)."""
    folded = " ".join((text or "").split())
    if not has_visible_text(folded):
        if required:
            raise BadInput(field, Text("Write the answer."))
        return None
    if len(folded) > limit:
        raise BadInput(field, Text("At most %(n)s characters.", n=limit))
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in folded):
        raise BadInput(field, Text("Only visible characters, please."))
    return folded


def caller_seat(user: User | None, game: Game) -> int | None:
    """The seat of the user's own player at this game (None: not seated)."""
    if user is None or user.player_id is None:
        return None
    return next((s.seat for s in game.seats if s.player_id == user.player_id), None)


def may_call(session: Session, user: User | None, game: Game) -> bool:
    """A seat's own player, the game's scorers and the directors may call."""
    return caller_seat(user, game) is not None or can_score(session, user, game.id)


def open_call_of(session: Session, game_id: int) -> DirectorCall | None:
    return session.scalars(select(DirectorCall).where(DirectorCall.open_game_id == game_id)).first()


def open_call(session: Session, game: Game, *, user: User | None, who: str,
              note: str | None) -> tuple[DirectorCall, bool]:
    """Calls the director to ``game``'s table: (the call, True) when made now; (the open
    one, False) when the table has called already (a second press, or two at once)."""
    if not may_call(session, user, game):
        raise ForbiddenError(Text("Only the game's players and its scorers call the director."))
    cleaned = clean_note(note, "note", NOTE_MAX)
    found = open_call_of(session, game.id)
    if found is not None:
        return found, False
    seat = caller_seat(user, game)
    call = DirectorCall(game_id=game.id, open_game_id=game.id, seat=seat, called_by=who,
                        caller_id=user.id if user is not None else None, note=cleaned,
                        called_at=utcnow())
    session.add(call)
    try:
        session.flush()
    except IntegrityError:          # another press of the table's made it first
        session.rollback()
        again = open_call_of(session, game.id)
        if again is None:
            raise
        return again, False
    session.add(AuditEntry(game_id=game.id, who=who, action=AuditAction.CALL, version=None,
                           after={"call": call.id, "seat": seat, "note": cleaned}))
    session.commit()
    return call, True


def get_call(session: Session, call_id: int) -> DirectorCall | None:
    return session.get(DirectorCall, call_id)


def answer_call(session: Session, call: DirectorCall, *, user: User | None, who: str,
                note: str | None) -> DirectorCall:
    """A director answers the call with a note (AlreadyAnswered when it is answered)."""
    if user is None or user.role is not Role.DIRECTOR:
        raise ForbiddenError(Text("Only a director answers a call."))
    cleaned = clean_note(note, "note", ANSWER_MAX, required=True)
    if not call.is_open:
        raise AlreadyAnswered(call)
    # the row is claimed by its open_game_id: a second director's answer meanwhile finds
    # none to claim and is told it was answered
    claimed = session.execute(
        update(DirectorCall).execution_options(synchronize_session=False)
        .where(DirectorCall.id == call.id, DirectorCall.open_game_id.is_not(None))
        .values(open_game_id=None, answered_at=utcnow(), answered_by=who, answerer_id=user.id,
                answer=cleaned))
    if getattr(claimed, "rowcount", 1) != 1:
        session.rollback()
        session.refresh(call)
        raise AlreadyAnswered(call)
    session.add(AuditEntry(game_id=call.game_id, who=who, action=AuditAction.ANSWER, version=None,
                           after={"call": call.id, "answer": cleaned}))
    session.commit()
    session.refresh(call)
    return call


def _views(session: Session, stmt: Any) -> list[CallView]:
    rows = session.execute(stmt).all()
    return [CallView(id=c.id, game_id=c.game_id, profile=profile, event_id=event_id, event_name=name,
                     round=round_no, table=table_no, seat=c.seat,
                     player=_seat_name(players, c.seat), called_by=c.called_by, note=c.note,
                     called_at=c.called_at, answered_at=c.answered_at, answered_by=c.answered_by,
                     answer=c.answer)
            for c, profile, players, event_id, name, round_no, table_no in rows]


def _seat_name(players: Any, seat: int | None) -> str | None:
    if seat is None or not isinstance(players, list) or not 0 <= seat < len(players):
        return None
    return str(players[seat])


def _select() -> Any:
    return (select(DirectorCall, Game.profile, Game.record["players"], Event.id, Event.name,
                   EventRound.number, EventTable.number)
            .join(Game, Game.id == DirectorCall.game_id)
            .outerjoin(EventTable, EventTable.game_id == DirectorCall.game_id)
            .outerjoin(EventRound, EventRound.id == EventTable.round_id)
            .outerjoin(Event, Event.id == EventRound.event_id))


def list_calls(session: Session, status: str = "open", *, event_id: int | None = None,
               limit: int = LIST_MAX) -> list[CallView]:
    """Calls oldest first (the one waiting longest at the top): the open ones, the answered
    ones or all, of one event's games or of every game; the newest ``limit`` of them."""
    if status not in STATUSES:
        raise BadInput("status", Text("One of: %(values)s.", values=", ".join(STATUSES)))
    stmt = _select()
    if status == "open":
        stmt = stmt.where(DirectorCall.answered_at.is_(None))
    elif status == "answered":
        stmt = stmt.where(DirectorCall.answered_at.is_not(None))
    if event_id is not None:
        stmt = stmt.where(Event.id == event_id)
    newest = _views(session, stmt.order_by(DirectorCall.id.desc()).limit(limit))
    return newest[::-1]


def call_view(session: Session, call_id: int) -> CallView | None:
    found = _views(session, _select().where(DirectorCall.id == call_id))
    return found[0] if found else None


def latest_call(session: Session, game_id: int) -> CallView | None:
    """The game's open call, else its last answered one (the table's page shows it)."""
    found = _views(session, _select().where(DirectorCall.game_id == game_id)
                   .order_by(DirectorCall.answered_at.is_not(None), DirectorCall.id.desc()).limit(1))
    return found[0] if found else None
