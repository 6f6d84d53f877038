"""Ratings that a correction puts behind, brought up to date by a job (issue 41).

A save rates its profile in its own transaction (:func:`project`, the ratings' projector of
:mod:`app.stats.projections`) while few rated games come after the changed one -- a
game's last hand, a table finishing after the others of its round: the API and the pages
show the new ratings at once. A change that more than :data:`IN_REQUEST_GAMES` later games
follow (a correction of an old game, an import of old games) would hold the club's write
lock for seconds: the request instead writes a :class:`~app.models.RatingBacklog` row for
the profile (where to rate from; an earlier change moves it back) and answers. The job
(:func:`catch_up`, run by :class:`Rerater` after the commit, at start-up and by
``games rerate``) rates the profile again from there in parts of :data:`PART_GAMES`
games, each part one short transaction holding the profile's lock, and deletes the row
when a part reaches the last game; the same walk as a save's (``ratings.walk``), so it
ends exactly where ``games rebuild`` does. Every save of the profile meanwhile leaves its
rating to the job (it would rate from states not yet final). Pages say "ratings updating"
while a row exists (:func:`behind`).
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Engine, delete, event, select, text, tuple_, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session

from app.db import is_database_away, utcnow
from app.models import RatingBacklog
from app.stats import ratings
from app.stats.rating_model import SeatLine
from app.stats.ratings import Rows

#: A change followed by at most this many rated games of its profile is rated in its own
#: request (the walk reads their steps and computes only the games the change reaches: a
#: table of a 100-table round finishing after the others is one of these); past it, by
#: the job (a correction at 20,000 games half way back: 2,449 later games).
IN_REQUEST_GAMES = 500
#: The games one part of the job rates in one transaction (measured at 20,000 games: about
#: 0.1 s of the write lock).
PART_GAMES = 250

log = logging.getLogger("kingsheet.ratings")


def project(session: Session, changes: Iterable[tuple[int, Rows, Rows]]) -> int:
    """The ratings' projector (in the writer's transaction): each profile whose rated facts
    changed is rated again from its earliest change -- here when few games follow it and
    no backlog is open, otherwise by the job. Returns the games written here.

    A game just finished whose players have no later step is rated alone
    (``ratings.rate_alone``); on PostgreSQL under the profile's lock *shared* and its four
    players' locks, so that the tables of a round finishing together do not wait for each
    other (:func:`_lock_players`). Anything else walks under the profile's lock alone."""
    changes = list(changes)
    return sum(_rate(session, profile, at, _just_finished(changes, profile, at))
               for profile, at in sorted(ratings.starts(changes).items()))


def _rate(session: Session, profile: str, at: ratings.Position, finished: list[SeatLine] | None) -> int:
    """:func:`project` for one profile: the games written here (0: left to the job)."""
    whole = _lock(session, profile, finished)
    row = session.get(RatingBacklog, profile)
    if row is None and finished is not None and ratings.rate_alone(session, profile, at, finished):
        return 1
    if not whole:
        # a game sharing a player was rated meanwhile, or a backlog is open: the walk
        # needs the lock whole, tried rather than waited for (two saves holding it
        # shared and waiting for it whole would deadlock); if taken, read again
        whole = bool(ratings.lock(session, profile, "pg_try_advisory_xact_lock"))
        row = session.get(RatingBacklog, profile, populate_existing=True) if whole else None
    if whole and row is None and _few_follow(session, profile, at):
        return ratings.rate_from(session, profile, at)
    _leave_to_job(session, profile, at, row)
    return 0


def _lock(session: Session, profile: str, finished: list[SeatLine] | None) -> bool:
    """The profile's lock whole (True), or for a just-finished game on PostgreSQL shared with
    its players' own (:func:`_lock_players`, False)."""
    if finished is not None and _lock_players(session, profile, finished):
        return False
    ratings.lock(session, profile)
    return True


def _lock_players(session: Session, profile: str, seats: list[SeatLine]) -> bool:
    """On PostgreSQL: the profile's lock shared, then each player's of the game (in player
    order, as every save takes them) exclusively; False elsewhere (SQLite has one writer)."""
    if session.get_bind().dialect.name != "postgresql":
        return False
    ratings.lock(session, profile, "pg_advisory_xact_lock_shared")
    key = ratings.lock_key(profile) - (1 << 31)       # a signed int4
    # one statement, the players taken in the array's order (unnest keeps it)
    session.execute(text("SELECT pg_advisory_xact_lock(:k, p) FROM unnest(CAST(:ps AS integer[])) AS p"),
                    {"k": key, "ps": sorted({s.player_id for s in seats})})
    return True


def _leave_to_job(session: Session, profile: str, at: ratings.Position, row: RatingBacklog | None) -> None:
    """The profile's backlog opened at ``at`` or moved back to it; the job kicked after the
    commit. ``row``: the profile's row read under its lock whole; None: none read, or the
    lock held shared only, so another save may write it too: one statement writes it, the
    earlier position kept."""
    if row is not None:
        if ratings.earlier(at, (row.played_at, row.game_id)):
            row.played_at, row.game_id = at
    elif session.get_bind().dialect.name == "postgresql":
        new = postgresql.insert(RatingBacklog).values(profile=profile, played_at=at[0], game_id=at[1],
                                                      since=utcnow())
        rb, moved = RatingBacklog.__table__.c, new.excluded
        session.execute(new.on_conflict_do_update(
            index_elements=["profile"], set_={"played_at": moved.played_at, "game_id": moved.game_id},
            where=tuple_(rb.played_at, rb.game_id) > tuple_(moved.played_at, moved.game_id)))
    else:
        session.add(RatingBacklog(profile=profile, played_at=at[0], game_id=at[1], since=utcnow()))
    session.flush()
    _kick_after_commit(session)


