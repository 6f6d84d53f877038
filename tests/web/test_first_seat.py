"""Who deals first, or (rifki) who holds the 2♦, set at the table before hand 1 (issue 25's
open point): an event draws its tables before the cards are dealt, so a drawn rifki
chooser is a guess until the deal; the table's scorer sets it on the sheet, logged."""
from __future__ import annotations

import re
from typing import Any

from app.db import get_session
from app.games import hands
from app.models import Game

FIELDS = {"version": "1", "seat": "2"}


def first(app: Any, gid: int) -> tuple[dict[str, Any], int]:
    with app.app_context():
        game = get_session().get(Game, gid)
        return dict(game.record), int(game.version)


def panel(client: Any, gid: int) -> str:
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    return html[html.index('id="next-hand"'):html.index("</section>", html.index('id="next-hand"'))]


def test_the_scorer_sets_who_holds_the_2d_before_hand_1(app, client, make_game):
    gid = make_game("rifki")                                  # the 2♦ with seat 0, Ana
    shown = panel(client, gid)
    assert "Ana chooses" in shown and "Who holds the 2♦ (chooses first)" in shown
    assert re.search(r'<option value="0" selected>Ana</option>', shown)
    r = client.post(f"/games/{gid}/first-seat", data=FIELDS)
    assert r.status_code == 303
    record, version = first(app, gid)
    assert record["first_chooser"] == 2 and version == 2
    shown = panel(client, gid)
    assert "Carla chooses" in shown and re.search(r'<option value="2" selected>Carla</option>', shown)
    log = client.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert "first seat set" in log and "Who holds the 2♦ (chooses first): Ana → Carla" in log
    # an old page's version changes nothing: the table is told
    r = client.post(f"/games/{gid}/first-seat", data={"version": "1", "seat": "3"},
                    follow_redirects=True)
    assert "Someone else changed this game meanwhile" in r.get_data(as_text=True)
    assert first(app, gid)[0]["first_chooser"] == 2


def test_the_first_dealer_of_the_other_profiles_too_and_only_before_hand_1(app, client, make_game):
    gid = make_game("ru32")
    assert "First dealer" in panel(client, gid)
    assert client.post(f"/games/{gid}/first-seat", data=FIELDS).status_code == 303
    record, version = first(app, gid)
    assert record["first_dealer"] == 2
    assert "Deals: <strong>Carla</strong>" in panel(client, gid)
    with app.app_context():
        s = get_session()
        hands.record_hand(s, s.get(Game, gid), {"contract": "no-tricks", "counts": {"tricks": [2, 3, 1, 2]}},
                          expected_version=version, who="t")
    assert 'id="first-seat-form"' not in panel(client, gid)
    r = client.post(f"/games/{gid}/first-seat", data={"version": str(version + 1), "seat": "0"},
                    follow_redirects=True)
    assert "a hand is recorded already" in r.get_data(as_text=True)
    assert first(app, gid)[0]["first_dealer"] == 2


def test_only_the_games_scorers_set_it(app, make_game):
    gid = make_game("rifki")
    player = app.test_client(user="pia", role="player")
    assert 'id="first-seat-form"' not in panel(player, gid)
    assert player.post(f"/games/{gid}/first-seat", data=FIELDS).status_code == 403
    assert first(app, gid)[0]["first_chooser"] == 0
    director = app.test_client()
    assert director.post(f"/games/{gid}/first-seat", data={"version": "1", "seat": "9"}).status_code == 400


def test_an_event_rifki_table_takes_the_2d_holder_from_its_deal(app, client):
    from tests.web.test_events import NAMES, create, event_of

    event_id = int(create(client, names=NAMES[:8], profile="rifki").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        game = event_of(app, event_id).drawn[0].tables[0].game
        gid, drawn, version = game.id, game.record["first_chooser"], game.version
    holder = (drawn + 1) % 4
    r = client.post(f"/games/{gid}/first-seat", data={"version": str(version), "seat": str(holder)})
    assert r.status_code == 303
    record, _v = first(app, gid)
    assert record["first_chooser"] == holder
    assert f"{record['players'][holder]} chooses" in panel(client, gid)
    assert client.get(f"/events/{event_id}").status_code == 200


