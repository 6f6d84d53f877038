"""Configuration: defaults here; instance/config.py, then environment variables override.

`DATABASE_URL` picks the database (SQLite in instance/ by default, PostgreSQL when it says
so); `SECRET_KEY` signs sessions and CSRF tokens (a random one is kept in instance/ when
none is given, so sessions survive restarts).
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,          # None: sqlite:///<instance>/kingsheet.sqlite
    "AUTO_MIGRATE": True,          # run `alembic upgrade head` when the app starts
    "SECRET_KEY": None,
    "BABEL_DEFAULT_LOCALE": "es",
    "LANGUAGES": ("es", "en"),
    # The club's time zone: every date and time a page or PDF shows (stored in UTC)
    "CLUB_TIME_ZONE": "Europe/Madrid",
    "WTF_CSRF_TIME_LIMIT": None,   # a game lasts an evening; tokens live with the session
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    "SESSION_COOKIE_SAMESITE": "Lax",
}

ENV_KEYS = ("DATABASE_URL", "SECRET_KEY", "CLUB_TIME_ZONE")


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
    for key in ENV_KEYS:
        if os.environ.get(key):
            config[key] = os.environ[key]
    if test_config:
        config.update(test_config)
        if "SQLALCHEMY_DATABASE_URI" in test_config and "DATABASE_URL" not in test_config:
            config["DATABASE_URL"] = test_config["SQLALCHEMY_DATABASE_URI"]
    if not config.get("DATABASE_URL"):
        config["DATABASE_URL"] = "sqlite:///" + str(Path(instance_path) / "kingsheet.sqlite")
    config["DATABASE_URL"] = normalize_database_url(config["DATABASE_URL"])
    config["BABEL_DEFAULT_TIMEZONE"] = config["CLUB_TIME_ZONE"]
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = _instance_secret(Path(instance_path))


def _instance_secret(instance: Path) -> str:
    path = instance / "secret_key"
    try:
        return path.read_text().strip() or _write_secret(path)
    except FileNotFoundError:
        return _write_secret(path)


def _write_secret(path: Path) -> str:
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key)
    except OSError:
        pass  # read-only instance folder: a per-process key still works
    return key
