"""Ratings a correction puts behind are brought up to date by a job (issue 41): the
correction's request leaves them to it; the job's short parts, interleaved with other saves
and corrections, end exactly where ratings from nothing are; the job runs after the
commit and at start-up; other saves go on while it runs (SQLite and PostgreSQL); the pages
say "ratings updating" meanwhile; ``games rebuild`` and ``games rerate`` close it."""
from __future__ import annotations

import copy
import random
import threading
import time
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.db import get_db
from app.games import hands
from app.games.games import import_game
from app.models import Game, RatingBacklog, RatingStep
from app.stats import rating_backlog, ratings
from tests.conftest import make_app
from tests.services.test_ratings import correct_at_random, scratch, seated, snapshot_ratings

pytestmark = pytest.mark.every_database


@pytest.fixture
def kicks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The job's thread is not started: the test runs its parts itself."""
    calls: list[Any] = []
    monkeypatch.setattr(rating_backlog.Rerater, "kick", classmethod(lambda cls, engine: calls.append(engine)))
    return calls


def club(session: Any, n: int, rng: random.Random, profile: str = "ru32") -> list[tuple[int, dict[str, Any]]]:
    pool = [f"J{k}" for k in range(10)]
    made = []
    for _ in range(n):
        full = seated(profile, rng.sample(pool, 4))
        made.append((import_game(session, copy.deepcopy(full)).id, full))
    return made


def steps_of(session: Any, game_id: int) -> list[tuple[Any, ...]]:
    session.expire_all()
    return [tuple(r) for r in session.execute(
        select(RatingStep.player_id, RatingStep.mu).where(RatingStep.game_id == game_id))]


def test_a_correction_far_back_is_left_to_the_job_which_ends_where_scratch_does(session, kicks, monkeypatch):
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 3)
    rng = random.Random(5)
    made = club(session, 8, rng)
    assert not kicks and rating_backlog.behind(session) == {}      # imports in order: no backlog
    first_id, full = made[0]
    first = session.get(Game, first_id)
    before = snapshot_ratings(session)
    hands.delete_last_hand(session, first, expected_version=first.version)   # 7 games follow
    assert len(kicks) == 1                                   # the job woken after the commit
    row = session.get(RatingBacklog, "ru32")
    assert row is not None and row.game_id == first_id
    assert "ru32" in rating_backlog.behind(session)
    assert snapshot_ratings(session) == before               # the request rated nothing
    assert snapshot_ratings(session) != scratch(session)
    parts = 0
    while rating_backlog.catch_up(session, games=2):
        parts += 1
    assert parts == 3                                        # 7 games in parts of 2
    assert rating_backlog.behind(session) == {}
    assert snapshot_ratings(session) == scratch(session)


@pytest.mark.parametrize("seed", [2, 9, 17])
def test_parts_interleaved_with_saves_and_corrections_end_where_scratch_does(session, kicks, monkeypatch,
                                                                                 seed):
    """Random corrections of old and new games, each followed by a random number of the
    job's parts of random length: a save while a backlog is open leaves its rating to the
    job, an earlier correction moves the backlog back; when the job has run out, the steps
    and ratings are those computed from nothing."""
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 2)
    rng = random.Random(seed)
    made = club(session, 9, rng)
    for _ in range(12):
        game_id, full = rng.choice(made)
        correct_at_random(session, rng, session.get(Game, game_id), full)
        if rng.random() < 0.3:
            made += club(session, 1, rng)                    # a new game finished meanwhile
        for _ in range(rng.randrange(3)):
            rating_backlog.catch_up(session, games=rng.randrange(1, 4))
    rating_backlog.catch_up_all(session)
    assert rating_backlog.behind(session) == {}
    assert snapshot_ratings(session) == scratch(session)


def test_a_save_while_behind_waits_for_the_job_and_an_earlier_change_moves_it_back(session, kicks,
                                                                                   monkeypatch):
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 1)
    made = club(session, 5, random.Random(3))
    third = session.get(Game, made[2][0])
    hands.delete_last_hand(session, third, expected_version=third.version)
    assert session.get(RatingBacklog, "ru32").game_id == third.id
    latest = import_game(session, seated("ru32", ["J1", "J2", "J3", "J4"]))    # the latest game
    assert steps_of(session, latest.id) == []               # left to the job
    first = session.get(Game, made[0][0])
    hands.delete_last_hand(session, first, expected_version=first.version)
    assert session.get(RatingBacklog, "ru32").game_id == first.id            # moved back
    rating_backlog.catch_up_all(session)
    assert len(steps_of(session, latest.id)) == 4
    assert snapshot_ratings(session) == scratch(session)


