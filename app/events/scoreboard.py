"""An event's tables as they stand and its standings (issue 25): each table's status in a
round, the rounds played, the standings by points or by ranking, and the event's reads."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer, load_only, selectinload

from app.errors import Text
from app.games.queries import top_scorers
from app.games.table.confirm import latest_confirmations, locked_by
from app.models import (
    AuditAction,
    AuditEntry,
    Confirmation,
    DirectorCall,
    Event,
    EventLogEntry,
    EventPlayer,
    EventRound,
    EventTable,
    Game,
    Player,
    Seat,
    StoredResult,
)
from app.rules import get_profile


def names_of(session: Session, ids: list[int]) -> dict[int, str]:
    """Roster names by player id."""
    return dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


@dataclass(frozen=True)
class TableStatus:
    number: int
    game_id: int
    players: list[str]
    player_ids: list[int]
    hands: int
    n_hands: int
    complete: bool
    totals: list[int] | None
    leaders: list[int]
    confirmed: list[int]        # seats whose confirmation is of the sheet as it stands
    locked: bool
    violations: int
    conflict: bool              # a seat confirmed an earlier sheet: the table must confirm again
    broken: bool
    last_change: Any
    last_by: str | None
    version: int


def _last_changes(session: Session, game_ids: list[int]) -> dict[int, tuple[Any, str]]:
    last = (select(AuditEntry.game_id, func.max(AuditEntry.id).label("id"))
            .where(AuditEntry.game_id.in_(game_ids),    # a call changes no sheet
                   AuditEntry.action.not_in((AuditAction.CALL, AuditAction.ANSWER)))
            .group_by(AuditEntry.game_id).subquery())
    rows = session.execute(select(AuditEntry.game_id, AuditEntry.at, AuditEntry.who)
                           .join(last, last.c.id == AuditEntry.id)).all()
    return {gid: (at, who) for gid, at, who in rows}


def round_tables(session: Session, rnd: EventRound) -> list[TableStatus]:
    """Every table of a round as the director's view shows it (a few queries in all)."""
    ids = [t.game_id for t in rnd.tables]
    # the round's games and their seats in two statements (not two per table): each
    # table's ``t.game`` then finds its game already loaded
    games = {g.id: g for g in session.scalars(
        select(Game).where(Game.id.in_(ids)).options(defer(Game.record), selectinload(Game.seats)))}
    # the names only, not every record whole (a hundred tables' records, tricks and all,
    # were most of the results screen's time)
    names = {gid: players for gid, players in session.execute(
        select(Game.id, Game.record["players"]).where(Game.id.in_(ids)))}
    stored = {r.game_id: r for r in session.scalars(
        select(StoredResult).where(StoredResult.game_id.in_(ids)).options(load_only(
            StoredResult.totals, StoredResult.error, StoredResult.n_rows, StoredResult.complete,
            StoredResult.violations)))}
    latest = latest_confirmations(session, ids)
    changes = _last_changes(session, ids)
    return [_table_status(t, games[t.game_id], stored.get(t.game_id), latest[t.game_id],
                          names[t.game_id], changes) for t in rnd.tables]


def _table_status(t: EventTable, game: Game, row: StoredResult | None,
                  seen: dict[int, Confirmation], players: Any,
                  changes: dict[int, tuple[Any, str]]) -> TableStatus:
    """One table as the director's view shows it: its game, stored result (None when not
    stored), latest confirmations per seat, players' names and the last audited change."""
    broken = row is None or row.error is not None
    totals = None if broken or row is None else list(row.totals)
    at, by = changes.get(t.game_id, (game.updated_at, None))
    hands, complete, violations = _stored_figures(game, row)
    return TableStatus(
        number=t.number, game_id=game.id, players=list(players),
        player_ids=[s.player_id for s in sorted(game.seats, key=lambda s: s.seat)],
        hands=hands, n_hands=get_profile(game.profile).n_hands,
        complete=complete, totals=totals,
        leaders=top_scorers(totals) if totals and hands else [],
        confirmed=sorted(s for s, c in seen.items() if c.version == game.version),
        locked=locked_by(game, seen), violations=violations,
        conflict=any(c.version != game.version for c in seen.values()), broken=broken,
        last_change=at, last_by=by, version=game.version)


def _stored_figures(game: Game, row: StoredResult | None) -> tuple[int, bool, int]:
    """Hands scored, complete, violations: from the stored result (hands entered and none
    of the rest without one)."""
    if row is None:
        return len(game.hands), False, 0
    return row.n_rows, bool(row.complete), row.violations


@dataclass(frozen=True)
class RoundSummary:
    """One round drawn, as the event page's history shows it (issue 38: the event keeps
    every round): its tables, who sat out, why it was forced (None: it was not)."""

    number: int
    tables: list[TableStatus]
    sitting_out: list[str]
    forced_reason: str | None

    @property
    def locked(self) -> int:
        return sum(1 for t in self.tables if t.locked)


