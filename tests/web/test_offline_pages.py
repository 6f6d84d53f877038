"""The pages a phone keeps for entering hands with no network (issue 39): offline.json names
the next hand's pages and, where the schedule alone fixes them, the few after it (``ahead``),
each rendered as its own hand; a kept page is never one the game has moved past."""
from __future__ import annotations

import re
from html import unescape
from typing import Any

from app.rules import get_profile, load
from app.rules.schedule import slot_for
from tests.conftest import load_record
from tests.web.test_outbox_answers import entry_form, tricks


def test_the_next_hands_of_a_fixed_schedule_each_have_their_page(client, make_game):
    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    assert client.post(url, data=tricks(fields, [2, 3, 1, 2])).status_code == 302   # hand 1
    urls = client.get(f"/games/{gid}/hands/offline.json").get_json()["urls"]
    ahead = [u for u in urls if "ahead=" in u]
    assert [u for u in ahead if "mode=counts" in u] == [
        f"/games/{gid}/hands/new?row={2 + k}&ahead={k}&mode=counts" for k in (1, 2, 3)]
    page = client.get(f"/games/{gid}/hands/new?row=3&ahead=1&mode=counts")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'data-row="3"' in html and f'action="/games/{gid}/hands/new?row=3' in html
    assert "No Girls" in html or "Sin Chicas" in html                 # hand 3's contract
    # the game moved since offline.json named it: not kept
    assert client.get(f"/games/{gid}/hands/new?row=4&ahead=1").status_code == 409
    # the worker keeping "the next hand" at a row recorded meanwhile: not kept either
    assert client.get(f"/games/{gid}/hands/new?row=1", headers={"X-Kingsheet-Page": "1"}).status_code == 409
    assert client.get(f"/games/{gid}/hands/new?row=1").status_code == 200     # a person: the row


def seat_of(record: dict[str, Any]) -> int:
    """The record's first seat (the first dealer, or rifki's first chooser)."""
    return int(load(record).record.first_seat)


def _text(response: Any) -> str:
    """A page's words (no tags), for reading what it says."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|template)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_the_trick_pages_of_the_next_hands_are_kept_too(client, make_game):
    """Issue 39: hand n+1's trick page, kept while online, is hand n+1's: its contract,
    dealer and leader (ru32 after hand 1: hand 3 is Sin Chicas)."""
    gid = make_game(record=dict(load_record("ru32_complete.json"),
                                hands=load_record("ru32_complete.json")["hands"][:1]))
    urls = client.get(f"/games/{gid}/hands/offline.json").get_json()["urls"]
    assert f"/games/{gid}/hands/new?row=3&ahead=1&mode=tricks" in urls
    to = client.get(f"/games/{gid}/hands/new?row=3&ahead=1&mode=tricks")
    assert to.status_code == 302
    assert to.headers["Location"] == f"/games/{gid}/hands/tricks?contract=no-girls&row=3&ahead=1"
    page = client.get(to.headers["Location"])
    assert page.status_code == 200
    words = _text(page)
    players = load_record("ru32_complete.json")["players"]
    slot = slot_for(get_profile("ru32"), 0, 3)
    assert "Hand 3" in words and "No Girls" in words
    assert f"Deals: {players[slot.dealer]}" in words and f"Leads: {players[slot.leader]}" in words
    html = page.get_data(as_text=True)
    assert 'data-row="3"' in html and f'action="/games/{gid}/hands/tricks?contract=no-girls&amp;row=3' in html
    # the game moved since offline.json named it: not kept
    assert client.get(f"/games/{gid}/hands/tricks?contract=no-girls&row=4&ahead=1").status_code == 409


def test_a_chooser_s_hand_ahead_says_what_is_not_known_and_keeps_the_choice(client, make_game):
    """A rifki hand after hands waiting on the phone: its chooser is known, what is left to
    choose is not (it depends on the waiting hands). Its page says so, offers the contracts
    not used up at the whole table, and each choice opens that hand's entry."""
    record = load_record("rifki_complete.json")
    gid = make_game(record=dict(record, hands=record["hands"][:4]))
    players = record["players"]
    urls = client.get(f"/games/{gid}/hands/offline.json").get_json()["urls"]
    assert f"/games/{gid}/hands/new?row=6&ahead=1&mode=counts" in urls
    assert f"/games/{gid}/hands/new?row=7&ahead=2&mode=counts&contract=koz&trump=H" in urls
    # a choice ahead is kept in counts only (asked again after every change of the game)
    assert f"/games/{gid}/hands/new?row=7&ahead=2&mode=tricks&contract=koz&trump=H" not in urls
    assert len(urls) <= 63
    chooser = slot_for(get_profile("rifki"), seat_of(record), 6).chooser
    page = client.get(f"/games/{gid}/hands/new?row=6&ahead=1&mode=counts")
    words = _text(page)
    assert page.status_code == 200 and "Hand 6" in words
    assert (f"Not known yet: {players[chooser]} chooses the contract, and what is left to choose "
            "depends on hand 5 and the ones before it") in words
    assert 'id="not-known"' in page.get_data(as_text=True)
    assert f"{players[chooser]} chooses the contract" in words     # the choice, kept
    ready = client.get(f"/games/{gid}/hands/new?row=7&ahead=2&contract=koz&trump=H&mode=counts")
    html = ready.get_data(as_text=True)
    nxt = slot_for(get_profile("rifki"), seat_of(record), 7).chooser
    assert ready.status_code == 200 and 'id="hand-form"' in html and 'data-row="7"' in html
    assert f"Leads: {players[nxt]}" in _text(ready) and "Hand 7" in _text(ready)
    tricks = client.get(f"/games/{gid}/hands/new?row=7&ahead=2&contract=koz&trump=H&mode=tricks",
                        follow_redirects=True)
    assert tricks.status_code == 200 and 'data-row="7"' in tricks.get_data(as_text=True)
    assert f"Leads: {players[nxt]}" in _text(tricks)


