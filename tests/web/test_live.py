"""The live sheet's version check and "what changed since" (issue 13), on SQLite and
PostgreSQL: a 304 without reading the record while nothing changed, the new version after
any save, and the change-log entries after a version with the hands as they stand."""
from __future__ import annotations

import pytest
from sqlalchemy import event

from app.db import get_db
from tests.web.helpers import counts_form

pytestmark = pytest.mark.every_database

RU32_FIRST = {"tricks": [2, 3, 1, 2]}   # ru32 hand 1 (no tricks): 8 tricks


def save_first_hand(client, gid, version=1, counts=RU32_FIRST, scorer="Ana"):
    """Hand 1 saved by user `scorer` (two phones: two users on the same client)."""
    client.login_as(scorer)
    return client.post(f"/games/{gid}/hands/new",
                       data=counts_form(counts, version, contract="no-tricks", mode="counts",
                                        ruling_kind="as-played"))


def test_version_check_answers_304_while_nothing_changed(client, make_game):
    gid = make_game("ru32")
    first = client.get(f"/games/{gid}/live")
    assert first.status_code == 200
    assert first.get_json()["version"] == 1
    assert first.headers["ETag"] == '"v1"'
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get(f"/games/{gid}/live", headers={"If-None-Match": '"v1"'})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == '"v1"'

    assert save_first_hand(client, gid).status_code == 302
    changed = client.get(f"/games/{gid}/live", headers={"If-None-Match": '"v1"'})
    assert changed.status_code == 200 and changed.get_json()["version"] == 2
    assert changed.headers["ETag"] == '"v2"'
    assert client.get(f"/games/{gid}/live", headers={"If-None-Match": '"v2"'}).status_code == 304


def test_version_check_reads_the_game_row_without_its_record(app, client, make_game):
    """Through the view (the short way, app/games/sheet/fast_poll.py, stepped around: it reads the
    same one statement, tests/web/test_fast_poll.py)."""
    gid = make_game("ru32")
    app.wsgi_app = app.wsgi_app.inner
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        statements.append(statement)

    engine = get_db(app).engine
    assert client.get(f"/games/{gid}/live").status_code == 200   # (the app's first: "any user?")
    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert client.get(f"/games/{gid}/live", headers={"If-None-Match": '"v1"'}).status_code == 304
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    # ONE statement: the game's stamp and the login's check together (auth.poll_guard)
    queries = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(queries) == 1, queries
    assert "record" not in queries[0] and "audit_entry" not in queries[0]


def test_version_check_of_a_missing_game_is_404(client):
    assert client.get("/games/999/live").status_code == 404


def test_changes_since_a_version_name_who_what_and_the_hand_now(client, make_game):
    gid = make_game("ru32")
    assert save_first_hand(client, gid, scorer="Ana").status_code == 302
    html = client.get(f"/games/{gid}/changes?since=1&row=1").get_data(as_text=True)
    assert "Ana recorded hand row 1" in html
    assert 'class="same-row"' in html                  # the row the asking page is entering
    assert "Beto <strong>−6</strong>" in html                 # the hand as it stands now
    assert "Not every change" not in html
    none = client.get(f"/games/{gid}/changes?since=2").get_data(as_text=True)
    assert "<li" not in none


def test_changes_refuse_a_version_that_never_was(client, make_game):
    gid = make_game("ru32")
    assert client.get(f"/games/{gid}/changes?since=7").status_code == 400
    assert client.get(f"/games/{gid}/changes?since=x").status_code == 400
    assert client.get(f"/games/{gid}/changes").status_code == 400


def test_every_change_log_entry_carries_the_version_it_produced(session, make_game):
    from app.games import hands as hands_service
    from app.models import AuditEntry, Game

    gid = make_game("ru32")
    game = session.get(Game, gid)
    hands_service.record_hand(session, game, {"counts": {"tricks": [2, 3, 1, 2]}},
                              expected_version=1, who="t")
    hands_service.delete_last_hand(session, game, expected_version=2, who="t")
    versions = [e.version for e in session.query(AuditEntry).filter_by(game_id=gid).order_by(AuditEntry.id)]
    assert versions == [1, 2, 3] and game.version == 3


@pytest.mark.parametrize("path", ["/games/{gid}", "/games/{gid}/hands/new"])
def test_pages_carry_the_live_status(client, make_game, path):
    gid = make_game("ru32")
    html = client.get(path.format(gid=gid)).get_data(as_text=True)
    assert f'data-live-url="/games/{gid}/live"' in html and 'data-version="1"' in html


# --- issue 8 item 6: a save overtaken by another phone's save --------------------------------

def entry_values(html: str) -> dict[str, str]:
    import re

    return dict(re.findall(r'name="(tricks_\d)"[^>]*value="([^"]*)"', html))


def hands_of(client, gid):
    from tests.web.helpers import record_of

    return record_of(client, gid)["hands"]


