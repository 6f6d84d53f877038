"""Player ratings (issue 26): openskill's Plackett-Luce model with its default parameters.

One rating per player and profile, from the finished games of that profile in the order
they were played (the game's date, then its id); each game is one match of four players
ranked by their final totals, equal totals sharing a place. Anyone can recompute the
numbers with openskill: ``PlackettLuce().rate([[a], [b], [c], [d]], ranks=places)``.

The steps (:class:`~app.models.RatingStep`, a player's rating after each of their games)
are written in the transaction that writes the game's stored results
(:func:`app.services.results.store_results` calls :func:`after_change`): a change of the
latest game rates that game; a change of an older one rates again that game and the later
games it reaches -- those with one of its players, then with one of theirs, and so on --
and keeps the steps of the others, which would come out the same (:func:`rerate_change`;
past :data:`REACHED_GAMES` later games, every step from it on: :func:`recompute_from`).
:func:`rebuild_ratings` (the ``games rebuild`` command) computes every step from the
stored results and writes only from the first one that differs, so it changes nothing when
they agree.

What people read is the conservative number μ - 3σ (openskill's ``ordinal()``), shown as
``1000 + 25 × (μ - 3σ)`` (:func:`shown`): a new player reads 1000, a strong one near 2000.
"""
from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from openskill.models import PlackettLuce
from sqlalchemy import Table, and_, bindparam, delete, func, insert, or_, select, text, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.models import Game as GameRow
from app.models import Player, Rating, RatingStep, SeatResult
from app.models.rating import STEP_COLUMNS
from app.rules import PROFILES

MODEL = PlackettLuce()          # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0                         # the conservative number is mu - Z sigma
SHOWN_BASE = 1000
SHOWN_SCALE = 25
MIN_GAMES = 5                   # the leaderboard's default minimum of rated games
CHART_POINTS = 60               # the steps of a player's charts (and of their CSV's chart rows)
CHUNK_ROWS = 4000               # seat rows read at a time (1,000 games)

Position = tuple[datetime, int]   # (played_at, game_id): the order games are rated in


def ordinal(mu: float, sigma: float) -> float:
    """μ - 3σ, as openskill's ``PlackettLuceRating.ordinal()``."""
    return mu - Z * sigma


def shown(ordinal_value: float) -> int:
    """The number a page shows for a conservative rating: 1000 + 25 × (μ - 3σ)."""
    return round(SHOWN_BASE + SHOWN_SCALE * ordinal_value)


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place by final total: 1 + the seats with a higher total (ties share)."""
    return [1 + sum(1 for t in totals if t > mine) for mine in totals]


@dataclass(slots=True)
class State:
    """A player's running values in one profile after their latest rated game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    points: int = 0
    wins: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    player_id: int
    total: int
    won: bool


def rate(states: Sequence[State], totals: Sequence[int]) -> list[tuple[float, float]]:
    """openskill's new (μ, σ) of the four seats of one finished game."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in states]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places(totals)])
    return [(team[0].mu, team[0].sigma) for team in rated]


def advance(states: dict[int, State], profile: str, game_id: int, played_at: datetime,
            seats: Sequence[SeatLine]) -> list[dict[str, Any]]:
    """Rates one finished game: updates ``states`` and returns the four step rows."""
    before = [states.get(s.player_id) or State() for s in seats]
    totals = [s.total for s in seats]
    rated = rate(before, totals)
    rows = []
    for line, old, (mu, sigma), place in zip(seats, before, rated, places(totals), strict=True):
        streak = old.streak + 1 if line.won else 0
        new = State(mu, sigma, old.games + 1, old.points + line.total, old.wins + int(line.won), streak,
                    max(old.best_streak, streak))
        states[line.player_id] = new
        rows.append({"player_id": line.player_id, "profile": profile, "games": new.games, "game_id": game_id,
                     "played_at": played_at, "seat": line.seat, "total": line.total, "place": place,
                     "won": line.won, "mu": mu, "sigma": sigma, "points": new.points, "wins": new.wins,
                     "streak": new.streak, "best_streak": new.best_streak})
    return rows


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

def _lock(session: Session, profile: str) -> None:
    """Rating a profile's games is one at a time (PostgreSQL: a transaction lock per
    profile; SQLite serializes writers itself): two saves never rate from the same state."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                        {"k": zlib.crc32(f"rating:{profile}".encode())})


