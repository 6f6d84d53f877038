"""The table confirms the sheet (the Bridgemate habit) and a confirmed sheet is locked.

Each seat confirms the sheet as it stands (the game's `version`): with one tap from the
account linked to that seat's player, or with the seat's 4-digit PIN typed on the
scorer's phone passed round the table. A complete game whose four seats confirmed its
current version is **locked**: every change is refused (`LockedError`, 409) unless a
director gives a reason. That correction is a save like any other, so it raises the
version: the four confirmations no longer match it, the sheet is unlocked and asks the
table to confirm again. Confirmations never change the record or its version.

A confirmation names the version the player saw (the page's form carries it): one of a
version that is no longer the sheet's is refused (`SheetChanged`), and the confirmation is
stored with the version seen, so a save landing meanwhile can never lock a sheet nobody saw.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BindParameter, Integer, bindparam, exists, func, select
from sqlalchemy.orm import Session

from app.accounts import throttle
from app.accounts.accounts import check_secret, hash_secret
from app.errors import BadInput, ForbiddenError, LockedError, SheetChanged, Text
from app.games.table.calls import call_events
from app.models import (
    Confirmation,
    ConfirmMethod,
    Event,
    EventRound,
    EventTable,
    Game,
    GameLink,
    GameScorer,
    GameStatus,
    LinkKind,
    Role,
    Seat,
    SeatPin,
    User,
)
from app.rules.limits import has_visible_text

PIN = re.compile(r"^\d{4}$")
REASON_MAX = 300


@dataclass(frozen=True)
class SeatState:
    seat: int
    confirmation: Confirmation | None   # the latest one, of any version
    current: bool                       # it confirms the sheet as it stands now
    has_pin: bool
    user_id: int | None                 # the account linked to the seat's player


@dataclass(frozen=True)
class TableState:
    seats: list[SeatState]
    locked: bool

    @property
    def confirmed(self) -> int:
        return sum(1 for s in self.seats if s.current)

    def key(self) -> tuple[Any, ...]:
        """Everything a page shows of the table, as a value (a kept page's key; a
        confirmation row never changes, a new one is added)."""
        return (self.locked, tuple((s.seat, s.confirmation.id if s.confirmation else None,
                                    s.current, s.has_pin, s.user_id) for s in self.seats))


def clean_pin(pin: str | None, field: str) -> str | None:
    pin = (pin or "").strip()
    if not pin:
        return None
    if not PIN.match(pin):
        raise BadInput(field, Text("A PIN is 4 digits."))
    return pin


#: How a seat's PIN is hashed (issue 27.9). A PIN is 4 digits: 10,000 values, which no hash
#: cost protects from someone holding the database (even the passwords' scrypt would fall
#: in hours). What protects a PIN is the throttle on guesses (accounts/throttle.py, 5 wrong
#: then a doubling wait). So its hash is salted scrypt at a small cost (2¹¹, about 1/16 of
#: the passwords'), and four PINs no longer make starting a game feel slow. Hashes stored
#: with the old cost still check: the method is read from each hash.
PIN_HASH = "scrypt:2048:8:1"


def hash_pin(pin: str) -> str:
    """A seat's or an event entrant's PIN as stored (PIN_HASH)."""
    return hash_secret(pin, PIN_HASH)


def hash_pins(pins: list[str | None]) -> list[str | None]:
    """Each seat's PIN hashed (None: no PIN). Done before a transaction writes anything:
    on SQLite a write holds the database's one write lock, and four hashes under it made a
    second game started at the same moment wait (bench/web.py: p95 689 ms)."""
    return [hash_pin(pin) if pin else None for pin in pins]


def set_pins(session: Session, game_id: int, pins: list[str | None], *, hashed: bool = False) -> None:
    """The seats' PINs (hashed here, or already by :func:`hash_pins`); a seat without one
    confirms only from a linked account."""
    for seat, pin in enumerate(pins if hashed else hash_pins(pins)):
        if pin:
            found = session.get(SeatPin, (game_id, seat))
            if found is None:
                session.add(SeatPin(game_id=game_id, seat=seat, pin_hash=pin))
            else:
                found.pin_hash = pin


def latest_confirmations(session: Session, game_ids: list[int]) -> dict[int, dict[int, Confirmation]]:
    """Each game's latest confirmation per seat (one query for all the games)."""
    out: dict[int, dict[int, Confirmation]] = {gid: {} for gid in game_ids}
    for c in session.scalars(select(Confirmation).where(Confirmation.game_id.in_(game_ids))
                             .order_by(Confirmation.id)):
        out[c.game_id][c.seat] = c
    return out


def _latest(session: Session, game_id: int) -> dict[int, Confirmation]:
    return latest_confirmations(session, [game_id])[game_id]


def locked_by(game: Game, latest: dict[int, Confirmation]) -> bool:
    """The lock rule: a complete game whose four seats confirmed its current version."""
    return (game.status is GameStatus.COMPLETE and len(latest) == 4
            and all(c.version == game.version for c in latest.values()))


