"""Issue 8, items 1, 7 and 9: what any input may hold, at every door (import, API, forms),
and a game stored before the checks that must not take the list pages down."""
from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from sqlalchemy import text

from tests.conftest import base_record, load_record
from tests.web.helpers import counts_form, record_of, upload, version_of

BAD_TEXT = [
    (["players", 0], "Ana\ud800", "players[0]", "unicode"),
    (["players", 1], "Be\x07to", "players[1]", "control-character"),
    (["players", 2], "C" * 61, "players[2]", "too-long"),
    (["hands", 0, "ruling", "reason"], "x\udfff", "hands[0].ruling.reason", "unicode"),
    (["hands", 0, "ruling", "reason"], "r" * 301, "hands[0].ruling.reason", "too-long"),
    (["hands", 0, "ruling", "reason"], "r" * 400_000, "hands[0].ruling.reason", "too-long"),
    (["hands", 0, "ruling", "by"], "\x1b[31mred", "hands[0].ruling.by", "control-character"),
    (["hands", 0, "ruling", "at"], "2026\u0085", "hands[0].ruling.at", "control-character"),
]


def _record_with(path: list[Any], value: Any) -> dict[str, Any]:
    record = load_record("ru32_complete.json")
    record["hands"][0]["ruling"] = {"kind": "as-played"}
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


def _game_count(app: Any) -> int:
    from app.db import get_db

    with get_db(app).engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM game")).scalar_one())


@pytest.mark.parametrize(("path", "value", "field", "code"), BAD_TEXT,
                         ids=[f"{f}-{c}-{len(v)}" for _, v, f, c in BAD_TEXT])
def test_bad_text_is_refused_at_every_door_naming_the_field(app, client, path, value, field, code):
    record = _record_with(path, value)
    r = client.post("/games/import", data=upload(record), content_type="multipart/form-data")
    assert r.status_code == 422
    assert field in r.get_data(as_text=True)
    r = client.post("/api/v1/score", json=record)
    assert r.status_code == 422
    assert r.get_json()["error"]["field"] == field
    assert r.get_json()["error"]["code"] == code
    assert _game_count(app) == 0


def test_names_and_reasons_are_stored_in_normal_form_c(client):
    record = _record_with(["hands", 0, "ruling", "reason"], "Ame\u0301lie lo vio")
    record["players"][0] = "Jose\u0301"
    r = client.post("/games/import", data=upload(record), content_type="multipart/form-data")
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    stored = record_of(client, gid)
    assert stored["players"][0] == "José" == unicodedata.normalize("NFC", "Jose\u0301")
    assert stored["hands"][0]["ruling"]["reason"] == "Amélie lo vio"
    # the same name typed precomposed is the same player, not a new one
    again = base_record("ru32", players=["José", "Beto", "Carla", "Dani"])
    r = client.post("/games/import", data=upload(again), content_type="multipart/form-data")
    assert r.status_code == 302
    assert client.get("/players").get_data(as_text=True).count(">José<") == 1


DEEP = b"[" * 1000 + b"]" * 1000
HUGE_INT = b'{"format": "kingsheet/1", "profile": "ru32", "players": ["a", "b", "c", "d"], ' \
           b'"first_dealer": 1' + b"0" * 5000 + b', "hands": []}'


