"""Guesses that cannot get through: login attempts and seat PINs counted in the shared
database, so the limits hold across gunicorn workers and app servers (a per-process
counter let 50 logins a minute through with 4 workers).

- **Logins**: an attempt is written *before* the password is checked and deleted when it
  was right, so simultaneous guesses count each other. More than ``LOGIN_PER_ADDRESS``
  attempts from one address in a minute, or ``LOGIN_PER_ACCOUNT`` for one user name in 15
  minutes, are refused (429) without checking the password. The address is the client's
  as the configured proxies report it (``PROXY_COUNT``, docs/deploy.md).
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
LOGIN_PER_ACCOUNT = 20
ACCOUNT_WINDOW = timedelta(minutes=15)
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
    session.execute(delete(LoginAttempt).where(LoginAttempt.at < now - ACCOUNT_WINDOW))
    attempt = LoginAttempt(username=name, address=address[:64], at=now)
    session.add(attempt)
    session.commit()
    by_address = session.scalar(select(func.count()).select_from(LoginAttempt).where(
        LoginAttempt.address == attempt.address, LoginAttempt.at > now - ADDRESS_WINDOW)) or 0
    by_account = session.scalar(select(func.count()).select_from(LoginAttempt).where(
        LoginAttempt.username == name, LoginAttempt.at > now - ACCOUNT_WINDOW)) or 0
    if by_address > LOGIN_PER_ADDRESS:
        raise Throttled(int(ADDRESS_WINDOW.total_seconds()))
    if by_account > LOGIN_PER_ACCOUNT:
        raise Throttled(int(ACCOUNT_WINDOW.total_seconds()))
    return attempt.id


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
