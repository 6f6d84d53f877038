"""Every engine error template has its Spanish in the catalog; the web fills it with the
error's params, translating the words (elements, contracts, types, shapes) by their ids."""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.rules import RecordError, load
from app.rules.game.record import TYPE_NAMES, WHAT
from app.rules.profiles import ELEMENTS
from app.web.messages import TERM_IDS, translate_error

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
CATALOG = ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po"
ERRORS = {"RecordError", "InputError", "RuleError", "SumError"}
PLACEHOLDER = re.compile(r"%\((\w+)\)([sr])")


@cache
def _calls() -> tuple[tuple[str, ast.Call], ...]:
    """Every call in the engine and in the rest of app/ (whose problems are engine errors too);
    parsed once per test process (1.8 s a walk: the page language tests asked for it at
    every page they read)."""
    out = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                out.append((f"{path.parent.name}/{path.name}:{node.lineno}", node))
    return tuple(out)


def engine_templates() -> dict[str, str]:
    """Every template passed to ``XError.of(field, code, template, ...)`` in app/rules."""
    found: dict[str, str] = {}
    for where, call in _calls():
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr == "of" and isinstance(f.value, ast.Name) \
                and f.value.id in ERRORS:
            template = call.args[2]
            assert isinstance(template, ast.Constant) and isinstance(template.value, str), \
                f"{where}: the template must be a string literal"
            found.setdefault(template.value, where)
    return found


def test_templates_are_found():
    templates = engine_templates()
    assert len(templates) > 100
    assert "%(element)s add up to %(total)s; a %(deck)s-card hand has %(full)s" in templates


def test_no_engine_error_is_built_from_a_finished_message():
    bare = [where for where, call in _calls()
            if isinstance(call.func, ast.Name) and call.func.id in ERRORS]
    assert bare == [], "build engine errors with XError.of(field, code, template, **params)"


def test_every_template_has_a_spanish_translation():
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    problems = []
    for template, where in engine_templates().items():
        message = catalog.get(template)
        if message is None or not message.string:
            problems.append(f"{where}: no Spanish for {template!r}")
            continue
        spanish = message.string
        if spanish == template:
            problems.append(f"{where}: the Spanish is the English: {template!r}")
        if sorted(PLACEHOLDER.findall(spanish)) != sorted(PLACEHOLDER.findall(template)):
            problems.append(f"{where}: placeholders differ: {template!r} -> {spanish!r}")
        if PLACEHOLDER.search(template) and "python-format" not in message.flags:
            problems.append(f"{where}: not flagged python-format: {template!r}")
    assert problems == []


def test_the_catalog_has_no_duplicate_msgids():
    ids = re.findall(r'^(?:msgctxt (".*")\n)?msgid (".*")\n(?=msgstr|msgid_plural)',
                     CATALOG.read_text(encoding="utf-8"), re.M)
    assert len(ids) == len(set(ids))


def test_every_word_has_a_spanish_translation():
    assert set(TERM_IDS["element"]) == set(ELEMENTS)
    assert set(TERM_IDS["type"]) == set(TYPE_NAMES) | {"other"}
    assert set(TERM_IDS["what"]) == set(WHAT)
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    for kind, ids in TERM_IDS.items():
        for word in ids:
            found = catalog.get(word, context=kind)
            assert found is not None and found.string and found.string != word, (kind, word)


def _error(record: dict) -> RecordError:
    with pytest.raises(RecordError) as info:
        load(record)
    return info.value


@pytest.mark.parametrize("lang,expected", [
    ("es", "Los corazones suman 12; una mano de 52 cartas tiene 13"),
    ("en", "Hearts add up to 12; a 52-card hand has 13"),
])
def test_translate_error_fills_the_translated_template(app, lang, expected):
    record = {"format": "kingsheet/1", "profile": "fiestas", "players": ["A", "B", "C", "D"],
              "first_dealer": 0, "hands": [{"counts": {"tricks": [1, 5, 3, 4]}},
                                           {"counts": {"hearts": [1, 5, 3, 3]}}]}
    e = _error(record)
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert translate_error(e) == expected


def test_contract_and_type_words_are_translated(app):
    record = {"format": "kingsheet/1", "profile": "fiestas", "players": ["A", "B", "C", "D"],
              "first_dealer": 0, "hands": [{"counts": {"tricks": [1, 5, 3, 4]}},
                                           {"counts": {}}]}
    e = _error(record)
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert translate_error(e) == "falta: Sin corazones puntúa los corazones"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert translate_error(e) == "missing: No hearts scores hearts"
    record["hands"][1] = {"counts": {"hearts": "x"}}
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert translate_error(_error(record)) == "debe ser una lista de cuatro cantidades, no texto"


def test_an_error_unknown_to_the_catalog_is_shown_as_written(app):
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert translate_error(RecordError("x", "something 100% new")) == "something 100% new"


def test_seats_in_messages_are_numbered_as_on_the_pages(app):
    """The record's seats are 0-3; the pages number them 1-4, and so do their messages."""
    from app.rules.errors import RecordError
    from app.rules.referee.auction import Auction
    from app.web.messages import translate_error

    auction = Auction("fiestas", 0)          # seat 1 (Beto) calls first
    try:
        auction.call("2:+2")
    except RecordError as e:
        error = e
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert "it is seat 2's call" in translate_error(error)
    assert "seat 1's call" in error.message   # the engine's own text keeps the record's seats


def test_an_owner_answer_after_the_ultimatum_says_what_the_bidder_may_call(app):
    """After "8 o nulos" the owner has answered: the page says the bidder offers +8 or
    refuses (not "the owner answers only when bidding has stopped")."""
    from app.rules.referee.auction import Auction

    auction = Auction("fiestas", 3)          # Dani owns the fiesta; Ana (seat 0) bids +6
    for call in ("0:+6", "1:pass", "2:pass", "owner:eight-or-nulos"):
        auction.call(call)
    with pytest.raises(RecordError) as info:
        auction.call("owner:accept")
    players = ["Ana", "Beto", "Carla", "Dani"]
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert translate_error(info.value, players, 3) == (
            '"Dani: acepta: vendida": tras "8 o nulos" el dueño ya ha respondido; ahora el '
            "asiento 1 ofrece +8 o lo rechaza")
