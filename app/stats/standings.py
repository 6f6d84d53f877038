"""Players, standings and seasons: SQL aggregates over the stored results, never a replay.

- The roster, a player's page and a season's standings read :class:`PlayerTotal` (sums per
  profile, all time and per season, kept in step with every change and recomputed by one
  aggregate over the seat rows when a season's days change or on rebuild): a few rows per
  player whatever the number of games.

Ranking (one place): most wins, then most points, then fewest games, then name.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import case, func, select, tuple_
from sqlalchemy.orm import Session

from app.collation import by_name, folded_name
from app.models import Player, PlayerTotal, Season
from app.models.game import CODE_POINT_ORDER
from app.models.result import ALL_TIME, TOTAL_COLUMNS
from app.rules import PROFILES


@dataclass
class StandingRow:
    player_id: int
    name: str
    games: int = 0             # complete games (standings) / every game (roster)
    complete_games: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: int = 0
    kings_made: int = 0
    violations: int = 0
    rank: int = 0

    @property
    def average(self) -> float | None:
        """Average final total over complete games."""
        return self.points / self.complete_games if self.complete_games else None


def rank_key(row: StandingRow) -> tuple[Any, ...]:
    return (-row.wins, -row.points, row.complete_games, row.name.lower(), row.player_id)


def ranked(rows: list[StandingRow]) -> list[StandingRow]:
    """Sorted by :func:`rank_key`; equal wins and points share a rank (1, 2, 2, 4)."""
    rows = sorted(rows, key=rank_key)
    for k, row in enumerate(rows):
        same = k and (rows[k - 1].wins, rows[k - 1].points) == (row.wins, row.points)
        row.rank = rows[k - 1].rank if same else k + 1
    return rows


_SUMS = TOTAL_COLUMNS


def _row(player_id: int, name: str, values: Any) -> StandingRow:
    return StandingRow(player_id, name, **{c: int(values.get(c) or 0) for c in _SUMS})


def _sums_of(session: Session, player_ids: list[int] | None) -> dict[int, Any]:
    """Player id -> their all-time sums over every profile (of ``player_ids``, or everyone)."""
    pt = PlayerTotal
    stmt = (select(pt.player_id, *[func.sum(getattr(pt, c)).label(c) for c in _SUMS])
            .where(pt.season_id == ALL_TIME).group_by(pt.player_id))
    if player_ids is not None:
        stmt = stmt.where(pt.player_id.in_(player_ids))
    return {int(r.player_id): r._mapping for r in session.execute(stmt)}


def roster(session: Session, search: str = "") -> list[StandingRow]:
    """Every player (by name) with their all-time sums over every profile, or those whose
    name contains ``search`` (the API's list; the page reads :func:`roster_page`)."""
    stmt = select(Player.id, Player.name)
    if search.strip():
        stmt = stmt.where(_matching(search))
    found = list(session.execute(stmt))
    sums = _sums_of(session, [pid for pid, _n in found] if search.strip() else None)
    return by_name([_row(pid, name, sums.get(pid, {})) for pid, name in found], lambda row: row.name)


# --- the roster page: keyset pagination by name -------------------------------------------------
#
# The order is by_name's (app.collation), read from the database: the stored folded
# name, then the name compared by code point (PostgreSQL's "C" collation; SQLite compares
# text that way), then the id. A page starts after the last player of the previous one (the
# cursor is that player's id), never with OFFSET, so every page costs the same and the pages
# join up exactly as the whole list sorted in Python would.

ROSTER_PAGE_SIZE = 100
NAME_SUGGESTIONS = 20


@dataclass
class RosterPage:
    rows: list[StandingRow]
    next_cursor: str | None     # the id of the page's last player, when more follow


def _by_code_point(session: Session, column: Any) -> Any:
    return column.collate(CODE_POINT_ORDER) if session.get_bind().dialect.name == "postgresql" else column


def _name_order(session: Session) -> tuple[Any, ...]:
    return (Player.folded_name, _by_code_point(session, Player.name), Player.id)


def _matching(search: str) -> Any:
    """Players whose name contains ``search`` ignoring case and accents."""
    return Player.folded_name.contains(folded_name(search.strip()), autoescape=True)


def roster_page(session: Session, search: str = "", cursor: str | None = None,
                limit: int = ROSTER_PAGE_SIZE) -> RosterPage:
    """One page of the roster by name (``search``: only the names containing it), after the
    player of ``cursor`` (None, or an unknown player: the first page)."""
    order = _name_order(session)
    stmt = select(Player.id, Player.name).order_by(*order).limit(limit + 1)
    if search.strip():
        stmt = stmt.where(_matching(search))
    after = session.get(Player, int(cursor)) if cursor and cursor.isdigit() else None
    if after is not None:
        stmt = stmt.where(tuple_(*order) > tuple_(after.folded_name, after.name, after.id))
    found = [(int(pid), str(name)) for pid, name in session.execute(stmt)]
    more = len(found) > limit
    found = found[:limit]
    sums = _sums_of(session, [pid for pid, _n in found])
    rows = [_row(pid, name, sums.get(pid, {})) for pid, name in found]
    return RosterPage(rows, str(found[-1][0]) if more and found else None)


def name_suggestions(session: Session, search: str, limit: int = NAME_SUGGESTIONS) -> list[str]:
    """Up to ``limit`` roster names containing ``search`` (ignoring case and accents), the
    names that start with it first, each group by name."""
    if not search.strip():
        return []
    prefix = Player.folded_name.startswith(folded_name(search.strip()), autoescape=True)
    stmt = (select(Player.name).where(_matching(search))
            .order_by(case((prefix, 0), else_=1), *_name_order(session)).limit(limit))
    return [str(n) for n in session.scalars(stmt)]


@dataclass
class PlayerStats:
    player_id: int
    name: str
    overall: StandingRow
    by_profile: list[tuple[str, StandingRow]] = field(default_factory=list)


def player_stats(session: Session, player_id: int) -> PlayerStats | None:
    """A player's all-time sums, overall and per profile (profiles in RULES.md order)."""
    player = session.get(Player, player_id)
    if player is None:
        return None
    rows = {t.profile: _row(player.id, player.name, {c: getattr(t, c) for c in _SUMS})
            for t in session.scalars(select(PlayerTotal).where(PlayerTotal.season_id == ALL_TIME,
                                                               PlayerTotal.player_id == player_id))}
    overall = StandingRow(player.id, player.name)
    for row in rows.values():
        for c in _SUMS:
            setattr(overall, c, getattr(overall, c) + getattr(row, c))
    split = [(p, rows[p]) for p in PROFILES if p in rows and rows[p].games]
    return PlayerStats(player.id, player.name, overall, split)


# --- seasons ----------------------------------------------------------------------------------

def get_season(session: Session, season_id: int) -> Season | None:
    return session.get(Season, season_id)


def list_seasons(session: Session) -> list[Season]:
    """Newest first."""
    return list(session.scalars(select(Season).order_by(Season.starts_on.desc(), Season.id.desc())))


def season_standings(session: Session, season: Season, profile: str | None = None
                     ) -> dict[str, list[StandingRow]]:
    """Standings per profile over the complete games played in the season's days; with
    ``profile`` None every profile played in it, else that one (empty list if none)."""
    pt = PlayerTotal
    stmt = (select(pt, Player.name).join(Player, Player.id == pt.player_id)
            .where(pt.season_id == season.id, pt.complete_games > 0))
    if profile is not None:
        stmt = stmt.where(pt.profile == profile)
    out: dict[str, list[StandingRow]] = {}
    for total, name in session.execute(stmt):
        values = {c: getattr(total, c) for c in _SUMS}
        values["games"] = values["complete_games"]
        out.setdefault(total.profile, []).append(_row(total.player_id, name, values))
    result = {p: ranked(out[p]) for p in PROFILES if p in out}
    if profile is not None and profile not in result:
        result[profile] = []
    return result


def season_leaderboard(session: Session, season: Season) -> list[StandingRow]:
    """Every player of the season over all its profiles (wins and games; points are per
    profile, so the leaderboard ranks by wins, then win rate)."""
    rows: dict[int, StandingRow] = {}
    for table in season_standings(session, season).values():
        for r in table:
            acc = rows.setdefault(r.player_id, StandingRow(r.player_id, r.name))
            for c in ("games", "complete_games", "wins", "shared_wins", "kings_made", "violations"):
                setattr(acc, c, getattr(acc, c) + getattr(r, c))
    board = sorted(rows.values(), key=lambda r: (-r.wins, -(r.wins / r.games if r.games else 0),
                                                 r.name.lower(), r.player_id))
    for k, row in enumerate(board):
        same = k and (board[k - 1].wins, board[k - 1].games) == (row.wins, row.games)
        row.rank = board[k - 1].rank if same else k + 1
    return board


# --- the printable standings -----------------------------------------------------------------

def _rows_of(rows: list[StandingRow]) -> list[dict[str, Any]]:
    return [{**asdict(r), "average": r.average} for r in rows]


def _games_of(rows: list[StandingRow]) -> int:
    """Complete games in a table: each gives each of its four players one game in it."""
    return sum(r.games for r in rows) // 4


def _leaderboard_doc(session: Session, season: Season, profile: str | None,
                     played: list[list[StandingRow]]) -> list[dict[str, Any]]:
    """The season's leaderboard, for the whole season with more than one profile played."""
    if profile is None and len(played) > 1:
        return _rows_of(season_leaderboard(session, season))
    return []


def _table_doc(profile: str, rows: list[StandingRow]) -> dict[str, Any]:
    return {"profile": profile, "rows": _rows_of(rows), "games": _games_of(rows)}


def standings_doc(session: Session, season: Season, profile: str | None, lang: str) -> dict[str, Any]:
    """A season's standings as a plain dict for templates/pdf/standings.html: one ruled
    table per profile (every row, not the page's first 50), and, for the whole season
    (``profile`` None) with more than one profile played, the season's leaderboard first.
    Days and averages stay values (the templates write them); ``today`` is the day it was printed."""
    tables = season_standings(session, season, profile)
    played = [rows for rows in tables.values() if rows]
    everyone = [r for rows in played for r in rows]
    return {
        "id": season.id, "name": season.name, "lang": lang,
        "starts_on": season.starts_on.isoformat(), "ends_on": season.ends_on.isoformat(),
        "starts": season.starts_on, "ends": season.ends_on, "today": date.today(),
        "profile": profile,
        "games": _games_of(everyone),
        "players": len({r.player_id for r in everyone}),
        "leaderboard": _leaderboard_doc(session, season, profile, played),
        "tables": [_table_doc(p, rows) for p, rows in tables.items()],
        "link": None,
    }