def _rating_upsert(mod: Any) -> Any:
    stmt = mod.insert(RATING_TABLE)
    return stmt.on_conflict_do_update(index_elements=["player_id", "profile"],
                                      set_={c: stmt.excluded[c] for c in ("mu", "sigma", "ordinal", "games")})


#: The core tables (multi-row inserts without the ORM's bookkeeping) and the rating rows'
#: upsert, built once (SQLite's, PostgreSQL's).
STEP_TABLE = cast(Table, RatingStep.__table__)
RATING_TABLE = cast(Table, Rating.__table__)
RATING_UPSERT = (_rating_upsert(sqlite), _rating_upsert(postgresql))


def _write_ratings(session: Session, profile: str, player_ids: set[int], states: dict[int, State]) -> None:
    """The rating rows of these players: their latest state (one upsert), or none without
    a rated game."""
    ids = sorted(player_ids)
    gone = [pid for pid in ids if (s := states.get(pid)) is None or not s.games]
    for k in range(0, len(gone), 500):
        session.execute(delete(Rating).where(Rating.profile == profile,
                                             Rating.player_id.in_(gone[k:k + 500])))
    rows = [{"player_id": pid, "profile": profile, "mu": s.mu, "sigma": s.sigma,
             "ordinal": ordinal(s.mu, s.sigma), "games": s.games}
            for pid in ids if (s := states.get(pid)) is not None and s.games]
    if not rows:
        return
    stmt = RATING_UPSERT[session.get_bind().dialect.name == "postgresql"]
    for k in range(0, len(rows), 2000):
        session.execute(stmt, rows[k:k + 2000])


Game = tuple[int, datetime, list[SeatLine]]     # (game id, played at, its four seats)


def recompute_from(session: Session, profile: str, at: Position | None,
                   changed: Sequence[Game] | None = None, *, locked: bool = False) -> int:
    """Deletes the profile's steps from ``at`` on (every step when None) and rates the
    finished games from there again, in the caller's transaction. Returns the games rated.

    ``changed``: the game at ``at`` is the one that changed, as it now stands (one game, or
    none when it is no longer finished in this profile); when no later game had a step,
    only it is rated, without reading the games again (a save of the latest game)."""
    if not locked:
        _lock(session, profile)
    rs = RatingStep
    later = and_(rs.profile == profile, _after(rs.played_at, rs.game_id, at))
    deleted = session.execute(delete(rs).where(later).returning(rs.player_id, rs.game_id)).all()
    touched = {int(pid) for pid, _gid in deleted}
    games: Iterable[Game] = finished_games(session, profile, at)
    if changed is not None and at is not None and all(gid == at[1] for _pid, gid in deleted):
        games = changed
    states: dict[int, State] = {}
    batch: list[dict[str, Any]] = []
    rated = 0
    pending: list[Game] = []

    def flush() -> None:
        unknown = {s.player_id for _g, _p, seats in pending for s in seats} - states.keys()
        if unknown and at is not None:
            states.update(_last_states(session, profile, unknown))
        for game_id, played_at, seats in pending:
            batch.extend(advance(states, profile, game_id, played_at, seats))
        if batch:
            session.execute(insert(STEP_TABLE), batch)
        batch.clear()
        pending.clear()

    for game in games:
        pending.append(game)
        rated += 1
        if len(pending) >= CHUNK_ROWS // 4:
            flush()
    flush()
    left = touched - states.keys()          # players with no game from ``at`` on any more
    if left and at is not None:
        states.update(_last_states(session, profile, left))
    _write_ratings(session, profile, touched | states.keys(), states)
    return rated


#: A change rates again only the later games it reaches (:func:`rerate_change`) while at
#: most this many finished games follow it; beyond, the steps from it on are computed
#: again whole (:func:`recompute_from`, a chunk at a time: bounded memory).
REACHED_GAMES = 1000


def _same_seats(steps: Sequence[Any], game: Game) -> bool:
    """A game's stored steps were rated from the seats it has now (same date too)."""
    seats = game[2]
    return len(steps) == len(seats) and all(
        (r.seat, r.player_id, r.total, bool(r.won)) == (s.seat, s.player_id, s.total, s.won)
        and _naive(r.played_at) == _naive(game[1]) for r, s in zip(steps, seats, strict=True))


