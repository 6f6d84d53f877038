"""Ratings and statistics derived from the stored results (issue 26).

Like the stored results (:mod:`app.models.result`) these rows are written in the same
transaction as a game's record and can always be rebuilt from the records
(``flask --app app games rebuild``).

- :class:`RatingStep`: one row per player per finished game, in the order the games were
  played within a profile: the player's openskill rating (Plackett-Luce μ and σ) after that
  game, with the running counts the player's page reads (games, points, wins, streaks). A
  correction of an old game computes again its steps and those of the later games it
  reaches (a game with one of its players, then with one of theirs...).
- :class:`Rating`: each player's latest step per profile (the leaderboard's rows).
- :class:`SeatStat`: one row per seat of a game, the counters of what the seat did in it
  (hands and points per contract, cards taken, Kings made, the auction), read from the
  replay (:func:`app.stats.stats.seat_counters`).
- :class:`PlayerStat`: each player's sums of those counters per profile over finished
  games, kept by adding differences (as :class:`~app.models.result.PlayerTotal`).
- :class:`HeadToHead`: for each ordered pair of players and profile, their finished games
  together, how often the first finished ahead or behind, and the net points.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base


class RatingStep(Base):
    __tablename__ = "rating_step"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: the player's finished games of the profile so far (1 for their first)
    games: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seat: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)       # the game's final total
    place: Mapped[int] = mapped_column(Integer)       # 1 + seats with a higher total
    won: Mapped[bool] = mapped_column(Boolean)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    points: Mapped[int] = mapped_column(Integer)      # sum of final totals so far
    wins: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)      # wins in a row ending with this game
    best_streak: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_rating_step_order", "profile", "played_at", "game_id", "seat"),
        Index("ix_rating_step_total", "player_id", "profile", "total"),
    )


STEP_COLUMNS = ("player_id", "profile", "games", "game_id", "played_at", "seat", "total", "place", "won",
                "mu", "sigma", "points", "wins", "streak", "best_streak")


class Rating(Base):
    __tablename__ = "rating"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)     # mu - 3 sigma (openskill's ordinal())
    games: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_rating_board", "profile", "games", "ordinal"),)
class SeatStat(Base):
    __tablename__ = "seat_stat"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    counters: Mapped[dict[str, int]] = mapped_column(JSON)


class PlayerStat(Base):
    __tablename__ = "player_stat"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    value: Mapped[int] = mapped_column(Integer, default=0)


class HeadToHead(Base):
    __tablename__ = "head_to_head"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    ahead: Mapped[int] = mapped_column(Integer, default=0)    # finished with a higher total
    behind: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)   # sum of (own total - opponent's)


H2H_COLUMNS = ("games", "ahead", "behind", "points")


class RatingBacklog(Base):
    """A profile whose ratings are behind its games (issue 41): a correction reached more
    later games than a request rates (:mod:`app.stats.rating_backlog`), so the profile is
    rated again from (``played_at``, ``game_id``) on by a job, a bounded chunk per
    transaction, which moves the position on and deletes the row when it reaches the end.
    ``since``: when the ratings fell behind (the pages say "ratings updating" meanwhile)."""

    __tablename__ = "rating_backlog"

    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    game_id: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