def round_history(session: Session, event: Event, *, earlier: bool = False) -> list[RoundSummary]:
    """Every round drawn, first to last (a few statements a round, none a table); with
    ``earlier``, every round but the last (the event page shows the last one in full above
    them: at 100 tables, drawing it twice was a sixth of the page)."""
    rounds = event.drawn[:-1] if earlier else event.drawn
    out = [p for rnd in rounds for p in rnd.sitting_out]
    names = names_of(session, out) if out else {}
    return [RoundSummary(rnd.number, round_tables(session, rnd), [names[p] for p in rnd.sitting_out],
                         rnd.forced_reason)
            for rnd in rounds]


TIE_BREAK = {
    "points": Text("Ties: most tables won, then the best single game."),
    "ranking": Text("Ties: most game points, then most tables won."),
}


@dataclass
class StandingRow:
    player_id: int
    name: str
    rounds: list[Any]           # per round: a number, or None (absent)
    sat_out: list[bool]
    total: Any = 0
    points: int = 0             # the games' points summed (ranking: the first tie-break)
    wins: Any = 0               # tables won (a shared first place counts its share)
    best: int | None = None     # the best single game
    rank: int = 0


@dataclass
class Standings:
    scoring: str
    rounds: int
    rows: list[StandingRow]
    tie_break: Text


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


def place_points(totals: list[int], points: Sequence[float | Fraction]) -> list[Fraction]:
    """Ranking points by place at one table, tied places sharing their points equally."""
    exact = [p if isinstance(p, Fraction) else Fraction(p) for p in points]
    out = [Fraction(0)] * len(totals)
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and totals[order[j]] == totals[order[i]]:
            j += 1
        # a place of its own keeps its points as they are (no arithmetic: the common case)
        share = exact[i] if j - i == 1 else sum(exact[i:j], Fraction(0)) / (j - i)
        for k in range(i, j):
            out[order[k]] = share
        i = j
    return out


#: The points of a table's winner (a shared first place splits them): tables won.
_WIN = (Fraction(1), Fraction(0), Fraction(0), Fraction(0))


def _table_rows(session: Session, event: Event) -> list[tuple[int, list[int], list[int]]]:
    """(round number, seat player ids, totals) of every table of the event whose record
    replays, from the stored results (no replay)."""
    rows = session.execute(
        select(EventRound.number, EventTable.game_id, StoredResult.totals, StoredResult.error)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .join(StoredResult, StoredResult.game_id == EventTable.game_id)
        .where(EventRound.event_id == event.id, StoredResult.n_rows > 0)).all()   # not begun: no score
    seats: dict[int, list[int]] = {}
    for gid, _seat, pid in session.execute(select(Seat.game_id, Seat.seat, Seat.player_id).where(
            Seat.game_id.in_([r[1] for r in rows])).order_by(Seat.game_id, Seat.seat)):
        seats.setdefault(gid, []).append(pid)
    return [(n, seats[gid], list(totals)) for n, gid, totals, error in rows if error is None]


def standings(session: Session, event: Event) -> Standings:
    """Per round and overall, after every table's last saved hand. ``points``: each player's
    game totals; ``ranking``: the event's points by place at each table, ties split. A
    sit-out scores nothing or the average of the round (the event's setting)."""
    names = names_of(session, [e.player_id for e in event.entrants])
    n_rounds = len(event.drawn)
    rows = {e.player_id: StandingRow(e.player_id, names[e.player_id], [None] * n_rounds, [False] * n_rounds)
            for e in event.entrants}
    scores: dict[int, dict[int, Fraction]] = {}
    ranking = [Fraction(p) for p in event.ranking_points]
    for number, pids, totals in _table_rows(session, event):
        won = place_points(totals, _WIN)
        earned = (place_points(totals, ranking) if event.scoring == "ranking"
                  else [Fraction(t) for t in totals])
        for s, pid in enumerate(pids):
            if pid not in rows:
                continue
            row = rows[pid]
            scores.setdefault(number, {})[pid] = earned[s]
            row.points += totals[s]
            row.wins += won[s]
            row.best = totals[s] if row.best is None else max(row.best, totals[s])
    _fill_rounds(event, rows, scores)
    ranked = _ranked(list(rows.values()), event.scoring)
    return Standings(event.scoring, n_rounds, ranked, TIE_BREAK[event.scoring])


def _fill_rounds(event: Event, rows: dict[int, StandingRow], scores: dict[int, dict[int, Fraction]]) -> None:
    for rnd in event.drawn:
        _fill_round(event, rnd, rows, scores.get(rnd.number, {}))
    for row in rows.values():
        total = sum((x for x in row.rounds if x is not None), Fraction(0))
        row.total = _number(total)
        row.rounds = [None if x is None else _number(x) for x in row.rounds]
        row.wins = _number(Fraction(row.wins))


