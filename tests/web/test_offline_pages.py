"""The pages a phone keeps for entering hands with no network (issue 39): offline.json names
the next hand's pages and, where the schedule alone fixes them, the few after it (``ahead``),
each rendered as its own hand; a kept page is never one the game has moved past."""
from __future__ import annotations

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


def test_a_chooser_s_hands_have_no_page_ahead(client, make_game):
    gid = make_game("rifki")
    urls = client.get(f"/games/{gid}/hands/offline.json").get_json()["urls"]
    assert urls and not [u for u in urls if "ahead=" in u]
    assert client.get(f"/games/{gid}/hands/new?row=2&ahead=1").status_code == 404


def test_the_counts_link_of_a_hand_entered_trick_by_trick_opens_the_counts_form(client, make_game):
    """"enter counts instead" on the correction of a hand entered trick by trick (issue 39):
    the counts form of that hand, not the trick page again."""
    import re

    from tests.conftest import load_record

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
