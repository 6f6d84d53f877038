"""Whole games of each profile played through the pages in Chromium (375 px wide).

Each hand of the hand-computed records in tests/data/records is entered as a scorekeeper
would: counts with the last seat left to the page's JS, or cards tapped on the picker;
auctions call by call on the offered buttons; rifki choices on the choice page. Hand 1 is
first entered wrong and corrected at the end. The totals on the page must equal the
engine's score of the exported record.
"""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rules import load, score_record
from tests.browser.conftest import shot
from tests.conftest import load_record

pytestmark = pytest.mark.browser


def game_id(page: Any) -> int:
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def create_game(page: Any, record: dict[str, Any], draw: bool) -> int:
    page.goto("/games/new")
    page.click(f'label.profile-option:has(input[value="{record["profile"]}"])')
    for s, name in enumerate(record["players"]):
        page.fill(f"#player_{s}", name)
    if record.get("options"):
        page.click(f'details[data-profile="{record["profile"]}"] > summary')  # folded away
    for name, value in (record.get("options") or {}).items():
        page.select_option(f"#opt_{name}", value)
    seat = record.get("first_dealer", record.get("first_chooser"))
    page.select_option("#first_seat", "draw" if draw else str(seat))
    page.click("#start-game")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return game_id(page)


def last_two_seats(h: Any) -> list[int]:
    counts = h.counts.get("last_two", [0, 0, 0, 0])
    if h.trick_winners and len(h.trick_winners) >= 2:
        return list(h.trick_winners[-2:])
    seats = [s for s in range(4) for _ in range(counts[s])]
    return seats


def enter_counts(page: Any, h: Any, values: dict[str, list[int]] | None = None) -> None:
    counts = values or h.counts
    for el in ("tricks", "hearts", "kings", "queens", "jacks"):
        if page.locator(f"#row-{el}").count() == 0:
            continue
        row = counts[el]
        for s in range(3):                      # the fourth is computed by the page
            page.fill(f"#{el}_{s}", str(row[s]))
        assert page.input_value(f"#{el}_3") == str(row[3]), el
    if page.locator("#row-kh").count():
        seat = counts["kh"].index(1)
        page.click(f'#row-kh label:has(input[value="{seat}"])')
    enter_last_two(page, h)


def enter_last_two(page: Any, h: Any) -> None:
    if page.locator("#row-last_two").count():
        for k, seat in enumerate(last_two_seats(h)):
            page.click(f'#row-last_two label:has(input[name="last_two_{k}"][value="{seat}"])')


def enter_captures(page: Any, h: Any) -> None:
    page.click("#mode-captures")
    page.wait_for_selector("#hand-form[data-ready] #card-picker")
    for s, cards in enumerate(h.captured):
        page.click(f'[data-pick="{s}"]')
        for card in cards:
            page.click(f'.card-cell[data-card="{card}"] .face')
    if page.locator("#row-tricks").count():
        for s in range(4):
            page.fill(f"#tricks_{s}", str(h.counts["tricks"][s]))
    enter_last_two(page, h)


