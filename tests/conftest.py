"""Fixtures for the web app: app, client, runner, session and make_game.

Every test client (``app.test_client()`` too) is logged in as the director ``directora``
unless made with ``app.test_client(user=None)`` (anonymous) or another user
(``user="sam", role="scorer"``): see `UserClient`.

Database tests run on SQLite; those marked ``every_database`` (a test, class or module
whose behaviour can differ between the two: locks, concurrency, SQL, statement counts,
migrations) run on PostgreSQL too (`pytest_generate_tests`). The PostgreSQL run creates its
own uniquely named database on 127.0.0.1:5432 and drops it at the end; when the server is
unreachable those tests are skipped with the reason, except under CI=true, where they fail.
An app is built once per test module and settings and handed to one test at a time, each
on its own fresh database (`pooled_app`).
"""
from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
RECORDS = REPO / "tests" / "data" / "records"
PG_DSN = os.environ.get("KINGSHEET_TEST_PG", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


#: Werkzeug's scrypt at 2¹⁰ instead of its 2¹⁵ for the passwords of the tests' own
#: processes (app.accounts.accounts.PASSWORD_HASH): a login at full cost took a tenth of a
#: second or more, and the suite logs in, fails logins and creates accounts well over a
#: thousand times. tests/web/test_accounts.py checks the full cost of the app as it runs;
#: gunicorn started by a test keeps it too.
TEST_PASSWORD_HASH = "scrypt:1024:8:1"


def pytest_configure(config: pytest.Config) -> None:
    """Lowers the password hash's cost (`TEST_PASSWORD_HASH`). Compiles the message
    catalogs once, before any xdist worker starts: each app compiles a missing or stale .mo
    into translations/ on start, and two workers doing it at once wrote the same file."""
    from app.accounts import accounts

    accounts.PASSWORD_HASH = TEST_PASSWORD_HASH
    if hasattr(config, "workerinput"):      # an xdist worker: the controller did it
        return
    from app.i18n import compile_catalogs

    with contextlib.suppress(OSError):      # a read-only checkout: each app warns as it starts
        compile_catalogs()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (scripts/run-tests.sh) tests are spread one by one over the
    workers, except those grouped here, which run on one worker, file by file: a file whose
    tests share a module-scoped fixture (PDFs rendered once, the schemathesis app), which
    would otherwise be built again on each worker. Browser tests are spread one by one too:
    Chromium and the live server are per worker process (session fixtures) whichever file
    a test is in, and a browser file of three minutes kept whole on one worker was what the
    other worker waited for at the end of the run. xdist hands out the groups first (the
    largest first), then the single tests in the order of `items`: the long ones (a browser,
    gunicorn in a subprocess) are put first, so that the run ends on short tests."""
    _unique_nodeids(items)
    items.sort(key=lambda item: not _long(item))      # stable: each part keeps its order
    for item in items:
        path = Path(str(item.path)).resolve()
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        if any(d.scope == "module" for fixturedefs in defs.values() for d in fixturedefs):
            item.add_marker(pytest.mark.xdist_group(str(path.relative_to(REPO))))
    if getattr(config.option, "loadgroup", False):
        _grouped_nodeids(items)


def _grouped_nodeids(items: list[pytest.Item]) -> None:
    """xdist's loadgroup sends the items whose node id ends in the same ``@group`` to one
    worker; xdist 3.8 writes that suffix into ``item._nodeid``, which pytest 9.2 no longer
    reads (a node id is ``str(item._id)``): every group was spread over the workers, and a
    module-scoped fixture (the typeset PDFs and their pictures) built on both at once, one
    worker reading a picture the other was rewriting (CI, -n 3). Here the suffix goes into
    ``_id``, as the node id's string."""
    from _pytest.nodeid import NodeId

    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})
        if groups and not item.nodeid.endswith(f"@{'_'.join(groups)}"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")


#: The test files, outside tests/browser, that start gunicorn (or pytest's own workers) and wait for them.
SUBPROCESS_FILES = {"test_startup.py", "test_deploy.py", "test_kill_keyed_saves.py",
                    "test_throttle_gunicorn.py", "test_suite_groups.py"}


def _long(item: pytest.Item) -> bool:
    parts = Path(str(item.path)).resolve().relative_to(REPO).parts
    return parts[1] == "browser" or parts[-1] in SUBPROCESS_FILES


def _unique_nodeids(items: list[pytest.Item]) -> None:
    """schemathesis (4.32) names each operation's item ``test_x[GET /api/v1/games]`` but
    gives them all the node id ``test_x`` under pytest 9.2, and xdist schedules by node id:
    17 of the 18 operations never ran. Such an item gets its name as its node id; any node
    id still shared by two items stops the run."""
    from collections import Counter

    counts = Counter(item.nodeid for item in items)
    for item in items:
        original = getattr(item, "originalname", None)
        if counts[item.nodeid] > 1 and original and item.name.startswith(f"{original}["):
            item._id = item.parent.id.child(original).with_params(item.name[len(original) + 1:-1])
    shared = sorted(nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1)
    if shared:
        raise pytest.UsageError(f"tests share a node id (xdist would run one of them): {shared}")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def load_record(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / name).read_text())