def test_a_fiesta_ahead_says_its_auction_is_not_known_yet(client, make_game):
    record = load_record("fiestas_complete.json")
    gid = make_game(record=dict(record, hands=record["hands"][:6]))
    urls = client.get(f"/games/{gid}/hands/offline.json").get_json()["urls"]
    assert f"/games/{gid}/hands/new?row=8&ahead=1" in urls
    page = client.get(f"/games/{gid}/hands/new?row=8&ahead=1")
    owner = slot_for(get_profile("fiestas"), seat_of(record), 8).owner
    words = _text(page)
    assert page.status_code == 200 and "Hand 8" in words
    assert (f"Not known yet: hand 8 is the fiesta of {record['players'][owner]}, and its auction "
            "is entered call by call with the server. Enter it once hand 7") in words
    assert 'id="legal-calls"' not in page.get_data(as_text=True)   # no call it could not follow


def test_the_sheet_names_the_hands_after_the_next_one_for_the_phone(client, make_game):
    """The sheet kept on a phone shows the hand after those waiting there (offline.js): the
    server writes the next hands, each for its row, as the panel shows a hand."""
    record = load_record("ru32_complete.json")
    gid = make_game(record=dict(record, hands=record["hands"][:1]))
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    box = re.search(r'<div id="next-ahead"(.*?)</div>\s*<p class="row" id="enter-tricks-row"', html, re.S)
    assert box is not None
    assert 'data-next-row="2"' in box.group(1) and 'data-t-enter="Enter hand #N#"' in box.group(1)
    rows = re.findall(r'<template data-row="(\d+)" data-number="(\d+)">(.*?)</template>', box.group(1), re.S)
    assert [(r, n) for r, n, _ in rows] == [("3", "3"), ("4", "4"), ("5", "5")]
    assert "No Girls" in rows[0][2] and "Deals" in rows[0][2]
    rifki = load_record("rifki_complete.json")
    gid = make_game(record=dict(rifki, hands=rifki["hands"][:4]))
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    chooser = rifki["players"][slot_for(get_profile("rifki"), seat_of(rifki), 6).chooser]
    later = re.search(r'<template data-row="6" data-number="6">(.*?)</template>', html, re.S)
    assert later is not None and f"{chooser} chooses" in later.group(1)
    assert "Not known yet" in unescape(later.group(1))


def test_the_counts_link_of_a_hand_entered_trick_by_trick_opens_the_counts_form(client, make_game):
    """"enter counts instead" on the correction of a hand entered trick by trick (issue 39):
    the counts form of that hand, not the trick page again."""
    record = load_record("ru32_complete.json")
    gid = make_game(record=dict(record, hands=record["hands"][:4]))      # hand 4: trick by trick
    page = client.get(f"/games/{gid}/hands/4/edit", follow_redirects=True)
    html = page.get_data(as_text=True)
    assert 'id="referee"' in html or "mode-counts-link" in html
    link = re.search(r'href="([^"]+)" id="mode-counts-link"', html)
    assert link is not None
    counts = client.get(link.group(1).replace("&amp;", "&"))
    assert counts.status_code == 200, counts.headers.get("Location")
    form = counts.get_data(as_text=True)
    assert 'id="hand-form"' in form and 'id="row-hearts"' in form
    assert re.search(r'id="hearts_0"[^>]*value="\d"', form)             # the stored counts
