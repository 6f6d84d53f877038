"""SQLAlchemy wiring: one engine per app, one session per request, migrations on start."""
from __future__ import annotations

import contextlib
import fcntl
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Engine, MetaData, create_engine, event, text
from sqlalchemy.orm import DeclarativeBase, Session, SessionTransaction, sessionmaker

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class AppSession(Session):
    """The request's session. While :meth:`held` (a write carried out once per
    ``Idempotency-Key``: app/games/idempotency.py), the services' ``commit()`` and
    ``rollback()`` act on a savepoint inside the one transaction that holds the key's row:
    the caller writes the key's answer and commits the write with it, so a key whose write
    committed always has its answer, and a crash before that commit leaves neither. What a
    service commits before refusing (a wrong PIN counted) stays, and is committed with the
    refusal's answer."""

    _held: SessionTransaction | None = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Commits inside the block are savepoints; the caller commits the whole."""
        self._held = self.begin_nested()
        try:
            yield
        except BaseException:
            self._held = None
            super().rollback()
            raise
        held, self._held = self._held, None
        if held is not None and held.is_active:
            held.commit()

    def commit(self) -> None:
        if self._held is None:
            super().commit()
            return
        if self._held.is_active:
            self._held.commit()
        self._held = self.begin_nested()

    def rollback(self) -> None:
        if self._held is None:
            super().rollback()
            return
        if self._held.is_active:
            self._held.rollback()
        self._held = self.begin_nested()


class Database:
    """The engine and session factory of one app."""

    def __init__(self, url: str) -> None:
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "checkin", _sqlite_optimize)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False, class_=AppSession)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys on; write-ahead logging, so that readers never wait for a writer (the
    app runs with several workers) and a commit costs one fsync instead of a journal's
    several, with `synchronous` left at FULL: a saved hand survives a power cut."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
    cursor.close()


#: The rows of an index that SQLite's ANALYZE reads at most (an estimate, in a few ms).
ANALYSIS_LIMIT = 1000


def _sqlite_optimize(dbapi_connection: Any, _record: Any) -> None:
    """``PRAGMA optimize`` as a connection goes back to the pool: SQLite gathers the
    statistics its query planner needs for the tables this connection read with an index
    that have none yet or have grown 25-fold since (a few microseconds when there is nothing
    to do). Without them the planner read every rifki rating step to find four players'
    last ones (a finishing save's ratings at 20,000 games: 15.8 ms, 10.3 ms with them;
    bench/scale.py). Never waits for another writer: with the database busy it is left to
    the next time."""
    if dbapi_connection is None:
        return
    try:
        waits = dbapi_connection.execute("PRAGMA busy_timeout").fetchone()[0]
    except sqlite3.Error:
        return
    try:
        dbapi_connection.execute("PRAGMA busy_timeout=0")
        dbapi_connection.execute("PRAGMA optimize").fetchall()
    except sqlite3.Error:
        pass
    finally:
        with contextlib.suppress(sqlite3.Error):
            dbapi_connection.execute(f"PRAGMA busy_timeout={int(waits)}")


def alembic_config(url: str) -> Any:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


#: The key of the PostgreSQL advisory lock held while migrating ("kingsheet" in ASCII).
MIGRATE_LOCK_KEY = 0x6B696E6773686565


def upgrade(db: Database) -> None:
    """`alembic upgrade head` on the app's database, by one process at a time.

    Every gunicorn worker builds the app and so migrates on start; without the lock two
    workers on an empty database both create ``alembic_version`` and one dies ("Worker failed
    to boot"). A file lock next to the SQLite file, or a PostgreSQL advisory lock, makes the
    others wait; they then find the database at head and do nothing."""
    url = db.engine.url
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            _upgrade(db)
            return
        with open(f"{url.database}.migrate-lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                _upgrade(db)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    elif url.get_backend_name() == "postgresql":
        with db.engine.connect() as holder:
            holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATE_LOCK_KEY})
            holder.commit()
            try:
                _upgrade(db)
            finally:
                holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATE_LOCK_KEY})
                holder.commit()
    else:
        _upgrade(db)


def _upgrade(db: Database) -> None:
    cfg = alembic_config(str(db.engine.url.render_as_string(hide_password=False)))
    with db.engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def init_app(app: Flask) -> None:
    url = app.config["DATABASE_URL"]
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    db = Database(url)
    app.extensions["kingsheet_db"] = db
    if app.config.get("AUTO_MIGRATE", True):
        upgrade(db)
    app.teardown_appcontext(_close_session)


def get_db(app: Flask | None = None) -> Database:
    return (app or current_app).extensions["kingsheet_db"]  # type: ignore[no-any-return]


def get_session() -> Session:
    """The request's session (opened on first use, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = get_db().sessionmaker()
    return g.db_session  # type: ignore[no-any-return]


def _close_session(_exc: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


#: What SQLite says when its file cannot be had now (locked beyond the busy timeout, gone).
_SQLITE_AWAY = ("database is locked", "database is busy", "unable to open database", "disk i/o error")


def is_database_away(e: Exception) -> bool:
    """Whether a database error means the database cannot be reached now (connection lost or
    refused, the server shutting down, a SQLite file locked or unreadable), rather than a
    statement the database refused."""
    if getattr(e, "connection_invalidated", False):
        return True
    orig = getattr(e, "orig", None)
    module = type(orig).__module__ if orig is not None else ""
    if module.startswith("psycopg"):
        # psycopg raises its OperationalError itself for connections; a refused statement is
        # a subclass with a SQLSTATE (e.g. "57P01" admin shutdown is still the server away)
        sqlstate = getattr(orig, "sqlstate", None)
        return sqlstate is None or sqlstate.startswith(("08", "57P"))
    said = str(orig if orig is not None else e).lower()
    return any(words in said for words in _SQLITE_AWAY)
