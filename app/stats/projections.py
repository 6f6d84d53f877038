"""One place where a game changes (issue 37).

Every write to a game -- created, a hand saved, replaced or removed, a ruling, a
correction, a lock lifted by a director's change, a reseat at an event, an import -- ends
in :func:`game_changed` (:func:`games_changed` for many), in the writer's transaction,
before its one commit. What follows from a game's record is recomputed there by one
idempotent projector per derived family, in this order:

1. **stored results** (game_result, seat_result, seat_stat):
   :func:`app.stats.results.project` -- the rows the replayed record gives, written
   only for the games whose rows differ;
2. **sums** (player_total per scope, player_stat, head_to_head): :func:`_project_sums` --
   the difference between those games' old and new rows added;
3. **ratings** (rating_step, rating): :func:`app.stats.rating_backlog.project` -- each profile
   rated again from the earliest game whose rated facts changed, writing what differs: in
   the transaction when few rated games follow it, otherwise by a job after the commit
   (a correction of an old game must not hold the club's saves; issue 41).

``games rebuild`` (:func:`rebuild`) runs the same three projectors over every game, the
sums from nothing; a season's new or changed days (:func:`season_changed`) add its games'
rows to its empty totals with the same sums projector. No other module writes those
tables (``tests/services/test_projections.py`` greps for it).

Why in the transaction rather than after it: the API answers a save with the game's
totals, and a sheet, a list or a player's page read right after a save shows it -- as
before; the projectors of one save cost a handful of statements (``bench/evening.py``'s
save p99 is the figure). The page caches need no call: they are keyed by the game's
version, which every write raises.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.orm import Session

from app.models import Game, GameStatus, HeadToHead, PlayerStat, PlayerTotal, Season, Seat, SeatResult
from app.models.result import SEAT_COLUMNS
from app.stats import rating_backlog, ratings, results, stats
from app.stats.results import Change, Facts, Scopes

CHUNK = 500     # games read and projected at a time by a rebuild or a season's change


def _project_sums(session: Session, changes: Sequence[Change], scopes: Scopes) -> None:
    """The sums' projector: player_total (all time and each season whose days hold the
    game), player_stat and head_to_head, each moved by the difference of the changes."""
    totals: results.Deltas = {}
    results.add_changes(totals, changes, scopes)
    results.apply_deltas(session, totals)
    player_stats: dict[stats.StatKey, int] = {}
    pairs: dict[stats.PairKey, list[int]] = {}
    stats.add_changes(player_stats, pairs, changes)
    stats.apply(session, player_stats, pairs)


def _project(session: Session, games: Sequence[Facts], *, from_nothing: bool = False) -> list[Change]:
    changes = results.project(session, games)
    summed = changes
    if from_nothing:        # the rebuild: the sums start empty, so every game adds its rows
        summed = [Change(f.game_id, [], results.seat_rows(f.game_id, f.played_at, f.player_ids, f.values),
                         {}, dict(enumerate(f.values.counters))) for f in games]
    # the seasons are read only when some total moves (not for most hands of an evening)
    moved = from_nothing or results.moves_totals(summed)
    _project_sums(session, summed, results.load_scopes(session) if moved else Scopes())
    return changes


def games_changed(session: Session, games: Sequence[Facts]) -> list[Change]:
    """The end of every write to games: their stored results, the sums and the ratings
    projected from their facts (in the caller's transaction, no commit). Returns the
    changes of their stored rows."""
    changes = _project(session, games)
    rating_backlog.project(session, [(c.game_id, c.old, c.new) for c in changes])
    return changes


def facts_of(game: Game, result: Any | None = None) -> Facts:
    """A stored game's facts (``result``: its record's replay when the writer has it)."""
    player_ids = [seat.player_id for seat in sorted(game.seats, key=lambda s: s.seat)]
    return Facts(game.id, game.created_at, player_ids, results.result_values(game.record, result))


def game_changed(session: Session, game: Game, result: Any | None = None) -> None:
    """:func:`games_changed` for one game (flushed: it has an id)."""
    games_changed(session, [facts_of(game, result)])


# --- a season's days ---------------------------------------------------------------------------

def _seat_rows_between(session: Session, lo: Any, hi: Any) -> Iterable[list[dict[str, Any]]]:
    sr = SeatResult
    last = (0, -1)
    while True:
        rows = [dict(r._mapping, seat=r.seat) for r in session.execute(
            select(sr.game_id, sr.seat, *[sr.__table__.c[c] for c in SEAT_COLUMNS])
            .where(sr.played_at >= lo, sr.played_at < hi, tuple_(sr.game_id, sr.seat) > tuple_(*last))
            .order_by(sr.game_id, sr.seat).limit(4 * CHUNK))]
        if rows:
            yield rows
        if len(rows) < 4 * CHUNK:
            return
        last = (rows[-1]["game_id"], rows[-1]["seat"])


def season_changed(session: Session, season: Season) -> None:
    """A season created or its days changed: its player totals are emptied, then its days'
    games added by the sums' projector (the other sums do not depend on seasons)."""
    session.execute(delete(PlayerTotal).where(PlayerTotal.season_id == season.id))
    lo, hi = results.day_start(season.starts_on), results.day_start(season.ends_on) + results.ONE_DAY
    scopes = Scopes(((season.id, results.naive_utc(lo), results.naive_utc(hi)),), all_time=False)
    for rows in _seat_rows_between(session, lo, hi):
        totals: results.Deltas = {}
        results.add_rows(totals, rows, +1, scopes)
        results.apply_deltas(session, totals)


