"""Stored results: computing them from a replayed record and projecting them.

:func:`result_values` is the ONE place that says what a game's stored result is (what the
lists and statistics count); :func:`project` is the stored results' projector, and
:func:`add_changes` the player totals' part of the sums' projector -- both run by
:mod:`app.stats.projections`, where every change of a game ends.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, cast

from sqlalchemy import Table, case, func, select
from sqlalchemy.orm import Session

from app.collation import folded_name
from app.db import utcnow
from app.models import Player, PlayerTotal, Season, SeatResult, StoredResult
from app.models.result import ALL_TIME, SEAT_COLUMNS, TOTAL_COLUMNS
from app.rules import RecordError, digest, load
from app.stats import stats
from app.stats.sums import add_to_sums, insert_of, replace_rows

#: Core tables: multi-row inserts without the ORM's per-row bookkeeping.
GAME_RESULT = cast(Table, StoredResult.__table__)
SEAT_RESULT = cast(Table, SeatResult.__table__)

TotalsKey = tuple[int, int, str]     # (season_id, player_id, profile)
Deltas = dict[TotalsKey, dict[str, int]]


@dataclass(frozen=True)
class ResultValues:
    """A game's stored result: ``game`` holds the game_result columns (but ``played_at``),
    ``seats`` the four seats' own columns (total, won, shared, kings_made, violations),
    ``counters`` what each seat did (:func:`app.stats.stats.seat_counters`)."""

    game: dict[str, Any]
    seats: list[dict[str, Any]]
    counters: list[dict[str, int]] = field(default_factory=lambda: [{}, {}, {}, {}])


def _replayed(record: dict[str, Any], result: Any | None) -> tuple[Any | None, str | None]:
    """The record's replay (``result`` when given) and, when it does not replay, why."""
    if result is not None:
        return result, None
    try:
        return load(record), None
    except RecordError as e:
        return None, str(e)


def _base_values(record: dict[str, Any], rec_digest: str) -> dict[str, Any]:
    """The game_result columns read from the record itself."""
    hands = list(record.get("hands", []))
    return {"profile": record.get("profile"), "n_rows": len(hands),
            "players": list(record.get("players", [])), "record_digest": rec_digest,
            "rulings": sum(1 for h in hands if isinstance(h, dict) and "ruling" in h)}


def _broken_values(base: dict[str, Any], error: str | None) -> ResultValues:
    """The stored result of a record that does not replay: nothing counted."""
    base.update(complete=False, hands_counted=0, totals=[0, 0, 0, 0], winners=[], kings_made=0,
                violations=0, error=error)
    seats = [{"total": 0, "won": False, "shared": False, "kings_made": 0, "violations": 0}
             for _ in range(4)]
    return ResultValues(base, seats)


def _violations_per_seat(result: Any) -> list[int]:
    violations = [0, 0, 0, 0]
    for h in result.hands:
        for v in h.violations:
            violations[v.seat] += 1
    return violations


def _seat_values(totals: list[int], winners: list[int], kings: list[int],
                 violations: list[int]) -> list[dict[str, Any]]:
    return [{"total": totals[s], "won": s in winners, "shared": s in winners and len(winners) > 1,
             "kings_made": kings[s], "violations": violations[s]} for s in range(4)]


def result_values(record: dict[str, Any], result: Any | None = None,
                  record_digest: str | None = None) -> ResultValues:
    """The stored result of a canonical record. ``result`` is its replay (replayed here
    when None); a record that does not replay gives an empty result with its ``error``.

    Shared wins follow RULES.md ("leaders tied on the top total share the win"): each
    winner is credited with a win, and the win is marked shared when there are several.
    """
    rec_digest = record_digest or digest(record)
    result, error = _replayed(record, result)
    base = _base_values(record, rec_digest)
    if result is None:
        return _broken_values(base, error)
    winners = [int(s) for s in result.winners] if result.complete else []
    kings = list(result.kings)       # who made a King: the engine says
    violations = _violations_per_seat(result)
    totals = [int(t) for t in result.totals]
    base.update(complete=bool(result.complete), hands_counted=sum(1 for h in result.hands if h.counted),
                totals=totals, winners=winners, kings_made=sum(kings), violations=sum(violations),
                error=None)
    return ResultValues(base, _seat_values(totals, winners, kings, violations), stats.seat_counters(result))


