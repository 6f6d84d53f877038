"""Every example of docs/api.md is what the app answers (issue 41): scripts/api-examples
sends each request of the doc to the app on a fresh database, and its check finds no
difference; a difference planted in a copy of the doc is found and named."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "api.md"


def load_script() -> ModuleType:
    """scripts/api-examples as a module (a script's name has no .py)."""
    loader = importlib.machinery.SourceFileLoader("api_examples", str(REPO / "scripts" / "api-examples"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module          # its dataclasses look their module up
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script()


@pytest.fixture(scope="module")
def examples(script: ModuleType) -> list[Any]:
    return list(script.run())


def test_every_example_of_the_doc_is_the_apps_answer(script, examples):
    problems = script.check(DOC, examples)
    assert not problems, "docs/api.md differs from the app:\n" + "\n".join(problems)
    assert len(examples) >= 25


@pytest.mark.parametrize(("old", "new", "named", "said"), [
    # a value
    ('{"seat": 2, "version": 6, "locked": false}', '{"seat": 2, "version": 6, "locked": true}',
     "POST /api/v1/games/1/confirmations", "$.locked: the doc has true, the server answers false"),
    # a number of another JSON type
    ('"games": 4, "wins": 1, "points": 42}', '"games": 4, "wins": 1.0, "points": 42}',
     "GET /api/v1/players", "$.players[1].wins: the doc has 1.0, the server answers 1"),
    # a header
    ('HTTP/1.1 304 NOT MODIFIED\nETag: "v2"', 'HTTP/1.1 304 NOT MODIFIED\nETag: "v3"',
     "GET /api/v1/games/1", 'header ETag: the doc has "v3", the server answers "v2"'),
    # a key the doc leaves out without "…"
    ('{"id": 1, "version": 5, "hand": null, "totals": [-40, -80, -60, -80]}',
     '{"id": 1, "version": 5, "totals": [-40, -80, -60, -80]}',
     "DELETE /api/v1/games/1/hands/last", "$.hand: the server answers null, the doc has no hand"),
    # a request the script does not send
    ("""-d '{"seat": 2, "pin": "3333", "version": 6}'""", """-d '{"seat": 3, "pin": "4444", "version": 6}'""",
     "POST /api/v1/games/1/confirmations", "the script does not send this request"),
], ids=["value", "type", "header", "key", "request"])
def test_a_difference_planted_in_the_doc_is_named(script, examples, tmp_path, old, new, named, said):
    text = DOC.read_text()
    assert text.count(old) == 1, old
    planted = tmp_path / "api.md"
    planted.write_text(text.replace(old, new))
    problems = script.check(planted, examples)
    differing = [p for p in problems if "the script answers" not in p]
    assert len(differing) == 1, problems
    assert named in differing[0] and said in differing[0], differing[0]


def test_the_script_run_as_a_command_exits_1_naming_the_example(tmp_path):
    """As a person runs it (its own process and interpreter, this tree's app)."""
    planted = tmp_path / "api.md"
    planted.write_text(DOC.read_text().replace('201 CREATED\nETag: "v2"', '201 CREATED\nETag: "v3"'))
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "api-examples"), "--check", str(planted)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "(POST /api/v1/games/1/hands, under" in done.stderr
    assert 'header ETag: the doc has "v3", the server answers "v2"' in done.stderr
    assert "1 example(s) differ or are missing" in done.stderr


def test_abridged_answers_match_anything_where_the_doc_writes_an_ellipsis(script):
    read, differences = script.read_abridged, script.differences
    real = {"seed": 2841, "players": ["Ana", "Beto"], "token": "ks_abc", "n": 4.0, "more": 1}
    assert differences(read('{"seed": 28…, "players": ["Ana", "…"], "token": "ks_…", "n": 4.0, '
                            '"…": "…"}'), real) == []
    assert differences(read('{"seed": 2841, "players": ["Ana"], "token": "ks_…", "n": 4, "more": 1}'),
                       real) == ['$.players: the doc has 1 elements, the server answers 2: ["Ana", "Beto"]',
                                 "$.n: the doc has 4, the server answers 4.0"]
