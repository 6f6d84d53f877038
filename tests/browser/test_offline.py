"""The table keeps scoring when the club's wifi drops (issue 24): the pages a phone opened
are kept by its service worker, hands saved with no network wait in its outbox (IndexedDB)
and are sent, once each, when the network is back."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rules import get_profile, load
from app.rules.schedule import slot_for
from tests.browser.conftest import ARGS, CHROMIUM, login, shot
from tests.browser.netswitch import NetSwitch, go_offline, go_online
from tests.browser.test_referee import import_game
from tests.browser.test_whole_games import enter_captures, enter_counts, page_totals
from tests.conftest import load_record

pytestmark = pytest.mark.browser


class Phone:
    """A phone with a persistent profile (its IndexedDB and caches survive a restart),
    reaching the server through the club's wifi (a NetSwitch)."""

    def __init__(self, browser: Any, profile: Path, switch: NetSwitch, locale: str = "es-ES") -> None:
        self.browser_type = browser.browser_type
        self.profile = profile
        self.switch = switch
        self.locale = locale
        self.context: Any = None
        self.page: Any = None

    def start(self, offline: bool = False) -> Any:
        self.context = self.browser_type.launch_persistent_context(
            str(self.profile), executable_path=CHROMIUM, args=ARGS, headless=True,
            viewport={"width": 375, "height": 800}, locale=self.locale, base_url=self.switch.url,
            offline=offline)
        self.context.set_default_timeout(15_000)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        return self.page

    def stop(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None

    def offline(self) -> None:
        go_offline(self.context, self.switch)

    def online(self) -> None:
        go_online(self.context, self.switch)


@pytest.fixture
def switch(live_server: str) -> Iterator[NetSwitch]:
    s = NetSwitch(int(live_server.rsplit(":", 1)[1]))
    yield s
    s.close()


@pytest.fixture
def phone1(browser: Any, switch: NetSwitch, tmp_path: Path) -> Iterator[Phone]:
    p = Phone(browser, tmp_path / "phone1", switch)
    yield p
    p.stop()


def ready_for_offline(page: Any, gid: int) -> None:
    """The sheet is open, the service worker controls it and has kept the next hand's pages."""
    page.goto(f"/games/{gid}")
    for _ in range(100):
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            break
        page.wait_for_timeout(100)
    page.reload()       # now under the worker: the copy is kept, the entry pages warmed
    expect(page.locator("body")).to_have_attribute("data-warmed", re.compile(r"^[1-9]"), timeout=60_000)


def sheet_rows(live_app: Any, gid: int) -> list[dict[str, Any]]:
    from app.db import get_session
    from app.models import Game

    with live_app.app_context():
        game = get_session().get(Game, gid)
        get_session().refresh(game)
        return list(game.record["hands"])


def test_three_entry_modes_wait_across_a_restart_and_are_sent_once(phone1: Phone, live_app: Any) -> None:
    """Hands 5, 6 and 7 of a rifki game entered with no network, trick by trick, by counts
    and by captured cards, each on top of the waiting ones; the phone restarted; sent once
    each, in order, with "Enviar ahora" when the server answers again."""
    record = load_record("rifki_complete.json")
    full = load(record)
    page = phone1.start()
    login(page)
    gid = import_game(page, dict(record, hands=record["hands"][:4]))
    ready_for_offline(page, gid)

    phone1.offline()
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text("Sin conexión — copia de las")
    page.goto("/rules/rifki")                   # the rules, kept when the worker came
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Rıfkı")
    page.goto("/games/new")                     # never opened here: no browser error page
    expect(page.locator("#offline-page")).to_be_visible()
    page.goto(f"/games/{gid}")
    page.screenshot(path=shot("offline-sheet-copy.png"), full_page=True)

    # hand 5 (Koz ♥) trick by trick: the cards kept on the page in the order tapped
    h5 = record["hands"][4]
    choose(page, "koz", "H", tricks=True)
    page.wait_for_selector("#card-grid")
    for trick in h5["tricks"]:
        for card in trick:
            page.click(f'#card-grid a.cardbtn[data-card="{card}"]')
    expect(page.locator("#offline-plays .offline-tricks li")).to_have_count(13)
    expect(page.locator("#offline-plays")).to_contain_text("Sin conexión")
    page.screenshot(path=shot("offline-tricks.png"), full_page=True)
    page.click("#offline-save")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(1)
    expect(page.locator("#outbox-bar")).to_contain_text(re.compile(r"1 mano espera .*desde las \d\d:\d\d"))

    # hand 6 (Kız almaz) by its counts, entered on top of the waiting hand, on hand 6's page
    choose(page, "kiz-almaz")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 6")          # its own page (issue 39)
    expect(page.locator("#hand-form")).to_have_attribute("data-row", "6")
    expect(page.locator("#outbox-on-top")).to_have_count(0)
    expect(page.locator("#outbox-bar")).to_contain_text("1 mano espera")   # on the entry page too
    enter_counts(page, full.hands[5])
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(2)

    # hand 7 (Kupa almaz again) by its captured cards, on top of both
    choose(page, "kupa-almaz")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 7")          # its own page (issue 39)
    expect(page.locator("#hand-form")).to_have_attribute("data-row", "7")
    expect(page.locator("#outbox-on-top")).to_have_count(0)
    enter_captures(page, full.hands[3])
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(3)
    expect(page.locator("#outbox-bar")).to_contain_text("3 manos esperan")
    page.screenshot(path=shot("offline-sheet-pending.png"), full_page=True)
    no_sideways_scroll(page)

    # the phone is closed and opened again, still with no network: the three hands wait
    phone1.stop()
    page = phone1.start(offline=True)
    phone1.switch.set(False)
    page.goto(f"/games/{gid}")
    expect(page.locator("tr.pending-row")).to_have_count(3)
    assert len(sheet_rows(live_app, gid)) == 4

    # the phone's network is back before the club's server answers: the send on "online"
    # fails and the hands still wait; once the server answers, they are sent on the next
    # try, with no tap (issue 39)
    phone1.context.set_offline(False)
    expect(page.locator("body")).to_have_attribute("data-outbox-sent", "0")
    expect(page.locator("tr.pending-row")).to_have_count(3)
    phone1.switch.set(True)
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    expect(page.locator("#outbox-bar")).to_have_count(0)
    hands = sheet_rows(live_app, gid)
    assert [h["contract"] for h in hands] == ["el-almaz", "erkek-almaz", "koz", "kupa-almaz",
                                              "koz", "kiz-almaz", "kupa-almaz"]
    assert hands[4]["tricks"] == h5["tricks"]
    assert hands[5]["counts"]["queens"] == full.hands[5].counts["queens"]
    # their points: the engine's totals of the seven hands, on the sheet
    expected = load(dict(record, hands=record["hands"][:6] + [record["hands"][3]])).totals
    for n in (5, 6, 7):
        expect(page.locator(f"#hand-{n}")).to_be_visible()
    assert page_totals(page) == list(expected)
    no_sideways_scroll(page)


@pytest.fixture
def phone2(browser: Any, switch: NetSwitch, tmp_path: Path) -> Iterator[Phone]:
    p = Phone(browser, tmp_path / "phone2", switch)
    yield p
    p.stop()


def started(phone: Phone, live_app: Any, hands: int, gid: int | None = None) -> tuple[Any, int]:
    """The phone logged in, on the sheet of a rifki game of ``hands`` hands, ready offline."""
    page = phone.start()
    login(page)
    if gid is None:
        record = load_record("rifki_complete.json")
        gid = import_game(page, dict(record, hands=record["hands"][:hands]))
    ready_for_offline(page, gid)
    return page, gid


def choose(page: Any, contract: str, trump: str | None = None, tricks: bool = False) -> None:
    page.click("#enter-tricks" if tricks else "#enter-hand")
    page.click(f'#choose label:has(input[name="contract"][value="{contract}"])')
    if trump:
        page.click(f'#choose label:has(input[name="trump"][value="{trump}"])')
    page.click("#choose-continue")


def test_a_hand_refused_on_sending_reopens_with_its_error(browser: Any, switch: NetSwitch,
                                                          tmp_path: Path, live_app: Any) -> None:
    phone = Phone(browser, tmp_path / "en", switch, locale="en-GB")
    try:
        page, gid = started(phone, live_app, 0)
        page.goto(f"/lang/en?next=/games/{gid}")
        ready_for_offline(page, gid)
        phone.offline()
        page.reload()
        copy_note = re.compile(r"No connection — copy of \d\d:\d\d")    # the page's language
        expect(page.locator("#offline-copy")).to_contain_text(copy_note)
        choose(page, "el-almaz")
        page.wait_for_selector("#hand-form[data-ready]")
        for s, n in enumerate([3, 4, 2, 5]):      # 14 tricks: the engine counts 13
            page.fill(f"#tricks_{s}", str(n))
        assert page.input_value("#tricks_3") == "5"
        page.click("#save-hand")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        expect(page.locator("#outbox-bar")).to_contain_text("1 hand waits on this phone")
        phone.online()
        expect(page.locator("tr.pending-row.refused")).to_have_count(1, timeout=20_000)
        expect(page.locator("tr.pending-row.refused")).to_contain_text("The server refused this hand")
        page.screenshot(path=shot("offline-refused-en.png"), full_page=True)
        assert sheet_rows(live_app, gid) == []
        # A hand waits: the phone asks first, once it has read the outbox. The question is
        # answered as it opens: one still open while the click waited for the navigation it
        # may start blocked the page, and the click timed out.
        page.once("dialog", lambda dialog: dialog.dismiss())
        with page.expect_event("dialog") as asked:
            page.click("#logout")
        assert "1 hand on this phone has not been sent yet" in asked.value.message
        expect(page.locator("#current-user")).to_be_visible()   # still logged in
        page.locator("tr.pending-row.refused button").first.click()   # Open
        page.wait_for_selector("#hand-form")
        assert page.input_value("#tricks_3") == "5"                   # the values typed, kept
        expect(page.locator("#row-tricks")).to_contain_text("13")
        page.fill("#tricks_3", "4")
        page.click("#save-hand")
        page.wait_for_url(re.compile(rf"/games/{gid}(#hand-1)?$"))
        expect(page.locator("tr.pending-row")).to_have_count(0)
        assert [h["counts"]["tricks"] for h in sheet_rows(live_app, gid)] == [[3, 4, 2, 4]]
        no_sideways_scroll(page)
    finally:
        phone.stop()


def kept(page: Any, path: str) -> None:
    """Waits until the service worker has kept its copy of the page at ``path``."""
    for _ in range(100):
        if page.evaluate("""(path) => caches.open("kingsheet-pages-v1")
            .then((c) => c.match(location.origin + path)).then((hit) => !!hit)""", path):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{path} was not kept")


def test_every_page_of_the_game_says_how_many_hands_wait(phone1: Phone, live_app: Any) -> None:
    """The confirm page, the change log and the handover page of a game say how many of its
    hands wait on this phone and since when, as its sheet and entry pages do (issue 24): from
    the copy kept with no network, and served again once the hand was refused. Discarding the
    refused hand on the sheet takes its row and the count away."""
    page, gid = started(phone1, live_app, 4)
    pages = [f"/games/{gid}/confirm", f"/games/{gid}/audit"]
    for path in pages:                 # opened once: kept for the time with no network
        page.goto(path)
        kept(page, path)
        expect(page.locator("#outbox-bar")).to_have_count(0)
    page.goto(f"/games/{gid}")
    phone1.offline()
    choose(page, "el-almaz")
    page.wait_for_selector("#hand-form[data-ready]")
    for s, n in enumerate([3, 4, 2, 5]):      # 14 tricks: the engine refuses it when sent
        page.fill(f"#tricks_{s}", str(n))
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("tr.pending-row")).to_have_count(1)

    waiting = re.compile(r"1 mano espera .*desde las \d\d:\d\d")
    for path, name in zip(pages, ("confirm", "audit"), strict=True):
        page.goto(path)
        expect(page.locator("#offline-copy")).to_be_visible()
        expect(page.locator("#outbox-bar")).to_contain_text(waiting)
        expect(page.locator("main > .row + #outbox-bar")).to_have_count(1)   # under the title
        page.screenshot(path=shot(f"offline-waiting-{name}.png"), full_page=True)
        no_sideways_scroll(page)

    phone1.online()                   # on the change log: sent, refused, still waiting
    expect(page.locator("#outbox-bar .error")).to_contain_text("1 de ellas te necesita",
                                                                 timeout=20_000)
    for path in pages + [f"/games/{gid}/handover"]:
        page.goto(path)
        expect(page.locator("#offline-copy")).to_have_count(0)
        expect(page.locator("#outbox-bar")).to_contain_text(waiting)
        expect(page.locator("#outbox-bar .error")).to_have_count(1)
        no_sideways_scroll(page)
    assert len(sheet_rows(live_app, gid)) == 4

    page.goto(f"/games/{gid}")
    expect(page.locator("tr.pending-row.refused")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())      # "Discard this hand? …"
    page.locator("tr.pending-row.refused button.danger").click()
    expect(page.locator("tr.pending-row")).to_have_count(0)
    expect(page.locator("#outbox-bar")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-outbox", "0")
    page.goto(pages[0])
    expect(page.locator("body")).to_have_attribute("data-outbox", "0")
    expect(page.locator("#outbox-bar")).to_have_count(0)
    assert len(sheet_rows(live_app, gid)) == 4


def test_a_save_whose_answer_is_lost_is_sent_again_and_stored_once(phone1: Phone, live_app: Any) -> None:
    page, gid = started(phone1, live_app, 0)
    dropped: list[int] = []

    def drop_answer(route: Any) -> None:
        # the outbox's save (not the live check's previews), the first time only
        if route.request.headers.get("x-outbox") == "1" and not dropped:
            dropped.append(1)
            route.fetch()            # the server saves the hand; its answer never arrives
            route.abort("connectionreset")
        else:
            route.fallback()

    page.route(re.compile(r".*/hands/new.*"), drop_answer)
    choose(page, "el-almaz")
    page.wait_for_selector("#hand-form[data-ready]")
    for s, n in enumerate([3, 4, 2]):
        page.fill(f"#tricks_{s}", str(n))
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}(#hand-1)?$"))
    assert dropped == [1]
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    assert len(sheet_rows(live_app, gid)) == 1
    expect(page.locator("#hand-1")).to_be_visible()
    page.reload()
    assert len(sheet_rows(live_app, gid)) == 1


def test_two_phones_offline_enter_the_same_hand(phone1: Phone, phone2: Phone, live_app: Any) -> None:
    """Both phones enter hand 5 with no network: one is stored, the other offered as a correction."""
    page1, gid = started(phone1, live_app, 4)
    page2, _ = started(phone2, live_app, 4, gid)
    phone1.switch.set(False)
    for phone, page, tricks in ((phone1, page1, [3, 4, 2]), (phone2, page2, [4, 4, 2])):
        phone.context.set_offline(True)
        choose(page, "el-almaz")
        page.wait_for_selector("#hand-form[data-ready]")
        for s, n in enumerate(tricks):
            page.fill(f"#tricks_{s}", str(n))
        page.click("#save-hand")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        expect(page.locator("tr.pending-row")).to_have_count(1)
    phone1.online()
    expect(page1.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    phone2.online()
    expect(page2.locator("tr.pending-row.conflict")).to_have_count(1, timeout=20_000)
    hands = sheet_rows(live_app, gid)
    assert len(hands) == 5 and hands[4]["counts"]["tricks"] == [3, 4, 2, 4]   # stored once
    page2.screenshot(path=shot("offline-conflict.png"), full_page=True)
    page2.once("dialog", lambda dialog: dialog.accept())   # "directora saved hand row 5 …: replace?"
    page2.locator("tr.pending-row.conflict button").first.click()        # Open
    page2.wait_for_selector("#hand-form")
    assert page2.input_value("#tricks_0") == "4"                        # phone 2's hand, kept
    expect(page2.locator("#save-hand")).to_contain_text("Sustituir")    # offered as a correction
    page2.click("#save-hand")
    page2.wait_for_url(re.compile(rf"/games/{gid}(#hand-5)?$"))
    hands = sheet_rows(live_app, gid)
    assert len(hands) == 5 and hands[4]["counts"]["tricks"] == [4, 4, 2, 3]
    expect(page2.locator("tr.pending-row")).to_have_count(0)


def test_installable_with_its_worker(phone1: Phone) -> None:
    page = phone1.start()
    login(page)
    page.goto("/")
    for _ in range(100):
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            break
        page.wait_for_timeout(100)
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors          # a persistent profile: no incognito exception
    manifest = page.request.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"


# --- the hands after the next one, with no network (issue 39) -------------------------------

def save_counts(page: Any, gid: int, h: Any) -> None:
    """Types hand ``h``'s counts on the entry page and saves it: back on the sheet."""
    enter_counts(page, h)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))


