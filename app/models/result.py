"""Stored results: what the lists and statistics read, derived from each game's record.

The record stays the only truth. These rows are written in the same transaction as the
record (app/stats/results.py) and can always be rebuilt from the records
(``flask --app app games rebuild``). Lists and standings read only these tables, through
indexed columns, and never replay a record.

- :class:`StoredResult`: one row per game (status, hands counted, totals, winners, …).
- :class:`SeatResult`: one row per seat of a game, with the columns a player's statistics
  and the keyset-paginated lists filter and sort on (copied from the game).
- :class:`PlayerTotal`: each player's sums per profile, all time (``season_id`` 0) and in
  each season, kept up to date by adding the difference of every change (the roster, a
  player's page and a season's standings read a few rows per player instead of summing
  every game they ever played).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base


class StoredResult(Base):
    __tablename__ = "game_result"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16))
    complete: Mapped[bool] = mapped_column(Boolean)
    #: The game's date (when it was started or, for an import, the date given to it).
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    n_rows: Mapped[int] = mapped_column(Integer)          # hands in the record
    hands_counted: Mapped[int] = mapped_column(Integer)   # rows that count (not replayed)
    players: Mapped[list[str]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    kings_made: Mapped[int] = mapped_column(Integer)
    violations: Mapped[int] = mapped_column(Integer)
    rulings: Mapped[int] = mapped_column(Integer)
    record_digest: Mapped[str] = mapped_column(String(64), index=True)
    #: Why the record no longer replays (an engine change); None when it does.
    error: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        Index("ix_game_result_list", "complete", "played_at", "game_id"),
        Index("ix_game_result_profile_list", "profile", "complete", "played_at", "game_id"),
    )

    def values(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in GAME_COLUMNS}


GAME_COLUMNS = ("profile", "complete", "played_at", "n_rows", "hands_counted", "players", "totals",
                "winners", "kings_made", "violations", "rulings", "record_digest", "error")


class SeatResult(Base):
    __tablename__ = "seat_result"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    profile: Mapped[str] = mapped_column(String(16))
    complete: Mapped[bool] = mapped_column(Boolean)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    total: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    shared: Mapped[bool] = mapped_column(Boolean)   # won, with another seat on the same total
    kings_made: Mapped[int] = mapped_column(Integer)
    violations: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_seat_result_player_list", "player_id", "complete", "played_at", "game_id"),
        Index("ix_seat_result_season", "played_at", "profile"),
        # the order ratings read finished games in (app.stats.ratings)
        Index("ix_seat_result_rating_order", "profile", "complete", "played_at", "game_id", "seat"),
    )


SEAT_COLUMNS = ("player_id", "profile", "complete", "played_at", "total", "won", "shared",
                "kings_made", "violations")


ALL_TIME = 0


class PlayerTotal(Base):
    """A player's sums over the stored games of one profile: every game (``season_id`` 0,
    :data:`ALL_TIME`) or those played in one season's days."""

    __tablename__ = "player_total"

    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    complete_games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    shared_wins: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)   # sum of final totals, complete games
    kings_made: Mapped[int] = mapped_column(Integer, default=0)
    violations: Mapped[int] = mapped_column(Integer, default=0)


TOTAL_COLUMNS = ("games", "complete_games", "wins", "shared_wins", "points", "kings_made", "violations")
