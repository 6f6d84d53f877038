"""The game list: games newest first, filtered by player, profile, status and days, a page at
a time (keyset pagination: a cursor names where the page stopped).

Order: games in progress first, then complete ones; inside each group newest first (the
game's date, then id). A page is read from an index in that order starting after the
last game of the previous page (the cursor), never with OFFSET: a page costs the same at
game 50 and at game 100,000, and games added meanwhile (newer, so before the cursor)
never make a game repeat or be skipped.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session

from app.games.queries import GameSummary, event_places, summary_of
from app.models import (
    SeatResult,
    StoredResult,
)
from app.stats.results import day_start

PAGE_SIZE = 50


STATUSES = ("in_progress", "complete")


@dataclass(frozen=True)
class GameFilter:
    player_id: int | None = None
    profile: str | None = None
    status: str | None = None          # "in_progress" | "complete" | None (both)
    date_from: date | None = None      # days, inclusive (UTC)
    date_to: date | None = None


@dataclass(frozen=True)
class Cursor:
    complete: bool
    played_at: datetime
    game_id: int

    def encode(self) -> str:
        stamp = self.played_at.replace(tzinfo=None).isoformat(timespec="microseconds")
        return f"{int(self.complete)}~{stamp}~{self.game_id}"

    @classmethod
    def decode(cls, text: str | None) -> Cursor | None:
        """The cursor of a page address, or None (first page) for anything else."""
        try:
            flag, stamp, gid = (text or "").split("~")
            if flag not in ("0", "1"):
                return None
            return cls(flag == "1", datetime.fromisoformat(stamp).replace(tzinfo=UTC), int(gid))
        except ValueError:
            return None


@dataclass
class GamePage:
    games: list[GameSummary]
    next_cursor: str | None


def _ids_in_group(session: Session, f: GameFilter, complete: bool, after: Cursor | None,
                  limit: int) -> list[tuple[int, datetime]]:
    """(game id, date) of the next games of one group, in list order, from the index."""
    t: Any = SeatResult if f.player_id is not None else StoredResult
    stmt = select(t.game_id, t.played_at).where(t.complete == complete)
    if f.player_id is not None:
        stmt = stmt.where(t.player_id == f.player_id)
    if f.profile is not None:
        stmt = stmt.where(t.profile == f.profile)
    if f.date_from is not None:
        stmt = stmt.where(t.played_at >= day_start(f.date_from))
    if f.date_to is not None:
        stmt = stmt.where(t.played_at < day_start(f.date_to + timedelta(days=1)))
    if after is not None and after.complete == complete:
        stmt = stmt.where(tuple_(t.played_at, t.game_id) < tuple_(after.played_at, after.game_id))
    stmt = stmt.order_by(t.played_at.desc(), t.game_id.desc()).limit(limit)
    return [(int(gid), at) for gid, at in session.execute(stmt)]


def _groups(f: GameFilter, after: Cursor | None) -> list[bool]:
    """The groups a page reads (False: in progress, True: complete), in list order."""
    groups = [c for c in (False, True) if f.status is None or f.status == STATUSES[int(c)]]
    if after is not None:
        groups = [c for c in groups if c >= after.complete]
    return groups


def _found(session: Session, f: GameFilter, after: Cursor | None,
           limit: int) -> list[tuple[bool, int, datetime]]:
    """(complete, game id, date) of up to ``limit + 1`` games after the cursor."""
    found: list[tuple[bool, int, datetime]] = []
    for complete in _groups(f, after):
        rows = _ids_in_group(session, f, complete, after, limit + 1 - len(found))
        found.extend((complete, gid, at) for gid, at in rows)
        if len(found) > limit:
            break
    return found


def _summaries(session: Session, game_ids: list[int]) -> list[GameSummary]:
    by_id = {r.game_id: r for r in session.scalars(
        select(StoredResult).where(StoredResult.game_id.in_(game_ids)))}
    places = event_places(session, game_ids)
    return [replace(summary_of(by_id[gid]), place=places.get(gid)) for gid in game_ids if gid in by_id]


def list_games(session: Session, f: GameFilter | None = None, cursor: str | None = None,
               limit: int | None = None) -> GamePage:
    """One page of the game list (in progress first, newest first) after ``cursor``."""
    f = f or GameFilter()
    limit = limit or PAGE_SIZE
    found = _found(session, f, Cursor.decode(cursor), limit)
    more = len(found) > limit
    found = found[:limit]
    games = _summaries(session, [gid for _c, gid, _a in found])
    next_cursor = Cursor(found[-1][0], found[-1][2], found[-1][1]).encode() if more and found else None
    return GamePage(games, next_cursor)