def play_hand(page: Any, gid: int, h: Any, profile: Any, use_captures: bool,
              values: dict[str, list[int]] | None = None) -> None:
    if not re.search(rf"/games/{gid}(#hand-\d+)?$", page.url):   # after a save the sheet is open
        page.goto(f"/games/{gid}")
    page.click("#enter-hand")
    for k, call in enumerate(h.auction):
        page.click(f'[data-call="{call}"]')
        page.wait_for_selector(f"#auction-history .chip >> nth={k}")
    if h.auction or profile.fiesta_from and h.number >= profile.fiesta_from:
        page.click(f'#fiesta-contract label:has(input[name="contract"][value="{h.contract.id}"])')
        if h.trump:
            page.click(f'#fiesta-contract label:has(input[name="trump"][value="{h.trump}"])')
        if h.leader is not None:
            page.click(f'#fiesta-contract label:has(input[name="leader"][value="{h.leader}"])')
        page.click("#fiesta-continue")
    elif profile.seat_key == "first_chooser":
        page.click(f'#choose label:has(input[name="contract"][value="{h.contract.id}"])')
        if h.trump:
            page.click(f'#choose label:has(input[name="trump"][value="{h.trump}"])')
        page.click("#choose-continue")
    page.wait_for_selector("#hand-form[data-ready]")
    if h.contract.played:
        has_cards = page.locator("#mode-captures").count() > 0
        if use_captures and has_cards and values is None and h.captured is not None:
            enter_captures(page, h)
        else:
            enter_counts(page, h, values)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}(#hand-\d+)?$"))


def page_totals(page: Any) -> list[int]:
    cells = [page.inner_text(f'td[data-total="{s}"]') for s in range(4)]
    return [int(c.replace("−", "-").replace("+", "")) for c in cells]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{page.url} is {width}px wide"


@pytest.mark.parametrize("name", ["ru32", "fiestas", "subastas", "rifki"])
def test_whole_game(page: Any, name: str) -> None:
    record = load_record(f"{name}_complete.json")
    result = load(record)
    profile = result.profile
    gid = create_game(page, record, draw=(name == "ru32"))
    assert "directora" in page.inner_text("header")

    first = result.hands[0]
    rotated = {el: row[1:] + row[:1] for el, row in first.counts.items()}
    for i, h in enumerate(result.hands):
        play_hand(page, gid, h, profile, use_captures=bool(i % 2), values=rotated if i == 0 else None)
        if i == 0:
            assert page.locator("#hand-1").count() == 1
        if i == 2:
            page.goto(f"/games/{gid}/hands/new")
            no_sideways_scroll(page)

    # the correction: hand 1 was entered rotated; put the real counts in
    page.goto(f"/games/{gid}/hands/1/edit")
    page.wait_for_selector("#hand-form[data-ready]")
    enter_counts(page, first)
    page.click("#save-hand")
    page.wait_for_url(re.compile(rf"/games/{gid}(#hand-1)?$"))

    exported = page.request.get(f"/games/{gid}/record.json").json()
    report = score_record(exported)
    assert report["complete"]
    assert page_totals(page) == report["totals"]
    if name != "ru32":  # same seats and dealer: the same scores as the hand-computed record
        assert report["totals"] == score_record(record)["totals"]
    assert page.locator("#winners").count() == 1
    page.goto(f"/games/{gid}/audit")
    assert page.locator('li[data-action="edit_hand"]').count() == 1


def test_rejected_entry_and_screenshots(page: Any) -> None:
    record = load_record("fiestas_complete.json")
    gid = create_game(page, record, draw=False)
    page.goto(f"/games/{gid}/hands/new")
    page.wait_for_selector("#hand-form[data-ready]")
    for s, n in enumerate([4, 3, 2]):
        page.fill(f"#tricks_{s}", str(n))
    page.fill("#tricks_3", "3")        # typed over the computed 4: 12 tricks in all
    page.click("#save-hand")
    error = page.locator("#row-tricks .error")
    assert "12" in error.inner_text() and "13" in error.inner_text()
    assert page.input_value("#tricks_3") == "3"
    assert page.request.get(f"/games/{gid}/record.json").json()["hands"] == []
    no_sideways_scroll(page)
    page.screenshot(path=shot("kingsheet-entry-375.png"), full_page=True)

    for h in load(record).hands[:8]:
        play_hand(page, gid, h, load(record).profile, use_captures=False)
    page.goto(f"/games/{gid}")
    page.screenshot(path=shot("kingsheet-sheet-375.png"), full_page=True)
    page.goto(f"/games/{gid}/hands/new")
    page.click(f'[data-call="{page.get_attribute("#legal-calls a >> nth=2", "data-call")}"]')
    page.wait_for_url(re.compile(r"auction="))
    page.wait_for_selector("#auction-history .chip")
    no_sideways_scroll(page)
    page.screenshot(path=shot("kingsheet-auction-375.png"), full_page=True)
    page.goto("/games/new")
    no_sideways_scroll(page)
    page.screenshot(path=shot("kingsheet-new-375.png"), full_page=True)


def test_live_check_scores_the_hand_as_it_is_typed(page: Any) -> None:
    record = {"format": "kingsheet/1", "profile": "ru32",
              "players": ["Ana", "Beto", "Carla", "Dani"], "first_dealer": 0, "hands": []}
    gid = create_game(page, record, draw=False)
    page.goto(f"/games/{gid}/hands/new")
    page.wait_for_selector("#hand-form[data-ready]")
    for s, n in enumerate([1, 2, 3]):          # the page fills Dani's 2 by itself
        page.fill(f"#tricks_{s}", str(n))
    expect(page.locator('[data-live-seat="3"]')).to_have_text("−4")  # no string eval under the CSP
    live = [page.inner_text(f'[data-live-seat="{s}"]') for s in range(4)]
    assert live == ["−2", "−4", "−6", "−4"]
    assert "−16" in page.inner_text("#live-check")
    page.fill("#tricks_3", "2")                # typed by hand now: the page fills nothing
    page.fill("#tricks_0", "4")                # 4+2+3+2 = 11: named under the row
    page.wait_for_selector("#row-tricks .live-problem")
    assert "11" in page.inner_text("#row-tricks .live-problem")
    assert page.request.get(f"/games/{gid}/record.json").json()["hands"] == []
