"""Issue 23.7: names people can trust. No invisible or text-direction character in a
player's, user's or season's name at any door; a warning (not a refusal) when a new player
looks like one on the roster; a reason must have visible text."""
from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import base_record
from tests.web.helpers import upload

pytestmark = pytest.mark.every_database

#: A zero-width space, a right-to-left override, an isolate, a zero-width joiner, a byte
#: order mark, the line separator and a Hangul filler (a letter that shows nothing).
INVISIBLE = ["\u200b", "\u202e", "\u2066", "\u200d", "\ufeff", "\u2028", "\u3164"]
NEW_GAME = {"profile": "ru32", "player_0": "Ana", "player_1": "Beto", "player_2": "Carla",
            "player_3": "Dani", "first_seat": "0"}


def _games(client: Any) -> int:
    return len(client.get("/api/v1/games").get_json()["games"])


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_invisible_characters_in_player_names_are_refused_at_every_door(client, char):
    name = f"An{char}a"
    code = f"U+{ord(char):04X}"
    if not char.isspace():          # the form reads a line separator as a space
        r = client.post("/games/new", data={**NEW_GAME, "player_1": name})
        assert r.status_code == 400
        html = r.get_data(as_text=True)
        assert f"contains an invisible or text-direction character ({code})" in html
    record = base_record("ru32", players=["Ana", name, "Carla", "Dani"])
    r = client.post("/games/import", data=upload(record), content_type="multipart/form-data")
    assert r.status_code == 422 and "players[1]" in r.get_data(as_text=True)
    for url in ("/api/v1/games", "/api/v1/score"):
        body = {"profile": "ru32", "players": ["Ana", name, "Carla", "Dani"]} \
            if url.endswith("games") else record
        r = client.post(url, json=body)
        assert r.status_code == 422, (url, r.get_json())
        assert r.get_json()["error"]["field"] == "players[1]"
        assert r.get_json()["error"]["code"] == "invisible-character"
    assert _games(client) == 0


def test_a_right_to_left_override_is_refused_in_spanish(app):
    spanish = app.test_client()
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = spanish.post("/games/new", data={**NEW_GAME, "player_2": "Car\u202ela"})
    assert r.status_code == 400
    assert "contiene un carácter invisible o de dirección del texto (U+202E)" in \
        r.get_data(as_text=True)


@pytest.mark.parametrize("char", ["\u200b", "\u202e", "\u2067"])
def test_invisible_characters_in_user_and_season_names_are_refused(app, client, char):
    from app.db import get_session
    from app.models import Season, User

    r = client.post("/users", data={"username": f"ana{char}", "password": "ana-secret-1",
                                    "role": "scorer", "player": ""})
    assert r.status_code in (400, 422)
    r = client.post("/seasons", data={"name": f"Liga{char} 2026", "starts_on": "2026-01-01",
                                      "ends_on": "2026-12-31"})
    assert r.status_code in (400, 422)
    with app.app_context():
        s = get_session()
        assert s.scalars(select(User.username).where(User.username.like("ana%"))).all() == []
        assert s.scalars(select(Season.id)).all() == []


def test_a_new_name_like_a_roster_name_is_asked_about_not_refused(client, make_game):
    make_game("ru32")                                      # Ana, Beto, Carla, Dani
    cyrillic = "\u0410na"                                 # А (Cyrillic) + "na"
    data = {**NEW_GAME, "player_0": cyrillic, "player_1": "Eva", "player_2": "Fede",
            "player_3": "Gil"}
    r = client.post("/games/new", data=data)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert f"«{cyrillic}» looks like «Ana», who is already on the roster: same player?" in html
    assert _games(client) == 1
    # pressed again with the same names (the page carries them): the game starts
    value = re.search(r'name="names_checked" value="([^"]*)"', html).group(1)
    r = client.post("/games/new", data={**data, "names_checked": html_lib.unescape(value)})
    assert r.status_code == 302
    assert _games(client) == 2
    names = {p["name"] for p in client.get("/api/v1/players").get_json()["players"]}
    assert {"Ana", cyrillic} <= names
    # a name changed after the warning is asked about again
    r = client.post("/games/new", data={**data, "player_0": "An\u0430",   # Cyrillic а
                                        "names_checked": html_lib.unescape(value)})
    assert r.status_code == 200 and "looks like" in r.get_data(as_text=True)
    # the roster's own name, or one like none, starts at once
    assert client.post("/games/new", data={**data, "player_0": "Ana"}).status_code == 302


def test_a_look_alike_warning_in_the_page_language(app, make_game):
    make_game("ru32")
    russian = app.test_client()
    russian.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    r = russian.post("/games/new", data={**NEW_GAME, "player_3": "Dan\u0456"})  # Cyrillic і
    assert r.status_code == 200
    assert "похоже на «Dani»" in r.get_data(as_text=True)


def test_a_reason_must_have_visible_text(client, make_game):
    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}])
    before = client.get(f"/games/{gid}/record.json").get_json()
    r = client.post(f"/games/{gid}/hands/1/ruling", data={
        "version": "1", "kind": "adjusted", "reason": "\u200b", "points_0": "-4", "points_1": "-4",
        "points_2": "-4", "points_3": "-4"})
    assert r.status_code == 422
    assert "has no visible text" in r.get_data(as_text=True)
    hand = {"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]},
            "ruling": {"kind": "replay", "reason": "\u200b\u2060 "}}
    r = client.post("/api/v1/score", json=base_record("ru32", hands=[hand]))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands[0].ruling.reason"
    assert r.get_json()["error"]["code"] == "no-visible-text"
    assert client.get(f"/games/{gid}/record.json").get_json() == before


def test_a_lone_zero_width_space_does_not_unlock_a_sheet(app, make_game, monkeypatch):
    from app.db import get_session
    from app.errors import LockedError
    from app.games.table import confirm
    from app.models import Game

    gid = make_game("ru32")
    monkeypatch.setattr(confirm, "is_locked", lambda session, game: True)
    with app.app_context():
        game = get_session().get(Game, gid)
        for reason in ("\u200b", " \u200b\u200c ", "\u202e", ""):
            with pytest.raises(LockedError):
                confirm.check_unlocked(get_session(), game, reason)
        assert confirm.check_unlocked(get_session(), game, " Carla  disputed ") == "Carla disputed"


def test_a_user_name_that_reads_as_another_is_refused(app):
    """Issue 23.7: "аna" (Cyrillic а) next to the user "ana" would let one pass for the other
    at login and in the change log: refused, naming the field; a different name is fine."""
    from tests.conftest import ensure_user

    ensure_user(app, "ana", "scorer")
    director = app.test_client()
    director.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    r = director.post("/users", data={"username": "\u0430na", "password": "other-secret-1",
                                      "role": "scorer"})
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "looks like the existing user ana" in html
    r = director.post("/users", data={"username": "anabel", "password": "other-secret-1",
                                      "role": "scorer"})
    assert r.status_code == 303
