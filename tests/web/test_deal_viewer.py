"""The hand page's deal viewer and each violation's alternatives (issue 40) through the test
client: the deal at the first trick, the hands without the cards of earlier tricks at
``?trick=k``, the illegal play marked, every legal card with the engine's values, and a bad
``?trick=`` shown as a sentence, never a 500."""
from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from app.rules import score_record
from app.rules.search.analysis import analyse
from tests.conftest import base_record

# ru32, hand 1 (no-tricks, Beto leads), with its deal: in trick 2 Beto discards 9♠ on the
# heart lead while holding K♥ (played at trick 7) -- a revoke, at position (0, 1, 1).
DEAL = [["AS", "QS", "TS", "7S", "9H", "JD", "TD", "QC"],
        ["9S", "KH", "AD", "KD", "QD", "8D", "TC", "9C"],
        ["KS", "JS", "JH", "TH", "8H", "9D", "KC", "8C"],
        ["8S", "AH", "QH", "7H", "7D", "AC", "JC", "7C"]]
TRICKS = [["8D", "9D", "7D", "JD"], ["9H", "9S", "TH", "QH"], ["JC", "QC", "TC", "KC"],
          ["KS", "8S", "AS", "9C"], ["TD", "KD", "JH", "AC"], ["QD", "JS", "AH", "7S"],
          ["KH", "8H", "7H", "TS"], ["AD", "8C", "7C", "QS"]]
RECORD = base_record("ru32", hands=[{"contract": "no-tricks", "deal": DEAL, "tricks": TRICKS}])


