"""Issue 8, items 4, 5 and 8: races answer 409 (never 500), new players are created
race-free, a save that changes nothing writes nothing and says so, and a hand is replayed
at most three times."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select, text

from app.collation import folded_name
from tests.conftest import base_record
from tests.web.helpers import counts_form, record_of, version_of

pytestmark = pytest.mark.every_database

HANDS = [{"counts": {"tricks": [2, 2, 2, 2]}}, {"counts": {"kings": [1, 1, 1, 1]}}]


def _audit_count(app: Any, gid: int) -> int:
    from app.db import get_db

    with get_db(app).engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM audit_entry WHERE game_id = :g"),
                                {"g": gid}).scalar_one())


def _delete_last_hand_elsewhere(app: Any, gid: int) -> None:
    """Another phone deletes the last hand (its own session, committed)."""
    from app.db import get_db
    from app.games.hands import delete_last_hand
    from app.models import Game

    with get_db(app).sessionmaker() as other:
        game = other.get(Game, gid)
        assert game is not None
        delete_last_hand(other, game, expected_version=game.version, who="other phone")


def test_a_ruling_on_a_hand_deleted_meanwhile_is_a_conflict(app, client, make_game, monkeypatch):
    from app.games import hands as hands_service

    gid = make_game("ru32", hands=HANDS)
    version = version_of(client, gid)
    original = hands_service.replace_hand

    def racing(*args: Any, **kwargs: Any) -> Any:
        _delete_last_hand_elsewhere(app, gid)     # lands between the load and the save
        return original(*args, **kwargs)

    monkeypatch.setattr(hands_service, "replace_hand", racing)
    r = client.post(f"/games/{gid}/hands/2/ruling", data={"version": str(version),
                                                         "kind": "replay"})
    assert r.status_code == 409
    assert "deleted hand row 2" in r.get_data(as_text=True)
    assert record_of(client, gid)["hands"] == HANDS[:1]
    # the same post once the deletion is known: still a conflict, not "not found"
    monkeypatch.setattr(hands_service, "replace_hand", original)
    r = client.post(f"/games/{gid}/hands/2/ruling", data={"version": str(version),
                                                         "kind": "replay"})
    assert r.status_code == 409
    r = client.post(f"/games/{gid}/hands/2/ruling", data={"version": str(version + 1),
                                                         "kind": "replay"})
    assert r.status_code == 404


def test_new_players_created_by_another_request_meanwhile(app, client, monkeypatch):
    """The select finds no "Zoe"; before the insert another request creates her."""
    from app.db import get_db
    from app.stats import results

    original = results._ids_of_players
    calls = []

    def racing(session: Any, names: list[str]) -> dict[str, int]:
        found = original(session, names)
        if not calls:
            with get_db(app).engine.begin() as conn:
                for name in names:
                    conn.execute(text("INSERT INTO player (name, folded_name, created_at) "
                                      "VALUES (:n, :f, :t)"),
                                 {"n": name, "f": folded_name(name), "t": "2026-12-01 00:00:00"})
        calls.append(names)
        return found

    monkeypatch.setattr(results, "_ids_of_players", racing)
    record = base_record("ru32", players=["Zoe", "Yago", "Xena", "Walo"])
    r = client.post("/games/new", data={"profile": "ru32", "player_0": "Zoe", "player_1": "Yago",
                                        "player_2": "Xena", "player_3": "Walo",
                                        "first_seat": "0"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert len(calls) == 2
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert record_of(client, gid)["players"] == record["players"]
    from app.models import Player

    with app.app_context():
        from app.db import get_session

        assert get_session().scalar(select(func.count()).select_from(Player)) == 4


def test_simultaneous_new_games_with_the_same_new_names(app):
    clients = [app.test_client() for _ in range(4)]
    statuses: list[int] = []
    barrier = threading.Barrier(len(clients))

    def start(c: Any, k: int) -> None:
        barrier.wait()
        for j in range(3):
            r = c.post("/games/new", data={
                "profile": "ru32", "player_0": "Nuevo A", "player_1": "Nuevo B",
                "player_2": f"Nuevo {k}{j}", "player_3": "Nuevo C", "first_seat": "0"})
            statuses.append(r.status_code)

    threads = [threading.Thread(target=start, args=(c, k)) for k, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [302] * 12


def test_a_save_that_changes_nothing_writes_nothing_and_says_so(app, client, make_game):
    gid = make_game("ru32", hands=HANDS)
    version = version_of(client, gid)
    audits = _audit_count(app, gid)
    r = client.post(f"/games/{gid}/hands/1/edit", data=counts_form(HANDS[0]["counts"], version),
                    follow_redirects=True)
    assert r.status_code == 200
    assert "Nothing changed: hand row 1 was already recorded like this." in r.get_data(as_text=True)
    assert version_of(client, gid) == version
    assert _audit_count(app, gid) == audits
    # an as-played "ruling" on a hand without one changes nothing either
    r = client.post(f"/games/{gid}/hands/2/ruling", data={"version": str(version),
                                                         "kind": "as-played"},
                    follow_redirects=True)
    assert "Nothing changed" in r.get_data(as_text=True)
    assert version_of(client, gid) == version and _audit_count(app, gid) == audits


def test_a_stale_save_that_would_change_nothing_is_still_a_conflict(app, client, make_game):
    gid = make_game("ru32", hands=HANDS)
    stale = version_of(client, gid)
    _delete_last_hand_elsewhere(app, gid)
    audits = _audit_count(app, gid)
    r = client.post(f"/games/{gid}/hands/1/edit", data=counts_form(HANDS[0]["counts"], stale))
    assert r.status_code == 409
    assert _audit_count(app, gid) == audits


def test_every_save_checks_the_version(app, make_game):
    from app.db import get_session
    from app.errors import ConflictError
    from app.games.hands import record_hand
    from app.models import Game

    gid = make_game("ru32", hands=HANDS)
    with app.app_context():
        session = get_session()
        game = session.get(Game, gid)
        with pytest.raises(ConflictError):
            record_hand(session, game, {"counts": {"tricks": [2, 2, 2, 2]}}, expected_version=None)


REPLAY = {"counts": {"kings": [1, 1, 1, 1]}, "ruling": {"kind": "replay"}}


def test_a_hand_is_replayed_at_most_three_times(client, make_game):
    from app.rules import RuleError, score_record

    record = base_record("ru32", hands=[HANDS[0], REPLAY, REPLAY, REPLAY])
    assert score_record(record)["next"]["number"] == 2
    with pytest.raises(RuleError) as info:
        score_record(base_record("ru32", hands=[HANDS[0], REPLAY, REPLAY, REPLAY, REPLAY]))
    assert info.value.field == "hands[4].ruling.kind"
    assert "replayed 3 times already" in info.value.message
    # a counted hand starts the count again for the next one
    first_replay = {**HANDS[0], "ruling": {"kind": "replay"}}
    score_record(base_record("ru32", hands=[first_replay] * 3 + [HANDS[0]] + [REPLAY] * 3))
    gid = make_game("ru32", hands=[HANDS[0], REPLAY, REPLAY, REPLAY, HANDS[1]])
    r = client.post(f"/games/{gid}/hands/5/ruling", data={
        "version": str(version_of(client, gid)), "kind": "replay"})
    assert r.status_code == 422
    assert "replayed 3 times already" in r.get_data(as_text=True)
    assert len(record_of(client, gid)["hands"]) == 5
