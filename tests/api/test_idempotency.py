"""Idempotent retries across app servers (issue 22): the key's answer lives in the shared
database, so a retry that reaches another server (another app on the same database) gets
the first answer and saves nothing; two racing requests with one key save once."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select

from app.models import AuditEntry
from tests.api.test_api import RIFKI, bearer, new_rifki, token_for
from tests.conftest import make_app

pytestmark = pytest.mark.every_database


def dispose(*apps: Any) -> None:
    from app.db import get_db

    for a in apps:
        get_db(a).dispose()


def audit_count(app: Any) -> int:
    from app.db import get_session

    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(AuditEntry)))


def test_a_retry_on_another_server_replays_the_first_answer(app, api, database_url):
    gid = new_rifki(api)["id"]
    other = make_app(database_url)              # a second app server on the same database
    headers = bearer(api.token, **{"If-Match": '"v1"', "Idempotency-Key": "phone-7f3a"})
    first = api.post(f"/api/v1/games/{gid}/hands", json=RIFKI["hands"][0], headers=headers)
    assert first.status_code == 201
    saved = audit_count(app)
    again = other.test_client(user=None).post(f"/api/v1/games/{gid}/hands",
                                              json=RIFKI["hands"][0], headers=headers)
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert audit_count(app) == saved
    # another user's same key is their own (keys are per user)
    scorer = token_for(app, "sam", "scorer")
    r = other.test_client(user=None).post(f"/api/v1/games/{gid}/hands", json=RIFKI["hands"][1],
                                          headers=bearer(scorer, **{"If-Match": '"v2"',
                                                                    "Idempotency-Key": "phone-7f3a"}))
    assert r.status_code == 403                 # not their game: refused before any key is kept
    dispose(other)


def test_a_refusal_is_kept_too(app, api):
    gid = new_rifki(api)["id"]
    headers = bearer(api.token, **{"If-Match": '"v1"', "Idempotency-Key": "k-refused"})
    bad = {"contract": "el-almaz", "counts": {"tricks": [4, 4, 4, 4]}}
    first = api.post(f"/api/v1/games/{gid}/hands", json=bad, headers=headers)
    assert first.status_code == 422
    again = api.post(f"/api/v1/games/{gid}/hands", json=bad, headers=headers)
    assert again.status_code == 422 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"


def test_racing_requests_with_one_key_save_once(app, api, database_url):
    gid = new_rifki(api)["id"]
    servers = [make_app(database_url) for _ in range(4)]
    headers = bearer(api.token, **{"If-Match": '"v1"', "Idempotency-Key": "race-1"})
    answers: list[Any] = []
    start = threading.Barrier(len(servers))

    def send(server: Any) -> None:
        client = server.test_client(user=None)
        start.wait()
        r = client.post(f"/api/v1/games/{gid}/hands", json=RIFKI["hands"][0], headers=headers)
        answers.append((r.status_code, r.get_json()))

    threads = [threading.Thread(target=send, args=(s,)) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    created = [a for a in answers if a[0] == 201]
    assert created and all(a[1] == created[0][1] for a in created)
    # the others got the first answer, a conflict while it ran, or a stale version: never a 2nd save
    assert all(code in (201, 409, 412) for code, _body in answers), answers
    dispose(*servers)
    game = api.get(f"/api/v1/games/{gid}", headers=bearer(api.token)).get_json()
    assert len(game["record"]["hands"]) == 1 and game["version"] == 2


def test_a_wrong_pin_sent_with_a_key_is_still_counted(app, api):
    """The write and its key's answer are one transaction (issue 39), but what a service
    commits before refusing stays: a wrong PIN sent with an Idempotency-Key counts a try."""
    from app.db import get_session
    from app.models import SeatPin

    gid = new_rifki(api, seat_pins=["1111", "2222", "3333", "4444"])["id"]
    for n in range(2):
        r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "pin": "9999"},
                     headers=bearer(api.token, **{"Idempotency-Key": f"pin-{n}"}))
        assert r.status_code == 422 and r.get_json()["error"]["field"] == "pin"
    with app.app_context():
        assert get_session().get(SeatPin, (gid, 0)).failures == 2
