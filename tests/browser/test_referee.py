"""Referee mode in Chromium at 375 px: hands entered trick by trick in every profile, with
and without the deal, whose points on the page are the engine's score of the exported
record; a revoke proven by a later play, flagged with its evidence; a ruling that changes
the totals; screenshots of the trick page and the hand record page."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from app.rules import score_record
from app.rules.cards import cards_of
from app.rules.game.hand import HandState
from app.rules.profiles import PROFILES
from tests.browser.conftest import SHOTS
from tests.conftest import base_record
from tests.web import helpers as web_helpers

pytestmark = pytest.mark.browser


FIESTA_NEGATIVES = [{"counts": {"tricks": [1, 5, 3, 4]}}, {"counts": {"hearts": [1, 5, 3, 4]}},
                    {"counts": {"queens": [1, 1, 1, 1]}},
                    {"counts": {"kings": [1, 1, 1, 1], "jacks": [2, 0, 1, 1]}},
                    {"counts": {"kh": 2}}, {"counts": {"last_two": [1, 1]}}]


def import_game(page: Any, record: dict[str, Any]) -> int:
    page.goto("/games/import")
    page.set_input_files("input[type=file]", files=[{
        "name": "game.json", "mimeType": "application/json",
        "buffer": json.dumps(record).encode()}])
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(re.search(r"/games/(\d+)$", page.url).group(1))  # type: ignore[union-attr]


def legal_hand(profile_id: str, contract: str, trump: str | None, leader: int,
               seed: int) -> tuple[list[list[str]], list[str]]:
    return web_helpers.legal_hand(profile_id, contract, leader, seed, trump)


def plays_count(page: Any) -> int:
    return int(page.get_attribute("#referee", "data-plays"))


def tap(page: Any, card: str) -> None:
    n = plays_count(page)
    page.click(f'#card-grid a.cardbtn[data-card="{card}"]')
    page.wait_for_selector(f'#referee[data-plays="{n + 1}"]')


# One round trip per tap for whole hands: the card link is clicked in the page (the same
# click handler and fetch-and-swap as a finger's tap) and we wait for the next state.
# The other tests tap with Playwright's own click.
QUICK_TAP = """async (code) => {
  const n = +document.getElementById('referee').dataset.plays;
  const a = document.querySelector(`#card-grid a.cardbtn[data-card="${code}"]`);
  if (!a) throw new Error('no card link for ' + code);
  a.click();
  for (let i = 0; i < 1000; i++) {
    await new Promise(r => setTimeout(r, 4));
    const now = document.getElementById('referee');
    if (now && +now.dataset.plays === n + 1) return;
  }
  throw new Error('the page did not take ' + code);
}"""

QUICK_DEAL = """(deal) => {
  for (let s = 0; s < 3; s++) {
    document.querySelector(`[data-pick="${s}"]`).click();
    for (const card of deal[s]) document.querySelector(`.deal-cell[data-card="${card}"] .face`).click();
  }
}"""


def quick_tap(page: Any, card: str) -> None:
    page.evaluate(QUICK_TAP, card)


def type_card(page: Any, card: str) -> None:
    n = plays_count(page)
    text = {"T": "10"}.get(card[0], card[0]) + card[1].lower()
    page.fill("#add", text.lower() if n % 2 else text)
    page.press("#add", "Enter")
    page.wait_for_selector(f'#referee[data-plays="{n + 1}"]')


def enter_deal(page: Any, deal: list[list[str]], quick: bool = False) -> None:
    page.click("#enter-deal")
    page.wait_for_selector("#deal-form")
    if quick:
        page.evaluate(QUICK_DEAL, deal)
    for s in range(3 if not quick else 0):  # the fourth seat gets the rest by itself
        page.click(f'[data-pick="{s}"]')
        for card in deal[s]:
            page.click(f'.deal-cell[data-card="{card}"] .face')
    assert page.inner_text('[data-count="3"]') == str(len(deal[3]))
    page.click("#deal-done")
    page.wait_for_selector("#card-grid")


def page_points(page: Any, attr: str) -> list[int]:
    return [int(page.inner_text(f"[{attr}=\"{s}\"]").replace("−", "-").replace("+", ""))
            for s in range(4)]


def play_and_save(page: Any, start: str, plays: list[str], deal: list[list[str]] | None,
                  typed_every: int = 9) -> list[int]:
    page.goto(start)
    page.wait_for_selector("#card-grid")
    if deal is not None:
        enter_deal(page, deal, quick=True)
    for k, card in enumerate(plays):
        if k % typed_every == typed_every - 1:
            type_card(page, card)
        elif k < 4:
            tap(page, card)
        else:
            quick_tap(page, card)
    page.wait_for_selector("#hand-over")
    live = page_points(page, "data-points")
    final = page_points(page, "data-final")
    assert live == final
    page.click("#save-hand")
    page.wait_for_url(re.compile(r"/games/\d+#hand-\d+$"))
    return final


CASES = [
    # profile, prior hands, contract, trump, leader, setup query, seed
    ("ru32", [], "no-tricks", None, 1, "", 1),
    ("fiestas", FIESTA_NEGATIVES, "trump", "H", 3,
     "contract=trump&trump=H&auction=3:%2B2,0:pass,1:pass,owner:accept", 3),
    ("subastas", [], "no-tricks", None, 1, "", 4),
    ("rifki", [], "kiz-almaz", None, 0, "contract=kiz-almaz", 6),
]


def case_setup(case: Any, with_deal: bool) -> tuple[str, list[Any], str, str | None, int, str, int]:
    """A case of CASES as played: rifki with the deal is koz with its trump."""
    profile, prior, contract, trump, leader, query, seed = case
    if profile == "rifki" and with_deal:
        contract, trump, query = "koz", "S", "contract=koz&trump=S"
    return profile, prior, contract, trump, leader, query, seed


# Each profile once in the browser, with and without the deal in turn (the page's script is
# the same for every profile; every profile in both ways is played through the server's
# pages by tests/web/test_referee.py::test_every_profile_by_its_tricks_scores_as_the_engine).
BROWSER_CASES = [(CASES[0], False), (CASES[1], True), (CASES[2], False), (CASES[3], True)]


@pytest.mark.parametrize("case,with_deal", BROWSER_CASES,
                         ids=[f"{c[0]}-{'deal' if d else 'no-deal'}" for c, d in BROWSER_CASES])
def test_a_hand_trick_by_trick_scores_as_the_engine(page: Any, case: Any, with_deal: bool) -> None:
    profile, prior, contract, trump, leader, query, seed = case_setup(case, with_deal)
    gid = import_game(page, base_record(profile, hands=prior))
    deal, plays = legal_hand(profile, contract, trump, leader, seed)
    shown = play_and_save(page, f"/games/{gid}/hands/tricks?{query}", plays,
                          deal if with_deal else None)
    record = page.request.get(f"/games/{gid}/record.json").json()
    hand = record["hands"][len(prior)]
    assert hand["tricks"] == [plays[k:k + 4] for k in range(0, len(plays), 4)]
    assert ("deal" in hand) == with_deal
    assert score_record(record)["hands"][len(prior)]["points"] == shown


def test_revoke_flagged_with_evidence_and_a_ruling_changes_the_totals(page: Any) -> None:
    gid = import_game(page, base_record("ru32"))
    # Beto leads A♠; Carla discards 7♣; in trick 2 she plays 9♠: the revoke is proven.
    plays = ["AS", "7C", "8S", "KS", "7S", "9S", "TS", "JS"]
    state = HandState("ru32", {}, "no-tricks", None, 1)
    for c in plays:
        state.play(c)
    rest = [str(c) for c in cards_of(PROFILES["ru32"].deck) if str(c) not in plays]
    while not state.over:
        for c in rest:
            if c not in plays:
                state.play(c)
                plays.append(c)
                break
    page.goto(f"/games/{gid}/hands/tricks")
    for card in plays[:6]:
        tap(page, card)
    panel = page.inner_text("#violations")
    assert "Asistir al palo" in panel and "9♠ jugado en la baza 2" in panel
    assert page.locator('#trick-grid td.flagged[data-card="7C"]').count() == 1
    for card in plays[6:]:
        tap(page, card)
    page.click("#save-hand")
    page.wait_for_url(re.compile(r"/games/\d+#hand-1$"))
    before = page_points(page, "data-total-seat")
    page.click("#hand-1 a.hand-link")
    page.wait_for_url(re.compile(r"/hands/1#violations$"))
    assert page.locator('tr.violation[data-rule="follow-suit"][data-card="7C"]').count() == 1
    assert "9♠ jugado en la baza 2" in page.inner_text("#violations")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "hand-record-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the ruling: Carla, the offender, takes the whole hand total
    page.click('label:has(input[name="kind"][value="charge-offender"])')
    page.select_option("#seat", "2")
    page.fill("#reason", "renuncio probado en la baza 2")
    page.click("#save-ruling")
    page.wait_for_url(re.compile(r"/hands/1#ruling$"))
    assert "cargar al infractor" in page.inner_text("#current-ruling")
    page.goto(f"/games/{gid}")
    after = page_points(page, "data-total-seat")
    assert after == [0, 0, -16, 0] and after != before
    record = page.request.get(f"/games/{gid}/record.json").json()
    assert score_record(record)["totals"] == after
    assert record["hands"][0]["ruling"]["by"] == "directora"   # the logged-in user


def test_illegal_cards_marked_before_the_tap_and_screenshot(page: Any) -> None:
    # fiestas no-kh is hand 5; a deal where some card is forbidden at trick 2
    prior = FIESTA_NEGATIVES[:4]
    gid = import_game(page, base_record("fiestas", hands=prior))
    deal, plays = legal_hand("fiestas", "no-kh", None, 1, 8)
    page.goto(f"/games/{gid}/hands/tricks")
    enter_deal(page, deal)
    assert page.locator("#card-grid a.cardbtn.illegal").count() > 0   # hearts-lead at trick 1
    first = page.locator("#card-grid a.cardbtn.illegal").first
    assert "Salir de corazones" in (first.get_attribute("aria-label") or "")
    assert "Salir de corazones" in page.inner_text("#forbidden")
    for card in plays[:6]:
        tap(page, card)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "trick-entry-375.png"), full_page=True)
    # an illegal card played anyway is recorded and flagged
    illegal = page.locator("#card-grid a.cardbtn.illegal")
    if illegal.count():
        code = illegal.first.get_attribute("data-card")
        tap(page, code)
        assert page.locator("#last-flag").count() == 1
        page.click("#undo-card")
        page.wait_for_selector('#referee[data-plays="6"]')
    page.click("#undo-trick")
    page.wait_for_selector('#referee[data-plays="4"]')
    page.reload()
    assert plays_count(page) == 4                           # nothing lost on reload