def test_the_sheet_and_trick_page_of_the_hand_after_a_waiting_one(phone1: Phone, live_app: Any) -> None:
    record = load_record("ru32_complete.json")
    full = load(record)
    players = record["players"]
    hand3 = slot_for(get_profile("ru32"), full.record.first_seat, 3)
    page = phone1.start()
    login(page)
    gid = import_game(page, dict(record, hands=record["hands"][:1]))
    ready_for_offline(page, gid)

    phone1.offline()
    page.click("#enter-hand")                      # hand 2, typed with no network
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 2")
    save_counts(page, gid, full.hands[1])
    expect(page.locator("tr.pending-row")).to_have_count(1)

    # the sheet kept on the phone: the next hand to type is hand 3, as its buttons open
    expect(page.locator("#next-hand")).to_have_attribute("data-row", "3")
    expect(page.locator("#next-hand .what")).to_contain_text("Mano 3")
    expect(page.locator("#next-hand .what")).to_contain_text("Sin Chicas")
    expect(page.locator("#next-hand .who")).to_contain_text(f"Reparte: {players[hand3.dealer]}")
    expect(page.locator("#next-hand .who")).to_contain_text(f"Sale: {players[hand3.leader]}")
    expect(page.locator("#enter-hand")).to_have_text("Apuntar la mano 3")
    expect(page.locator("#enter-tricks")).to_contain_text("Anotar la mano 3 baza a baza")
    expect(page.locator("#next-hand")).not_to_contain_text("mano 2")
    # one true status: the kept copy's live line says the connection is lost from the start
    page.wait_for_selector("#live-status[data-ready]")
    assert "En vivo" not in page.inner_text("#live-status")
    expect(page.locator("#live-status")).to_contain_text("Sin conexión desde las")
    page.screenshot(path=shot("offline-ahead-sheet.png"), full_page=True)
    no_sideways_scroll(page)

    # hand 3 trick by trick: its own page (contract, dealer, leader), kept while online
    page.click("#enter-tricks")
    page.wait_for_selector("#card-grid")
    expect(page.locator("h1")).to_have_text("Mano 3")
    expect(page.locator("#contract-name")).to_have_text("Sin Chicas")
    expect(page.locator("#hand-dealer")).to_have_text(players[hand3.dealer])
    expect(page.locator("#hand-leader")).to_have_text(players[hand3.leader])
    expect(page.locator("#turn")).to_contain_text(players[hand3.leader])
    expect(page.locator("#referee")).to_have_attribute("data-row", "3")
    page.screenshot(path=shot("offline-ahead-tricks.png"), full_page=True)
    no_sideways_scroll(page)
    # its counts link opens hand 3's counts page
    page.click("#mode-counts-link")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 3")
    expect(page.locator("#hand-form")).to_have_attribute("data-row", "3")

    phone1.online()                                # hand 2 is sent: the panel is the server's
    page.goto(f"/games/{gid}")
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    expect(page.locator("#enter-hand")).to_have_text("Apuntar la mano 3")
    assert [h["contract"] for h in sheet_rows(live_app, gid)][1:] == ["no-boys"]