@pytest.mark.parametrize(("body", "words"), [
    (DEEP, "nested too deeply"),
    (b'{"a":' * 500 + b"1" + b"}" * 500, "nested too deeply"),
    (HUGE_INT, "too large"),
    (b'{"format": NaN}', "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_junk_json_is_a_clean_4xx_on_the_api_and_import(app, client, body, words):
    r = client.post("/api/v1/score", data=body, content_type="application/json")
    assert r.status_code in (400, 422) and words in r.get_json()["error"]["message"]
    assert r.get_json()["error"]["field"].startswith(("record", "a"))
    r = client.post("/games/import", data=upload(body), content_type="multipart/form-data")
    assert r.status_code in (400, 422) and words in r.get_data(as_text=True)
    assert _game_count(app) == 0


@pytest.mark.parametrize(("key", "value", "field"), [
    ("first_dealer", 10**40, "first_dealer"),
    ("hands", [{"counts": {"tricks": [10**12, 0, 0, 0]}}], "hands[0].counts.tricks[0]"),
    ("hands", [{"ruling": {"kind": "adjusted", "points": [10**30, -10**30, 0, -80],
                           "reason": "x"}, "counts": {"tricks": [2, 2, 2, 2]}}],
     "hands[0].ruling.points[0]"),
    ("options", {"x": 1e300}, "options.x"),
])
def test_huge_numbers_in_a_record_name_the_field(client, key, value, field):
    record = base_record("ru32", **{key: value})
    r = client.post("/api/v1/score", json=record)
    assert r.status_code == 422
    assert r.get_json()["error"]["field"] == field


def test_huge_numbers_in_the_forms_are_field_errors(client, make_game):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    version = version_of(client, gid)
    huge = "9" * 40
    for preview in ({}, {"preview": "1"}):
        r = client.post(f"/games/{gid}/hands/new",
                        data=counts_form({"tricks": [huge, 0, 0, 0]}, version, **preview))
        assert r.status_code in (200, 400, 422), r.status_code
        r = client.post(f"/games/{gid}/hands/1/edit", data=counts_form(
            {"tricks": [2, 2, 2, 2]}, version, ruling_kind="adjusted", ruling_reason="x",
            ruling_points_0=huge, ruling_points_1="-" + huge, ruling_points_2="0",
            ruling_points_3="-80", **preview))
        assert r.status_code in (200, 400, 409, 422), r.status_code
    r = client.post(f"/games/{gid}/hands/1/ruling", data={
        "version": str(version), "kind": "adjusted", "reason": "x", "points_0": huge,
        "points_1": "-" + huge, "points_2": "0", "points_3": "-80"})
    assert r.status_code in (200, 400, 422)
    r = client.post(f"/games/{gid}/hands/new", data=counts_form({"tricks": [2, 2, 2, 2]}, huge))
    assert r.status_code in (400, 409, 422)
    assert len(record_of(client, gid)["hands"]) == 1


@pytest.mark.parametrize("path", [
    "/games/2147483648", "/games/99999999999999999999999/record.json",
    "/api/v1/games/2147483648", "/players/2147483648", "/seasons/9223372036854775808",
    "/games/1/hands/2147483648", "/games/1/hands/99999999999/edit",
])
def test_ids_beyond_an_integer_column_are_not_found(client, make_game, path):
    make_game("ru32")
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("query", ["since=99999999999999999999", "row=99999999999999999999",
                                   "since=-99999999999999999999"])
def test_huge_numbers_in_the_query_string(client, make_game, query):
    gid = make_game("ru32", hands=[{"counts": {"tricks": [2, 2, 2, 2]}}])
    for path in (f"/games/{gid}/changes", f"/games/{gid}/hands/new", f"/games/{gid}/hands/tricks",
                 f"/games/{gid}/live", "/players?season=99999999999999999999"):
        assert client.get(f"{path}?{query}" if "?" not in path else path).status_code < 500


def _plant(app: Any, gid: int, record: dict[str, Any]) -> None:
    """Writes a record as a version before the checks could have stored it."""
    from app.db import get_db

    with get_db(app).engine.begin() as conn:
        conn.execute(text("UPDATE game SET record = :r WHERE id = :id"),
                     {"r": json.dumps(record), "id": gid})
        conn.execute(text("UPDATE game_result SET players = :p WHERE game_id = :id"),
                     {"p": json.dumps(record["players"]), "id": gid})


def test_a_game_stored_broken_does_not_break_any_page(app, client, make_game):
    good = make_game("ru32")
    gid = make_game(record=load_record("ru32_complete.json"))
    broken = load_record("ru32_complete.json")
    broken["players"][0] = "Ana\ud800"
    broken["hands"][0]["ruling"] = {"kind": "as-played", "reason": "x\ud800"}
    _plant(app, gid, broken)
    for path in ("/", "/players", "/players/1", f"/games/{gid}", f"/games/{gid}/audit",
                 f"/games/{gid}/record.json", f"/games/{gid}/report.json",
                 f"/games/{gid}/sheet.csv", f"/api/v1/games/{gid}", f"/games/{gid}/hands/new",
                 f"/games/{gid}/hands/1", f"/games/{gid}/sheet.pdf", f"/games/{good}"):
        r = client.get(path)
        assert r.status_code < 500, (path, r.status_code)
    assert client.get("/").status_code == 200
    assert client.get("/players").status_code == 200


def test_csv_cells_never_start_a_formula(client):
    record = load_record("ru32_complete.json")
    record["players"] = ["=HYPERLINK(\"http://x\")", "+Beto", "-Carla", "@Dani"]
    r = client.post("/games/import", data=upload(record), content_type="multipart/form-data")
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    body = client.get(f"/games/{gid}/sheet.csv").get_data(as_text=True)
    import csv
    import io

    rows = list(csv.reader(io.StringIO(body)))
    cells = [c for row in rows for c in row]
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    assert "'=HYPERLINK(\"http://x\")" in cells and "'-Carla" in cells and "'@Dani" in cells
    assert "points '+Beto" not in cells  # a header that does not start with the name is kept
    assert "points +Beto" in rows[0]
    # numbers stay numbers: negative points are not quoted
    assert any(c.startswith("-") and c[1:].isdigit() for c in rows[1])


def test_byte_order_mark_is_accepted_by_the_import_and_the_api(client):
    raw = b"\xef\xbb\xbf" + json.dumps(load_record("ru32_complete.json")).encode()
    r = client.post("/games/import", data=upload(raw), content_type="multipart/form-data")
    assert r.status_code == 302
    r = client.post("/api/v1/score", data=raw, content_type="application/json")
    assert r.status_code == 200 and r.get_json()["profile"] == "ru32"


def test_nul_in_the_address_or_a_form_value_is_refused_before_any_view(client, make_game):
    gid = make_game("ru32")
    for path in ("/rules/%00", "/exports/%00abc", f"/games/{gid}/hands/new?contract=%00",
                 "/lang/e%00s", "/players?q=a%00"):
        assert client.get(path).status_code in (400, 404), path
    r = client.post("/games/new", data={"player_0": "A\x00na", "player_1": "B", "player_2": "C",
                                        "player_3": "D", "profile": "ru32", "first_seat": "0"})
    assert r.status_code == 400


def test_the_import_page_says_what_is_wrong_in_the_page_language(app):
    spanish = app.test_client()
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    r = spanish.post("/games/import", data=upload(DEEP), content_type="multipart/form-data")
    assert r.status_code == 400
    assert "está anidado demasiado hondo" in r.get_data(as_text=True)
    record = _record_with(["players", 1], "Be\x07to")
    r = spanish.post("/games/import", data=upload(record), content_type="multipart/form-data")
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "players[1]" in html and "contiene un carácter de control" in html
