"""Browser fixtures: the app served by werkzeug in a thread, Debian's Chromium via Playwright.

Skipped (with the reason) when Chromium or Playwright is missing, unless CI=true.
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live import served
from tests.conftest import DIRECTOR, REPO, TEST_PASSWORD, ensure_user, in_ci, make_app

#: Where browser tests keep their screenshots and audits: the repository's test-artifacts/
#: (ignored by git; ``$KINGSHEET_ARTIFACTS/browser`` when that is set), never a fixed /tmp.
SHOTS = Path(os.environ.get("KINGSHEET_ARTIFACTS") or REPO / "test-artifacts") / "browser"


def shot(name: str) -> str:
    """The path of artifact ``name`` under :data:`SHOTS` (the folder is made)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    return str(SHOTS / name)

#: Debian's Chromium as the tests drive it: its headless shell (package
#: chromium-headless-shell, the same release of Blink and V8 as /usr/bin/chromium, without
#: the browser's window layer; what Playwright itself runs for a headless Chromium) when it
#: is installed, else the browser. Measured on 7 December 2026 (Chromium 156.0.8078.129, 2
#: cores): the browser tests took 405 s on /usr/bin/chromium and 245 s on the shell; twelve
#: phones loading two pages each, 11.8 s and 6.0 s. `FULL_CHROMIUM` is the browser itself,
#: for what only it has (tests/browser/test_full_browser.py); KINGSHEET_CHROMIUM chooses
#: another executable for every test.
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("KINGSHEET_CHROMIUM") or (
    HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL_CHROMIUM)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


#: The contexts of the tests that are not about the service worker (static/js/sw.js) block
#: it. Registered, it fetched the app's files and the five rules pages when each context
#: opened its first page, and copied every page into its cache: a third of a whole game's
#: time in the browser, for what test_offline.py and test_server_restart.py check.
BLOCK_WORKER = "block"


def _missing(reason: str) -> None:
    if in_ci():
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, once per test process (a second one in the same process refuses to start)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # pragma: no cover
        _missing(f"playwright is not installed: {e}")
    pw = sync_playwright().start()
    yield pw
    pw.stop()


def _launched(playwright: Any, executable: str) -> Iterator[Any]:
    if not (os.path.exists(executable) or shutil.which(executable)):
        _missing(f"Chromium not found at {executable}")
    try:
        b = playwright.chromium.launch(executable_path=executable, args=ARGS, headless=True)
    except Exception as e:  # noqa: BLE001
        _missing(f"Chromium does not start: {e}")
    yield b
    b.close()


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Chromium as every browser test drives it (`CHROMIUM`)."""
    yield from _launched(playwright, CHROMIUM)


@pytest.fixture(scope="session")
def full_browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium browser itself (`FULL_CHROMIUM`), headless."""
    yield from _launched(playwright, FULL_CHROMIUM)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from app.db import get_db

    db = tmp_path_factory.mktemp("browser") / "kingsheet.sqlite"
    # the verify modes (every kept page and poll answer computed again and compared) run in
    # their own tests (tests/web/test_page_cache.py, test_fast_poll.py) and in the events'
    # PostgreSQL server (test_events.py); here they doubled what the server did per page
    app = make_app(f"sqlite:///{db}", WTF_CSRF_ENABLED=True, TESTING=False)
    ensure_user(app)   # the director every phone logs in as (see `phone`)
    LIVE_APPS.append(app)
    with served(app) as address:
        yield address
    LIVE_APPS.remove(app)
    get_db(app).dispose()


LIVE_APPS: list[Any] = []


@pytest.fixture
def live_app(live_server: str) -> Any:
    """The Flask app behind `live_server` (to set a game up through the services)."""
    return LIVE_APPS[-1]


def login(page: Any, username: str = DIRECTOR, password: str = TEST_PASSWORD) -> None:
    """Logs the page's context in: the login form posted, CSRF token and all, through the
    context's own HTTP client (``page.request``, which shares the context's cookies), as the
    form would post it. Rendering the login page and the home page in the browser, with
    their styles and scripts, for every phone of every test was a fifth of the browser
    tests' time; the form itself is the subject of tests/web/test_accounts.py and of
    `login_through_the_form` below."""
    form = page.request.get("/login")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.text())
    assert token is not None, "the login page has no CSRF token"
    answer = page.request.post("/login", max_redirects=0, form={
        "csrf_token": token.group(1), "username": username, "password": password})
    assert answer.status == 303, f"logging {username} in answered {answer.status}"


def login_through_the_form(page: Any, username: str = DIRECTOR, password: str = TEST_PASSWORD) -> None:
    """Logs the page's context in by typing into the login page, as a player does."""
    page.goto("/login")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#login-submit")
    page.wait_for_selector("#current-user")


def phone(browser: Any, live_server: str, user: str | None = DIRECTOR) -> Iterator[Any]:
    """A page in its own browser context (its own cookies): one phone at the table, logged
    in as `user` (the director by default; None: anonymous).

    Without the service worker (`BLOCK_WORKER`): the tests of what it does (test_offline.py,
    test_server_restart.py) make their own contexts with it."""
    context = browser.new_context(viewport={"width": 375, "height": 800}, locale="es-ES",
                                  base_url=live_server, service_workers=BLOCK_WORKER)
    context.set_default_timeout(10_000)
    p = context.new_page()
    if user is not None:
        login(p, user)
    yield p
    context.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Any]:
    yield from phone(browser, live_server)


@pytest.fixture
def phone_b(browser: Any, live_server: str) -> Iterator[Any]:
    """A second phone on the same server (the live table's tests)."""
    yield from phone(browser, live_server)
