"""Every message of the engine reaches a page or a PDF through the catalogs (issue 21.4):
an early end (the engine's Explanation), a violation's sentence, a record that no longer
replays (a RecordError) are written in the page's language, never as the engine's English
templates. The hand PDF is checked as the HTML it is rendered from (fast: no PDF)."""
from __future__ import annotations

import html
import json
import random
import re
from functools import cache
from typing import Any

import pytest
from flask import render_template
from sqlalchemy import text

from app.rules import load
from app.rules.cards import cards_of
from app.rules.game.hand import HandState
from app.rules.game.results import EXPLANATIONS
from app.rules.referee.play import RULE_IDS, rule_sentence
from app.rules.simulate import random_game
from tests.conftest import load_record
from tests.web.test_messages import engine_templates

LANGS = ["es", "tr", "ru"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]")


@cache
def english_fragments() -> frozenset[str]:
    """The English words of every engine message template (its errors, the rule
    sentences, its Explanations: the early end, a sale's payment) between its placeholders:
    the pieces of three words or more."""
    templates = set(engine_templates()) | {rule_sentence(r) for r in RULE_IDS} | set(EXPLANATIONS)
    out = set()
    for template in templates:
        for piece in PLACEHOLDER.split(template.replace("%%", "%")):
            piece = piece.strip(" \"'():;,.")
            if len(piece.split()) >= 3:
                out.add(piece)
    return frozenset(out)


def english_left(page: str) -> list[str]:
    """The engine's English fragments found in a page (its text, entities undone)."""
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page))
    shown = re.sub(r"\s+", " ", shown)
    return sorted(f for f in english_fragments() if f in shown)


def test_the_walk_knows_the_engines_english() -> None:
    fragments = english_fragments()
    assert len(fragments) > 100
    assert "every scoring card has been taken (the last" in fragments
    assert "the 2♦ is dealt to seat" in fragments
    assert english_left("<p>Ana se llevó <b>3</b> bazas</p>") == []
    assert english_left(
        "<p>every scoring card has been taken (the last, Q♠, at trick 9)</p>") == [
        "every scoring card has been taken (the last"]


# --- a hand that ended early, with a violation ---------------------------------------------

def messy_hand(record: dict[str, Any], index: int, contract: str) -> dict[str, Any]:
    """Hand ``index`` of ``record`` entered trick by trick with the deal, a third of the
    plays made without regard to the rules: the first seed whose play ends early with a
    violation."""
    leader = load({**record, "hands": record["hands"][:index]}).next.leader
    for seed in range(200):
        rng = random.Random(seed)
        cards = [str(c) for c in cards_of(load(record).profile.deck)]
        rng.shuffle(cards)
        deal = [cards[s * 13:(s + 1) * 13] for s in range(4)]
        state = HandState(record["profile"], {}, contract, None, leader, deal=deal)
        while not state.over:
            seat = state.to_play
            held = [str(c) for c in cards_of(state.holding(seat) or 0)]
            legal = state.legal_cards()
            state.play(rng.choice(held) if rng.random() < 0.35 or not legal else rng.choice(legal))
        if state.summary()["ended_early"] and state.violations():
            return {"contract": contract, "tricks": state.tricks(), "deal": deal}
    raise AssertionError("no seed gives an early end with a violation")


