"""Configuration: defaults here; instance/config.py, then environment variables override.

`DATABASE_URL` picks the database (SQLite in instance/ by default, PostgreSQL when it says
so); `SECRET_KEY` signs sessions and CSRF tokens (a random one is kept in instance/ when
none is given, so sessions survive restarts).
"""
from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from app.rules.search.analysis import BUDGET_S

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,          # None: sqlite:///<instance>/kingsheet.sqlite
    "AUTO_MIGRATE": True,          # run `alembic upgrade head` when the app starts
    "SECRET_KEY": None,
    "BABEL_DEFAULT_LOCALE": "es",
    "LANGUAGES": ("es", "en", "tr", "ru"),
    # The club's time zone: every date and time a page or PDF shows (stored in UTC)
    "CLUB_TIME_ZONE": "Europe/Madrid",
    "WTF_CSRF_TIME_LIMIT": None,   # a game lasts an evening; tokens live with the session
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # The session cookie (logged-in user, language, CSRF) only over HTTPS: on in production
    # behind TLS (docs/deploy.md), off for `make run` on http://127.0.0.1.
    "SESSION_COOKIE_SECURE": False,
    "SESSION_COOKIE_HTTPONLY": True,
    # A login outlives closing the phone's browser (hands waiting in its outbox are sent
    # when it opens again): a week of club nights. Logging out ends it at once.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=7),
    # The session cookie is sent only when the session changed. The service worker fetches
    # pages in the background; with the cookie sent on every answer, one that arrived after
    # a language switch put the old language back (the week counts from the last change).
    "SESSION_REFRESH_EACH_REQUEST": False,
    "EXPORTS_DIR": None,           # None: <instance>/exports (finished bulk PDF exports)
    # The disk the finished exports may take, in MB: past it the oldest are removed (0: no
    # bound but their age, app/printing/exports.py KEEP_FOR).
    "EXPORTS_MAX_MB": 200,
    # Finished PDF renders kept for the next download (app/printing/cache.py): the folder (None:
    # <instance>/pdf-cache; every worker and app server may share it) and its bound in MB
    # (0: nothing is kept).
    # Whole pages kept per process for the next identical read (app/games/sheet/page_cache.py):
    # their bound in KB of text (0: nothing kept), and whether every page served from there
    # is rendered again and compared (None: on in the tests, TESTING, off in production).
    "PAGE_CACHE_KB": 16 * 1024,
    "PAGE_CACHE_VERIFY": None,
    # The version check's short way (app/games/sheet/fast_poll.py): whether every 304 it answers is
    # compared with the app's own answer (None: on in the tests, TESTING, off in production).
    "FAST_POLL_VERIFY": None,
    "PDF_CACHE_DIR": None,
    "PDF_CACHE_MB": 256,
    # Processes rendering one bulk export (app/printing/pool.py); None: one per core.
    "EXPORT_PROCESSES": None,
    # How many reverse proxies in front of the app set X-Forwarded-For / -Proto / -Host
    # (werkzeug's ProxyFix). 0: none is trusted, the client is the connection's address.
    # Behind the nginx of docs/deploy.md: 1. Never more than there really are: a client
    # could then choose its own address (and its own login throttle).
    "PROXY_COUNT": 0,
    # The search time of one analysis of a disputed play (app/api/analysis.py, ANALYSIS.md
    # §2: every request answers within 10 s); past it the values are sound bounds.
    "ANALYSIS_BUDGET_S": BUDGET_S,
    # The search time of all the alternatives the hand page shows (app/games/referee/deal_viewer.py),
    # shared among its violations: short, so the page answers fast; past it, bounds.
    "ANALYSIS_PAGE_BUDGET_S": 1.5,
}

ENV_KEYS = ("DATABASE_URL", "SECRET_KEY", "CLUB_TIME_ZONE", "PROXY_COUNT", "PDF_CACHE_DIR",
            "PDF_CACHE_MB", "EXPORT_PROCESSES", "EXPORTS_MAX_MB")
#: On/off settings read from the environment ("1", "true", "yes", "on" mean on).
ENV_FLAGS = ("SESSION_COOKIE_SECURE", "PAGE_CACHE_VERIFY", "FAST_POLL_VERIFY")


def normalize_database_url(url: str) -> str:
    """Use the psycopg 3 driver for plain postgres URLs (Heroku style too)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def load_config(config: Any, instance_path: str, test_config: dict[str, Any] | None) -> None:
    """Fill a Flask config object: defaults < instance/config.py < environment < test_config."""
    config.update(DEFAULTS)
    config.from_pyfile("config.py", silent=True)
    _from_environment(config)
    if test_config:
        _from_test_config(config, test_config)
    if not config.get("DATABASE_URL"):
        config["DATABASE_URL"] = "sqlite:///" + str(Path(instance_path) / "kingsheet.sqlite")
    config["DATABASE_URL"] = normalize_database_url(config["DATABASE_URL"])
    config["BABEL_DEFAULT_TIMEZONE"] = config["CLUB_TIME_ZONE"]
    for flag in ("PAGE_CACHE_VERIFY", "FAST_POLL_VERIFY"):
        if config.get(flag) is None:
            config[flag] = bool(config.get("TESTING"))
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = _instance_secret(Path(instance_path))


def _from_environment(config: Any) -> None:
    """The settings the environment sets (an empty variable sets nothing)."""
    for key in ENV_KEYS:
        if os.environ.get(key):
            config[key] = os.environ[key]
    for key in ENV_FLAGS:
        if os.environ.get(key):
            config[key] = os.environ[key].strip().lower() in ("1", "true", "yes", "on")


def _from_test_config(config: Any, test_config: dict[str, Any]) -> None:
    """A test's settings over all others (its SQLALCHEMY_DATABASE_URI as the DATABASE_URL)."""
    config.update(test_config)
    if "SQLALCHEMY_DATABASE_URI" in test_config and "DATABASE_URL" not in test_config:
        config["DATABASE_URL"] = test_config["SQLALCHEMY_DATABASE_URI"]


def _instance_secret(instance: Path) -> str:
    path = instance / "secret_key"
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        return _write_secret(path)
    if key:
        _make_private(path)
        return key
    return _write_secret(path)


def _make_private(path: Path) -> None:
    """Only the owner may read the key (a key written before this rule is tightened)."""
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
    except OSError:
        pass


def _write_secret(path: Path) -> str:
    """A new key, written once: every worker starting at the same moment ends up with the
    key of the first one to create the file (written aside with mode 0600, then linked into
    place, which fails if the file appeared meanwhile)."""
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(key)
            try:
                os.link(aside, path)
            except FileExistsError:
                key = path.read_text().strip() or key
        finally:
            aside.unlink()
    except OSError:
        pass  # read-only instance folder: a per-process key still works
    return key
