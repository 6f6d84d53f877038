"""Player ratings (issue 26): openskill's Plackett-Luce model with its default parameters.

One rating per player and profile, from the finished games of that profile in the order
they were played (the game's date, then its id); each game is one match of four players
ranked by their final totals, equal totals sharing a place. Anyone can recompute the
numbers with openskill: ``PlackettLuce().rate([[a], [b], [c], [d]], ranks=places)``.

The steps (:class:`~app.models.RatingStep`, a player's rating after each of their games)
are projected from the stored seat rows in every change of a game, by one strategy for a
save, a correction, an import and ``games rebuild`` alike: :func:`rate_from` rates the
profile's games again from the earliest changed one and writes only the steps that differ.

What people read is the conservative number μ - 3σ (openskill's ``ordinal()``), shown as
``1000 + 25 × (μ - 3σ)`` (:func:`shown`): a new player reads 1000, a strong one near 2000.
"""
from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, delete, func, insert, or_, select, text, tuple_
from sqlalchemy.orm import Session

from app.models import Rating, RatingStep, SeatResult
from app.models.rating import STEP_COLUMNS
from app.rules import PROFILES
from app.stats.rating_model import SeatLine, State, advance, ordinal
from app.stats.sums import replace_rows

MIN_GAMES = 5                   # the leaderboard's default minimum of rated games
CHART_POINTS = 60               # the steps of a player's charts (and of their CSV's chart rows)
CHUNK_ROWS = 4000               # seat rows read at a time (1,000 games)

Position = tuple[datetime, int]   # (played_at, game_id): the order games are rated in


# --- reading the finished games in order -----------------------------------------------------

def _after(column_at: Any, column_id: Any, at: Position | None, strict: bool = False) -> Any:
    if at is None:
        return True
    key = tuple_(column_at, column_id)
    value = tuple_(at[0], at[1])
    return key > value if strict else key >= value


def finished_games(session: Session, profile: str, at: Position | None = None
                   ) -> Iterator[tuple[int, datetime, list[SeatLine]]]:
    """The finished games of a profile from ``at`` on, in rating order, a chunk at a time:
    (game id, played at, its four seats)."""
    sr = SeatResult
    start, strict = at, False
    while True:
        rows = session.execute(
            select(sr.game_id, sr.played_at, sr.seat, sr.player_id, sr.total, sr.won)
            .where(sr.profile == profile, sr.complete, _after(sr.played_at, sr.game_id, start, strict))
            .order_by(sr.played_at, sr.game_id, sr.seat).limit(CHUNK_ROWS)).all()
        games: list[tuple[int, datetime, list[SeatLine]]] = []
        for game_id, played_at, seat, player_id, total, won in rows:
            if not games or games[-1][0] != game_id:
                games.append((game_id, played_at, []))
            games[-1][2].append(SeatLine(seat, player_id, total, bool(won)))
        if len(rows) == CHUNK_ROWS and len(games) > 1:
            games.pop()                 # may be cut short: read again with the next chunk
        yield from games
        if len(rows) < CHUNK_ROWS:
            return
        start, strict = (games[-1][1], games[-1][0]), True


def _states_query(bounded: bool) -> Any:
    """Each listed player's last step of a profile -- before a position (``at``, ``at_id``)
    when ``bounded`` -- built once: a select with a subquery costs more to build than to run."""
    rs = RatingStep.__table__.c
    where = [rs.profile == bindparam("profile"), rs.player_id.in_(bindparam("ids", expanding=True))]
    if bounded:
        where.append(tuple_(rs.played_at, rs.game_id) < tuple_(bindparam("at", type_=rs.played_at.type),
                                                               bindparam("at_id", type_=rs.game_id.type)))
    last = (select(rs.player_id, func.max(rs.games).label("games")).where(*where)
            .group_by(rs.player_id).subquery())
    return (select(rs.player_id, rs.mu, rs.sigma, rs.games, rs.points, rs.wins, rs.streak, rs.best_streak)
            .join(last, and_(rs.player_id == last.c.player_id, rs.games == last.c.games))
            .where(rs.profile == bindparam("profile")))


#: (every step, the steps before a position)
STATES = (_states_query(False), _states_query(True))


def _last_states(session: Session, profile: str, player_ids: Iterable[int], before: Position | None = None
                 ) -> dict[int, State]:
    """Each player's state after their last stored step of the profile, or their last one
    before ``before`` (absent: none; no players: no statement)."""
    out: dict[int, State] = {}
    ids = sorted(player_ids)
    bound = {} if before is None else {"at": before[0], "at_id": before[1]}
    for k in range(0, len(ids), 500):
        for pid, mu, sigma, games, points, wins, streak, best in session.execute(
                STATES[before is not None], {"profile": profile, "ids": ids[k:k + 500], **bound}):
            out[pid] = State(mu, sigma, games, points, wins, streak, best)
    return out