def test_an_overtaken_new_hand_is_offered_for_its_row_and_never_added_twice(client, make_game):
    gid = make_game("ru32")
    page_b = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    assert f'action="/games/{gid}/hands/new?row=1"' in page_b      # the form names its row
    assert save_first_hand(client, gid, scorer="Ana").status_code == 302   # A saves hand 1

    typed_b = counts_form({"tricks": [1, 1, 3, 3]}, 1, contract="no-tricks", mode="counts",
                          ruling_kind="as-played")
    client.login_as("Beto")
    r = client.post(f"/games/{gid}/hands/new?row=1", data=typed_b)
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "Ana recorded hand row 1" in html and "Beto <strong>−6</strong>" in html   # A's hand
    assert 'id="conflict-choice"' in html and "recorded on another phone" in html
    assert entry_values(html) == {"tricks_0": "1", "tricks_1": "1", "tricks_2": "3", "tricks_3": "3"}
    assert f'action="/games/{gid}/hands/1/edit' in html                 # on its own row
    assert 'name="version" value="2"' in html and "Replace hand row 1" in html
    assert 'id="discard-entry"' in html
    assert len(hands_of(client, gid)) == 1

    # pressing the browser's "send again" resubmits the stale form: still one hand
    assert client.post(f"/games/{gid}/hands/new?row=1", data=typed_b).status_code == 409
    assert len(hands_of(client, gid)) == 1
    # re-applying it replaces hand row 1, as the page offered
    typed_b["version"] = "2"
    assert client.post(f"/games/{gid}/hands/1/edit", data=typed_b).status_code == 302
    hands = hands_of(client, gid)
    assert len(hands) == 1 and hands[0]["counts"]["tricks"] == [1, 1, 3, 3]


def test_a_new_hand_overtaken_by_a_change_elsewhere_stays_the_next_hand(client, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 3, 1, 2]}}])
    # A corrects hand 1 while B types hand 2 (no boys: kings and jacks)
    fixed = counts_form({"tricks": [2, 2, 2, 2]}, 1, contract="no-tricks", mode="counts",
                        ruling_kind="as-played")
    assert client.login_as("Ana").post(f"/games/{gid}/hands/1/edit", data=fixed).status_code == 302
    typed_b = counts_form({"kings": [1, 1, 1, 1], "jacks": [0, 2, 1, 1]}, 1, contract="no-boys",
                          mode="counts", ruling_kind="as-played")
    client.login_as("Beto")
    r = client.post(f"/games/{gid}/hands/new?row=2", data=typed_b)
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and "Ana corrected hand row 1" in html
    assert "records it as hand row 2" in html and f'action="/games/{gid}/hands/new?row=2' in html
    typed_b["version"] = "2"
    assert client.post(f"/games/{gid}/hands/new?row=2", data=typed_b).status_code == 302
    assert len(hands_of(client, gid)) == 2


def test_rifki_overtaken_choice_is_not_recorded_twice(client, make_game):
    gid = make_game("rifki")
    form = counts_form({"tricks": [4, 3, 3, 3]}, 1, contract="el-almaz", mode="counts",
                       ruling_kind="as-played")
    assert client.post(f"/games/{gid}/hands/new?row=1&contract=el-almaz", data=form).status_code == 302
    again = counts_form({"tricks": [3, 4, 3, 3]}, 1, contract="el-almaz", mode="counts",
                        ruling_kind="as-played")
    r = client.post(f"/games/{gid}/hands/new?row=1&contract=el-almaz", data=again)
    assert r.status_code == 409 and "Press Save again" not in r.get_data(as_text=True)
    r = client.post(f"/games/{gid}/hands/new?row=1&contract=el-almaz", data=again)
    assert r.status_code == 409 and len(hands_of(client, gid)) == 1


def test_an_overtaken_trick_entry_stays_on_its_row(client, make_game):
    from tests.web.test_referee import finish_without_deal

    gid = make_game("ru32")
    plays = finish_without_deal([])
    state = f"/games/{gid}/hands/tricks?row=1&plays={','.join(plays)}"
    assert client.login_as("Ana").post(state, data={"version": "1"}).status_code == 302   # A
    client.login_as("Beto")
    page = client.get(state).get_data(as_text=True)            # B's next tap, same row
    assert "recorded on another phone" in page and "Replace hand row 1" in page
    assert "Ana recorded hand row 1" in page
    r = client.post(state, data={"version": "1"})   # B's stale save
    assert r.status_code == 409 and len(hands_of(client, gid)) == 1
    assert client.post(state, data={"version": "2"}).status_code == 302
    assert len(hands_of(client, gid)) == 1                     # replaced, not added


def test_qr_code_of_the_sheet_link(client, make_game):
    gid = make_game("ru32")
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'src="/qr.svg?path=/games/{gid}"' in html
    r = client.get(f"/qr.svg?path=/games/{gid}")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.data.startswith(b"<svg") and b"<path" in r.data
    assert b'xmlns="http://www.w3.org/2000/svg"' in r.data      # an image on its own
    for bad in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)", "x" * 400):
        assert client.get("/qr.svg", query_string={"path": bad}).status_code == 400