class _Parts(HTMLParser):
    """The viewer's cards (code -> attributes) and the alternatives' rows."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, dict[str, str | None]] = {}
        self.slots: list[dict[str, str | None]] = []
        self.rows: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "dv-card" in classes:
            self.cards[str(a["data-card"])] = a
        elif "dv-slot" in classes:
            self.slots.append(a)
        elif tag == "tr" and "data-guaranteed" in a:
            self.rows.append(a)


def parts(html: str) -> _Parts:
    p = _Parts()
    p.feed(html)
    return p


@pytest.fixture
def gid(make_game: Any) -> int:
    return int(make_game(record=RECORD))


def page(client: Any, gid: int, query: str = "") -> tuple[int, str]:
    r = client.get(f"/games/{gid}/hands/1{query}")
    return r.status_code, r.get_data(as_text=True)


def shown(p: _Parts) -> set[str]:
    return {code for code, a in p.cards.items() if "hidden" not in a}


def test_the_viewer_starts_at_the_deal_with_every_card(client: Any, gid: int) -> None:
    status, html = page(client, gid)
    assert status == 200
    p = parts(html)
    assert shown(p) == {c for hand in DEAL for c in hand}
    assert 'id="dv-label"' in html and "Trick 1 of 8" in html
    assert f'href="/games/{gid}/hands/1?trick=1#viewer"' in html      # ▶ without JS
    assert 'id="dv-prev" aria-disabled="true"' in html                # no trick before the first
    # the first trick in the middle, the cards of the trick underlined in their hands
    assert {a["data-card"] for a in p.slots if a["data-card"]} >= set(TRICKS[0])
    assert all("in-trick" in (p.cards[c]["class"] or "") for c in TRICKS[0])
    assert '<script type="application/json" id="dv-data">' in html


def test_at_a_later_trick_the_hands_lack_the_cards_already_played(client: Any, gid: int) -> None:
    status, html = page(client, gid, "?trick=2")
    assert status == 200 and "Trick 3 of 8" in html
    p = parts(html)
    gone = set(TRICKS[0]) | set(TRICKS[1])
    assert shown(p) == {c for hand in DEAL for c in hand} - gone
    assert all("hidden" in p.cards[c] for c in gone)
    assert f'href="/games/{gid}/hands/1?trick=1#viewer"' in html      # ◀
    assert f'href="/games/{gid}/hands/1?trick=3#viewer"' in html      # ▶
    # Beto has 6 cards left, and the middle holds trick 3's cards
    assert '<span class="muted dv-left" title="cards in hand">(6)</span>' in html
    middle = [a for a in p.slots if a["data-card"] in TRICKS[2]]
    assert len({a["data-card"] for a in middle}) == 4


def test_the_illegal_play_is_marked_in_words_not_only_in_colour(client: Any, gid: int) -> None:
    _status, html = page(client, gid, "?trick=1")
    p = parts(html)
    flagged = [a for a in p.slots if "flagged" in (a["class"] or "")]
    assert [a["data-card"] for a in flagged] == ["9S"]
    assert "flagged" in (p.cards["9S"]["class"] or "")
    assert "⚠ Illegal play: Beto" in html
    es = client.get(f"/games/{gid}/hands/1?trick=1", headers={"Accept-Language": "es"})
    text = es.get_data(as_text=True)
    assert "Baza 2 de 8" in text and "Jugada ilegal" in text


def test_the_alternatives_are_the_engines_analysis(client: Any, gid: int) -> None:
    _status, html = page(client, gid)
    rows = parts(html).rows
    answer = analyse(RECORD, 0, 1, 1)
    assert answer["played"] == "9S"
    assert [(r["data-card"], r["data-legal"], int(str(r["data-guaranteed"])),
             int(str(r["data-possible"])), r["data-exact"]) for r in rows] == [
        (a["card"], "1" if a["legal"] else "0", a["guaranteed"], a["possible"],
         "1" if a["exact"] else "0") for a in answer["alternatives"]]
    # every legal card is listed (here K♥ alone: Beto had to follow hearts), and the card
    # played is marked as played and as illegal
    assert {r["data-card"] for r in rows if r["data-legal"] == "1"} == {"KH"}
    played = next(r for r in rows if r["data-card"] == "9S")
    assert "played" in (played["class"] or "") and "illegal" in (played["class"] or "")
    assert 'href="?trick=1#viewer"' in html                           # to the trick in the viewer


@pytest.mark.parametrize("query,step,message", [
    ("?trick=99", 7, "This hand has 8 tricks: the last one is shown."),
    ("?trick=abc", 0, "“abc” is not a trick number: trick 1 is shown."),
    ("?trick=-1", 0, "“-1” is not a trick number: trick 1 is shown."),
    ("?trick=1e9", 0, "“1e9” is not a trick number: trick 1 is shown."),
    ("?trick=", 0, None)])
def test_a_bad_trick_is_shown_clamped_with_a_sentence(client: Any, gid: int, query: str,
                                                       step: int, message: str | None) -> None:
    status, html = page(client, gid, query)
    assert status == 200
    assert f'id="viewer" data-step="{step}"' in html
    assert f"Trick {step + 1} of 8" in html
    if message:
        assert message in html


def test_the_share_link_steps_too(client: Any, gid: int, app: Any) -> None:
    from app.db import get_session
    from app.games import links

    with app.app_context():
        token = links.share_link(get_session(), gid).token
    r = client.get(f"/s/{token}/hands/1?trick=2")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Trick 3 of 8" in html
    assert f'href="/s/{token}/hands/1?trick=3#viewer"' in html


def test_a_hand_without_its_deal_keeps_the_page_without_viewer(client: Any, make_game: Any) -> None:
    record = base_record("ru32", hands=[{"contract": "no-tricks", "tricks": TRICKS}])
    gid = make_game(record=record)
    status, html = page(client, gid, "?trick=3")
    assert status == 200
    assert 'id="viewer"' not in html and 'id="alternatives"' not in html
    assert 'data-rule="follow-suit"' in html and 'id="trick-grid"' in html   # the rest stays


def _revoking_hand(profile: str, seed: int) -> dict[str, Any]:
    """A no-tricks hand of ``profile`` with its deal, Beto leading, played at random by the
    engine's legal cards except in trick 2, where the first seat that can breaks a rule."""
    import random

    from app.rules.cards import cards_of
    from app.rules.game.hand import HandState
    from app.rules.profiles import PROFILES
    from app.rules.simulate import random_deal

    rng = random.Random(seed)
    deal = [[str(c) for c in cards_of(m)] for m in random_deal(PROFILES[profile], rng, 1)]
    state = HandState(profile, {}, "no-tricks", None, 1, deal=deal)
    broken = False
    while not state.over:
        legal = state.legal_cards()
        seat = state.to_play
        in_trick_2 = len(state.plays) // 4 == 1 and len(state.plays) % 4 > 0
        held = [str(c) for c in cards_of(state.holding(seat) or 0)] if seat is not None else []
        illegal = [c for c in held if c not in legal]
        if in_trick_2 and not broken and illegal:
            state.play(illegal[0])
            broken = True
        else:
            state.play(rng.choice(legal))
    assert broken
    return {"contract": "no-tricks", "deal": deal, "tricks": [list(t) for t in state.tricks()]}