def rerate_change(session: Session, profile: str, at: Position, game_id: int, changed: Sequence[Game]) -> int:
    """The steps after one game changed (``game_id``, first rated at ``at``; ``changed``: it
    as it stands now, or nothing when it is no longer finished in this profile). Returns the
    games rated.

    A game's steps depend on nothing but its seats and its four players' states before it,
    so only the games the change reaches are rated again: the changed game, then, in rating
    order, every later game with a player it reached (whose players it then reaches too).
    The others keep their steps, which are what rating everything again would write. At a
    club night the tables of a round have no player in common: a table that finishes after
    the others rates its own game only, where rating everything from it on rated every
    later table's again -- one after another, under the profile's lock."""
    _lock(session, profile)
    rs = RatingStep
    now_players = sorted({s.player_id for g in changed for s in g[2]})
    own = select(rs.player_id).where(rs.profile == profile, rs.game_id == game_id)
    seed_steps = session.execute(select(rs.player_id, rs.game_id).where(
        rs.profile == profile, _after(rs.played_at, rs.game_id, at),
        or_(rs.player_id.in_(own.scalar_subquery()), rs.player_id.in_(now_players)))).all()
    if any(gid != game_id for _pid, gid in seed_steps):
        return _rate_reached(session, profile, at, game_id, changed)
    # the common case: no later game has a player of this one (its own steps only)
    if seed_steps:
        session.execute(delete(rs).where(rs.profile == profile, rs.game_id == game_id))
    reached = {int(pid) for pid, _gid in seed_steps} | set(now_players)
    states = _last_states(session, profile, reached, before=at)
    batch = [row for game in changed for row in advance(states, profile, *game)]
    if batch:
        session.execute(insert(STEP_TABLE), batch)
    _write_ratings(session, profile, reached, states)
    return len(changed)


def _stored_after(session: Session, profile: str, at: Position) -> dict[int, list[Any]] | None:
    """The steps from ``at`` on by game (in rating order), or None when more than
    REACHED_GAMES games have them."""
    rs = RatingStep
    limit = 4 * REACHED_GAMES + 1
    rows = session.execute(select(*[rs.__table__.c[c] for c in STEP_COLUMNS])
                           .where(rs.profile == profile, _after(rs.played_at, rs.game_id, at))
                           .order_by(rs.played_at, rs.game_id, rs.seat).limit(limit)).all()
    if len(rows) == limit:
        return None
    stored: dict[int, list[Any]] = {}
    for r in rows:
        stored.setdefault(r.game_id, []).append(r)
    return stored


def _rate_reached(session: Session, profile: str, at: Position, game_id: int, changed: Sequence[Game]) -> int:
    """:func:`rerate_change` when later games have players of the changed one: the games
    from ``at`` on in rating order, each rated again when the change reached one of its
    players (or its steps are not what its seats say), else kept as it is."""
    stored = _stored_after(session, profile, at)
    games = [] if stored is None else list(itertools.islice(finished_games(session, profile, at),
                                                            REACHED_GAMES + 1))
    if stored is None or len(games) > REACHED_GAMES:
        return recompute_from(session, profile, at, changed, locked=True)
    now = {g[0]: g for g in games}
    order = {gid: (_naive(g[1]), gid) for gid, g in now.items()}
    for gid, steps in stored.items():
        order.setdefault(gid, (_naive(steps[0].played_at), gid))
    reached = {r.player_id for r in stored.get(game_id, [])} | {s.player_id for g in changed for s in g[2]}
    states: dict[int, State] = {}
    gone: list[int] = []
    batch: list[dict[str, Any]] = []
    for gid in sorted(order, key=order.__getitem__):
        game, steps = now.get(gid), stored.get(gid, [])
        players = {r.player_id for r in steps} | ({s.player_id for s in game[2]} if game else set())
        if gid != game_id and game is not None and _same_seats(steps, game) and not players & reached:
            for r in steps:        # kept as it is: its players' states after it
                states[r.player_id] = State(r.mu, r.sigma, r.games, r.points, r.wins, r.streak, r.best_streak)
            continue
        reached |= players
        if steps:
            gone.append(gid)
        if game is not None:
            unknown = {s.player_id for s in game[2]} - states.keys()
            states.update(_last_states(session, profile, unknown, before=at))
            batch.extend(advance(states, profile, *game))
    if gone:
        session.execute(delete(RatingStep).where(RatingStep.profile == profile, RatingStep.game_id.in_(gone)))
    if batch:
        session.execute(insert(STEP_TABLE), batch)
    states.update(_last_states(session, profile, reached - states.keys(), before=at))
    _write_ratings(session, profile, reached, states)
    return len(batch) // 4


