"""An event: a club night or a tournament of several rounds, each round seating the players
present at tables of four, each table an ordinary game (issue 25).

The games stay the truth of what was played: an event only knows who was registered, how
each round was drawn (its seed, so the draw can be made again) and which game each table
is. Standings are summed from the games' stored results.
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Date, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, utcnow
from app.models.game import Game, Player


class Event(Base):
    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    day: Mapped[date] = mapped_column(Date)
    profile: Mapped[str] = mapped_column(String(16))
    #: every option of the profile, as the event's games are created with
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the rounds planned
    rounds: Mapped[int] = mapped_column(Integer)
    #: how rounds after the first are drawn: random, balanced or swiss (app.rules.club.seating)
    seating: Mapped[str] = mapped_column(String(16))
    #: points (the games' totals) or ranking (``ranking_points`` by place at each table)
    scoring: Mapped[str] = mapped_column(String(16))
    ranking_points: Mapped[list[float]] = mapped_column(JSON)
    #: what a sit-out scores: nothing, or the average of the round
    sit_out: Mapped[str] = mapped_column(String(16))
    season_id: Mapped[int | None] = mapped_column(ForeignKey("season.id", ondelete="SET NULL"))
    #: the results screen's link for the club's TV (no login); None until made
    share_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    entrants: Mapped[list[EventPlayer]] = relationship(
        back_populates="event", order_by="EventPlayer.player_id", cascade="all, delete-orphan")
    drawn: Mapped[list[EventRound]] = relationship(back_populates="event", order_by="EventRound.number",
                                                   cascade="all, delete-orphan")

    def __repr__(self) -> str:
        return f"Event({self.id!r}, {self.name!r})"


class EventPlayer(Base):
    """A registered player; ``joins`` is the first round they are drawn in (a late arrival
    joins the round after the one being played), ``leaves`` the first they are not (a
    withdrawal: from the next round on)."""

    __tablename__ = "event_player"

    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, index=True)
    joins: Mapped[int] = mapped_column(Integer, default=1)
    #: the first round they are no longer drawn in (withdrawn; None: they stay to the end)
    leaves: Mapped[int | None] = mapped_column(Integer)
    #: the player's confirmation PIN for the night (hashed): their seat's PIN at every table
    pin_hash: Mapped[str | None] = mapped_column(String(255))

    event: Mapped[Event] = relationship(back_populates="entrants")
    player: Mapped[Player] = relationship()


class EventRound(Base):
    """A drawn round: its seed and method (the draw made again gives the same tables), who
    sat out, and the reason when it was drawn before every table of the last was locked."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    method: Mapped[str] = mapped_column(String(16))
    sitting_out: Mapped[list[int]] = mapped_column(JSON)
    forced_reason: Mapped[str | None] = mapped_column(String(300))
    drawn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    event: Mapped[Event] = relationship(back_populates="drawn")
    tables: Mapped[list[EventTable]] = relationship(back_populates="round", order_by="EventTable.number",
                                                    cascade="all, delete-orphan")


class EventTable(Base):
    """Table ``number`` of a round: the game played at it (seats, first dealer and all)."""

    __tablename__ = "event_table"

    round_id: Mapped[int] = mapped_column(ForeignKey("event_round.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)

    round: Mapped[EventRound] = relationship(back_populates="tables")
    game: Mapped[Game] = relationship()


class EventLogEntry(Base):
    """The event's change log: rounds drawn (forced ones with their reason), swaps, late
    arrivals (the games keep their own)."""

    __tablename__ = "event_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    who: Mapped[str] = mapped_column(String(60))
    action: Mapped[str] = mapped_column(String(16))
    round_number: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(String(300))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
