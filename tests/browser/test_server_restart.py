"""Issue 39: a typed hand is never lost when the *server* goes away (the club's laptop
asleep, a deploy, a crash) while the phone's wifi stays up. The server is a real gunicorn
process, stopped and started again on the same port and database; the phone is Chromium
with its service worker.

- Two ru32 hands typed in a row with the server down, each on its own page (hand 3 shows
  hand 3's contract, not hand 2's), are stored within 15 s of the server coming back,
  with no tap.
- A 502 from a proxy keeps the hand waiting; it is sent on the next try.
- A hand another phone saved meanwhile reopens with its values and the true reason.

One gunicorn process (one worker), one Chromium: the whole takes about 20 s.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rules import load
from tests.browser.conftest import ARGS, CHROMIUM, login, shot
from tests.browser.test_offline import no_sideways_scroll, ready_for_offline
from tests.browser.test_referee import import_game
from tests.browser.test_whole_games import enter_counts
from tests.conftest import ensure_user, load_record, make_app
from tests.test_deploy import CONF, ROOT, free_port
from tests.test_kill_keyed_saves import answering

pytestmark = pytest.mark.browser


class Server:
    """gunicorn on a fixed port and SQLite file, which the test stops and starts."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.db = f"sqlite:///{tmp_path / 'kingsheet.sqlite'}"
        self.home = tmp_path
        self.proc: subprocess.Popen[bytes] | None = None
        app = make_app(self.db)
        ensure_user(app)
        from app.db import get_db

        get_db(app).dispose()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, DATABASE_URL=self.db, SECRET_KEY="restart-test",
                   KINGSHEET_BIND=f"127.0.0.1:{self.port}", KINGSHEET_WORKERS="1",
                   KINGSHEET_THREADS="8", PYTHONPATH=str(ROOT), HOME=str(self.home))
        env.pop("GUNICORN_CMD_ARGS", None)
        with open(self.home / "gunicorn.log", "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(CONF)],
                                         cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def wait(self) -> None:
        assert self.proc is not None
        answering(self.port, self.proc, self.home)

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
            self.proc = None

    def hands(self, gid: int) -> list[dict[str, Any]]:
        from app.db import get_db, get_session
        from app.models import Game

        app = make_app(self.db)
        try:
            with app.app_context():
                return list(get_session().get(Game, gid).record["hands"])
        finally:
            get_db(app).dispose()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    s.start()
    s.wait()
    yield s
    s.stop()


@pytest.fixture
def phone(browser: Any, server: Server, tmp_path: Path) -> Iterator[Any]:
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True,
        viewport={"width": 375, "height": 800}, locale="es-ES", base_url=server.url)
    context.set_default_timeout(15_000)
    page = context.pages[0] if context.pages else context.new_page()
    yield page
    context.close()


def test_hands_typed_while_the_server_is_down_are_sent_when_it_is_back(server: Server,
                                                                       phone: Any) -> None:
    record = load_record("ru32_complete.json")
    full = load(record)
    page = phone
    login(page)
    gid = import_game(page, dict(record, hands=record["hands"][:1]))
    ready_for_offline(page, gid)

    server.stop()                      # the wifi is up; the server is gone
    for n in (2, 3):
        page.click("#enter-hand")
        page.wait_for_selector("#hand-form[data-ready]")
        expect(page.locator("h1")).to_have_text(f"Mano {n}")          # its own page
        expect(page.locator("#hand-form")).to_have_attribute("data-row", str(n))
        expect(page.locator("#hand-form")).to_have_attribute(
            "data-outbox-label", ["Sin Chicos", "Sin Chicas"][n - 2])
        enter_counts(page, full.hands[n - 1])
        page.click("#save-hand")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        expect(page.locator("tr.pending-row")).to_have_count(n - 1)
    expect(page.locator("#outbox-when")).to_contain_text(re.compile(r"nuevo intento a las \d\d:\d\d:\d\d"))
    expect(page.locator("#live-status")).not_to_contain_text("En vivo")
    page.screenshot(path=shot("restart-waiting.png"), full_page=True)
    no_sideways_scroll(page)

    server.start()                     # no tap: sent on the next try or when live is back
    back = time.monotonic()
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=15_000)
    assert time.monotonic() - back < 15
    expect(page.locator("#outbox-bar")).to_have_count(0)
    expect(page.locator("#offline-copy")).to_have_count(0)        # no "Sin conexión" left
    hands = server.hands(gid)
    assert [h.get("contract") for h in hands[1:]] == ["no-boys", "no-girls"]
    assert load(dict(record, hands=hands)).totals == load(dict(record, hands=record["hands"][:3])).totals

    # a proxy's 502 (every send until the test has seen the hand waiting): the hand keeps
    # waiting, then it is sent
    bad: list[int] = []
    proxy_down = [True]

    def proxy_502(route: Any) -> None:
        if route.request.headers.get("x-outbox") == "1" and proxy_down[0]:
            bad.append(1)
            route.fulfill(status=502, body="<html>502 Bad Gateway</html>", content_type="text/html")
        else:
            route.fallback()

    page.route(re.compile(r".*/hands/new.*"), proxy_502)
    page.click("#enter-hand")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 4")
    enter_counts(page, full.hands[3])
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    assert bad
    expect(page.locator("tr.pending-row.pending")).to_have_count(1)
    assert len(server.hands(gid)) == 3
    proxy_down[0] = False
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=15_000)
    assert len(server.hands(gid)) == 4
    page.unroute(re.compile(r".*/hands/new.*"))

    # another phone saves hand 5 while this one has it waiting (its first send never reached
    # the server): it reopens with its values
    page.route(re.compile(r".*/hands/new.*"), lambda route: route.abort("connectionrefused")
               if route.request.headers.get("x-outbox") == "1" else route.fallback())
    page.click("#enter-hand")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 5")
    enter_counts(page, full.hands[4])                    # the K♥ taken by seat 2
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(1)
    other_phone_saves(server, gid, kh=0)
    page.unroute(re.compile(r".*/hands/new.*"))
    conflict = page.locator("tr.pending-row.conflict")
    expect(conflict).to_have_count(1, timeout=15_000)
    expect(conflict).to_contain_text("Otro teléfono guardó antes en esta partida")
    expect(conflict).to_contain_text("Otra persona guardó esta partida entretanto.")
    page.once("dialog", lambda dialog: dialog.accept())   # "directora saved hand row 5 …: replace?"
    conflict.locator("button").first.click()             # Open
    page.wait_for_selector("#hand-form")
    assert page.locator('#row-kh input[value="2"]').is_checked()         # this phone's hand, kept
    expect(page.locator("#save-hand")).to_contain_text("Sustituir")      # offered as a correction
    assert server.hands(gid)[4]["counts"]["kh"] == 0


def other_phone_saves(server: Server, gid: int, kh: int) -> None:
    """Hand 5 (No King) saved by another phone, straight into the database."""
    from app.db import get_db
    from tests.web.test_outbox_answers import entry_form

    app = make_app(server.db)
    try:
        client = app.test_client()
        url, fields = entry_form(client, gid)
        r = client.post(url, data={**fields, "kh": str(kh)})
        assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    finally:
        get_db(app).dispose()