def test_rebuild_and_rerate_close_the_backlog(app, session, runner, kicks, monkeypatch):
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 1)
    made = club(session, 4, random.Random(8))
    first = session.get(Game, made[0][0])
    hands.delete_last_hand(session, first, expected_version=first.version)
    assert rating_backlog.behind(session)
    out = runner.invoke(args=["games", "rerate"])
    assert out.exit_code == 0 and "ratings up to date (1 part(s)" in out.output, out.output
    session.expire_all()
    assert rating_backlog.behind(session) == {}
    assert snapshot_ratings(session) == scratch(session)
    hands.record_hand(session, first, made[0][1]["hands"][-1], expected_version=first.version)
    assert rating_backlog.behind(session)
    assert runner.invoke(args=["games", "rebuild"]).exit_code == 0
    session.expire_all()
    assert rating_backlog.behind(session) == {}
    assert snapshot_ratings(session) == scratch(session)


def test_the_pages_say_ratings_updating_until_the_job_is_done(app, session, client, kicks, monkeypatch):
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 1)
    made = club(session, 6, random.Random(4))
    player = session.get(Game, made[0][0]).seats[0].player_id
    for url in ("/players/ratings?profile=ru32", f"/players/{player}"):
        assert "Ratings updating" not in client.get(url).get_data(as_text=True)
    first = session.get(Game, made[0][0])
    hands.delete_last_hand(session, first, expected_version=first.version)
    page = client.get("/players/ratings?profile=ru32").get_data(as_text=True)
    assert 'id="ratings-updating"' in page and "Ratings updating after a correction" in page
    assert "Ratings updating" not in client.get("/players/ratings?profile=rifki").get_data(as_text=True)
    assert 'data-updating="ru32"' in client.get(f"/players/{player}").get_data(as_text=True)
    rating_backlog.catch_up_all(session)
    assert "Ratings updating" not in client.get("/players/ratings?profile=ru32").get_data(as_text=True)


def wait_until_caught_up(engine: Any, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with Session(engine) as s:
            if s.scalar(select(RatingBacklog.profile).limit(1)) is None:
                return
        time.sleep(0.05)
    pytest.fail(f"the ratings job did not finish within {seconds} s")


def test_the_job_runs_after_the_commit_and_at_start_up(app, session, database_url, monkeypatch):
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 1)
    monkeypatch.setattr(rating_backlog, "PART_GAMES", 2)
    made = club(session, 7, random.Random(6))
    first = session.get(Game, made[0][0])
    hands.delete_last_hand(session, first, expected_version=first.version)   # the real thread
    wait_until_caught_up(get_db(app).engine)
    assert snapshot_ratings(session) == scratch(session)
    # a backlog a stopped process left: a new app (process) takes it up as it starts
    session.add(RatingBacklog(profile="ru32", played_at=first.created_at, game_id=first.id,
                              since=first.created_at))
    ru32 = session.get(Game, made[3][0])
    session.execute(RatingStep.__table__.delete().where(RatingStep.game_id == ru32.id))
    session.commit()
    assert snapshot_ratings(session) != scratch(session)
    other = make_app(database_url)
    try:
        wait_until_caught_up(get_db(other).engine)
    finally:
        get_db(other).dispose()
    assert snapshot_ratings(session) == scratch(session)