# --- writing ---------------------------------------------------------------------------------

def lock_key(profile: str) -> int:
    return zlib.crc32(f"rating:{profile}".encode())


def lock(session: Session, profile: str, how: str = "pg_advisory_xact_lock") -> Any:
    """One walk of a profile at a time (PostgreSQL: its transaction lock, taken ``how``)."""
    if session.get_bind().dialect.name == "postgresql":
        return session.scalar(text(f"SELECT {how}(:k)"), {"k": lock_key(profile)})


#: The core tables (multi-row inserts without the ORM's bookkeeping).
STEP_TABLE = cast(Table, RatingStep.__table__)
RATING_TABLE = cast(Table, Rating.__table__)


def _agrees(have: tuple[float, float, float, int] | None, state: State | None) -> bool:
    """A stored rating row (mu, sigma, ordinal, games; None: no row) says what ``state`` says."""
    if state is None or not state.games:
        return have is None
    want = (state.mu, state.sigma, ordinal(state.mu, state.sigma), state.games)
    return have is not None and all(_close(a, b) for a, b in zip(have, want, strict=True))


def _differing(session: Session, profile: str, ids: list[int], states: dict[int, State]) -> list[int]:
    """Those of ``ids`` whose stored rating row does not say what their state says."""
    have = {r.player_id: (r.mu, r.sigma, r.ordinal, r.games)
            for r in session.scalars(select(Rating).where(Rating.profile == profile))}
    return [pid for pid in ids if not _agrees(have.get(pid), states.get(pid))]


def _write_ratings(session: Session, profile: str, player_ids: set[int], states: dict[int, State],
                   *, only_changed: bool = False) -> None:
    """The rating rows of these players: their latest state (one upsert), or none without
    a rated game; ``only_changed``: the rows that already say so are not written again."""
    ids = sorted(player_ids)
    if only_changed:
        ids = _differing(session, profile, ids, states)
    rated = {pid: s for pid in ids if (s := states.get(pid)) is not None and s.games}
    gone = [pid for pid in ids if pid not in rated]
    for k in range(0, len(gone), 500):
        session.execute(delete(Rating).where(Rating.profile == profile,
                                             Rating.player_id.in_(gone[k:k + 500])))
    rows = [{"player_id": pid, "profile": profile, "mu": s.mu, "sigma": s.sigma,
             "ordinal": ordinal(s.mu, s.sigma), "games": s.games} for pid, s in rated.items()]
    for k in range(0, len(rows), 2000):
        replace_rows(session, RATING_TABLE, ["player_id", "profile"], rows[k:k + 2000])


Game = tuple[int, datetime, list[SeatLine]]     # (game id, played at, its four seats)
GAMES_PER_CHUNK = CHUNK_ROWS // 4


def _chunks(games: Iterable[Game], size: int = GAMES_PER_CHUNK) -> Iterator[list[Game]]:
    chunk: list[Game] = []
    for game in games:
        chunk.append(game)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, datetime) and isinstance(b, datetime):
        return _naive(a) == _naive(b)
    return bool(a == b)


def _same_steps(have: Sequence[dict[str, Any]], want: Sequence[dict[str, Any]]) -> bool:
    return len(have) == len(want) and all(
        all(_close(h[c], w[c]) for c in STEP_COLUMNS)
        for h, w in zip(sorted(have, key=lambda r: int(r["seat"])), want, strict=True))


def _steps_of(session: Session, profile: str, where: Any) -> dict[int, list[dict[str, Any]]]:
    """The stored steps matching ``where``, by game."""
    rs = RatingStep
    out: dict[int, list[dict[str, Any]]] = {}
    for r in session.execute(select(*[rs.__table__.c[c] for c in STEP_COLUMNS])
                             .where(rs.profile == profile, where)):
        out.setdefault(int(r.game_id), []).append(dict(r._mapping))
    return out


def _remove_strays(session: Session, profile: str, where: Any, touched: set[int]) -> None:
    """Removes the steps matching ``where`` -- games in the part of the order just read that
    are not finished games there (no longer finished, or moved later) -- adding their
    players to ``touched``."""
    rs = RatingStep
    gone = session.execute(delete(rs).where(rs.profile == profile, where).returning(rs.player_id)).all()
    touched.update(int(pid) for (pid,) in gone)


