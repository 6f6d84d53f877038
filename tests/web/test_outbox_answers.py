"""The answers a phone's outbox gets (issue 24; app/games/idempotent.py): a hand saved with
an ``Idempotency-Key`` and ``X-Outbox: 1`` is answered in JSON -- saved, refused, conflict
or wait -- once per key, and a repeat of the key gets the first answer and stores nothing.

Each save is posted as static/js/outbox_store.js sends it: the entry page's form (its
address, with the row it is for, and every field as the browser's FormData reads it), the
CSRF token left out of what names the request and added at the end, form-encoded."""
from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest

from app.games import idempotency
from tests.web.helpers import record_of, version_of

pytestmark = pytest.mark.every_database

KEY = "7f3a0c52-5d1e-4b8e-9c1a-2f6d8e4b1a90"


class EntryForm(HTMLParser):
    """The entry page's ``form#hand-form``: its action and its fields as FormData reads them
    (an input's value, a radio only when checked, a select's chosen option)."""

    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.fields: dict[str, str] = {}
        self._inside = False
        self._select: str | None = None
        self._first: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "hand-form":
            self._inside, self.action = True, a["action"]
        if not self._inside or not a.get("name") and tag != "option":
            return
        if tag == "input" and a.get("type") not in ("submit", "button"):
            if a.get("type") not in ("radio", "checkbox") or "checked" in a:
                self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._first = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._first is None:
                self._first = a.get("value", "")
                self.fields.setdefault(self._select, self._first)
            if "selected" in a:
                self.fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._inside = False


def entry_form(client: Any, gid: int) -> tuple[str, dict[str, str]]:
    """(address, fields) of the counts page of the game's next hand, as the phone has it."""
    page = EntryForm()
    page.feed(client.get(f"/games/{gid}/hands/new").get_data(as_text=True))
    assert page.action.startswith(f"/games/{gid}/hands/new?row="), page.action
    return page.action, page.fields


def tricks(fields: dict[str, str], counts: list[int | str]) -> dict[str, str]:
    """The form with these tricks typed."""
    return {**fields, **{f"tricks_{s}": str(n) for s, n in enumerate(counts)}}


def send(client: Any, url: str, fields: dict[str, str], key: str = KEY,
         csrf: str = "token-of-this-session") -> Any:
    """One send of an outbox item (outbox_store.js ``sendOne``)."""
    body = urlencode([(k, v) for k, v in fields.items() if k != "csrf_token"])
    return client.post(url, data=f"{body}&csrf_token={csrf}",
                        content_type="application/x-www-form-urlencoded",
                        headers={"Accept": "application/json", "Idempotency-Key": key,
                                 "X-Outbox": "1"})


def audit_count(client: Any, gid: int) -> int:
    return client.get(f"/games/{gid}/audit").get_data(as_text=True).count("<li data-action")


def test_saved_once_and_a_repeat_answers_the_same(client, make_game):
    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    first = send(client, url, tricks(fields, [1, 2, 3, 2]))
    assert first.status_code == 200
    assert first.get_json() == {"state": "saved", "row": 1, "version": 2,
                                "location": f"/games/{gid}#hand-1"}
    assert first.headers["Cache-Control"] == "no-store"
    assert "Idempotent-Replayed" not in first.headers
    assert record_of(client, gid)["hands"] == [{"contract": "no-tricks",
                                               "counts": {"tricks": [1, 2, 3, 2]}}]
    logged = audit_count(client, gid)
    # its answer was lost: the phone sends it again, after logging in again (a new CSRF token)
    again = send(client, url, tricks(fields, [1, 2, 3, 2]), csrf="a-new-session-token")
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(record_of(client, gid)["hands"]) == 1
    assert version_of(client, gid) == 2 and audit_count(client, gid) == logged


@pytest.mark.parametrize(("counts", "status", "problem"), [
    ([1, 2, 3, 3], 422, "Tricks add up to 9; a 32-card hand has 8"),   # the engine's refusal
    ([1, 2, 3, ""], 400, "Enter a number for each player."),          # the form's: a blank
], ids=["engine", "form"])
def test_refused_names_its_field_and_stores_nothing(client, make_game, counts, status, problem):
    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    typed = tricks(fields, counts)
    first = send(client, url, typed)
    assert first.status_code == status
    answer = first.get_json()
    assert answer == {"state": "refused", "problems": [problem], "fields": {"tricks": [problem]}}
    assert record_of(client, gid)["hands"] == [] and version_of(client, gid) == 1
    # the refusal is kept: a repeat of the key gets it and stores nothing either
    again = send(client, url, typed)
    assert (again.status_code, again.get_json()) == (status, answer)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert record_of(client, gid)["hands"] == []
    # the scorer corrects it: a new press of Save, a new key, saved
    fixed = send(client, url, tricks(fields, [1, 2, 3, 2]), key=KEY + "-2")
    assert fixed.get_json()["state"] == "saved"


