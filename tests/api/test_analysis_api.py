"""The analysis of a disputed play through the API and the command line (ANALYSIS.md §3):
``POST /api/v1/analysis`` (open), ``GET /api/v1/games/{id}/hands/{n}/analysis`` (a token)
and ``flask --app app analyse``, each answering exactly :func:`app.rules.search.analysis.analyse`.
Small positions only (late tricks): the search itself is tested in tests/rules."""
from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from app.rules.search.analysis import analyse
from app.rules.simulate import random_game
from tests.api.test_api import bearer, token_for

RU32 = random_game("ru32", random.Random(2), hands=3)
RIFKI = random_game("rifki", random.Random(21), hands=3)
#: (record, hand, trick, seat) of a late ru32 trick and of a 13-card (52-card deck) hand
LATE_RU32 = (RU32, 1, 5, 2)
LATE_52 = (RIFKI, 2, 10, 3)


def _body(record: dict[str, Any], hand: Any, trick: Any, seat: Any) -> dict[str, Any]:
    return {"record": record, "hand": hand, "trick": trick, "seat": seat}


@pytest.mark.parametrize("position", [LATE_RU32, LATE_52], ids=["ru32", "52-cards"])
def test_the_post_answers_the_engines_analysis(app, position):
    anonymous = app.test_client(user=None)
    r = anonymous.post("/api/v1/analysis", json=_body(*position))
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer == analyse(*position)
    assert answer["tricks_left"] == len(position[0]["hands"][position[1]]["deal"][0]) - position[2]
    assert all(a["exact"] for a in answer["alternatives"])
    assert answer["played"] in {a["card"] for a in answer["alternatives"]}


def _without(key: str) -> dict[str, Any]:
    body = _body(*LATE_RU32)
    del body[key]
    return body


def _changed(**changes: Any) -> dict[str, Any]:
    body = _body(copy.deepcopy(RU32), *LATE_RU32[1:])
    body.update(changes)
    return body


def _bad_record() -> dict[str, Any]:
    record = copy.deepcopy(RU32)
    record["hands"][1]["tricks"] = record["hands"][1]["tricks"][:3]
    return _body(record, "x", None, 9)


def _counts_hand() -> dict[str, Any]:
    record = copy.deepcopy(RU32)
    record["hands"].append({"contract": "no-hearts", "counts": {"hearts": [2, 2, 2, 2]}})
    return _body(record, 3, 0, 0)


def _no_deal() -> dict[str, Any]:
    record = copy.deepcopy(RU32)
    del record["hands"][1]["deal"]
    return _body(record, 1, 99, 9)