def test_a_13_card_hand_early_on_shows_bounds_as_bounds(client: Any, make_game: Any,
                                                        app: Any) -> None:
    record = base_record("fiestas", hands=[_revoking_hand("fiestas", 0)])
    gid = make_game(record=record)
    budget = app.config["ANALYSIS_PAGE_BUDGET_S"]
    app.config["ANALYSIS_PAGE_BUDGET_S"] = 0.2          # 12 tricks left: no exact value in time
    try:
        status, html = page(client, gid)
    finally:
        app.config["ANALYSIS_PAGE_BUDGET_S"] = budget
    assert status == 200 and "Trick 1 of 13" in html
    rows = parts(html).rows
    assert rows and all(r["data-exact"] == "0" for r in rows)
    assert "≥ " in html and "≤ " in html and "bounds: the search ran out of time" in html
    for r in rows:       # sound bounds: guaranteed is at most possible
        assert int(str(r["data-guaranteed"])) <= int(str(r["data-possible"]))
    seat = next(v["seat"] for v in score_record(record)["hands"][0]["violations"])
    listed = analyse(record, 0, 1, seat, 0.1)["alternatives"]       # the cards need no time
    assert sorted(r["data-card"] for r in rows) == sorted(a["card"] for a in listed)


@pytest.mark.parametrize("profile", ["ru32", "fiestas", "subastas", "rifki"])
def test_every_trick_of_every_profile_renders(client: Any, make_game: Any, profile: str) -> None:
    import random

    from app.rules.simulate import random_game

    record = random_game(profile, random.Random(5), hands=2)
    gid = make_game(record=record)
    for n, hand in enumerate(record["hands"], start=1):
        count = len(hand["tricks"])
        for k in (0, count // 2, count - 1):
            r = client.get(f"/games/{gid}/hands/{n}?trick={k}")
            html = r.get_data(as_text=True)
            assert r.status_code == 200, (n, k)
            assert f"Trick {k + 1} of {count}" in html
            gone = {c for t in hand["tricks"][:k] for c in t}
            assert shown(parts(html)) == {c for cards in hand["deal"] for c in cards} - gone


def test_the_dispute_pack_holds_the_deal_the_alternatives_the_ruling_and_the_fingerprint(client: Any, gid: int
                                                                                         ) -> None:
    """GET /games/{id}/hands/{n}/dispute.pdf (issue 40): on its pages the deal, the trick
    grid, the violation with its rule, the engine's alternatives for the offender, the
    ruling with its weights, the table's confirmations and 16 hex of the record's SHA-256."""
    import hashlib
    import json

    from app.db import get_session
    from app.models import Game
    from tests.printing.test_pdf import text_of

    with client.application.app_context():
        v = get_session().get(Game, gid).version
    ruled = client.post(f"/games/{gid}/hands/1/ruling", data={
        "version": str(v), "kind": "adjusted", "reason": "revoke at trick 2",
        "w0_share": "40", "w0_label": "as played", **{f"w0_p{s}": str(p) for s, p in enumerate(
            score_record(RECORD)["hands"][0]["points"])},
        "w1_share": "60", "w1_label": "with KH", "w1_p0": "-2", "w1_p1": "-4", "w1_p2": "-6", "w1_p3": "-4"})
    assert ruled.status_code == 303, ruled.get_data(as_text=True)[:2000]
    record = client.get(f"/games/{gid}/record.json").get_json()
    answer = client.get(f"/games/{gid}/hands/1/dispute.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = " ".join(text_of(answer.data).split())
    assert "DISPUTE PACK" in text
    assert f"/games/{gid}/hands/1/dispute.pdf" in client.get(f"/games/{gid}/hands/1").get_data(as_text=True)
    assert "The deal" in text and "Tricks" in text
    assert "What could have been played instead" in text
    assert "A♠ Q♠ 10♠ 7♠ 9♥ Q♣ J♦ 10♦" in text                 # Ana's cards as dealt
    alternatives = analyse(record, 0, 1, 1, 5.0)["alternatives"]
    assert len(alternatives) >= 2 and "Trick 2 · Beto · played 9♠" in text

    def shown(n: int) -> str:
        return f"−{-n}" if n < 0 else (f"+{n}" if n > 0 else "0")

    for alt in alternatives:
        face = alt["card"][:-1].replace("T", "10") + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[alt["card"][-1]]
        assert f"{face} {shown(alt['guaranteed'])} {shown(alt['possible'])}" in text, alt
    assert "60 % with KH" in text
    assert "The table's confirmations" in text and "No seat has confirmed the sheet." in text
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(canonical.encode()).hexdigest()[:16] in text
    assert client.get(f"/games/{gid}/hands/9/dispute.pdf").status_code == 404


def _inputs(html: str) -> dict[str, str]:
    """Every text input's value by name."""
    import re

    inputs = re.finditer(r'<input type="text"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', html)
    return {m[1]: m[2] for m in inputs}


def test_outcomes_are_filled_in_from_the_analysis_and_the_ruling_keeps_the_total(client: Any, gid: int
                                                                                 ) -> None:
    """Issue 40: each exact alternative's row offers its line as an outcome of a weighted
    ruling; following "as played" and then K♥'s link fills two outcomes with their four
    points (K♥'s: the engine's line, in which Beto scores the row's guaranteed), the
    director types the shares, and the ruling keeps the hand total."""
    from app.rules.search.line import line_after

    _status, html = page(client, gid)
    assert 'href="?use=2-1-KH#outcomes"' in html          # trick 2 (as the page counts), Beto
    assert 'href="?use=played#outcomes"' in html
    status, html = page(client, gid, "?use=played&use=2-1-KH")
    assert status == 200
    values = _inputs(html)
    played = score_record(RECORD)["hands"][0]["points"]
    line = line_after(RECORD, 0, 1, 1, "KH")
    assert line is not None
    assert values["w0_label"] == "as played" and [int(values[f"w0_p{s}"]) for s in range(4)] == played
    assert values["w1_label"] == "with K♥" and [int(values[f"w1_p{s}"]) for s in range(4)] == line["points"]
    guaranteed = next(a["guaranteed"] for a in analyse(RECORD, 0, 1, 1)["alternatives"] if a["card"] == "KH")
    assert line["points"][1] == guaranteed and sum(line["points"]) == sum(played)
    assert 'value="adjusted" checked' in html and values["w0_share"] == "" and values["w1_share"] == ""
    # the links now keep those two outcomes and add a third
    assert 'href="?use=played&amp;use=2-1-KH&amp;use=2-1-9S#outcomes"' in html

    from app.db import get_session
    from app.models import Game

    with client.application.app_context():
        v = get_session().get(Game, gid).version
    form = {"version": str(v), "kind": "adjusted", "reason": "revoke at trick 2",
            **{k: v for k, v in values.items() if k[:2] in ("w0", "w1")}, "w0_share": "30", "w1_share": "70"}
    assert client.post(f"/games/{gid}/hands/1/ruling", data=form).status_code == 303
    report = score_record(client.get(f"/games/{gid}/record.json").get_json())
    assert sum(report["hands"][0]["points"]) == sum(played)
    weights = client.get(f"/games/{gid}/record.json").get_json()["hands"][0]["ruling"]["weights"]
    assert [w["share"] for w in weights] == [30, 70] and weights[1]["points"] == line["points"]


@pytest.mark.parametrize("query", ["?use=9-1-KH", "?use=2-1-AS", "?use=2-7-KH", "?use=nonsense",
                                   "?use=2-1-ZZ", "?use=" + "x" * 500])
def test_an_outcome_that_cannot_be_filled_in_is_said_or_ignored_never_a_500(client: Any, gid: int,
                                                                             query: str) -> None:
    status, html = page(client, gid, query)
    assert status == 200
    if query in ("?use=9-1-KH", "?use=2-1-AS"):
        assert "is not a card that player could play at trick" in html
    assert _inputs(html).get("w0_p0", "") == ""


def test_a_reader_gets_no_outcome_links(app: Any, gid: int) -> None:
    reader = app.test_client(user="lectora", role="player")
    html = reader.get(f"/games/{gid}/hands/1?use=played").get_data(as_text=True)
    assert "use=played" not in html and _inputs(html).get("w0_p0", "") == ""