def table_state(session: Session, game: Game) -> TableState:
    latest = _latest(session, game.id)
    pins = set(session.scalars(select(SeatPin.seat).where(SeatPin.game_id == game.id)).all())
    linked: dict[int | None, int] = {row[0]: row[1] for row in session.execute(
        select(User.player_id, User.id).where(User.player_id.in_([s.player_id for s in game.seats])))}
    seats = []
    for seat in game.seats:
        c = latest.get(seat.seat)
        current = c is not None and c.version == game.version
        seats.append(SeatState(seat=seat.seat, confirmation=c, current=current,
                               has_pin=seat.seat in pins, user_id=linked.get(seat.player_id)))
    locked = game.status is GameStatus.COMPLETE and all(s.current for s in seats) and len(seats) == 4
    return TableState(seats=seats, locked=locked)


@dataclass(frozen=True)
class EventPlace:
    """Where a game is played in an event: "Mesa 1 · Ronda 2" of that night."""

    event_id: int
    event_name: str
    round: int
    table: int


@dataclass(frozen=True)
class SheetState:
    """What the sheet page shows besides the record, read in ONE statement
    (:func:`sheet_state`): the table's confirmations, the live stamp's count of them (and
    of the calls to the director and their answers: ``calls.call_events``), the
    game's live share link, whether the user is one of its scorers, and the event table it
    is, if any."""

    table: TableState
    confirmations: int
    share_token: str | None
    scorer: bool
    event: EventPlace | None = None
    #: the table's calls to the director and their answers (``calls.call_events``; part of
    #: ``confirmations`` too): the page reads its call only when there is one
    calls: int = 0


@functools.cache
def _sheet_state_statements() -> tuple[Any, Any]:
    """The statement of :func:`sheet_state` (and its form for a game without seats), built
    once: building it costs more than running it. Its parameters: ``game_id``, ``user_id``."""
    game_id: BindParameter[int] = bindparam("game_id", type_=Integer)
    user_id: BindParameter[int] = bindparam("user_id", type_=Integer)
    latest = (select(func.max(Confirmation.id))
              .where(Confirmation.game_id == Seat.game_id, Confirmation.seat == Seat.seat)
              .correlate(Seat).scalar_subquery())
    has_pin = exists().where(SeatPin.game_id == Seat.game_id, SeatPin.seat == Seat.seat)
    linked = (select(User.id).where(User.player_id == Seat.player_id).correlate(Seat)
              .limit(1).scalar_subquery())
    count = (select(func.count()).select_from(Confirmation)
             .where(Confirmation.game_id == game_id).scalar_subquery()) + call_events(game_id)
    share = (select(GameLink.token).where(GameLink.game_id == game_id, GameLink.kind == LinkKind.SHARE,
                                          GameLink.ended_at.is_(None))
             .order_by(GameLink.id.desc()).limit(1).scalar_subquery())
    scorer = exists().where(GameScorer.game_id == game_id, GameScorer.user_id == user_id)
    place = _place_select(game_id)
    event_id, event_name, round_no, table_no = (place.with_only_columns(column).scalar_subquery()
                                                for column in place.selected_columns)
    called = call_events(game_id)
    rows = (select(Seat.seat, Seat.player_id, has_pin, linked, Confirmation, count, share, scorer,
                   event_id, event_name, round_no, table_no, called)
            .select_from(Seat).outerjoin(Confirmation, Confirmation.id == latest)
            .where(Seat.game_id == game_id).order_by(Seat.seat))
    return rows, select(count, share, scorer, event_id, event_name, round_no, table_no, called)


def sheet_state(session: Session, game: Game, user_id: int | None) -> SheetState:
    """The :class:`SheetState` of ``game`` for user ``user_id``: one row per seat, each with
    its latest confirmation, whether it has a PIN and the account linked to its player, and
    on every row the game's confirmation count, share token and the user's scorer flag."""
    statement, seatless = _sheet_state_statements()
    params = {"game_id": game.id, "user_id": user_id if user_id is not None else -1}
    rows = session.execute(statement, params).all()
    seats = [SeatState(seat=int(r[0]), confirmation=r[4],
                       current=r[4] is not None and r[4].version == game.version,
                       has_pin=bool(r[2]), user_id=r[3]) for r in rows]
    locked = game.status is GameStatus.COMPLETE and len(seats) == 4 and all(s.current for s in seats)
    if not rows:     # a game without seats (none is made so): nothing to confirm
        extra = session.execute(seatless, params).one()
        return SheetState(TableState(seats=[], locked=False), int(extra[0] or 0), extra[1],
                          bool(extra[2]), _place(tuple(extra[3:7])), int(extra[7] or 0))
    first = rows[0]
    return SheetState(TableState(seats=seats, locked=locked), int(first[5] or 0), first[6],
                      bool(first[7]), _place(tuple(first[8:12])), int(first[12] or 0))