def game_row(game_id: int, played_at: datetime, values: ResultValues) -> dict[str, Any]:
    return {"game_id": game_id, "played_at": played_at, **values.game}


def seat_rows(game_id: int, played_at: datetime, player_ids: Sequence[int],
              values: ResultValues) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "seat": s, "player_id": player_ids[s], "profile": values.game["profile"],
             "complete": values.game["complete"], "played_at": played_at, **values.seats[s]}
            for s in range(4)]


# --- player totals: sums kept by adding differences ------------------------------------------

ONE_DAY = timedelta(days=1)


def day_start(day: date) -> datetime:
    """The first instant of a day (UTC): games are dated and seasons bounded in UTC days."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def naive_utc(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


@dataclass(frozen=True)
class Scopes:
    """Which player totals a game adds to: all time, and every season whose days hold it."""

    seasons: tuple[tuple[int, datetime, datetime], ...] = ()
    all_time: bool = True

    def of(self, played_at: datetime) -> list[int]:
        at = naive_utc(played_at)
        seasons = [sid for sid, lo, hi in self.seasons if lo <= at < hi]
        return [ALL_TIME, *seasons] if self.all_time else seasons


def load_scopes(session: Session) -> Scopes:
    return Scopes(tuple((sid, naive_utc(day_start(a)), naive_utc(day_start(b) + ONE_DAY))
                        for sid, a, b in session.execute(select(Season.id, Season.starts_on,
                                                                Season.ends_on))))


def seat_contribution(row: Any) -> dict[str, int]:
    """What one seat row adds to its player's total for its profile."""
    complete = bool(row["complete"])
    return {"games": 1, "complete_games": int(complete), "wins": int(bool(row["won"])),
            "shared_wins": int(bool(row["shared"])), "points": int(row["total"]) if complete else 0,
            "kings_made": int(row["kings_made"]), "violations": int(row["violations"])}


def moves_totals(changes: Iterable[Change]) -> bool:
    """Whether these changes move any player total: some seat row's player, profile, day
    or contribution differs between old and new (a hand saved into an unfinished game
    usually moves none: such a game counts as played, its points not yet)."""
    def kept(rows: Iterable[Any]) -> list[tuple[Any, ...]]:
        return sorted((int(r["player_id"]), str(r["profile"]), naive_utc(r["played_at"]),
                       *sorted(seat_contribution(r).items())) for r in rows)
    return any(kept(c.old) != kept(c.new) for c in changes)


def add_rows(deltas: Deltas, rows: Iterable[Any], sign: int, scopes: Scopes) -> None:
    for row in rows:
        contribution = seat_contribution(row)
        for scope in scopes.of(row["played_at"]):
            key = (scope, int(row["player_id"]), str(row["profile"]))
            acc = deltas.setdefault(key, dict.fromkeys(TOTAL_COLUMNS, 0))
            for col, v in contribution.items():
                acc[col] += sign * v


def apply_deltas(session: Session, deltas: Deltas) -> None:
    """Adds the differences to player_total in one upsert (INSERT … ON CONFLICT DO UPDATE
    SET col = col + excluded.col, atomic on both databases)."""
    rows = [{"season_id": k[0], "player_id": k[1], "profile": k[2], **d} for k, d in sorted(deltas.items())
            if any(d.values())]
    add_to_sums(session, cast(Table, PlayerTotal.__table__), ["season_id", "player_id", "profile"],
                TOTAL_COLUMNS, rows)


# --- the stored results' projector -----------------------------------------------------------

@dataclass(frozen=True)
class Facts:
    """What a game's stored result is computed from: its id, date, players and the values
    read from its record (:func:`result_values`)."""

    game_id: int
    played_at: datetime
    player_ids: Sequence[int]
    values: ResultValues