def _seats_agree(steps: Sequence[dict[str, Any]], game: Game) -> bool:
    """A game's stored steps were rated from the seats it has now (same date too)."""
    seats = game[2]
    return len(steps) == len(seats) and all(
        (int(r["seat"]), int(r["player_id"]), int(r["total"]), bool(r["won"])) == (
            s.seat, s.player_id, s.total, s.won) and _naive(r["played_at"]) == _naive(game[1])
        for r, s in zip(sorted(steps, key=lambda r: int(r["seat"])), seats, strict=True))


def _state_after(step: Mapping[str, Any]) -> State:
    return State(step["mu"], step["sigma"], step["games"], step["points"], step["wins"], step["streak"],
                 step["best_streak"])


def _rate_chunk(session: Session, profile: str, chunk: Sequence[Game], states: dict[int, State],
                stored: Mapping[int, Sequence[dict[str, Any]]], touched: set[int],
                skip: bool) -> int:
    """Rates a chunk of games in order (``states`` moving on: the walk put every player of
    the chunk in it, from their last step before where it began), writing the steps of
    those whose computed steps differ from ``stored``; their players go into ``touched``.
    Returns the games written.

    ``skip`` (a change rated in one walk): a game none of whose players the change has
    touched yet, and whose stored steps were rated from the seats it has, would come out the
    same (a game's steps depend on nothing but its seats and its players' states before
    it): its steps are taken as they are, without computing them. Otherwise (a rebuild, a
    part of a backlog: what was touched before the part is not known) every game is
    computed and compared."""
    gone: list[int] = []
    batch: list[dict[str, Any]] = []
    for game in chunk:
        have = stored.get(game[0], [])
        players = {s.player_id for s in game[2]}
        if skip and not players & touched and _seats_agree(have, game):
            states.update((int(r["player_id"]), _state_after(r)) for r in have)
            continue
        want = advance(states, profile, *game)
        if not _same_steps(have, want):
            gone += [game[0]] if have else []
            touched.update(int(r["player_id"]) for r in (*have, *want))
            batch.extend(want)
    _write_steps(session, profile, gone, batch, touched, (chunk[-1][1], chunk[-1][0]))
    return len(batch) // 4


def _write_steps(session: Session, profile: str, gone: list[int], batch: list[dict[str, Any]],
                 touched: set[int], upper: Position) -> None:
    """The chunk's changed games: their old steps out, their new ones in."""
    rs = RatingStep
    if gone:
        session.execute(delete(rs).where(rs.profile == profile, rs.game_id.in_(gone)))
    if not batch:
        return
    later = select(rs.game_id).where(rs.profile == profile, _after(rs.played_at, rs.game_id, upper, True))
    if session.execute(later.limit(1)).first() is not None:
        # a later game's step that holds a number a player's new step takes (a game now
        # finished, or moved earlier, numbers the later ones again): removed here, that game
        # is written again when the walk reaches it (none to look for without later steps:
        # the latest game's save, ratings from nothing)
        keys = [(r["player_id"], r["games"]) for r in batch]
        for k in range(0, len(keys), 500):
            _remove_strays(session, profile, tuple_(rs.player_id, rs.games).in_(keys[k:k + 500]), touched)
    session.execute(insert(STEP_TABLE), batch)


def rate_from(session: Session, profile: str, at: Position | None) -> int:
    """THE way ratings follow the games (issue 37: one strategy for a save, a correction, an
    import and ``games rebuild``): the profile's finished games from ``at`` on (every game
    when None) are rated again in order, from their players' states before ``at``; a game
    whose four computed steps differ from its stored ones gets them written, the steps of
    games that are no longer finished from there are removed, and the rating of every
    player whose steps changed is set to their last state. Idempotent: when the stored steps
    agree, nothing is written -- a table that finishes after the others of its round computes
    their games again (60 µs each) and writes its own only. Returns the games written."""
    return walk(session, profile, at, skip=at is not None)[0]


def rate_alone(session: Session, profile: str, at: Position, seats: Sequence[SeatLine]) -> bool:
    """:func:`rate_from` for a game just finished (no steps yet) when no later step has a
    player of it: the walk would skip every later game, so they are not read; its four steps
    and its players' ratings are written, as the walk writes them. A club night's table
    finishing after later-started ones no longer reads the evening's games under the
    profile's lock. False: nothing done, the walk is needed."""
    rs, game_id, players = RatingStep, at[1], [s.player_id for s in seats]
    if session.execute(select(rs.game_id).where(rs.profile == profile, or_(rs.game_id == game_id, and_(
            _after(rs.played_at, rs.game_id, at, True), rs.player_id.in_(players)))).limit(1)).first():
        return False
    states = _last_states(session, profile, players, before=at)
    session.execute(insert(STEP_TABLE), advance(states, profile, game_id, at[0], seats))
    _write_ratings(session, profile, set(players), states)
    return True