def _place_select(game_id: Any) -> Any:
    """(event id, event name, round, table) of the event table that game ``game_id`` is."""
    return (select(Event.id, Event.name, EventRound.number, EventTable.number)
            .join(EventRound, EventRound.event_id == Event.id)
            .join(EventTable, EventTable.round_id == EventRound.id)
            .where(EventTable.game_id == game_id))


def event_place(session: Session, game_id: int) -> EventPlace | None:
    """The event table ``game_id`` is, if any (the PDFs' title)."""
    row = session.execute(_place_select(game_id)).first()
    return None if row is None else _place(tuple(row))


def _place(values: tuple[Any, ...]) -> EventPlace | None:
    event_id, name, round_no, table_no = values
    if event_id is None:
        return None
    return EventPlace(int(event_id), str(name), int(round_no), int(table_no))


def confirmation_log(session: Session, game_id: int) -> list[tuple[Confirmation, str | None]]:
    """Every confirmation of a game, newest first, with the account it came from (the
    evidence of who confirmed which version of the sheet, and when)."""
    rows = session.execute(select(Confirmation, User.username)
                           .outerjoin(User, User.id == Confirmation.user_id)
                           .where(Confirmation.game_id == game_id).order_by(Confirmation.id.desc())).all()
    return [(c, name) for c, name in rows]


def is_locked(session: Session, game: Game) -> bool:
    return game.status is GameStatus.COMPLETE and locked_by(game, _latest(session, game.id))


def check_unlocked(session: Session, game: Game, reason: str | None) -> str | None:
    """None when the game may be changed; the director's cleaned reason when it is locked
    and one was given; else LockedError."""
    if not is_locked(session, game):
        return None
    reason = " ".join((reason or "").split())[:REASON_MAX]
    if not has_visible_text(reason):     # a lone zero-width space is no reason
        raise LockedError(Text("The four players confirmed this sheet: it is locked. Only a director "
                               "can correct it, giving a reason; the table then confirms it again."),
                          game.id)
    return reason


def _confirm(session: Session, game: Game, seat: int, method: ConfirmMethod,
             user: User | None, seen: int) -> Confirmation:
    latest = _latest(session, game.id).get(seat)
    if latest is not None and latest.version == seen:
        return latest   # confirmed already: a second tap changes nothing
    c = Confirmation(game_id=game.id, seat=seat, version=seen, n_rows=len(game.hands),
                     method=method, user_id=user.id if user else None)
    session.add(c)
    session.commit()
    return c


def _check_seat(seat: int) -> None:
    if seat not in range(4):
        raise BadInput("seat", Text("There is no such seat."))


def _seen(game: Game, version: int | None) -> int:
    """The version a confirmation is for: the one the player saw, which must be the sheet's
    (SheetChanged otherwise); None (the API without ``version``) is the current one."""
    if version is None:
        return game.version
    if version != game.version:
        raise SheetChanged(game.version)
    return version


def confirm_by_account(session: Session, game: Game, seat: int, user: User,
                       version: int | None = None) -> Confirmation:
    """One tap from the account linked to the seat's player, for the `version` they saw."""
    _check_seat(seat)
    player_id = game.seats[seat].player_id
    if user.player_id is None or user.player_id != player_id:
        raise ForbiddenError(Text("Only the player of this seat confirms it from their account."))
    return _confirm(session, game, seat, ConfirmMethod.ACCOUNT, user, _seen(game, version))


def confirm_by_director(session: Session, game: Game, seat: int, user: User,
                        version: int | None = None) -> Confirmation:
    """A director vouches for a seat from their account (a table whose player has no PIN
    and no account, e.g. an event created without PINs); the confirmation names the
    director and says it was vouched for."""
    _check_seat(seat)
    if user.role != Role.DIRECTOR:
        raise ForbiddenError(Text("Only the player of this seat confirms it from their account."))
    return _confirm(session, game, seat, ConfirmMethod.DIRECTOR, user, _seen(game, version))


def confirm_by_pin(session: Session, game: Game, seat: int, pin: str | None,
                   scorer: User | None, version: int | None = None) -> Confirmation:
    """The seat's PIN typed on the scorer's phone at the table, for the `version` the table
    saw (checked before the PIN: a stale confirmation counts no try)."""
    _check_seat(seat)
    seen = _seen(game, version)
    stored = session.get(SeatPin, (game.id, seat))
    if stored is None:
        raise BadInput("pin", Text("This seat has no PIN: its player confirms from their account."))
    tries = throttle.pin_try(session, stored)          # Throttled while the seat waits
    if not pin or not check_secret(stored.pin_hash, pin.strip()):
        waits = throttle.pin_wait(tries)
        if waits:
            raise BadInput("pin", Text("Wrong PIN. This seat now waits %(n)s seconds before "
                                       "the next try.", n=int(waits.total_seconds())))
        raise BadInput("pin", Text("Wrong PIN."))
    throttle.pin_right(session, stored)
    return _confirm(session, game, seat, ConfirmMethod.PIN, scorer, seen)