@dataclass(frozen=True)
class Change:
    """A game whose stored rows changed: its seat rows and seat counters before (none: a
    new game, or the rebuild's empty sums) and after."""

    game_id: int
    old: Sequence[dict[str, Any]]
    new: Sequence[dict[str, Any]]
    old_counters: Mapping[int, Mapping[str, int]]
    new_counters: Mapping[int, Mapping[str, int]]


def _stored(session: Session, ids: list[int]) -> tuple[dict[int, list[dict[str, Any]]],
                                                         dict[int, list[dict[str, int]]]]:
    """The games' stored seat rows and, beside each, its seat counters: one statement (the
    two tables are written together, row for row), Core rows, no ORM objects."""
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    counters: dict[int, list[dict[str, int]]] = defaultdict(list)
    sr, st = SEAT_RESULT.c, stats.SEAT_STAT.c
    for row in session.execute(
            select(sr.game_id, sr.seat, *[sr[c] for c in SEAT_COLUMNS], st.counters)
            .outerjoin(stats.SEAT_STAT, (st.game_id == sr.game_id) & (st.seat == sr.seat))
            .where(stats.of_games(sr.game_id, ids)).order_by(sr.game_id, sr.seat)).mappings():
        seats[row["game_id"]].append({"seat": row["seat"], **{c: row[c] for c in SEAT_COLUMNS}})
        if row["counters"] is not None:
            counters[row["game_id"]].append(dict(row["counters"]))
    return seats, counters


def _same_instant(a: Any, b: Any) -> bool:
    if isinstance(a, datetime) and isinstance(b, datetime):
        return a.replace(tzinfo=None) == b.replace(tzinfo=None)
    return bool(a == b)


def _same_rows(stored: Sequence[Mapping[str, Any]], wanted: Sequence[Mapping[str, Any]],
               columns: Iterable[str]) -> bool:
    return len(stored) == len(wanted) and all(
        _same_instant(old[c], new[c]) for old, new in zip(stored, wanted, strict=True) for c in columns)


def _changes(session: Session, games: Sequence[Facts]) -> list[Change]:
    """The games whose stored rows differ from what their facts say, as changes (in the
    order of ``games``). The seat rows and counters are read first; the game rows only for
    the games whose seats and counters agree (a save changes its seats' totals: one read
    fewer)."""
    ids = [f.game_id for f in games]
    seats, counters = _stored(session, ids)
    found: dict[int, Change] = {}
    agreeing = []
    for f in games:
        old, old_counters = seats.get(f.game_id, []), counters.get(f.game_id, [])
        new = seat_rows(f.game_id, f.played_at, f.player_ids, f.values)
        found[f.game_id] = Change(f.game_id, old, new, dict(enumerate(old_counters)),
                                  dict(enumerate(f.values.counters)))
        if len(old) == 4 and old_counters == f.values.counters and _same_rows(old, new, SEAT_COLUMNS):
            agreeing.append(f)
    unchanged = _game_rows_agree(session, agreeing)
    return [found[f.game_id] for f in games if f.game_id not in unchanged]


def _game_rows_agree(session: Session, games: Sequence[Facts]) -> set[int]:
    """The ids of ``games`` whose stored game row is what their facts say."""
    if not games:
        return set()
    stored = {r.game_id: r.values() for r in session.scalars(
        select(StoredResult).where(stats.of_games(StoredResult.game_id, [f.game_id for f in games])))}
    return {f.game_id for f in games if f.game_id in stored and _same_rows(
        [stored[f.game_id]], [game_row(f.game_id, f.played_at, f.values)], stored[f.game_id])}


