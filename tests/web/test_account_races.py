"""Issue 23.5: one first director, and account creation races answer a form error (never
500). Threads post at once against the app (SQLite and PostgreSQL); a barrier in the
password hashing holds every request after its checks until all have passed them, so the
database's constraints decide, every time."""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import ensure_user

pytestmark = pytest.mark.every_database

N = 4


def _all_pass_the_checks_first(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Every request waits (after its checks, before its insert) for the n - 1 others."""
    from app.accounts import accounts

    barrier = threading.Barrier(n)
    original = accounts.hash_secret

    def held(secret: str) -> str:
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=10)
        return original(secret)

    monkeypatch.setattr(accounts, "hash_secret", held)


def _at_once(requests: list[Callable[[], Any]]) -> list[Any]:
    answers: list[Any] = [None] * len(requests)

    def run(i: int) -> None:
        answers[i] = requests[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


def _users(app: Any) -> list[tuple[str, str]]:
    from app.db import get_session
    from app.models import User

    with app.app_context():
        return [(u.username, u.role.value) for u in get_session().scalars(select(User).order_by(User.id))]


def _setup(app: Any, name: str) -> Callable[[], Any]:
    client = app.test_client(user=None)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = {"username": name, "password": "a-long-secret", "confirm": "a-long-secret"}
    return lambda: client.post("/setup", data=data)


@pytest.mark.parametrize("same_name", [False, True], ids=["four-names", "one-name"])
def test_four_first_visits_at_once_make_one_director(app, monkeypatch, same_name):
    _all_pass_the_checks_first(monkeypatch, N)
    names = ["club"] * N if same_name else [f"club{i}" for i in range(N)]
    answers = _at_once([_setup(app, name) for name in names])
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [303] + [409] * (N - 1), statuses
    for r in answers:
        if r.status_code == 409:
            assert "The first director exists already: log in." in r.get_data(as_text=True)
    users = _users(app)
    assert len(users) == 1 and users[0][1] == "director"
    winner = next(r for r in answers if r.status_code == 303)
    assert winner.headers["Location"] == "/"


def _new_user(app: Any, name: str, player: str | None = None) -> Callable[[], Any]:
    client = app.test_client()                 # the director
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = {"username": name, "password": "a-long-secret", "role": "player" if player else "scorer",
            "player": player or ""}
    return lambda: client.post("/users", data=data)


def test_two_directors_creating_one_user_name_at_once(app, monkeypatch):
    ensure_user(app)
    _all_pass_the_checks_first(monkeypatch, 2)
    answers = _at_once([_new_user(app, "nora"), _new_user(app, "nora")])
    assert sorted(r.status_code for r in answers) == [303, 400]
    loser = next(r for r in answers if r.status_code == 400)
    assert "There is already a user nora." in loser.get_data(as_text=True)
    assert [u for u in _users(app) if u[0] == "nora"] == [("nora", "scorer")]


def test_two_users_linked_to_one_roster_player_at_once(app, make_game, monkeypatch):
    ensure_user(app)
    make_game("ru32")                          # Ana, Beto, Carla, Dani on the roster
    _all_pass_the_checks_first(monkeypatch, 2)
    answers = _at_once([_new_user(app, "ana1", player="Ana"), _new_user(app, "ana2", player="Ana")])
    assert sorted(r.status_code for r in answers) == [303, 400]
    loser = next(r for r in answers if r.status_code == 400)
    assert "Player Ana is already linked to a user." in loser.get_data(as_text=True)
    assert len([u for u in _users(app) if u[0].startswith("ana")]) == 1
