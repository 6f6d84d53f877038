"""A player of the roster: a name that sits at games."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow

if TYPE_CHECKING:
    from app.models.game import Seat


#: PostgreSQL's collation comparing text by code point (a name, not a message).
CODE_POINT_ORDER = "C"


class Player(Base):
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    # app.services.collation.folded_name(name): the roster's order and search in SQL. Compared
    # by code point on both databases (SQLite's BINARY, PostgreSQL's "C" collation), as
    # Python compares the sort key.
    folded_name: Mapped[str] = mapped_column(
        Text().with_variant(Text(collation=CODE_POINT_ORDER), "postgresql"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"Player({self.id!r}, {self.name!r})"
