"""A bulk PDF export job: what was asked, how far it got, where the file is.

Jobs live in the database, so any worker answers for any job and a restart forgets
nothing; the finished PDF is a file under ``instance/exports/``. ``owner`` names who asked
(``user:<id>`` for a signed-in user, else a random id kept in the browser's session).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, utcnow


class ExportState:
    QUEUED = "queued"        # waiting for a worker
    RUNNING = "running"      # a worker is rendering it (``progress`` of ``total`` games)
    DONE = "done"            # the file is ready
    ERROR = "error"          # failed or interrupted; ``error`` says why
    ACTIVE = (QUEUED, RUNNING)


class ExportJob(Base):
    __tablename__ = "export_job"
    __table_args__ = (Index("ix_export_job_state_created", "state", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    state: Mapped[str] = mapped_column(String(16), default=ExportState.QUEUED)
    progress: Mapped[int] = mapped_column(Integer, default=0)      # games rendered
    total: Mapped[int] = mapped_column(Integer, default=0)         # games found
    pages: Mapped[int] = mapped_column(Integer, default=0)
    owner: Mapped[str | None] = mapped_column(String(64), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    file_path: Mapped[str | None] = mapped_column(String(300))     # in the exports folder
    error: Mapped[str | None] = mapped_column(Text)
    worker: Mapped[str | None] = mapped_column(String(80))         # host:pid running it
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    def __repr__(self) -> str:
        return f"ExportJob({self.id!r}, {self.state}, {self.progress}/{self.total})"
