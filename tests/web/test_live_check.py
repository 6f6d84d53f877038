"""The entry page's live check: the engine scores the entry as typed, or names every
problem, and nothing is saved."""
from __future__ import annotations

import pytest

from tests.conftest import base_record
from tests.web.helpers import counts_form, csrf_from, record_of, version_of

pytestmark = pytest.mark.every_database


def test_a_complete_entry_shows_its_points_and_saves_nothing(client, make_game):
    gid = make_game("ru32")
    data = counts_form({"tricks": [1, 2, 3, 2]}, version_of(client, gid), preview="1")
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 200
    assert r.get_json() == {"points": [-2, -4, -6, -4], "total": -16, "problems": {},
                            "shown": ["−2", "−4", "−6", "−4"], "shown_total": "−16"}
    assert record_of(client, gid)["hands"] == []


def test_every_problem_is_named_next_to_its_field(client, make_game):
    gid = make_game("fiestas", hands=[{"contract": "no-tricks", "counts": {"tricks": [4, 3, 3, 3]}},
                                      {"contract": "no-hearts", "counts": {"hearts": [4, 3, 3, 3]}},
                                      {"contract": "no-queens", "counts": {"queens": [1, 1, 1, 1]}}])
    data = counts_form({"kings": [1, 1, 1, 2], "jacks": [0, 0, 0, 0]}, version_of(client, gid),
                       preview="1")
    r = client.post(f"/games/{gid}/hands/new", data=data, headers={"Accept-Language": "es"})
    body = r.get_json()
    assert body["points"] is None
    assert set(body["problems"]) == {"kings", "jacks"}
    assert "suman 5" in body["problems"]["kings"][0] and "suman 0" in body["problems"]["jacks"][0]
    assert len(record_of(client, gid)["hands"]) == 3


def test_the_live_check_needs_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/").get_data(as_text=True)
    import io
    import json
    record = json.dumps(base_record("ru32")).encode()
    r = client.post("/games/import", data={"record": (io.BytesIO(record), "r.json"),
                                           "csrf_token": csrf_from(page)},
                    content_type="multipart/form-data")
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    data = counts_form({"tricks": [1, 2, 3, 2]}, 1, preview="1")
    assert client.post(f"/games/{gid}/hands/new", data=data).status_code == 400
    form = client.get(f"/games/{gid}/hands/new").get_data(as_text=True)
    data["csrf_token"] = csrf_from(form)
    assert client.post(f"/games/{gid}/hands/new", data=data).get_json()["total"] == -16