def season_removed(session: Session, season: Season) -> None:
    """A season deleted: its player totals go with it."""
    session.execute(delete(PlayerTotal).where(PlayerTotal.season_id == season.id))


# --- games rebuild ---------------------------------------------------------------------------

@dataclass
class RebuildSummary:
    games: int = 0
    changed: int = 0
    broken: int = 0
    rerated: int = 0          # finished games whose rating steps were written again


def _games_in_chunks(session: Session, size: int) -> Iterable[list[Game]]:
    last = 0
    while True:
        chunk = list(session.scalars(select(Game).where(Game.id > last).order_by(Game.id).limit(size)))
        if not chunk:
            return
        yield chunk
        last = chunk[-1].id


def _player_ids(session: Session, ids: list[int]) -> Mapping[int, list[int]]:
    out: dict[int, list[int]] = {gid: [0, 0, 0, 0] for gid in ids}
    for game_id, seat, player_id in session.execute(
            select(Seat.game_id, Seat.seat, Seat.player_id).where(Seat.game_id.in_(ids))):
        out[game_id][seat] = player_id
    return out


def rebuild(session: Session, chunk: int = CHUNK, progress: Callable[[int], Any] | None = None
            ) -> RebuildSummary:
    """``games rebuild``: the three projectors over every game, the sums (all time and every
    season) from nothing, in one
    transaction (a reader sees the old derived data or the new, never half of it).
    Idempotent: the stored results and rating steps that agree are not written again."""
    summary = RebuildSummary()
    for model in (PlayerTotal, PlayerStat, HeadToHead):
        session.execute(delete(model))
    for games in _games_in_chunks(session, chunk):
        player_ids = _player_ids(session, [g.id for g in games])
        facts = [Facts(g.id, g.created_at, player_ids[g.id], results.result_values(g.record)) for g in games]
        changes = _project(session, facts, from_nothing=True)
        summary.games += len(games)
        summary.changed += len(changes)
        summary.broken += sum(f.values.game["error"] is not None for f in facts)
        for game, f in zip(games, facts, strict=True):
            status = GameStatus.COMPLETE if f.values.game["complete"] else GameStatus.IN_PROGRESS
            if game.status != status:
                session.execute(update(Game).where(Game.id == game.id).values(status=status))
        session.flush()
        session.expunge_all()
        if progress is not None:
            progress(len(games))
    summary.rerated = ratings.rebuild(session)
    rating_backlog.cleared(session)
    session.commit()
    return summary