@pytest.mark.parametrize(("body", "field"), [
    ([], "record"),
    ({}, "record"),
    (_without("record"), "record"),
    (_changed(record=[]), "record"),
    (_changed(record={**RU32, "format": "x"}), "record.format"),
    (_bad_record(), "record.hands[1].tricks"),
    (_without("hand"), "hand"),
    (_changed(hand="1", trick="x", seat=9), "hand"),
    (_changed(hand=3), "hand"),
    (_changed(hand=-1), "hand"),
    (_changed(hand=1.0), "hand"),
    (_changed(hand=True), "hand"),
    (_counts_hand(), "hand"),
    (_no_deal(), "hand"),
    (_without("trick"), "trick"),
    (_changed(trick=8, seat="x"), "trick"),
    (_changed(trick=None), "trick"),
    (_changed(trick="5"), "trick"),
    (_without("seat"), "seat"),
    (_changed(seat=4), "seat"),
    (_changed(seat="2"), "seat"),
    (_changed(seat=None), "seat"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_each_refusal_is_a_422_on_the_first_field_in_order(app, body, field):
    r = app.test_client(user=None).post("/api/v1/analysis", json=body)
    assert r.status_code == 422, r.get_json()
    assert set(r.get_json()) == {"error"}
    error = r.get_json()["error"]
    assert error["field"] == field and error["message"] and error["code"]


def test_the_post_wants_json(app):
    client = app.test_client(user=None)
    assert client.post("/api/v1/analysis", data="{}").status_code == 400
    r = client.post("/api/v1/analysis", data=b"{not json", content_type="application/json")
    assert r.status_code == 400 and set(r.get_json()) == {"error"}


@pytest.fixture
def stored(app, make_game):
    """A stored game (RU32) and tokens of a player (linked to seat 0), a scorer (not of this
    game) and a director."""
    gid = make_game(record=RU32)
    tokens = {"player": token_for(app, "pia", "player", player="Ana"),
              "scorer": token_for(app, "sam", "scorer"),
              "director": token_for(app, "dora", "director")}
    return gid, tokens


def test_the_get_of_a_stored_game_answers_the_post_for_its_record(app, stored):
    gid, tokens = stored
    client = app.test_client(user=None)
    record = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens["director"])).get_json()["record"]
    posted = client.post("/api/v1/analysis", json=_body(record, 1, 5, 2)).get_json()
    assert posted == analyse(*LATE_RU32)
    for role, token in tokens.items():
        r = client.get(f"/api/v1/games/{gid}/hands/2/analysis?trick=5&seat=2", headers=bearer(token))
        assert r.status_code == 200, (role, r.get_json())
        assert r.get_json() == posted, role


def test_the_get_needs_a_token_and_a_game(app, stored):
    gid, tokens = stored
    client = app.test_client(user=None)
    assert client.get(f"/api/v1/games/{gid}/hands/2/analysis?trick=5&seat=2").status_code == 401
    r = client.get("/api/v1/games/999/hands/2/analysis?trick=5&seat=2", headers=bearer(tokens["player"]))
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not-found"


@pytest.mark.parametrize(("query", "n", "field"), [
    ("trick=5&seat=2", 0, "hand"),
    ("trick=x&seat=9", 4, "hand"),
    ("seat=2", 2, "trick"),
    ("trick=x&seat=2", 2, "trick"),
    ("trick=8&seat=2", 2, "trick"),
    ("trick=-1&seat=2", 2, "trick"),
    ("trick=5", 2, "seat"),
    ("trick=5&seat=4", 2, "seat"),
    ("trick=5&seat=two", 2, "seat"),
])
def test_the_gets_refusals_name_hand_trick_or_seat(app, stored, query, n, field):
    gid, tokens = stored
    r = app.test_client(user=None).get(f"/api/v1/games/{gid}/hands/{n}/analysis?{query}",
                                       headers=bearer(tokens["player"]))
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["field"] == field


def test_the_get_refuses_a_hand_without_its_deal(app, make_game, stored):
    _gid, tokens = stored
    record = copy.deepcopy(RU32)
    del record["hands"][0]["deal"]
    gid = make_game(record=record)
    r = app.test_client(user=None).get(f"/api/v1/games/{gid}/hands/1/analysis?trick=5&seat=2",
                                       headers=bearer(tokens["scorer"]))
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hand"


# --- flask --app app analyse -----------------------------------------------------------------

def _run(runner: Any, tmp_path: Any, record: Any, *args: str) -> Any:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return runner.invoke(args=["analyse", str(path), *args])


def test_the_command_prints_the_analysis(runner, tmp_path):
    result = _run(runner, tmp_path, RU32, "--hand", "1", "--trick", "5", "--seat", "2")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == analyse(*LATE_RU32)
    assert result.stderr == ""


@pytest.mark.parametrize(("record", "args", "field"), [
    ("{not json", ("--hand", "1", "--trick", "5", "--seat", "2"), "record"),
    ({**RU32, "format": "x"}, ("--hand", "x", "--trick", "5", "--seat", "2"), "record.format"),
    (RU32, ("--hand", "x", "--trick", "5", "--seat", "2"), "hand"),
    (RU32, ("--trick", "5", "--seat", "2"), "hand"),
    (RU32, ("--hand", "7", "--trick", "5", "--seat", "2"), "hand"),
    (RU32, ("--hand", "1", "--trick", "8", "--seat", "2"), "trick"),
    (RU32, ("--hand", "1", "--trick", "1.5", "--seat", "2"), "trick"),
    (RU32, ("--hand", "1", "--trick", "5"), "seat"),
    (RU32, ("--hand", "1", "--trick", "5", "--seat", "-1"), "seat"),
])
def test_the_command_names_the_refused_field_in_one_line(runner, tmp_path, record, args, field):
    result = _run(runner, tmp_path, record, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{field}: "), result.stderr
    assert "Traceback" not in result.stderr


def test_the_command_names_a_missing_file(runner, tmp_path):
    result = runner.invoke(args=["analyse", str(tmp_path / "none.json"), "--hand", "0",
                                 "--trick", "0", "--seat", "0"])
    assert result.exit_code == 1 and "none.json" in result.stderr
    assert len(result.stderr.splitlines()) == 1
