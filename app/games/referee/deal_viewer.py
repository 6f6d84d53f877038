"""The hand page's deal viewer and each violation's alternatives (issue 40, ANALYSIS.md).

The viewer steps through a hand entered trick by trick with its deal: at step *k* (the
0-based trick of ``?trick=k``, as ANALYSIS.md numbers positions) each seat holds its dealt
cards less those played in tricks 0 to *k* - 1, and trick *k* lies in the middle, its illegal
card marked. The server renders the step asked for, with links to the steps around it;
static/js/deal_viewer.js steps without reloading, reading the JSON this module prepares.

Each violation's alternatives are the engine's :func:`app.rules.search.analysis.analyse` of the
position, searched within a share of ``ANALYSIS_PAGE_BUDGET_S`` (app/config.py) so the page
answers fast: values the search could not finish in time are shown as bounds.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from flask import current_app
from flask_babel import ngettext

from app.rules import RecordError
from app.rules.cards import SUITS, Card
from app.rules.search.analysis import analyse
from app.rules.search.line import line_after
from app.web.messages import translate_error
from app.web.words import SUIT_SYMBOLS, _, card_view, suit_color

#: A step in the address: a whole number of at most a few digits.
STEP = re.compile(r"^[0-9]{1,4}$")
#: The least search time of one violation's analysis, however many the hand has.
MIN_BUDGET_S = 0.1


def read_step(text: str | None, count: int) -> tuple[int, str | None]:
    """The step ``?trick=`` asks for, clamped to the hand's tricks, and what was wrong with it
    (a sentence for the page) or None."""
    if text is None or text == "" or count == 0:
        return 0, None
    if not STEP.match(text.strip()):
        return 0, _("“%(text)s” is not a trick number: trick 1 is shown.", text=text[:12])
    k = int(text.strip())
    if k >= count:
        return count - 1, ngettext(
            "This hand has %(num)s trick: the last one is shown.",
            "This hand has %(num)s tricks: the last one is shown.", count)
    return k, None


def step_label(k: int, count: int) -> str:
    """"Trick 3 of 8" for step 2 (what the viewer says between its arrows)."""
    return _("Trick %(k)s of %(n)s", k=k + 1, n=count)


def _places(clockwise: bool) -> list[str]:
    """Each seat's place around the table as the new-game drawing puts it: seat 0 at the
    bottom, seat 2 at the top, seat 1 to the left of seat 0 when play goes clockwise."""
    return ["s", "w", "n", "e"] if clockwise else ["s", "e", "n", "w"]


def viewer_view(h: Any, players: Sequence[str], clockwise: bool, tricks: list[dict[str, Any]],
                step_arg: str | None, step_url: Callable[[int], str]) -> dict[str, Any] | None:
    """What the deal viewer shows of hand ``h`` (a replayed hand) at the step asked for;
    None without the deal or the tricks. ``tricks`` are the hand's trick rows (with each
    illegal card flagged); ``step_url(k)`` is the address of step ``k`` without JS."""
    deal = h.deal
    if deal is None or not tricks:
        return None
    count = len(tricks)
    step, notice = read_step(step_arg, count)
    played, flagged = _plays(tricks)
    places = _places(clockwise)
    seats = [_seat_view(s, players[s], places[s], cards, played, flagged, step, count)
             for s, cards in enumerate(deal)]
    return {
        "step": step, "count": count, "label": step_label(step, count), "notice": notice,
        "seats": seats, "places": places, "tricks": tricks,
        "prev": step_url(step - 1) if step > 0 else None,
        "next": step_url(step + 1) if step + 1 < count else None,
        "data": {"step": step, "count": count, "played": played,
                 "labels": [step_label(k, count) for k in range(count)]},
    }


def _plays(tricks: list[dict[str, Any]]) -> tuple[dict[str, int], set[str]]:
    """The trick each card was played in, and the cards flagged as illegal."""
    cells = [(t, c) for t, row in enumerate(tricks) for c in row["cards"] if c]
    return {c["code"]: t for t, c in cells}, {c["code"] for _, c in cells if c["flagged"]}


def _seat_view(seat: int, name: str, place: str, cards: Sequence[str], played: dict[str, int],
               flagged: set[str], step: int, count: int) -> dict[str, Any]:
    """One seat's hand at ``step``: its suits and how many cards it still holds."""
    return {"seat": seat, "name": name, "place": place,
            "suits": [_suit(cards, letter, played, flagged, step) for letter in SUITS],
            "left": sum(1 for c in cards if played.get(c, count) >= step)}