def test_conflict_when_another_phone_saved_first_overwrites_nothing(client, make_game):
    gid = make_game("ru32")
    url, fields = entry_form(client, gid)                 # this phone loads hand 1 (version 1)
    theirs = client.post(url, data=tricks(fields, [2, 2, 2, 2]))      # another phone saves it
    assert theirs.status_code == 302 and version_of(client, gid) == 2
    mine = send(client, url, tricks(fields, [1, 2, 3, 2]))          # entered against version 1
    assert mine.status_code == 409
    answer = mine.get_json()
    said = "Someone else saved this game meanwhile."
    assert answer == {"state": "conflict", "problems": [said], "fields": {"__all__": [said]}}
    assert record_of(client, gid)["hands"] == [{"contract": "no-tricks",
                                               "counts": {"tricks": [2, 2, 2, 2]}}]
    assert version_of(client, gid) == 2
    again = send(client, url, tricks(fields, [1, 2, 3, 2]))
    assert (again.status_code, again.get_json()) == (409, answer)
    assert record_of(client, gid)["hands"][0]["counts"]["tricks"] == [2, 2, 2, 2]


def test_a_crash_before_the_answer_leaves_nothing_and_the_repeat_saves(client, make_game,
                                                                       monkeypatch):
    """The worker dies after the hand was written, before its answer was kept: the write and
    the answer are one transaction, so nothing was stored -- not even the key -- and the
    repeat saves the hand, once (issue 39)."""
    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    typed = tricks(fields, [1, 2, 3, 2])

    def killed(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the worker was killed before the answer was kept")

    with monkeypatch.context() as m:
        m.setattr(idempotency, "keep", killed)
        with pytest.raises(RuntimeError):
            send(client, url, typed)
    assert record_of(client, gid)["hands"] == [] and version_of(client, gid) == 1
    again = send(client, url, typed)
    assert again.status_code == 200 and again.get_json()["state"] == "saved"
    assert "Idempotent-Replayed" not in again.headers
    third = send(client, url, typed)
    assert third.get_json() == again.get_json() and third.headers["Idempotent-Replayed"] == "true"
    assert len(record_of(client, gid)["hands"]) == 1 and version_of(client, gid) == 2


def test_wait_while_an_old_key_has_no_answer(app, client, make_game):
    """A key left without its answer by an earlier version (its write committed first, its
    answer after): a repeat is told to wait and is never carried out a second time."""
    from app.db import get_session
    from app.models import IdempotencyRecord, User

    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    typed = tricks(fields, [1, 2, 3, 2])
    body = urlencode([(k, v) for k, v in typed.items() if k != "csrf_token"]).encode()
    with app.app_context():
        session = get_session()
        uid = session.query(User.id).filter_by(username="directora").scalar()
        session.add(IdempotencyRecord(user_id=uid, key=KEY, request_digest=idempotency.request_digest(
            "POST", url, body)))
        session.commit()
    again = send(client, url, typed)
    assert again.status_code == 409
    answer = again.get_json()
    assert answer["state"] == "wait" and "still being carried out" in answer["problems"][0]
    assert again.headers["Cache-Control"] == "no-store"
    assert record_of(client, gid)["hands"] == [] and version_of(client, gid) == 1


def test_expired_keys_are_swept_a_bounded_number_at_a_time(app, client, make_game):
    """Keys older than KEEP_FOR go when new keys come, at most SWEEP per new key, whether
    the new key's write is saved or refused."""
    from sqlalchemy import func, select

    from app.db import get_session, utcnow
    from app.models import IdempotencyRecord, User

    gid = make_game("ru32")
    url, fields = entry_form(client, gid)
    old = utcnow() - idempotency.KEEP_FOR - idempotency.KEEP_FOR / 10
    with app.app_context():
        session = get_session()
        uid = session.query(User.id).filter_by(username="directora").scalar()
        session.add_all(IdempotencyRecord(user_id=uid, key=f"old-{n}", request_digest="x", status=200,
                                          created_at=old) for n in range(idempotency.SWEEP + 5))
        session.commit()

    def count() -> int:
        with app.app_context():
            return int(get_session().scalar(select(func.count()).select_from(IdempotencyRecord)))

    refused = send(client, url, tricks(fields, [1, 2, 3, 3]), key="new-1")
    assert refused.get_json()["state"] == "refused"
    assert count() == 5 + 1
    saved = send(client, url, tricks(fields, [1, 2, 3, 2]), key="new-2")
    assert saved.get_json()["state"] == "saved"
    assert count() == 2
