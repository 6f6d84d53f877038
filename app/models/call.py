"""A call to the director (issue 40): a table asks for the director, with a note; the
director answers it with a note. Both are in the game's change log too (AuditEntry)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, utcnow

#: The longest note of a call and of an answer (characters).
NOTE_MAX = 200
ANSWER_MAX = 300


class DirectorCall(Base):
    __tablename__ = "director_call"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    #: the game while the call is open, None once answered: unique, so a game has one open
    #: call at most (two presses at once make one call)
    open_game_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    #: the seat of the player who called (None: the scorer or a director called)
    seat: Mapped[int | None] = mapped_column(Integer)
    called_by: Mapped[str] = mapped_column(String(60))
    caller_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    note: Mapped[str | None] = mapped_column(String(NOTE_MAX))
    called_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    answered_by: Mapped[str | None] = mapped_column(String(60))
    answerer_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    answer: Mapped[str | None] = mapped_column(String(ANSWER_MAX))

    @property
    def is_open(self) -> bool:
        return self.answered_at is None

    def __repr__(self) -> str:
        return f"DirectorCall({self.id!r}, game {self.game_id!r}, {'open' if self.is_open else 'answered'})"