def _just_finished(changes: list[tuple[int, Rows, Rows]], profile: str, at: ratings.Position
                   ) -> list[SeatLine] | None:
    """The seats of the one game of ``profile`` that these changes finish (at ``at``), when
    that is all they change of the profile's ratings; else None."""
    mine = [change for change in changes if _rated_in(change, profile)]
    if len(mine) != 1 or mine[0][0] != at[1]:
        return None
    _game_id, old, new = mine[0]
    if any(r["complete"] for r in old) or len(new) != 4:
        return None
    return [SeatLine(int(r["seat"]), int(r["player_id"]), int(r["total"]), bool(r["won"]))
            for r in sorted(new, key=lambda r: int(r["seat"]))]


def _rated_in(change: tuple[int, Rows, Rows], profile: str) -> bool:
    """Whether a game's change touches rows the profile's ratings read (finished ones)."""
    return any(str(r["profile"]) == profile and r["complete"] for r in (*change[1], *change[2]))


def _few_follow(session: Session, profile: str, at: ratings.Position) -> bool:
    return ratings.later_games(session, profile, at, IN_REQUEST_GAMES + 1) <= IN_REQUEST_GAMES


def catch_up(session: Session, profile: str | None = None, games: int = PART_GAMES) -> bool:
    """One part of the job (its own transaction, committed here): the first open backlog
    (``profile``'s when given) rated on by at most ``games`` games. Returns whether a
    backlog is left."""
    query = select(RatingBacklog.profile).order_by(RatingBacklog.profile).limit(1)
    if profile is not None:
        query = query.where(RatingBacklog.profile == profile)
    chosen = session.scalar(query)
    if chosen is None:
        session.rollback()
        return False
    # the locks in the order a save takes them -- the profile's (PostgreSQL), then the row
    # -- or a save holding the first and waiting for the second deadlocks with the part;
    # on SQLite the write begins the transaction, so no save moves the row between reading
    # it and writing it
    ratings.lock(session, chosen)
    session.execute(update(RatingBacklog).where(RatingBacklog.profile == chosen)
                    .values(since=RatingBacklog.since))
    row = session.get(RatingBacklog, chosen, populate_existing=True)
    if row is not None:         # (another process may have finished it meanwhile)
        _written, stop = ratings.walk(session, chosen, (row.played_at, row.game_id), skip=False, games=games)
        if stop is None:
            session.delete(row)
        else:
            row.played_at, row.game_id = stop
    session.commit()
    return session.scalar(select(RatingBacklog.profile).limit(1)) is not None


def catch_up_all(session: Session) -> int:
    """Every backlog to its end (``games rerate``, a test). Returns the parts run."""
    parts = 0
    while session.scalar(select(RatingBacklog.profile).limit(1)) is not None:
        catch_up(session)
        parts += 1
    session.rollback()
    return parts


def cleared(session: Session) -> None:
    """Every profile rated from nothing (``games rebuild``, its transaction): no backlog."""
    session.execute(delete(RatingBacklog))


def behind(session: Session) -> dict[str, datetime]:
    """The profiles whose ratings are being brought up to date, and since when."""
    return {r.profile: r.since for r in session.scalars(select(RatingBacklog))}


# --- the job's thread ----------------------------------------------------------------------------

class Rerater:
    """One thread per process and database runs the job's parts until no backlog is left;
    woken after a commit that opened or moved a backlog, and at start-up. Several processes
    (gunicorn's workers, several app servers) may run it at once: each part takes the
    profile's lock and reads where to go on from the row."""

    _all: dict[int, Rerater] = {}
    _guard = threading.Lock()

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None

    @classmethod
    def kick(cls, engine: Engine) -> None:
        with cls._guard:
            runner = cls._all.get(id(engine))
            if runner is None or runner.engine is not engine:
                runner = cls._all[id(engine)] = Rerater(engine)
            runner.wake.set()
            if runner.thread is None or not runner.thread.is_alive():
                runner.thread = threading.Thread(target=runner._run, daemon=True, name="kingsheet-rerate")
                runner.thread.start()

    def _run(self) -> None:
        while self.wake.is_set():
            self.wake.clear()
            try:
                with Session(self.engine) as session:
                    while True:
                        start = time.monotonic()
                        if not catch_up(session):
                            break
                        # the write lock left free as long as the part held it: SQLite's
                        # waiting writers sleep and retry, and would keep missing a lock
                        # taken again at once (a save waited 2 s behind 0.1 s parts)
                        time.sleep(min(1.0, max(0.02, time.monotonic() - start)))
            except Exception as e:  # noqa: BLE001 - logged; the next kick or start-up goes on
                if is_database_away(e):     # an outage: one line, the error pages say the rest
                    log.error("ratings: the job stopped, the database is away (%s); the next save "
                              "or start-up resumes it", type(e).__name__)
                else:
                    log.exception("ratings: the job stopped; the next save or start-up resumes it")
                return


def _kick_after_commit(session: Session) -> None:
    engine = session.get_bind()
    if isinstance(engine, Engine) and not session.info.get("rerate_kick"):
        session.info["rerate_kick"] = True

        def kick(committed: Session) -> None:
            committed.info.pop("rerate_kick", None)
            Rerater.kick(engine)

        event.listen(session, "after_commit", kick, once=True)


def resume(engine: Engine) -> None:
    """At start-up: a backlog left by a stopped process is taken up again."""
    with Session(engine) as session:
        if session.scalar(select(RatingBacklog.profile).limit(1)) is not None:
            Rerater.kick(engine)