def migrate(url: str) -> None:
    """The app's own migration on start (`app.db.upgrade`), without an app."""
    from app.db import Database, upgrade

    db = Database(url)
    try:
        upgrade(db)
    finally:
        db.dispose()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (one per xdist worker: the name
    carries a uuid), migrated to head once; dropped at the end."""
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(PG_DSN, connect_timeout=3, autocommit=True)
    except Exception as e:  # noqa: BLE001 - any connection failure means "unreachable"
        reason = f"PostgreSQL unreachable at {PG_DSN!r}: {e}"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    name = f"kingsheet_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        migrate(url)
        yield url
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="session")
def pg_emptier(pg_server: str) -> Iterator[Any]:
    """empty() deletes every row of the session's PostgreSQL database (the app's tables, new
    ones too; not alembic_version) and restarts their id sequences, as TRUNCATE ... RESTART
    IDENTITY did, in one short transaction: TRUNCATE makes new files for every table and
    cost a quarter of a second, twice per test."""
    from sqlalchemy import create_engine, text

    from app.models import Base

    engine = create_engine(pg_server)
    tables = [t.name for t in reversed(Base.metadata.sorted_tables)]   # children first
    with engine.connect() as conn:
        sequences = conn.execute(text(
            "SELECT s.oid::regclass::text FROM pg_class s JOIN pg_depend d ON d.objid = s.oid "
            "JOIN pg_class t ON d.refobjid = t.oid WHERE s.relkind = 'S' AND t.relname = ANY(:t)"),
            {"t": tables}).scalars().all()

    def empty() -> None:
        with engine.begin() as conn:
            for name in tables:
                conn.execute(text(f'DELETE FROM "{name}"'))
            for seq in sequences:
                conn.execute(text(f"ALTER SEQUENCE {seq} RESTART"))

    yield empty
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database migrated to head once per test session (per xdist worker)
    by the app's own `upgrade`; each SQLite test gets a copy of it (see `database_url`)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "kingsheet.sqlite"
    migrate(f"sqlite:///{path}")   # its last connection closed: the WAL is in the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


#: The databases a test marked ``every_database`` runs on; every other test runs on SQLite.
EVERY_DATABASE = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A database test runs on SQLite, and on PostgreSQL too where its behaviour can differ:
    a test, class or module marked ``every_database`` (locks, concurrency, SQL that differs,
    statement counts, migrations). A test that parametrizes ``database_url`` itself keeps
    its own parameters."""
    if "database_url" not in metafunc.fixturenames:
        return
    if any(m.args and m.args[0] == "database_url" for m in metafunc.definition.iter_markers("parametrize")):
        return
    every = metafunc.definition.get_closest_marker("every_database") is not None
    metafunc.parametrize("database_url", EVERY_DATABASE if every else ["sqlite"], indirect=True)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database at the migrations' head: on SQLite a copy of
    `sqlite_template` in the test's own tmp_path (running the 14 migrations for every test
    cost most of a test's time); on PostgreSQL the session's database, emptied here."""
    if getattr(request, "param", "sqlite") == "sqlite":
        path = tmp_path / "kingsheet.sqlite"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    request.getfixturevalue("pg_emptier")()
    return str(request.getfixturevalue("pg_server"))


DIRECTOR = "directora"
TEST_PASSWORD = "test-password"
_HASHES: dict[str, str] = {}


def password_hash(password: str = TEST_PASSWORD) -> str:
    """The stored hash of a test password (computed once), at the tests' cost."""
    if password not in _HASHES:
        from app.accounts.accounts import hash_secret

        _HASHES[password] = hash_secret(password)
    return _HASHES[password]


