"""Accounts: users with one role, the scorers of each game, the table's confirmations of a
sheet, and a game's links (the read-only share link, the one-time scoring handover).

Nothing here imports Flask: `User` carries the four attributes Flask-Login asks of a user
object itself (`is_authenticated`, `is_active`, `is_anonymous`, `get_id`). Its `get_id` is
Flask-Login's *alternative id*, ``"<id>:<session generation>"``: raising the generation
(logout, a new password, a new role) ends every session cookie made before.
"""
from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Boolean, DateTime, Enum, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow
from app.models.game import Player


class Role(enum.Enum):
    DIRECTOR = "director"   # runs the club: every game, corrections of confirmed sheets, users
    SCORER = "scorer"       # creates games and keeps the ones they score
    PLAYER = "player"       # reads, confirms their own seat


def _enum(cls: type[enum.Enum]) -> Enum:
    return Enum(cls, native_enum=False, length=16, values_callable=lambda e: [m.value for m in e],
                validate_strings=True)


class User(Base):
    __tablename__ = "user_account"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(_enum(Role))
    # the roster player this user is (confirms that player's seat with one tap)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id", ondelete="SET NULL"),
                                                  unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: True for the director created by the first visit (/setup), None for everyone else: the
    #: unique constraint lets only one such row exist, so four first visits at once make one
    first_director: Mapped[bool | None] = mapped_column(Boolean, unique=True)
    #: part of every session cookie's user id: a cookie of an older generation is logged out
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    player: Mapped[Player | None] = relationship()

    # --- what Flask-Login asks of a user object ---
    is_authenticated = True
    is_active = True
    is_anonymous = False

    def get_id(self) -> str:
        return f"{self.id}:{self.session_generation}"

    @property
    def is_director(self) -> bool:
        return self.role is Role.DIRECTOR

    @property
    def may_start_games(self) -> bool:
        """Scorers and directors start games (a player's account reads and confirms)."""
        return self.role in (Role.DIRECTOR, Role.SCORER)

    def __repr__(self) -> str:
        return f"User({self.id!r}, {self.username!r}, {self.role.value})"


class GameScorer(Base):
    """A user who may change a game: its creator, and whoever it was handed to."""

    __tablename__ = "game_scorer"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"),
                                         primary_key=True, index=True)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ConfirmMethod(enum.Enum):
    ACCOUNT = "account"   # the player's own account, one tap
    PIN = "pin"           # the seat's PIN typed on the scorer's phone
    DIRECTOR = "director"  # a director vouches for the seat from their account (issue 38)


class Confirmation(Base):
    """One seat's confirmation of the sheet as it stood at game version `version`."""

    __tablename__ = "confirmation"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    n_rows: Mapped[int] = mapped_column(Integer)   # hand rows on the sheet it confirmed
    method: Mapped[ConfirmMethod] = mapped_column(_enum(ConfirmMethod))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatPin(Base):
    """A seat's confirmation PIN (4 digits, chosen at game start), hashed."""

    __tablename__ = "seat_pin"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    pin_hash: Mapped[str] = mapped_column(String(255))
    #: wrong PINs since the last right one, and until when the seat waits (app/accounts/throttle.py)
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    wait_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LoginAttempt(Base):
    """A login attempt not (yet) known to be right: counted per address and per account in
    the shared database, so every worker and app server sees the same count."""

    __tablename__ = "login_attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class LinkKind(enum.Enum):
    SHARE = "share"         # read-only view of the live sheet, hand pages and PDFs
    HANDOVER = "handover"   # one-time: adds the logged-in user who opens it to the scorers


class GameLink(Base):
    __tablename__ = "game_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    kind: Mapped[LinkKind] = mapped_column(_enum(LinkKind))
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # revoked (share) or spent (handover): the token no longer opens anything
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