def _write(session: Session, games: Sequence[Facts], changes: Sequence[Change]) -> None:
    """The changed games' rows replaced, in three multi-row statements. Every game has one
    game row and four seat rows and seat counters (seats 0-3, :func:`seat_rows`,
    :class:`ResultValues`), broken games included, so the new rows written over the old
    ones by their keys leave none of the old (a delete and an insert per table were twice
    the statements of each save)."""
    by_id = {f.game_id: f for f in games}
    replace_rows(session, GAME_RESULT, ["game_id"], [game_row(c.game_id, by_id[c.game_id].played_at,
                                                          by_id[c.game_id].values) for c in changes])
    replace_rows(session, SEAT_RESULT, ["game_id", "seat"], [row for c in changes for row in c.new])
    replace_rows(session, stats.SEAT_STAT, ["game_id", "seat"],
             [{"game_id": c.game_id, "seat": s, "counters": dict(v)} for c in changes
              for s, v in c.new_counters.items()])


def project(session: Session, games: Sequence[Facts]) -> list[Change]:
    """The stored results' projector (game_result, seat_result, seat_stat): the rows of
    each game as its facts say, written only for the games whose rows differ, in a few
    multi-row statements (one game or an import's chunk alike). Returns those changes."""
    changes = _changes(session, games) if games else []
    if changes:
        _write(session, games, changes)
    return changes


def add_changes(deltas: Deltas, changes: Iterable[Change], scopes: Scopes) -> None:
    """The player totals' differences of these changes (the sums' projector)."""
    for c in changes:
        add_rows(deltas, c.old, -1, scopes)
        add_rows(deltas, c.new, +1, scopes)


def player_total_rows(session: Session, season: Season | None = None) -> list[dict[str, Any]]:
    """Every player's totals per profile summed from the seat rows, all time or in one
    season's days (what player_total holds for that scope)."""
    sr = SeatResult
    stmt = (select(sr.player_id, sr.profile, func.count().label("games"),
                   func.sum(case((sr.complete, 1), else_=0)).label("complete_games"),
                   func.sum(case((sr.won, 1), else_=0)).label("wins"),
                   func.sum(case((sr.shared, 1), else_=0)).label("shared_wins"),
                   func.sum(case((sr.complete, sr.total), else_=0)).label("points"),
                   func.sum(sr.kings_made).label("kings_made"),
                   func.sum(sr.violations).label("violations"))
            .group_by(sr.player_id, sr.profile).order_by(sr.player_id, sr.profile))
    scope = ALL_TIME
    if season is not None:
        scope = season.id
        stmt = stmt.where(sr.played_at >= day_start(season.starts_on),
                          sr.played_at < day_start(season.ends_on + timedelta(days=1)))
    return [{"season_id": scope, **{k: (int(v) if k != "profile" else v) for k, v in r._mapping.items()}}
            for r in session.execute(stmt)]


def all_player_total_rows(session: Session) -> list[dict[str, Any]]:
    """player_total as it should be: all time and every season, by key."""
    rows = player_total_rows(session)
    for season in session.scalars(select(Season).order_by(Season.id)):
        rows += player_total_rows(session, season)
    return sorted(rows, key=lambda r: (r["season_id"], r["player_id"], r["profile"]))


def player_ids_for(session: Session, names: Sequence[str], cache: dict[str, int]) -> list[int]:
    """Player ids for names, creating missing players (kept in ``cache`` across calls).

    Race-free: two requests creating the same new name at once both get its one row
    (``INSERT ... ON CONFLICT DO NOTHING``, then a select), never an IntegrityError."""
    missing = [n for n in dict.fromkeys(names) if n not in cache]
    if missing:
        cache.update(_ids_of_players(session, missing))
        absent = [n for n in missing if n not in cache]
        if absent:
            rows = [{"name": n, "folded_name": folded_name(n), "created_at": utcnow()} for n in absent]
            session.execute(insert_of(session.get_bind().dialect.name, Player).values(rows)
                            .on_conflict_do_nothing(index_elements=["name"]))
            cache.update(_ids_of_players(session, absent))
    return [cache[n] for n in names]


def _ids_of_players(session: Session, names: list[str]) -> dict[str, int]:
    return {name: pid for pid, name in
            session.execute(select(Player.id, Player.name).where(Player.name.in_(names)))}
