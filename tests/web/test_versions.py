"""The one version check (issue 37 item 2): every reader that polls -- a game's live check
(also behind its share link and before Flask), an event's live stamp, the API's game --
answers through app/web/versions.py: the same ETag headers, 304 for its tag in any form
If-None-Match allows, 200 with a new tag after a change; and no other module reads
If-None-Match itself."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from app.db import get_session
from app.games import hands
from app.games.games import import_game
from app.web import versions
from tests.api.test_api import bearer, token_for
from tests.conftest import base_record
from tests.events_play import play
from tests.web.test_events import NAMES, create, event_of

APP = Path(__file__).resolve().parents[2] / "app"
RU32_FIRST = {"contract": "no-tricks", "counts": {"tricks": [2, 2, 2, 2]}}


def _reads_the_header(tree: ast.AST) -> list[int]:
    """Lines that read If-None-Match or decide an ETag themselves (docstrings aside)."""
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    allowed: set[int] = set()        # the header handed to versions.unchanged as it came
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "unchanged" and getattr(node.func.value, "id", "") == "versions":
            allowed |= {id(n) for n in ast.walk(node)}
    lines = []
    for node in ast.walk(tree):
        if id(node) in docstrings or id(node) in allowed:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                re.fullmatch(r"(?i)(http_)?if[-_]none[-_]match", node.value):
            lines.append(node.lineno)
        if isinstance(node, ast.Attribute) and node.attr in {"if_none_match", "set_etag", "make_conditional"}:
            lines.append(node.lineno)
        if isinstance(node, ast.Name) and node.id == "parse_etags":
            lines.append(node.lineno)
    return lines


def test_no_module_but_versions_reads_if_none_match():
    found = {}
    for path in APP.rglob("*.py"):
        rel = path.relative_to(APP).as_posix()
        if rel == "web/versions.py":
            continue
        lines = _reads_the_header(ast.parse(path.read_text()))
        if lines:
            found[rel] = lines
    assert found == {}


def test_the_check_sees_a_module_that_reads_the_header_itself():
    tree = ast.parse('def f(request):\n    return request.headers.get("If-None-Match")\n')
    assert _reads_the_header(tree) == [2]
    tree = ast.parse('def f(environ):\n    return versions.unchanged("v1", environ["HTTP_IF_NONE_MATCH"])\n')
    assert _reads_the_header(tree) == []


@pytest.mark.parametrize("header,expected", [
    ('"v3"', True), ('W/"v3"', True), ('"v1", "v3"', True), ("*", True),
    ('"v3c1"', False), ('"v33"', False), ("", False), (None, False)])
def test_if_none_match_is_read_as_http_says(header, expected):
    assert versions.unchanged("v3", header) is expected


def _each_form_of(get, tag: str) -> None:
    """``get(headers)``: 304 for the tag as sent, in a list and weak; 200 for another."""
    quoted = f'"{tag}"'
    for sent in (quoted, f'"other", {quoted}', f"W/{quoted}"):
        r = get({"If-None-Match": sent})
        assert r.status_code == 304, sent
        assert r.headers["ETag"] == quoted and r.headers["Cache-Control"] == "no-cache, private"
        assert r.get_data() == b""
    assert get({"If-None-Match": '"v0"'}).status_code == 200


def test_every_reader_answers_through_the_one_check(app, client):
    with app.app_context():
        game = import_game(get_session(), base_record("ru32"), who="test")
        gid = game.id
    token = token_for(app, "api-reader")
    readers = {
        "live": (lambda h: client.get(f"/games/{gid}/live", headers=h), "v1"),
        "api": (lambda h: client.get(f"/api/v1/games/{gid}", headers=bearer(token, **h)), "v1"),
    }
    for name, (get, tag) in readers.items():
        first = get({})
        assert first.status_code == 200 and first.headers["ETag"] == f'"{tag}"', name
        assert first.headers["Cache-Control"] == "no-cache, private", name
        _each_form_of(get, tag)
    with app.app_context():
        session = get_session()
        hands.record_hand(session, session.get(type(game), gid), RU32_FIRST, expected_version=1)
    for name, (get, _tag) in readers.items():
        after = get({"If-None-Match": '"v1"'})
        assert after.status_code == 200 and after.headers["ETag"] == '"v2"', name


def test_an_events_stamp_answers_through_the_one_check(app, client):
    event_id = int(create(client, names=NAMES[:8]).headers["Location"].rsplit("/", 1)[1])
    first = client.get(f"/events/{event_id}/live")
    tag = first.headers["ETag"].strip('"')
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache, private"
    _each_form_of(lambda h: client.get(f"/events/{event_id}/live", headers=h), tag)
    # a tag that merely contains the event's (the old substring test said 304)
    assert client.get(f"/events/{event_id}/live", headers={"If-None-Match": f'"x{tag}"'}).status_code == 200
    with app.app_context():
        play(get_session(), event_of(app, event_id).drawn[0].tables[0].game, 4, hands=1)
    assert client.get(f"/events/{event_id}/live", headers={"If-None-Match": f'"{tag}"'}).status_code == 200
