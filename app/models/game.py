"""A game, its players and its audit log.

- A game: its record (RECORD.md) as entered, and the four seats linking it to the roster.
  The record is the only truth: scores are derived by replaying it through `app.rules`.
  `status` is a derived index (in progress / complete) kept for listing order; `version`
  is the optimistic lock (SQLAlchemy's version_id_col).
- A player of the roster: a name that sits at games.
- The audit log: every change to a game, with before/after, when and who.

One module: a game's seats point at players and its audit entries at the game, and the
relationships go both ways.
"""
from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Enum, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow

#: PostgreSQL's collation comparing text by code point (a name, not a message).
CODE_POINT_ORDER = "C"


class Player(Base):
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    # app.collation.folded_name(name): the roster's order and search in SQL. Compared
    # by code point on both databases (SQLite's BINARY, PostgreSQL's "C" collation), as
    # Python compares the sort key.
    folded_name: Mapped[str] = mapped_column(
        Text().with_variant(Text(collation=CODE_POINT_ORDER), "postgresql"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"Player({self.id!r}, {self.name!r})"


class GameStatus(enum.Enum):
    IN_PROGRESS = "in_progress"
    COMPLETE = "complete"


class Game(Base):
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    profile: Mapped[str] = mapped_column(String(16))
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[GameStatus] = mapped_column(
        Enum(GameStatus, native_enum=False, length=16, values_callable=lambda e: [m.value for m in e],
             validate_strings=True),
        default=GameStatus.IN_PROGRESS)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.seat",
                                             cascade="all, delete-orphan")
    audit: Mapped[list[AuditEntry]] = relationship(back_populates="game", order_by="AuditEntry.id",
                                                   cascade="all, delete-orphan")

    __mapper_args__ = {"version_id_col": version}

    @property
    def hands(self) -> list[dict[str, Any]]:
        return list(self.record.get("hands", []))

    def __repr__(self) -> str:
        return f"Game({self.id!r}, {self.profile!r}, v{self.version})"


class Seat(Base):
    """Who sat where: seat 0-3 in play order (RULES.md §0)."""

    __tablename__ = "seat"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")


class AuditAction(enum.Enum):
    CREATE = "create"
    IMPORT = "import"
    ADD_HAND = "add_hand"
    EDIT_HAND = "edit_hand"
    DELETE_HAND = "delete_hand"
    FIRST_SEAT = "first_seat"   # the first dealer, or rifki's 2♦ holder, set before hand 1
    CALL = "call_director"      # a table called the director (no version: the record is unchanged)
    ANSWER = "answer_call"      # the director answered the call
    RENAME = "rename_player"    # a director renamed a seat's player (issue 38: no score changes)
    MERGE = "merge_players"     # a director merged the seat's player into another


class AuditEntry(Base):
    __tablename__ = "audit_entry"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    who: Mapped[str] = mapped_column(String(60))
    action: Mapped[AuditAction] = mapped_column(
        Enum(AuditAction, native_enum=False, length=16, values_callable=lambda e: [m.value for m in e],
             validate_strings=True))
    hand_index: Mapped[int | None]
    # the game's version this change produced (None for entries older than the column):
    # "what changed since version N" is the entries with a version above N
    version: Mapped[int | None]
    # a director's reason for correcting a sheet the table had confirmed (it unlocks it)
    reason: Mapped[str | None] = mapped_column(String(300))
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="audit")