def _naive(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def _rated_key(rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["player_id"], r["profile"], bool(r["complete"]), _naive(r["played_at"]), int(r["total"]),
             bool(r["won"])) for r in sorted(rows, key=lambda r: int(r.get("seat", 0)))]


def after_change(session: Session, game_id: int, old: Sequence[dict[str, Any]],
                 new: Sequence[dict[str, Any]]) -> None:
    """The ratings after one game's stored seat rows went from ``old`` to ``new`` (no rows:
    a new game): the games it reaches rated again when it is or was finished and what
    ratings read of it (players, totals, date, finished) changed."""
    if _rated_key(old) == _rated_key(new):
        return
    starts: dict[str, Position] = {}
    for rows in (old, new):
        if rows and rows[0]["complete"]:
            profile, at = str(rows[0]["profile"]), (rows[0]["played_at"], game_id)
            if profile not in starts or _naive(at[0]) < _naive(starts[profile][0]):
                starts[profile] = at
    now: list[Game] = []
    if new and new[0]["complete"]:
        now = [(game_id, new[0]["played_at"],
                [SeatLine(int(r["seat"]), int(r["player_id"]), int(r["total"]), bool(r["won"]))
                 for r in sorted(new, key=lambda r: int(r["seat"]))])]
    for profile, at in starts.items():
        rerate_change(session, profile, at, game_id, now if new and new[0]["profile"] == profile else [])


def after_new_games(session: Session, seat_rows: Sequence[dict[str, Any]]) -> None:
    """The ratings after many new games (an import): rated from the earliest finished one
    of each profile on."""
    starts: dict[str, Position] = {}
    for r in seat_rows:
        if r["complete"]:
            at = (r["played_at"], int(r["game_id"]))
            profile = str(r["profile"])
            first = starts.get(profile)
            if first is None or (_naive(at[0]), at[1]) < (_naive(first[0]), first[1]):
                starts[profile] = at
    for profile, at in starts.items():
        recompute_from(session, profile, at)


# --- rebuild ---------------------------------------------------------------------------------

def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, datetime) and isinstance(b, datetime):
        return _naive(a) == _naive(b)
    return bool(a == b)


def _stored_steps(session: Session, profile: str) -> Iterator[dict[str, Any]]:
    rs = RatingStep
    cols = [rs.__table__.c[c] for c in STEP_COLUMNS]
    start: tuple[datetime, int, int] | None = None
    while True:
        stmt = select(*cols).where(rs.profile == profile)
        if start is not None:
            stmt = stmt.where(tuple_(rs.played_at, rs.game_id, rs.seat) > tuple_(*start))
        rows = session.execute(stmt.order_by(rs.played_at, rs.game_id, rs.seat).limit(CHUNK_ROWS)).all()
        for r in rows:
            yield dict(r._mapping)
        if len(rows) < CHUNK_ROWS:
            return
        last = rows[-1]
        start = (last.played_at, last.game_id, last.seat)


def _first_difference(session: Session, profile: str) -> tuple[Position | None, dict[int, State]]:
    """(where the stored steps first differ from the computed ones -- a step that differs,
    one missing, or the first of steps left over after the computed ones -- or None; the
    computed final states)."""
    states: dict[int, State] = {}
    stored = _stored_steps(session, profile)
    for game_id, played_at, seats in finished_games(session, profile):
        for want in advance(states, profile, game_id, played_at, seats):
            have = next(stored, None)
            if have is None or any(not _close(have[c], want[c]) for c in STEP_COLUMNS):
                if have is not None and (_naive(have["played_at"]), have["game_id"]) < (_naive(played_at),
                                                                                          game_id):
                    return (have["played_at"], have["game_id"]), states     # a step left over
                return (played_at, game_id), states
    extra = next(stored, None)
    return (None if extra is None else (extra["played_at"], extra["game_id"])), states


