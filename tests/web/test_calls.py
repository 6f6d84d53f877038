"""Calling the director on the web (issue 40): a seat's own player (or the game's scorer)
calls from the table's page with a note, one open call per game; the director sees it on
the event's page and on /calls, answers it, and the table's page shows the answer; the
game's change log keeps both. Only the table calls; only directors see and answer."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from app.db import get_session
from app.events import scoreboard
from app.models import DirectorCall, Event
from tests.conftest import base_record, ensure_user
from tests.web.test_events import NAMES, create

EIGHT = NAMES[:8]


def _event(app: Any, client: Any) -> tuple[int, list[Any]]:
    """An event of two tables: its id and round 1's tables (game id, players)."""
    r = create(client, names=EIGHT)
    event_id = int(r.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        rnd = get_session().get(Event, event_id).drawn[-1]
        tables = [(t.number, t.game_id, list(t.game.record["players"])) for t in rnd.tables]
    return event_id, tables


def _player(app: Any, name: str, username: str) -> Any:
    """A player account linked to roster player ``name``, its pages in Spanish."""
    ensure_user(app, username, "player", player=name)
    c = app.test_client(user=username, role="player")
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    return c


def _calls(app: Any, game_id: int) -> list[DirectorCall]:
    with app.app_context():
        return list(get_session().scalars(select(DirectorCall).where(DirectorCall.game_id == game_id)))


def _stamp(app: Any, event_id: int) -> str | None:
    with app.app_context():
        return scoreboard.event_stamp(get_session(), event_id)


def test_a_seat_calls_and_the_director_answers_from_the_event_page(app, client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    event_id, tables = _event(app, client)
    _number, game_id, players = tables[0]
    seat = 2
    pia = _player(app, players[seat], "pia")
    sheet = pia.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="call-director"' in sheet and 'id="director-call"' not in sheet
    before = _stamp(app, event_id)

    r = pia.post(f"/games/{game_id}/calls", data={"note": "  Revoke   en la baza 3 "})
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{game_id}#director-call"
    [call] = _calls(app, game_id)
    assert (call.seat, call.called_by, call.note, call.is_open) == (seat, "pia", "Revoke en la baza 3", True)
    sheet = pia.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="call-open"' in sheet and "Revoke en la baza 3" in sheet
    assert 'id="call-director"' not in sheet          # one open call: no second button
    # a second press (an old page, two phones) shows the open call, and makes none
    r = pia.post(f"/games/{game_id}/calls", data={"note": "otra vez"}, follow_redirects=True)
    assert "sigue abierta" in r.get_data(as_text=True)
    assert len(_calls(app, game_id)) == 1

    # the director's view changed its stamp (it swaps itself) and lists the call
    assert _stamp(app, event_id) != before
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    box = page[page.index('id="event-calls"'):page.index('id="event-round"')]
    assert "Mesa 1 · Ronda 1" in box and "Revoke en la baza 3" in box
    assert f"{players[seat]} llamó (asiento 3)" in box and 'id="open-calls">1<' in box

    stamp = _stamp(app, event_id)
    r = client.post(f"/calls/{call.id}/answer", data={"note": "Voy a la mesa", "next": f"/events/{event_id}"})
    assert r.status_code == 303 and r.headers["Location"] == f"/events/{event_id}"
    assert _stamp(app, event_id) != stamp
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="open-calls"' not in page and "Voy a la mesa" not in page

    sheet = pia.get(f"/games/{game_id}").get_data(as_text=True)
    answered = sheet[sheet.index('id="director-call"'):]
    assert 'id="call-answered"' in answered and "“Voy a la mesa”" in answered and "directora" in answered
    assert 'id="call-director"' in sheet               # the table may call again

    log = client.get(f"/games/{game_id}/audit").get_data(as_text=True)
    assert 'data-action="call_director"' in log and 'data-action="answer_call"' in log
    assert "Nota: Revoke en la baza 3" in log and "Respuesta: Voy a la mesa" in log
    assert f"Asiento: {players[seat]}" in log
    # the round's "last change" stays the sheet's: a call changes no hand
    with app.app_context():
        rnd = get_session().get(Event, event_id).drawn[-1]
        status = scoreboard.round_tables(get_session(), rnd)[0]
        assert status.last_by != "pia"


def test_the_table_page_follows_a_call_through_its_live_stamp(app, client, make_game):
    gid = make_game()
    stamp = client.get(f"/games/{gid}/live").headers["ETag"]
    assert client.post(f"/games/{gid}/calls", data={"note": ""}).status_code == 303
    called = client.get(f"/games/{gid}/live", headers={"If-None-Match": stamp})
    assert called.status_code == 200 and called.headers["ETag"] != stamp
    sheet = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'data-table="{called.get_json()["table"]}"' in sheet and 'id="call-open"' in sheet


def test_only_the_tables_players_and_scorers_call(app, client, make_game):
    event_id, tables = _event(app, client)
    (_n1, game_id, _players), (_n2, _other_id, other_players) = tables
    stranger = _player(app, other_players[0], "otro")            # plays at the other table
    assert 'id="call-director"' not in stranger.get(f"/games/{game_id}").get_data(as_text=True)
    assert stranger.post(f"/games/{game_id}/calls", data={"note": "x"}).status_code == 403
    assert stranger.get(f"/games/{game_id}/calls").status_code == 403
    anonymous = app.test_client(user=None)
    r = anonymous.post(f"/games/{game_id}/calls", data={"note": "x"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/login?next=")
    scorer = app.test_client(user="beto_s", role="scorer")          # scores no game of the event
    assert scorer.post(f"/games/{game_id}/calls", data={}).status_code == 403
    assert _calls(app, game_id) == []
    # the scorer of a game calls to it (no seat)
    gid = make_game()
    from app.accounts import accounts
    with app.app_context():
        accounts.add_scorer(get_session(), gid, ensure_user(app, "beto_s", "scorer"))
        get_session().commit()
    assert scorer.post(f"/games/{gid}/calls", data={}).status_code == 303
    [call] = _calls(app, gid)
    assert call.seat is None and call.called_by == "beto_s"


def test_only_directors_see_and_answer_calls(app, client, make_game):
    gid = make_game()
    assert client.post(f"/games/{gid}/calls", data={"note": "¿Cuánto vale la K♥?"}).status_code == 303
    [call] = _calls(app, gid)
    for who, role in (("pia", "player"), ("beto_s", "scorer")):
        other = app.test_client(user=who, role=role)
        assert other.get("/calls").status_code == 403
        assert other.get("/calls/live").status_code == 403
        assert other.post(f"/calls/{call.id}/answer", data={"note": "no"}).status_code == 403
        assert 'id="calls-link"' not in other.get("/").get_data(as_text=True)
    assert app.test_client(user=None).post(f"/calls/{call.id}/answer", data={"note": "no"}).status_code == 303
    assert _calls(app, gid)[0].is_open
    assert 'id="calls-link"' in client.get("/").get_data(as_text=True)


def test_the_directors_list_of_every_games_calls(app, client, make_game):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    first, second = make_game(), make_game(profile="rifki")
    for gid, note in ((first, "first"), (second, "second")):
        assert client.post(f"/games/{gid}/calls", data={"note": note}).status_code == 303
    page = client.get("/calls").get_data(as_text=True)
    listed = page[page.index('id="calls-list"'):]
    assert listed.index("“first”") < listed.index("“second”")       # the longest waiting first
    assert f"#{first} · King with fiestas" in listed and f"#{second} · Turkish King (Rıfkı)" in listed
    stamp = client.get("/calls/live").headers["ETag"]
    [call] = _calls(app, first)
    r = client.post(f"/calls/{call.id}/answer", data={"note": "on my way", "next": "/calls"})
    assert r.status_code == 303 and r.headers["Location"] == "/calls"
    assert client.get("/calls/live", headers={"If-None-Match": stamp}).status_code == 200
    assert "“first”" not in client.get("/calls").get_data(as_text=True)
    answered = client.get("/calls?status=answered").get_data(as_text=True)
    assert "“first”" in answered and "on my way" in answered and "“second”" not in answered
    everything = client.get("/calls?status=all").get_data(as_text=True)
    assert "“first”" in everything and "“second”" in everything
    # answered already: said, and nothing changes
    r = client.post(f"/calls/{call.id}/answer", data={"note": "again", "next": "/calls"},
                    follow_redirects=True)
    assert "answered this call already" in r.get_data(as_text=True)
    assert _calls(app, first)[0].answer == "on my way"


def test_a_refused_note_names_its_field_in_the_pages_language(app, client, make_game):
    gid = make_game()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    long = "x" * 201
    r = client.post(f"/games/{gid}/calls", data={"note": long})
    text = r.get_data(as_text=True)
    assert r.status_code == 422 and "Nota para el director: Como mucho 200 caracteres." in text
    assert f'value="{long}"' in text                      # kept as typed
    assert _calls(app, gid) == []
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    r = client.post(f"/games/{gid}/calls", data={"note": "a\u202eb"})
    assert r.status_code == 422 and re.search(r'id="call-error"[^>]*>[^<]*[а-я]', r.get_data(as_text=True))
    assert client.post(f"/games/{gid}/calls", data={"note": "ok"}).status_code == 303
    [call] = _calls(app, gid)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = client.post(f"/calls/{call.id}/answer", data={"note": "   "})
    text = r.get_data(as_text=True)
    assert r.status_code == 422 and "Respuesta: Escribe la respuesta." in text
    r = client.post(f"/calls/{call.id}/answer", data={"note": "y" * 301})
    assert r.status_code == 422 and f'value="{"y" * 301}"' in r.get_data(as_text=True)
    assert _calls(app, gid)[0].is_open


def test_the_forms_need_their_csrf_token(csrf_app, make_game):
    from app.games.games import import_game
    from tests.conftest import base_record as record

    with csrf_app.app_context():
        gid = import_game(get_session(), record("fiestas"), who="test").id
    director = csrf_app.test_client()
    assert director.post(f"/games/{gid}/calls", data={"note": "x"}).status_code == 400
    with csrf_app.app_context():
        assert get_session().scalar(select(func.count()).select_from(DirectorCall)) == 0
    page = director.get(f"/games/{gid}").get_data(as_text=True)
    token = re.search(r'id="call-form".*?name="csrf_token" value="([^"]+)"', page, re.S).group(1)  # type: ignore[union-attr]
    assert director.post(f"/games/{gid}/calls", data={"note": "x", "csrf_token": token}).status_code == 303
    with csrf_app.app_context():
        call = get_session().scalars(select(DirectorCall)).one()
    assert director.post(f"/calls/{call.id}/answer", data={"note": "y"}).status_code == 400
    with csrf_app.app_context():
        assert get_session().get(DirectorCall, call.id).is_open


def test_a_game_without_calls_shows_no_box(app, client, make_game):
    gid = make_game(record=base_record("ru32"))
    sheet = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="director-call"' not in sheet and 'id="call-director"' in sheet
