"""The application factory and its wiring."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, make_app

pytestmark = pytest.mark.every_database


def test_folders_beside_app(app):
    assert Path(app.template_folder).resolve() == (REPO / "templates").resolve() or \
        Path(app.root_path, app.template_folder).resolve() == (REPO / "templates").resolve()
    assert Path(app.static_folder).resolve() == (REPO / "static").resolve()


def test_testing_config(app):
    assert app.testing
    assert app.config["BABEL_DEFAULT_LOCALE"] == "es"


def test_postgres_urls_use_psycopg3(tmp_path):
    from app.config import normalize_database_url

    assert normalize_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("sqlite:///x") == "sqlite:///x"


def test_database_url_from_environment(tmp_path, monkeypatch):
    from app.db import get_db

    url = f"sqlite:///{tmp_path / 'env.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    from app import create_app

    application = create_app({"TESTING": True, "SECRET_KEY": "x"})
    try:
        assert application.config["DATABASE_URL"] == url
        assert (tmp_path / "env.sqlite").exists()  # created and migrated on start
    finally:
        get_db(application).dispose()


def test_package_import_does_not_load_flask():
    code = ("import sys, app, app.rules, app.rules.game.replay; "
            "assert 'flask' not in sys.modules and 'sqlalchemy' not in sys.modules, sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_translations_compile_from_po(tmp_path):
    """A fresh clone has only the .po files: compiling them (as create_app does) makes every
    .mo, on its own -- not because another test happened to create the app first."""
    from babel.messages.mofile import read_mo

    from app.i18n import TRANSLATIONS_DIR, compile_catalogs

    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS_DIR, copy, ignore=shutil.ignore_patterns("*.mo", "*.mo.tmp"))
    pos = sorted(copy.glob("*/LC_MESSAGES/messages.po"))
    assert pos and not list(copy.glob("*/LC_MESSAGES/*.mo"))
    compile_catalogs(copy)
    for po in pos:
        with po.with_suffix(".mo").open("rb") as f:
            catalog = read_mo(f)
        assert catalog.get("Hand %(n)s") is not None, po


def _schema_and_rows(app):
    """The database as an app sees it: its tables and columns, the Alembic revision and
    how many rows each table holds."""
    from sqlalchemy import func, inspect, select, table, text

    from app.db import get_db

    engine = get_db(app).engine
    with engine.connect() as conn:
        found = inspect(conn)
        tables = sorted(found.get_table_names())
        columns = {t: sorted(c["name"] for c in found.get_columns(t)) for t in tables}
        revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        rows = {t: conn.execute(select(func.count()).select_from(table(t))).scalar_one() for t in tables}
    return columns, revision, rows


def test_make_app_twice_is_idempotent(database_url):
    from app.db import get_db, get_session
    from app.games.games import import_game
    from tests.conftest import load_record

    first = make_app(database_url)
    with first.app_context():
        gid = import_game(get_session(), load_record("ru32_complete.json"), who="test").id
    before = _schema_and_rows(first)
    second = make_app(database_url)  # migrations already at head: nothing to do
    after = _schema_and_rows(second)
    try:
        assert after == before                 # same tables, columns, revision and rows
        assert len(before[1]) == 1 and before[2]["game"] >= 1
        assert second.test_client().get(f"/api/v1/games/{gid}").status_code == 200
    finally:
        get_db(first).dispose()
        get_db(second).dispose()


def test_a_pooled_app_keeps_nothing_of_the_test_before(request, tmp_path, sqlite_template):
    """The `app` fixture hands one app per module to test after test (tests/conftest.py
    `pooled_app`): the next test finds its own empty database, the configuration as built,
    no kept page, no "has users" flag, and the short way of the version check on its own
    database."""
    from tests.conftest import ensure_user, pooled_app

    urls = []
    for name in ("first.sqlite", "second.sqlite"):
        shutil.copyfile(sqlite_template, tmp_path / name)
        urls.append(f"sqlite:///{tmp_path / name}")
    first = pooled_app(request, urls[0])
    app = next(first)
    ensure_user(app)
    client = app.test_client()
    assert client.get("/").status_code == 200
    assert app.extensions.get("kingsheet_has_users") is True
    app.config["PAGE_CACHE_KB"] = 0
    app.wsgi_app = app.wsgi_app.inner          # a test took the short way off
    next(first, None)

    second = pooled_app(request, urls[1])
    again = next(second)
    assert again is app
    assert "kingsheet_has_users" not in again.extensions and "kingsheet_pages" not in again.extensions
    assert again.config["PAGE_CACHE_KB"] != 0
    assert again.config["DATABASE_URL"] == urls[1]
    assert again.wsgi_app.engine.url.database == str(tmp_path / "second.sqlite")
    anonymous = again.test_client(user=None)
    r = anonymous.get("/")                  # no user yet: the first director is asked for
    assert r.status_code == 302 and "/login" not in r.headers["Location"], r.headers.get("Location")
    next(second, None)


def test_make_run_takes_the_port_from_the_command_line():
    """`make run PORT=8000` (issue 41): the port is a make variable, 5000 by default."""
    def command(*args: str) -> str:
        out = subprocess.run(["make", "-n", "run", *args], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout
        return next(line for line in out.splitlines() if "flask --app app run" in line)

    assert command().endswith("--port 5000")
    assert command("PORT=8123").endswith("--port 8123")