def _ratings_agree(session: Session, profile: str, states: dict[int, State]) -> bool:
    have = {r.player_id: (r.mu, r.sigma, r.ordinal, r.games)
            for r in session.scalars(select(Rating).where(Rating.profile == profile))}
    if have.keys() != {pid for pid, s in states.items() if s.games}:
        return False
    return all(all(_close(a, b) for a, b in zip(have[pid], (s.mu, s.sigma, ordinal(s.mu, s.sigma), s.games),
                                                 strict=True))
               for pid, s in states.items())


def rebuild_ratings(session: Session) -> int:
    """Every profile's steps and ratings as the stored results say, written only from the
    first step that differs (nothing when they agree). Returns the games rated again."""
    rerated = 0
    for profile in PROFILES:
        at, states = _first_difference(session, profile)
        if at is not None:
            rerated += recompute_from(session, profile, at)
        elif not _ratings_agree(session, profile, states):
            everyone = set(session.scalars(select(Rating.player_id).where(Rating.profile == profile)))
            _write_ratings(session, profile, everyone | states.keys(), states)
    return rerated


# --- reading ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RatingRow:
    player_id: int
    name: str
    profile: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int = 0

    @property
    def shown(self) -> int:
        return shown(self.ordinal)


def player_ratings(session: Session, player_id: int) -> list[RatingRow]:
    """A player's ratings, one per profile played (RULES.md order)."""
    rows = session.execute(select(Rating, Player.name).join(Player, Player.id == Rating.player_id)
                           .where(Rating.player_id == player_id)).all()
    by_profile = {r.profile: RatingRow(r.player_id, name, r.profile, r.mu, r.sigma, r.ordinal, r.games)
                  for r, name in rows}
    return [by_profile[p] for p in PROFILES if p in by_profile]


def most_played_profile(session: Session, profiles: list[str]) -> str:
    """The profile of ``profiles`` the club has played most (the first of them on a tie, and
    for a club with no game yet): where the ratings page opens."""
    counts: dict[str, int] = {profile: n for profile, n in session.execute(
        select(GameRow.profile, func.count()).group_by(GameRow.profile))}
    return max(profiles, key=lambda p: (counts.get(p, 0), -profiles.index(p)))


def leaderboard(session: Session, profile: str, min_games: int = MIN_GAMES, limit: int = 100
                ) -> list[RatingRow]:
    """The profile's players with at least ``min_games`` rated games, best conservative
    rating first (equal ones share a rank)."""
    rows = session.execute(
        select(Rating, Player.name).join(Player, Player.id == Rating.player_id)
        .where(Rating.profile == profile, Rating.games >= min_games)
        .order_by(Rating.ordinal.desc(), Rating.games.desc(), Player.id).limit(limit)).all()
    out: list[RatingRow] = []
    for k, (r, name) in enumerate(rows):
        rank = out[-1].rank if out and shown(out[-1].ordinal) == shown(r.ordinal) else k + 1
        out.append(RatingRow(r.player_id, name, profile, r.mu, r.sigma, r.ordinal, r.games, rank))
    return out


def history(session: Session, player_id: int, profile: str, points: int = CHART_POINTS
            ) -> list[dict[str, Any]]:
    """At most ``points`` steps of a player's rating in one profile, spread evenly over
    their games (the first and the latest always), for the chart: read by the step
    numbers, so it costs the same after 10 games or 10,000."""
    rs = RatingStep
    n = session.scalar(select(func.max(rs.games))
                       .where(rs.player_id == player_id, rs.profile == profile)) or 0
    if not n:
        return []
    shown_steps = min(points, n)
    wanted = sorted({1 + round(k * (n - 1) / max(shown_steps - 1, 1)) for k in range(shown_steps)})
    rows = session.execute(select(rs.games, rs.game_id, rs.played_at, rs.mu, rs.sigma, rs.points, rs.total,
                                  rs.wins)
                           .where(rs.player_id == player_id, rs.profile == profile, rs.games.in_(wanted))
                           .order_by(rs.games))
    return [{"games": games, "game_id": game_id, "played_at": at, "mu": mu, "sigma": sigma,
             "ordinal": ordinal(mu, sigma), "shown": shown(ordinal(mu, sigma)), "points": pts,
             "total": total, "wins": wins}
            for games, game_id, at, mu, sigma, pts, total, wins in rows]