def ensure_user(app: Any, username: str = DIRECTOR, role: str = "director",
                player: str | None = None) -> int:
    """The id of user `username` (created with TEST_PASSWORD when missing)."""
    from sqlalchemy import select

    from app.db import get_session
    from app.models import Player, Role, User

    with app.app_context():
        session = get_session()
        user = session.scalars(select(User).where(User.username == username)).first()
        if user is None:
            player_id = None
            if player is not None:
                player_id = session.scalars(select(Player.id).where(Player.name == player)).one()
            user = User(username=username, password_hash=password_hash(), role=Role(role),
                        player_id=player_id)
            session.add(user)
            session.commit()
        return int(user.id)


def _client_class() -> Any:
    from flask.testing import FlaskClient

    class UserClient(FlaskClient):
        """A test client logged in (as the director by default; ``user=None``: anonymous)."""

        def __init__(self, *args: Any, user: str | None = DIRECTOR, role: str = "director",
                     player: str | None = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if user is not None:
                self.login_as(user, role, player)

        def login_as(self, username: str, role: str = "director", player: str | None = None) -> Any:
            user_id = ensure_user(self.application, username, role, player)
            with self.application.app_context():
                from app.db import get_session
                from app.models import User

                session_id = get_session().get(User, user_id).get_id()   # "<id>:<generation>"
            with self.session_transaction() as s:
                s["_user_id"] = session_id
                s["_fresh"] = True
            return self

        def logout(self) -> Any:
            with self.session_transaction() as s:
                s.pop("_user_id", None)
            return self

    return UserClient


class _CompiledTemplates:
    """Jinja's compiled templates kept for every app of the test process.

    Each test builds its own app, whose new Jinja environment compiled every template it
    rendered again (a third of a page test's time). As a bytecode cache of each app's
    environment, the code compiled once is loaded by the next apps; Jinja checks it against
    the template's source (a changed template is compiled anew), and the environment's
    syntax options are part of the key."""

    def __init__(self) -> None:
        self.codes: dict[tuple[Any, str], bytes] = {}

    def attach(self, env: Any) -> None:
        from jinja2 import BytecodeCache

        codes = self.codes
        options = (env.block_start_string, env.block_end_string, env.variable_start_string,
                   env.variable_end_string, env.comment_start_string, env.comment_end_string,
                   env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
                   env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
                   env.optimized, tuple(sorted(env.extensions)))

        class Shared(BytecodeCache):
            def load_bytecode(self, bucket: Any) -> None:
                code = codes.get((options, bucket.key))
                if code is not None:
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket: Any) -> None:
                codes[(options, bucket.key)] = bucket.bytecode_to_string()

        env.bytecode_cache = Shared()


COMPILED_TEMPLATES = _CompiledTemplates()


def make_app(database_url: str, **config: Any) -> Any:
    import tempfile

    from app import create_app

    settings = {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                "WTF_CSRF_ENABLED": False,
                "EXPORTS_DIR": tempfile.mkdtemp(prefix="kingsheet-exports-"),
                "PDF_CACHE_DIR": tempfile.mkdtemp(prefix="kingsheet-pdf-cache-")}
    settings.update(config)
    application = create_app(settings)
    application.test_client_class = _client_class()
    COMPILED_TEMPLATES.attach(application.jinja_env)
    return application