def test_saves_go_on_while_the_job_rates_a_long_backlog(app, session, kicks, monkeypatch):
    """The job's parts run in a thread while three other threads save hands into games of
    their own (the club's other tables): every save succeeds, and the ratings end where
    ratings from nothing are."""
    monkeypatch.setattr(rating_backlog, "IN_REQUEST_GAMES", 1)
    rng = random.Random(12)
    made = club(session, 30, rng)
    first = session.get(Game, made[0][0])
    hands.delete_last_hand(session, first, expected_version=first.version)
    tables = []
    for k in range(3):
        full = seated("ru32", [f"M{k}a", f"M{k}b", f"M{k}c", f"M{k}d"])
        record = copy.deepcopy(full)
        record["hands"] = []
        tables.append((import_game(session, record).id, full))
    session.commit()
    engine = get_db(app).engine
    errors: list[BaseException] = []

    def job() -> None:
        try:
            with Session(engine) as s:
                while rating_backlog.catch_up(s, games=3):
                    pass
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    def table(game_id: int, full: dict[str, Any]) -> None:
        try:
            with app.app_context():
                from app.db import get_session

                s = get_session()
                for hand in full["hands"]:
                    game = s.get(Game, game_id, populate_existing=True)
                    hands.record_hand(s, game, hand, expected_version=game.version)
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    threads = [threading.Thread(target=job)] + [threading.Thread(target=table, args=t) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    rating_backlog.catch_up_all(session)     # the tables' last saves came while it was open
    session.expire_all()
    for game_id, full in tables:
        assert len(session.get(Game, game_id).record["hands"]) == len(full["hands"])
    assert snapshot_ratings(session) == scratch(session)


def _short_games(session: Any, tables: list[list[str]], profile: str = "fiestas"
                 ) -> list[tuple[int, dict[str, Any]]]:
    """Games of these players, each one hand short of its end (committed)."""
    made = []
    for names in tables:
        full = seated(profile, names)
        short = copy.deepcopy(full)
        short["hands"] = short["hands"][:-1]
        made.append((import_game(session, short).id, full))
    session.commit()
    return made


def _finish(app: Any, game_id: int, full: dict[str, Any], errors: list[BaseException],
            done: list[int]) -> None:
    """A table's last hand saved from its own phone (thread, session, transaction)."""
    try:
        with app.app_context():
            from app.db import get_session

            s = get_session()
            game = s.get(Game, game_id, populate_existing=True)
            hands.record_hand(s, game, full["hands"][-1], expected_version=game.version)
            done.append(game_id)
    except BaseException as e:  # noqa: BLE001 - reported by the test
        errors.append(e)


def test_tables_finishing_together_do_not_wait_for_each_other(app, session, kicks, monkeypatch):
    """A round's tables finish at once. While one finishing save holds its transaction open
    (its game rated alone, not yet committed), another table's finishing save goes through:
    on PostgreSQL each takes the profile's lock shared and its own players' locks
    (bench/evening.py: a game's last hand p50 324 ms with the lock whole). Both end where
    ratings from nothing are. SQLite has one writer, and no such locks."""
    if session.get_bind().dialect.name != "postgresql":
        assert not rating_backlog._lock_players(session, "fiestas", [])
        return
    tables = [[f"R{4 * t + s}" for s in range(4)] for t in range(2)]
    (a_id, a_full), (b_id, b_full) = _short_games(session, tables)
    real = ratings.rate_alone
    held, release = threading.Event(), threading.Event()

    def slow(s: Any, profile: str, at: Any, seats: Any) -> bool:
        rated = real(s, profile, at, seats)
        if at[1] == a_id:
            held.set()
            release.wait(30)
        return rated

    monkeypatch.setattr(ratings, "rate_alone", slow)
    errors: list[BaseException] = []
    done: list[int] = []
    first = threading.Thread(target=_finish, args=(app, a_id, a_full, errors, done))
    first.start()
    second = threading.Thread(target=_finish, args=(app, b_id, b_full, errors, done))
    try:
        assert held.wait(30)
        # the first table's four players' locks (pg_locks is the server's: this database's
        # only; another test process's saves take players' locks in theirs)
        with get_db(app).engine.connect() as look:
            assert look.scalar(text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")) == 4
        second.start()
        second.join(timeout=15)
        while_the_first_is_open = list(done)
    finally:        # a failed check must not leave the first save holding its transaction
        release.set()
        first.join(timeout=30)
        if second.ident is not None:            # started
            second.join(timeout=30)
    assert errors == []
    assert while_the_first_is_open == [b_id]
    assert sorted(done) == sorted([a_id, b_id]) and not kicks
    assert snapshot_ratings(session) == scratch(session)


def test_a_finishing_save_that_would_wait_for_the_whole_lock_leaves_it_to_the_job(app, session, kicks):
    """Game X and, after it, game Y share a player; Y is rated first. X's last hand comes
    while another save holds the profile's lock shared: X cannot be rated alone (Y's later
    step has its player), and rather than wait for the lock whole (two saves doing so would
    deadlock) the save opens the backlog and answers; the job ends where ratings from
    nothing are."""
    if session.get_bind().dialect.name != "postgresql":
        assert not rating_backlog._lock_players(session, "fiestas", [])
        return
    [(x_id, x_full)] = _short_games(session, [["S0", "S1", "S2", "S3"]])
    import_game(session, seated("fiestas", ["S0", "T1", "T2", "T3"]))      # Y, finished
    session.commit()
    engine = get_db(app).engine
    errors: list[BaseException] = []
    done: list[int] = []
    with engine.connect() as other:          # another table's finishing save, in flight
        other.execute(text("SELECT pg_advisory_xact_lock_shared(:k)"),
                      {"k": ratings.lock_key("fiestas")})
        save = threading.Thread(target=_finish, args=(app, x_id, x_full, errors, done))
        save.start()
        save.join(timeout=15)
        assert done == [x_id] and errors == []
        other.rollback()
    assert "fiestas" in rating_backlog.behind(session) and kicks
    rating_backlog.catch_up_all(session)
    assert rating_backlog.behind(session) == {}
    assert snapshot_ratings(session) == scratch(session)


def test_the_job_says_a_database_away_in_one_line(caplog):
    """The ratings job meeting a database that is away (PostgreSQL refusing connections)
    stops with one line, not a traceback (the error pages say the outage once too), and
    any other failure keeps its traceback."""
    import logging

    from sqlalchemy import create_engine

    caplog.set_level(logging.ERROR, logger=rating_backlog.log.name)
    away = create_engine("postgresql+psycopg://postgres@127.0.0.1:9/none",
                         connect_args={"connect_timeout": 2})
    rating_backlog.Rerater.kick(away)
    thread = rating_backlog.Rerater._all[id(away)].thread
    assert thread is not None
    thread.join(20)
    said = [r for r in caplog.records if r.name == rating_backlog.log.name]
    assert [r.getMessage().split(";")[0] for r in said] == [
        "ratings: the job stopped, the database is away (OperationalError)"]
    assert not said[0].exc_info
    rating_backlog.Rerater._all.pop(id(away), None)
    away.dispose()