def _suit(cards: Sequence[str], letter: str, played: dict[str, int], flagged: set[str],
          step: int) -> dict[str, Any]:
    """One suit of a seat's dealt cards (high to low), each card with the trick it was
    played in; at ``step`` the cards of earlier tricks are gone."""
    codes = sorted((c for c in cards if c[-1] == letter), key=lambda c: -Card.parse(c))
    shown = []
    for code in codes:
        t = played.get(code)
        shown.append({**card_view(code), "trick": t, "flagged": code in flagged,
                      "gone": t is not None and t < step, "in_trick": t == step})
    return {"letter": letter, "symbol": SUIT_SYMBOLS[letter], "color": suit_color(letter),
            "cards": shown, "void": all(c["gone"] for c in shown)}


# --- the alternatives of each violation ------------------------------------------------------

def alternatives_views(record: dict[str, Any], index: int, violations: list[dict[str, Any]],
                       has_deal: bool, budget_key: str = "ANALYSIS_PAGE_BUDGET_S") -> list[dict[str, Any]]:
    """For each play a violation names (once per trick and seat), the engine's alternatives
    at that position, in rows for the page; the search time (the setting ``budget_key``:
    the page's ``ANALYSIS_PAGE_BUDGET_S``, a dispute pack's ``ANALYSIS_BUDGET_S``) is shared
    among them."""
    positions = list(dict.fromkeys((v["trick"], v["seat"]) for v in violations
                                   if isinstance(v["trick"], int) and isinstance(v["seat"], int)))
    if not has_deal or not positions:
        return []
    total = float(current_app.config.get(budget_key, 1.5))
    budget = max(MIN_BUDGET_S, total / len(positions))
    return [_alternatives(record, index, trick, seat, budget) for trick, seat in positions]


def _alternatives(record: dict[str, Any], index: int, trick: int, seat: int,
                  budget: float) -> dict[str, Any]:
    out: dict[str, Any] = {"trick": trick, "step": trick - 1, "seat": seat, "rows": [],
                           "error": None, "exact": True, "played": None}
    try:
        answer = analyse(record, index, trick - 1, seat, budget)
    except RecordError as e:
        out["error"] = translate_error(e)
        return out
    out["played"] = card_view(answer["played"])
    out["tricks_left"] = answer["tricks_left"]
    for alt in answer["alternatives"]:
        out["rows"].append({**alt, "view": card_view(alt["card"]),
                            "is_played": alt["card"] == answer["played"]})
    out["exact"] = all(alt["exact"] for alt in answer["alternatives"])
    return out


#: An outcome asked for in the hand page's address (``?use=``): the hand as played, or the
#: line after a card ("6-2-QS": trick 6, seat 2, the queen of spades).
USE = re.compile(r"^(?:played|([1-9][0-9]?)-([0-3])-([0-9AJQKT]{1,2}[SHDC]))$")


def use_link(uses: Sequence[str], token: str) -> str:
    """The hand page's address with one more outcome (``token``) to fill in."""
    kept = [u for u in uses if u != token][:2]
    return "?" + urlencode([("use", u) for u in [*kept, token]]) + "#outcomes"


def outcomes_from_analysis(record: dict[str, Any], index: int, uses: Sequence[str],
                           played: Sequence[int], budget_key: str = "ANALYSIS_PAGE_BUDGET_S"
                           ) -> tuple[list[dict[str, Any]], list[str]]:
    """The outcomes the page's address asks to fill in (RULES.md §3's weighted ruling, read
    off the analysis): ``played`` the hand as played (``played``: its points), a card the
    hand's line after it (:func:`app.rules.search.line.line_after`), at most three, in order.
    Returns the outcomes (label and four points, no share: the director weighs them) and
    what could not be filled in, in words."""
    total = float(current_app.config.get(budget_key, 1.5))
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    for token in list(dict.fromkeys(uses))[:3]:
        found = USE.match(token)
        if found is None:
            continue                                  # an address typed by hand: ignored
        if token == "played":
            out.append({"label": _("as played"), "points": list(played)})
            continue
        trick, seat, card = int(found[1]), int(found[2]), found[3]
        text = card_view(card)["text"]
        try:
            line = line_after(record, index, trick - 1, seat, card, max(MIN_BUDGET_S, total / 3))
        except RecordError:
            problems.append(_("%(card)s is not a card that player could play at trick %(n)s.",
                              card=text, n=trick))
            continue
        if line is None:
            problems.append(_("The line after %(card)s was not found in time: type its points.",
                              card=text))
            continue
        out.append({"label": _("with %(card)s", card=text), "points": line["points"]})
    return out, problems


__all__ = ["USE", "alternatives_views", "outcomes_from_analysis", "read_step", "step_label", "use_link",
           "viewer_view"]
