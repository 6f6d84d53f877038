"""Counts that cannot happen (RULES.md §2) are refused by the entry page's live check and
on saving, naming the seat and both elements in the page's language."""
from __future__ import annotations

from tests.rules.helpers import filler
from tests.web.helpers import counts_form, record_of, version_of

ERALASH = {"tricks": [2, 2, 2, 2], "hearts": [0, 4, 2, 2], "kings": [1, 1, 1, 1],
           "queens": [1, 1, 1, 1], "kh": 0, "last_two": [1, 2]}


def test_kh_with_no_hearts_is_named_by_the_live_check_and_not_saved(client, make_game):
    gid = make_game("ru32", hands=[filler("ru32", n) for n in range(1, 7)])
    data = counts_form(ERALASH, version_of(client, gid), preview="1")
    body = client.post(f"/games/{gid}/hands/new", data=data,
                       headers={"Accept-Language": "es"}).get_json()
    assert body["points"] is None
    assert body["problems"] == {"hearts": [
        "Ana (asiento 1) se llevó el K♥ pero ninguno de los corazones: el K♥ también cuenta "
        "entre los corazones"]}
    data = counts_form({**ERALASH, "kings": [0, 2, 1, 1]}, version_of(client, gid), preview="1")
    body = client.post(f"/games/{gid}/hands/new", data=data).get_json()
    assert set(body["problems"]) == {"hearts", "kings"}
    assert "seat 1 (Ana) is credited with the K♥ but with 0 kings" in body["problems"]["kings"][0]
    data = counts_form(ERALASH, version_of(client, gid))
    r = client.post(f"/games/{gid}/hands/new", data=data)
    assert r.status_code == 422
    assert len(record_of(client, gid)["hands"]) == 6
