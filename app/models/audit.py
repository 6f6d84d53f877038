"""The audit log: every change to a game, with before/after, when and who."""
from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, DateTime, Enum, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow

if TYPE_CHECKING:
    from app.models.game import Game


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
