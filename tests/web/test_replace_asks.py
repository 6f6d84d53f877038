"""Replacing another phone's save asks first (issue 27.6), whichever way the hand is typed:
two scorers correct hand row 1 at once; the second one's save is refused as stale and the
page that comes back asks, naming who saved the row and when, before it replaces it. On
SQLite and PostgreSQL."""
from __future__ import annotations

import re

from tests.web.helpers import counts_form
from tests.web.test_live import hands_of, save_first_hand
from tests.web.test_referee import finish_without_deal

QUESTION = re.compile(r'data-confirm="Ana saved hand row 1 at [^"]+\. Replace it with this entry\?"')


def test_a_stale_correction_by_counts_asks_before_replacing_anothers_save(client, make_game):
    gid = make_game("ru32")
    assert save_first_hand(client, gid, scorer="Ana").status_code == 302       # version 2
    fixed = counts_form({"tricks": [2, 2, 2, 2]}, 2, contract="no-tricks", mode="counts",
                        ruling_kind="as-played")
    assert client.login_as("Ana").post(f"/games/{gid}/hands/1/edit", data=fixed).status_code == 302
    theirs = counts_form({"tricks": [1, 1, 3, 3]}, 2, contract="no-tricks", mode="counts",
                         ruling_kind="as-played")
    r = client.login_as("Beto").post(f"/games/{gid}/hands/1/edit", data=theirs)
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and QUESTION.search(html), html[:400]
    assert "Replace hand row 1 with this entry" in html
    assert hands_of(client, gid)[0]["counts"]["tricks"] == [2, 2, 2, 2]        # Ana's stands


def test_a_stale_correction_trick_by_trick_asks_before_replacing_anothers_save(client, make_game):
    gid = make_game("ru32")
    assert save_first_hand(client, gid, scorer="Ana").status_code == 302       # version 2
    first = finish_without_deal([], seed=1)
    other = finish_without_deal([], seed=2)
    ana = f"/games/{gid}/hands/1/tricks?plays={','.join(first)}"
    assert client.login_as("Ana").post(ana, data={"version": "2"}).status_code == 302
    beto = f"/games/{gid}/hands/1/tricks?plays={','.join(other)}"
    r = client.login_as("Beto").post(beto, data={"version": "2"})             # stale
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and QUESTION.search(html), html[:400]
    assert "Replace hand row 1 with this entry" in html
    assert [c for t in hands_of(client, gid)[0]["tricks"] for c in t] == first
    # answered yes, the save goes through on the row, never as a second hand
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert client.post(beto, data={"version": version}).status_code == 302
    hands = hands_of(client, gid)
    assert len(hands) == 1 and [c for t in hands[0]["tricks"] for c in t] == other
