"""Calling the director, the operations (issue 40): who may call, one open call per game
(a second press, or two at once, make one), the notes' limits naming their field, the
answer once, the lists oldest first, and the stamps that make open pages follow."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.errors import BadInput, ForbiddenError
from app.games import queries
from app.games.table import calls
from app.models import AuditEntry, DirectorCall, Game, User
from tests.conftest import PLAYERS, ensure_user


def _user(app: Any, session: Any, name: str, role: str, player: str | None = None) -> User:
    return session.get(User, ensure_user(app, name, role, player))


def test_a_seat_calls_once_and_a_director_answers(app, session, make_game):
    game = session.get(Game, make_game())
    seated = _user(app, session, "dani", "player", PLAYERS[3])
    director = _user(app, session, "directora", "director")
    stamp = queries.game_stamp(session, game.id)
    call, made = calls.open_call(session, game, user=seated, who="dani", note=" dos  espacios ")
    assert made and (call.seat, call.note, call.open_game_id) == (3, "dos espacios", game.id)
    again, made = calls.open_call(session, game, user=seated, who="dani", note="otra")
    assert not made and again.id == call.id
    called = queries.game_stamp(session, game.id)
    assert called is not None and stamp is not None
    assert called.version == stamp.version and called.confirmations == stamp.confirmations + 1

    answered = calls.answer_call(session, call, user=director, who="directora", note="voy")
    assert (answered.is_open, answered.answer, answered.answered_by, answered.open_game_id) == (
        False, "voy", "directora", None)
    assert queries.game_stamp(session, game.id).confirmations == stamp.confirmations + 2  # type: ignore[union-attr]
    with pytest.raises(calls.AlreadyAnswered):
        calls.answer_call(session, answered, user=director, who="directora", note="otra vez")
    log = session.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id)
                          .order_by(AuditEntry.id)).all()
    assert [(e.action.value, e.version, e.after) for e in log[-2:]] == [
        ("call_director", None, {"call": call.id, "seat": 3, "note": "dos espacios"}),
        ("answer_call", None, {"call": call.id, "answer": "voy"})]
    new, made = calls.open_call(session, game, user=seated, who="dani", note=None)
    assert made and new.id != call.id


def test_two_presses_at_once_make_one_call(app, session, make_game):
    """The open call's unique column decides a race the first look missed."""
    game = session.get(Game, make_game())
    director = _user(app, session, "directora", "director")
    first, _made = calls.open_call(session, game, user=director, who="directora", note=None)
    original = calls.open_call_of
    calls_seen = []

    def missed(s: Any, game_id: int) -> Any:          # the first look misses the open call
        calls_seen.append(game_id)
        return None if len(calls_seen) == 1 else original(s, game_id)

    calls.open_call_of = missed  # type: ignore[assignment]
    try:
        second, made = calls.open_call(session, game, user=director, who="directora", note="x")
    finally:
        calls.open_call_of = original  # type: ignore[assignment]
    assert not made and second.id == first.id
    assert len(session.scalars(select(DirectorCall)).all()) == 1


def test_only_the_tables_players_and_scorers_call(app, session, make_game):
    game = session.get(Game, make_game())
    for name, role, player in (("otro", "player", None), ("beto_s", "scorer", None)):
        with pytest.raises(ForbiddenError):
            calls.open_call(session, game, user=_user(app, session, name, role, player), who=name, note=None)
    with pytest.raises(ForbiddenError):
        calls.open_call(session, game, user=None, who="?", note=None)
    scorer = _user(app, session, "beto_s", "scorer")
    with pytest.raises(ForbiddenError):
        call, _ = calls.open_call(session, game, user=_user(app, session, "directora", "director"),
                                  who="directora", note=None)
        calls.answer_call(session, call, user=scorer, who="beto_s", note="no")
    assert calls.list_calls(session, "open")[0].answered_at is None


@pytest.mark.parametrize(("note", "message"), [
    ("x" * 201, "At most 200 characters."),
    ("a\u202eb", "Only visible characters, please."),
    ("a\x07b", "Only visible characters, please."),
])
def test_a_refused_note_names_its_field(app, session, make_game, note, message):
    game = session.get(Game, make_game())
    director = _user(app, session, "directora", "director")
    with pytest.raises(BadInput) as refused:
        calls.open_call(session, game, user=director, who="directora", note=note)
    assert (refused.value.field, refused.value.message) == ("note", message)
    assert session.scalars(select(DirectorCall)).all() == []


def test_an_answer_needs_text(app, session, make_game):
    game = session.get(Game, make_game())
    director = _user(app, session, "directora", "director")
    call, _ = calls.open_call(session, game, user=director, who="directora", note="\u200b")
    assert call.note is None                      # a zero-width space is no note
    for note in (None, "  ", "\u200b", "y" * 301):
        with pytest.raises(BadInput) as refused:
            calls.answer_call(session, call, user=director, who="directora", note=note)
        assert refused.value.field == "note"
    assert call.is_open


def test_the_lists_wait_longest_first(app, session, make_game):
    director = _user(app, session, "directora", "director")
    ids = [make_game() for _ in range(3)]
    made = [calls.open_call(session, session.get(Game, gid), user=director, who="directora", note=str(gid))[0]
            for gid in ids]
    before = calls.calls_stamp(session)
    calls.answer_call(session, made[1], user=director, who="directora", note="hecho")
    assert calls.calls_stamp(session) != before
    assert [c.game_id for c in calls.list_calls(session, "open")] == [ids[0], ids[2]]
    assert [c.game_id for c in calls.list_calls(session, "answered")] == [ids[1]]
    assert [c.game_id for c in calls.list_calls(session, "all")] == ids
    assert [c.game_id for c in calls.list_calls(session, "all", limit=2)] == ids[1:]
    with pytest.raises(BadInput):
        calls.list_calls(session, "closed")
    latest = calls.latest_call(session, ids[1])
    assert latest is not None and latest.status == "answered" and latest.answer == "hecho"
    assert latest.event_id is None and latest.player is None