def _fill_round(event: Event, rnd: EventRound, rows: dict[int, StandingRow],
                played: dict[int, Fraction]) -> None:
    """One round's column: each player's score, a sit-out's (nothing or the round's average)."""
    average = sum(played.values(), Fraction(0)) / len(played) if played else Fraction(0)
    for pid, row in rows.items():
        i = rnd.number - 1
        if pid in played:
            row.rounds[i] = played[pid]
        elif pid in rnd.sitting_out:
            row.sat_out[i] = True
            row.rounds[i] = average if event.sit_out == "average" else Fraction(0)


def _key(row: StandingRow, scoring: str) -> tuple[Any, ...]:
    best = row.best if row.best is not None else -10**9
    if scoring == "ranking":
        return (row.total, row.points, row.wins)
    return (row.total, row.wins, best)


def _ranked(rows: list[StandingRow], scoring: str) -> list[StandingRow]:
    rows.sort(key=lambda r: (tuple(-x for x in _key(r, scoring)), r.name.casefold(), r.player_id))
    for i, row in enumerate(rows):
        same = i > 0 and _key(rows[i - 1], scoring) == _key(row, scoring)
        row.rank = rows[i - 1].rank if same else i + 1
    return rows


def list_events(session: Session, limit: int = 100) -> list[Event]:
    return list(session.scalars(select(Event).order_by(Event.day.desc(), Event.id.desc()).limit(limit)))


def events_of_player(session: Session, player_id: int) -> list[Event]:
    """The events a player is registered in, newest first (their page lists them)."""
    return list(session.scalars(select(Event).join(EventPlayer, EventPlayer.event_id == Event.id)
                                .where(EventPlayer.player_id == player_id)
                                .order_by(Event.day.desc(), Event.id.desc())))


def event_stamp(session: Session, event_id: int) -> str | None:
    """What the director's view and the screen poll: changes whenever a game of the event
    is saved or confirmed, a round is drawn, the log grows, or a table calls the director
    or is answered (``d<calls and answers>``, once there is one; one statement)."""
    games = select(EventTable.game_id).join(EventRound, EventRound.id == EventTable.round_id).where(
        EventRound.event_id == event_id).scalar_subquery()
    versions = select(func.coalesce(func.sum(Game.version), 0)).where(Game.id.in_(games)).scalar_subquery()
    confirmed = select(func.count()).select_from(Confirmation).where(
        Confirmation.game_id.in_(games)).scalar_subquery()
    logged = select(func.count()).select_from(EventLogEntry).where(
        EventLogEntry.event_id == event_id).scalar_subquery()
    called = select(func.count() + func.count(DirectorCall.answered_at)).where(
        DirectorCall.game_id.in_(games)).scalar_subquery()
    row = session.execute(select(Event.id, versions, confirmed, logged, called)
                          .where(Event.id == event_id)).first()
    if row is None:
        return None
    return f"e{row[1]}c{row[2]}l{row[3]}" + (f"d{row[4]}" if row[4] else "")


def event_log(session: Session, event_id: int) -> list[EventLogEntry]:
    return list(session.scalars(select(EventLogEntry).where(EventLogEntry.event_id == event_id)
                                .order_by(EventLogEntry.id)))


def event_game_ids(session: Session, event_id: int) -> list[int]:
    """The event's games, round by round, table by table (one query)."""
    stmt = (select(EventTable.game_id).join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventRound.event_id == event_id).order_by(EventRound.number, EventTable.number))
    return list(session.scalars(stmt))


def table_labels(session: Session, event_id: int) -> dict[int, tuple[int, int]]:
    """(round, table) of each of the event's games."""
    rows = session.execute(select(EventTable.game_id, EventRound.number, EventTable.number)
                           .join(EventRound, EventRound.id == EventTable.round_id)
                           .where(EventRound.event_id == event_id)).all()
    return {gid: (r, t) for gid, r, t in rows}


def standings_doc(session: Session, event: Event) -> dict[str, Any]:
    """A plain doc of the event's standings (the PDF's first pages): no ORM object."""
    table = standings(session, event)
    return {"name": event.name, "day": event.day, "profile": event.profile, "scoring": event.scoring,
            "ranking_points": list(event.ranking_points), "sit_out": event.sit_out,
            "rounds": table.rounds, "planned": event.rounds, "players": len(table.rows),
            "tables": sum(len(r.tables) for r in event.drawn), "tie_break": table.tie_break,
            "today": date.today(),
            "rows": [{"rank": r.rank, "name": r.name, "rounds": r.rounds, "sat_out": r.sat_out,
                      "total": r.total, "points": r.points, "wins": r.wins} for r in table.rows]}
