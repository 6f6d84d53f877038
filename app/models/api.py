"""The JSON API's own state: personal API tokens and the answers kept for idempotent
retries (``Idempotency-Key``).

A token is shown once when it is made and stored only as its SHA-256 (tokens are 32 random
bytes, so a fast hash is enough: there is nothing to guess). An idempotency record holds the
first answer to a write made with a key, per user, so that a retry -- by any worker or app
server -- gets the same answer and changes nothing.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow
from app.models.account import User


class ApiToken(Base):
    __tablename__ = "api_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: the first characters of the token, so its owner can tell tokens apart ("ks_1a2b…")
    prefix: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    user: Mapped[User] = relationship()

    def __repr__(self) -> str:
        return f"ApiToken({self.id!r}, user {self.user_id!r}, {self.label!r})"


class IdempotencyRecord(Base):
    """The first answer to a write sent with ``Idempotency-Key`` (per user and key)."""

    __tablename__ = "idempotency_record"

    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"),
                                         primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    #: what the key was used for: method, path and the SHA-256 of the body
    request_digest: Mapped[str] = mapped_column(String(64))
    #: None while the write is being carried out (or if the answer could not be kept)
    status: Mapped[int | None] = mapped_column(Integer)
    body: Mapped[Any] = mapped_column(JSON, nullable=True)
    headers: Mapped[Any] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
