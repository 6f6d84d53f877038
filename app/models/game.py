"""A game: its record (RECORD.md) as entered, and the four seats linking it to the roster.

The record is the only truth: scores are derived by replaying it through `app.rules`.
`status` is a derived index (in progress / complete) kept for listing order; `version`
is the optimistic lock (SQLAlchemy's version_id_col).
"""
from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, DateTime, Enum, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow

if TYPE_CHECKING:
    from app.models.audit import AuditEntry
    from app.models.player import Player


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