def walk(session: Session, profile: str, at: Position | None, *, skip: bool,
         games: int | None = None) -> tuple[int, Position | None]:
    """:func:`rate_from`'s walk, at most ``games`` games long when given (a part of a
    backlog, :mod:`app.stats.rating_backlog`: the steps before ``at`` are final, those
    from where the part stops are left to the next part; the ratings of the players it
    touched say where the part left them). Returns the games written and the position of
    the first game not rated (None: the walk reached the profile's last game)."""
    lock(session, profile)
    rs = RatingStep
    states: dict[int, State] = {}
    touched: set[int] = set()
    written, rated = 0, 0
    lower, strict = at, False
    stop: Position | None = None
    for chunk in _chunks(finished_games(session, profile, at), games or GAMES_PER_CHUNK):
        if games is not None and rated >= games:
            stop = (chunk[0][1], chunk[0][0])
            break
        upper = (chunk[-1][1], chunk[-1][0])
        ids = [g[0] for g in chunk]
        _remove_strays(session, profile, and_(_after(rs.played_at, rs.game_id, lower, strict),
                                              tuple_(rs.played_at, rs.game_id) <= tuple_(*upper),
                                              rs.game_id.not_in(ids)), touched)
        stored = _steps_of(session, profile, rs.game_id.in_(ids))
        if at is not None:      # the chunk's new players' states before ``at``, in one statement
            missing = {s.player_id for g in chunk for s in g[2]} - states.keys()
            found = _last_states(session, profile, missing, before=at)
            states.update({pid: found.get(pid) or State() for pid in missing})
        written += _rate_chunk(session, profile, chunk, states, stored, touched, skip)
        rated += len(chunk)
        lower, strict = upper, True
    if stop is None:
        _remove_strays(session, profile, _after(rs.played_at, rs.game_id, lower, strict), touched)
    if at is None:      # every rating of the profile is checked, not only the changed ones
        touched |= states.keys() | set(session.scalars(select(Rating.player_id)
                                                        .where(Rating.profile == profile)))
    elif touched - states.keys():
        states.update(_last_states(session, profile, touched - states.keys(), before=at))
    _write_ratings(session, profile, touched, states, only_changed=at is None)
    return written, stop


def _naive(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def _rated_key(rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["player_id"], r["profile"], bool(r["complete"]), _naive(r["played_at"]), int(r["total"]),
             bool(r["won"])) for r in sorted(rows, key=lambda r: int(r.get("seat", 0)))]


Rows = Sequence[dict[str, Any]]


def starts(changes: Iterable[tuple[int, Rows, Rows]]) -> dict[str, Position]:
    """Where each profile's ratings must be rated again from after games' stored seat rows
    went from ``old`` to ``new`` (``changes``: (game id, old, new); no rows: a new game): its
    earliest game with a change in what ratings read (players, totals, date, finished).
    :func:`app.stats.rating_backlog.project` rates from there (:func:`rate_from`), in
    the request or by a job."""
    out: dict[str, Position] = {}
    for game_id, old, new in changes:
        if _rated_key(old) == _rated_key(new):
            continue
        for rows in (old, new):
            if rows and rows[0]["complete"]:
                profile, at = str(rows[0]["profile"]), (rows[0]["played_at"], game_id)
                first = out.get(profile)
                if first is None or earlier(at, first):
                    out[profile] = at
    return out


def earlier(a: Position, b: Position) -> bool:
    return (_naive(a[0]), a[1]) < (_naive(b[0]), b[1])


def later_games(session: Session, profile: str, at: Position, limit: int) -> int:
    """How many rated games of the profile come after ``at`` (counted up to ``limit``)."""
    rs = RatingStep
    found = (select(rs.game_id).where(rs.profile == profile, _after(rs.played_at, rs.game_id, at, True))
             .distinct().limit(limit).subquery())
    return int(session.scalar(select(func.count()).select_from(found)) or 0)


def rebuild(session: Session) -> int:
    """Every profile's steps and ratings as the stored results say (``games rebuild``): the
    same :func:`rate_from`, from the first game. Returns the games written."""
    return sum(rate_from(session, profile, None) for profile in PROFILES)


# --- reading ---------------------------------------------------------------------------------


