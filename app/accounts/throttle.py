"""Guesses that cannot get through: login attempts and seat PINs counted in the shared
database, so the limits hold across gunicorn workers and app servers (a per-process
counter let 50 logins a minute through with 4 workers).

- **Logins**: an attempt is written *before* the password is checked and deleted when it
  was right, so simultaneous guesses count each other. More than ``LOGIN_PER_ADDRESS``
  attempts from one address in a minute are refused (429) without checking the password.
  A user name is never locked (anyone could keep its owner out): after ``ACCOUNT_FREE``
  failures in 15 minutes from any addresses, each next attempt waits a growing delay after
  the name's previous one (1, 2, 4 … seconds, at most ``ACCOUNT_DELAY_MAX``), so the owner's
  right password gets through within a minute while guesses slow to one a minute. A refused
  attempt does not count (it would keep the delay going for ever). Attempts are kept a day,
  so that directors see the names with repeated failures (:func:`failed_logins`). The
  address is the client's as the configured proxies report it (``PROXY_COUNT``).
- **Seat PINs**, per game seat (not per address: a scorer's own phone is the attacker
  here): after ``PIN_TRIES`` wrong PINs the seat waits ``PIN_WAIT``, doubling with each
  further wrong PIN (at most a day). The seat's row is locked while a try is counted, so
  concurrent tries are counted one after another and at most ``PIN_TRIES`` are checked
  before the wait. The right PIN clears the count; a director can clear it too.
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import LoginAttempt, SeatPin

LOGIN_PER_ADDRESS = 10
ADDRESS_WINDOW = timedelta(minutes=1)
ACCOUNT_FREE = 20
ACCOUNT_WINDOW = timedelta(minutes=15)
ACCOUNT_DELAY_MAX = 60
#: How long attempts are kept (what a director is told of).
KEEP_ATTEMPTS = timedelta(days=1)
PIN_TRIES = 5
PIN_WAIT = timedelta(seconds=30)
PIN_WAIT_MAX = timedelta(days=1)


class Throttled(Exception):
    """Too many tries: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: int, until: datetime | None = None) -> None:
        super().__init__(retry_after)
        self.retry_after = max(1, retry_after)
        self.until = until


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=utcnow().tzinfo)


# --- logins ------------------------------------------------------------------------------

def login_attempt(session: Session, username: str, address: str) -> int:
    """Counts an attempt before its password is checked; Throttled when over a limit.
    Returns the attempt's id, to clear with :func:`login_succeeded`."""
    now = utcnow()
    name = (username or "").strip().casefold()[:40]
    session.execute(delete(LoginAttempt).where(LoginAttempt.at < now - KEEP_ATTEMPTS))
    attempt = LoginAttempt(username=name, address=address[:64], at=now)
    session.add(attempt)
    session.commit()
    by_address = session.scalar(select(func.count()).select_from(LoginAttempt).where(
        LoginAttempt.address == attempt.address, LoginAttempt.at > now - ADDRESS_WINDOW)) or 0
    if by_address > LOGIN_PER_ADDRESS:
        raise Throttled(int(ADDRESS_WINDOW.total_seconds()))
    earlier, last = session.execute(select(func.count(), func.max(LoginAttempt.at)).where(
        LoginAttempt.username == name, LoginAttempt.at > now - ACCOUNT_WINDOW,
        LoginAttempt.id != attempt.id)).one()
    wait = account_delay(int(earlier or 0))
    if wait and last is not None:
        left = wait - (now - _aware(last)).total_seconds()
        if left > 0:
            session.execute(delete(LoginAttempt).where(LoginAttempt.id == attempt.id))
            session.commit()
            raise Throttled(math.ceil(left))
    return attempt.id


def account_delay(failures: int) -> int:
    """Seconds a user name waits after its previous attempt, with ``failures`` in the window."""
    if failures < ACCOUNT_FREE:
        return 0
    return int(min(ACCOUNT_DELAY_MAX, 2 ** min(failures - ACCOUNT_FREE, 10)))


def failed_logins(session: Session, at_least: int = ACCOUNT_FREE) -> list[tuple[str, int, int]]:
    """User names with ``at_least`` failed logins in the last day: (name, failures,
    addresses), most failures first (what the accounts page tells a director)."""
    since = utcnow() - KEEP_ATTEMPTS
    rows = session.execute(
        select(LoginAttempt.username, func.count(), func.count(func.distinct(LoginAttempt.address)))
        .where(LoginAttempt.at > since).group_by(LoginAttempt.username)
        .having(func.count() >= at_least).order_by(func.count().desc(), LoginAttempt.username))
    return [(str(n), int(c), int(a)) for n, c, a in rows]


def login_succeeded(session: Session, attempt_id: int) -> None:
    """A right password: its attempt does not count."""
    session.execute(delete(LoginAttempt).where(LoginAttempt.id == attempt_id))
    session.commit()


# --- seat PINs -------------------------------------------------------------------------------

def pin_wait(failures: int) -> timedelta:
    """How long a seat waits after ``failures`` wrong PINs (none before PIN_TRIES)."""
    if failures < PIN_TRIES:
        return timedelta(0)
    wait: timedelta = PIN_WAIT * 2 ** min(failures - PIN_TRIES, 20)
    return min(wait, PIN_WAIT_MAX)


def pin_try(session: Session, pin: SeatPin) -> int:
    """Counts a PIN try of this seat before it is checked (the row locked meanwhile) and
    returns the seat's tries since its last right PIN; Throttled while the seat waits."""
    key = (SeatPin.game_id == pin.game_id, SeatPin.seat == pin.seat)
    # the no-op UPDATE takes the row's write lock (PostgreSQL) / the database's (SQLite)
    session.execute(update(SeatPin).where(*key).values(failures=SeatPin.failures))
    failures, wait_until = session.execute(select(SeatPin.failures, SeatPin.wait_until)
                                           .where(*key)).one()
    now = utcnow()
    if wait_until is not None and _aware(wait_until) > now:
        session.rollback()
        until = _aware(wait_until)
        raise Throttled(math.ceil((until - now).total_seconds()), until)
    failures += 1
    wait = pin_wait(failures)
    session.execute(update(SeatPin).where(*key).values(
        failures=failures, wait_until=now + wait if wait else None))
    session.commit()
    return int(failures)


def pin_right(session: Session, pin: SeatPin) -> None:
    clear_pin_wait(session, pin.game_id, pin.seat)


def clear_pin_wait(session: Session, game_id: int, seat: int) -> None:
    session.execute(update(SeatPin).where(SeatPin.game_id == game_id, SeatPin.seat == seat)
                    .values(failures=0, wait_until=None))
    session.commit()


def seat_waits(session: Session, game_id: int) -> dict[int, tuple[int, datetime | None]]:
    """Each seat's wrong PINs and, while it waits, until when."""
    now = utcnow()
    out = {}
    for seat, failures, until in session.execute(
            select(SeatPin.seat, SeatPin.failures, SeatPin.wait_until)
            .where(SeatPin.game_id == game_id)):
        waiting = _aware(until) if until is not None and _aware(until) > now else None
        out[int(seat)] = (int(failures or 0), waiting)
    return out