#: Extensions that hold nothing of the test that used an app, or only what `_refit` renews;
#: an app that gained another (the export runner's thread, say) is not handed on.
_REFITTABLE = {"csrf", "babel", "flask-smorest", "kingsheet_api", "kingsheet_db", "kingsheet_pages",
               "kingsheet_has_users", "pdf_cache"}
#: Apps waiting for the next test of their module: (module, database kind, settings) -> app,
#: the configuration it was built with and its outermost WSGI callable.
_POOL: dict[tuple[str, str, str], tuple[Any, dict[str, Any], Any]] = {}


def pooled_app(request: pytest.FixtureRequest, database_url: str, **config: Any) -> Iterator[Any]:
    """An app per test module and settings, handed to one test at a time, each time on the
    test's own fresh database (building an app costs a tenth of a second, mostly the routes
    and the API document: once per test it was a fifth of the suite). Between two tests the
    app is refitted (`_refit`): its configuration as built, a new engine on the new database,
    no kept pages, renders or "has users" flag, the short way of the version check on the
    new engine. tests/test_factory.py checks that a refitted app keeps nothing."""
    from app.db import get_db

    kind = "sqlite" if database_url.startswith("sqlite") else "postgres"
    key = (request.module.__name__, kind, repr(sorted(config.items())))
    entry = _POOL.pop(key, None)
    if entry is None:
        application = make_app(database_url, **config)
        entry = (application, copy.deepcopy(dict(application.config)), application.wsgi_app)
    else:
        _refit(entry, database_url)
    application = entry[0]
    yield application
    get_db(application).dispose()
    if set(application.extensions) <= _REFITTABLE:
        _POOL[key] = entry


def _refit(entry: tuple[Any, dict[str, Any], Any], database_url: str) -> None:
    import tempfile

    from app.config import normalize_database_url
    from app.db import Database
    from app.games.sheet.fast_poll import FastPoll

    application, settings, outermost = entry
    url = normalize_database_url(database_url)
    application.config.clear()
    application.config.update(copy.deepcopy(settings))
    application.config.update(DATABASE_URL=url,
                              EXPORTS_DIR=tempfile.mkdtemp(prefix="kingsheet-exports-"),
                              PDF_CACHE_DIR=tempfile.mkdtemp(prefix="kingsheet-pdf-cache-"))
    for name in ("kingsheet_pages", "kingsheet_has_users", "pdf_cache"):
        application.extensions.pop(name, None)
    db = Database(url)
    application.extensions["kingsheet_db"] = db
    application.wsgi_app = outermost          # a test may have taken the short way off
    if isinstance(outermost, FastPoll):
        outermost.engine = db.engine.execution_options(isolation_level="AUTOCOMMIT")
        outermost.cookies.clear()


@pytest.fixture
def app(request: pytest.FixtureRequest, database_url: str) -> Iterator[Any]:
    yield from pooled_app(request, database_url)


@pytest.fixture
def csrf_app(request: pytest.FixtureRequest, database_url: str) -> Iterator[Any]:
    """The app as it runs for real: CSRF checked on every form."""
    yield from pooled_app(request, database_url, WTF_CSRF_ENABLED=True)


@pytest.fixture
def client(app: Any) -> Any:
    c = app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return c


@pytest.fixture
def runner(app: Any) -> Any:
    return app.test_cli_runner()


@pytest.fixture
def session(app: Any) -> Iterator[Any]:
    from app.db import get_session

    with app.app_context():
        yield get_session()


def base_record(profile: str = "fiestas", **overrides: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"format": "kingsheet/1", "profile": profile, "players": list(PLAYERS)}
    record["first_chooser" if profile == "rifki" else "first_dealer"] = 0
    record["hands"] = []
    record.update(copy.deepcopy(overrides))
    return record


@pytest.fixture
def make_game(app: Any) -> Any:
    """make_game(profile="fiestas", hands=[...], **record_keys) -> game id."""
    from app.db import get_session
    from app.games.games import import_game

    def make(profile: str = "fiestas", record: dict[str, Any] | None = None, **overrides: Any) -> int:
        data = copy.deepcopy(record) if record is not None else base_record(profile, **overrides)
        with app.app_context():
            return int(import_game(get_session(), data, who="test").id)

    return make