def test_a_chooser_s_hand_after_a_waiting_one_says_what_is_not_known(phone1: Phone, live_app: Any) -> None:
    """Rifki: hand 6's chooser is known, what is left to choose is not (it depends on hand 5,
    waiting on the phone). The sheet and the page say so; the choice is made on the page and
    hand 6 entered on its own page, sent after hand 5."""
    record = load_record("rifki_complete.json")
    full = load(record)
    players = record["players"]
    chooser = players[slot_for(get_profile("rifki"), full.record.first_seat, 6).chooser]
    page = phone1.start()
    login(page)
    gid = import_game(page, dict(record, hands=record["hands"][:4]))
    ready_for_offline(page, gid)
    phone1.offline()
    choose(page, "koz", "H")                       # hand 5
    page.wait_for_selector("#hand-form[data-ready]")
    save_counts(page, gid, full.hands[4])

    panel = page.locator("#next-hand")
    expect(panel).to_have_attribute("data-row", "6")
    expect(panel.locator(".what")).to_contain_text(f"Mano 6 · {chooser} elige")
    expect(panel.locator(".not-known")).to_contain_text(f"Aún no se sabe: el contrato lo elige {chooser}")
    expect(page.locator("#enter-hand")).to_have_text("Apuntar la mano 6")
    page.screenshot(path=shot("offline-ahead-rifki-sheet.png"), full_page=True)

    page.click("#enter-hand")
    page.wait_for_selector("#choose")
    expect(page.locator("h1")).to_have_text("Mano 6")
    expect(page.locator("#not-known")).to_contain_text(
        f"Aún no se sabe: el contrato lo elige {chooser}, y lo que le queda por elegir depende de la mano 5")
    expect(page.locator("#choose h2")).to_contain_text(chooser)
    page.screenshot(path=shot("offline-ahead-rifki-choose.png"), full_page=True)
    no_sideways_scroll(page)
    page.click('#choose label:has(input[name="contract"][value="kiz-almaz"])')
    page.click("#choose-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    expect(page.locator("h1")).to_have_text("Mano 6")
    expect(page.locator("#hand-form")).to_have_attribute("data-row", "6")
    expect(page.locator("#entry")).to_contain_text(f"Sale: {chooser}")
    expect(page.locator("#outbox-on-top")).to_have_count(0)      # its own page: no generic note
    save_counts(page, gid, full.hands[5])
    expect(page.locator("tr.pending-row")).to_have_count(2)
    expect(panel).to_have_attribute("data-row", "7")

    phone1.online()
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=20_000)
    assert [h["contract"] for h in sheet_rows(live_app, gid)][4:] == ["koz", "kiz-almaz"]


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