@pytest.fixture
def messy_game(make_game: Any) -> tuple[int, int]:
    """(game id, hand row) of a fiestas game whose hand 2 (no hearts) ended early with a
    violation."""
    record = load_record("fiestas_complete.json")
    record["hands"][1] = messy_hand(record, 1, "no-hearts")
    hand = load(record).hands[1]
    assert hand.ended_early and hand.violations
    return make_game(record=record), 2


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_pdf_writes_the_early_end_and_the_violation_in_its_language(
        app: Any, messy_game: tuple[int, int], lang: str) -> None:
    from app.db import get_session
    from app.games import queries
    from app.printing import docs as pdf_docs

    gid, row = messy_game
    with app.test_request_context(headers={"Accept-Language": lang}):
        game = queries.get_game(get_session(), gid)
        doc = pdf_docs.hand_doc(game, row, lang)
        assert doc is not None and doc["ended_early"] and doc["violations"]
        page = render_template("pdf/hand.html", doc=doc, orientation="portrait")
    assert english_left(page) == []
    if lang == "es":
        shown = html.unescape(page)
        assert "terminó antes: se han llevado todas las cartas que puntúan (la última" in shown
        assert "Decisiones e infracciones" in shown
        assert " en la baza " in shown


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_and_sheet_pages_leave_no_engine_english(
        client: Any, messy_game: tuple[int, int], lang: str) -> None:
    """The hand record, the sheet and the trick-by-trick correction of the hand (its early
    end, its violations, the finished hand's score)."""
    gid, row = messy_game
    headers = {"Accept-Language": lang}
    for path in (f"/games/{gid}/hands/{row}", f"/games/{gid}", f"/games/{gid}/hands/{row}/tricks"):
        r = client.get(path, headers=headers, follow_redirects=True)
        assert r.status_code == 200, path
        page = r.get_data(as_text=True)
        assert 'id="early-end"' in page or path == f"/games/{gid}", path
        assert english_left(page) == [], path


# --- a record that no longer replays -------------------------------------------------------

def _plant(app: Any, gid: int, record: dict[str, Any]) -> None:
    """Writes a record as one stored before a check that now refuses it."""
    from app.db import get_db

    with get_db(app).engine.begin() as conn:
        conn.execute(text("UPDATE game SET record = :r WHERE id = :id"),
                     {"r": json.dumps(record), "id": gid})


@pytest.fixture
def broken_game(app: Any, make_game: Any) -> int:
    """A rifki game stored before hand 1's deal had to give the 2♦ to first_chooser."""
    record = random_game("rifki", random.Random(4), hands=2)
    gid = make_game(record=record)
    first = record["first_chooser"]
    deal = record["hands"][0]["deal"]
    other = (first + 1) % 4
    deal[first][deal[first].index("2D")], deal[other][0] = deal[other][0], "2D"
    _plant(app, gid, record)
    return gid


SPANISH_2D = "el 2♦ le ha tocado al asiento"


@pytest.mark.parametrize("lang", LANGS)
def test_a_record_that_no_longer_replays_says_why_in_the_pages_language(
        app: Any, client: Any, broken_game: int, lang: str) -> None:
    from app.db import get_session
    from app.printing import docs as pdf_docs

    headers = {"Accept-Language": lang}
    sheet = client.get(f"/games/{broken_game}", headers=headers)
    assert sheet.status_code == 200
    pages = {"sheet": sheet.get_data(as_text=True)}
    for kind in ("sheet.pdf", "sheet.csv"):
        r = client.get(f"/games/{broken_game}/{kind}", headers=headers)
        assert r.status_code == 422, kind
        pages[kind] = r.get_data(as_text=True)
    with app.test_request_context(headers=headers):
        doc = pdf_docs.game_sheet_doc(get_session(), broken_game, lang)
        assert doc is not None and doc["error"] is not None
        pages["bulk"] = render_template("pdf/sheet.html", docs=[doc], orientation="auto")
    for name, page in pages.items():
        assert "hands[0].deal" in page, name
        assert english_left(page) == [], name
        if lang == "es":
            assert SPANISH_2D in html.unescape(page), name


def test_a_services_refusal_is_flashed_in_the_pages_language(client: Any, make_game: Any) -> None:
    from tests.web.helpers import version_of

    gid = make_game("ru32")
    r = client.post(f"/games/{gid}/hands/last/delete", data={"version": version_of(client, gid)},
                    headers={"Accept-Language": "es"}, follow_redirects=True)
    assert "No hay manos que borrar." in r.get_data(as_text=True)
