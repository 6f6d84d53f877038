"""Referee mode's writes and the values its address carries (RULES.md §2.3, §3).

The trick page's state travels in the address (setup, deal, plays), so a reload or a lost
connection loses nothing; the card and deal parsers here read it back. A finished hand is
scored by replaying the whole record (the sheet's own path), so what the page shows is
exactly what the sheet and ``kingsheet score`` will say. A played hand is scored and saved
as a :class:`app.games.entry.draft.HandDraft`; the ruling (:func:`apply_ruling`) goes through
:mod:`app.games.hands`, which checks the optimistic lock, replays the record before
writing and keeps the audit log.

What the pages say about a hand (violations, the trick grid, rule names) is presentation:
:mod:`app.games.referee.view` and :mod:`app.web.words`.
"""
from __future__ import annotations

import copy
from typing import Any

from sqlalchemy.orm import Session

from app.games import hands as hands_service
from app.games import queries
from app.games.entry.entry import Context
from app.games.entry.setup import Setup
from app.rules import RecordError
from app.rules.cards import BIT, Card
from app.rules.errors import InputError
from app.rules.game.entry_fields import chooser_deal_problem
from app.rules.game.record import RULING_KINDS
from app.rules.game.rulings import weighted_points


def parse_card(text: str) -> str:
    """Canonical code of a typed card (``kh``, ``10s``, ``Q♦``) or InputError."""
    return str(Card.parse(text))


def parse_card_list(text: str | None) -> list[str]:
    """``"AS,10h"`` -> ``["AS", "TH"]``; InputError naming the first bad item."""
    out = []
    for k, item in enumerate(t for t in (text or "").replace(" ", "").split(",") if t):
        try:
            out.append(parse_card(item))
        except InputError:
            raise InputError.of(f"[{k}]", "card", '"%(text)s" is not a card', text=item) from None
    return out


# --- the deal -----------------------------------------------------------------------------

def deal_from_params(values: Any) -> list[list[str]] | None:
    """The deal carried in the address (``deal0`` ... ``deal3``), or None. InputError."""
    keys = [f"deal{s}" for s in range(4)]
    if not any(values.get(k) for k in keys):
        return None
    deal = []
    for s, k in enumerate(keys):
        try:
            deal.append(parse_card_list(values.get(k)))
        except InputError as e:
            raise e.moved(f"deal{s}") from None
    return deal


def deal_problem(ctx: Context, deal: list[list[str]]) -> RecordError | None:
    """What the engine says against a deal of the hand ``ctx`` enters, beyond its cards
    (their number, the deck and repeats, which the page checks as the deal is tapped):
    rifki's hand 1 is dealt the 2♦ to its chooser. The error names the field ``deal``."""
    nxt = ctx.next
    if nxt is None:
        return None
    masks = [sum(BIT[Card.parse(c)] for c in cards) for cards in deal]
    return chooser_deal_problem(ctx.profile, nxt.number, nxt.chooser, masks, ctx.players,
                                "deal")


def deal_params(deal: list[list[str]] | None) -> dict[str, str]:
    if not deal:
        return {}
    return {f"deal{s}": ",".join(cards) for s, cards in enumerate(deal)}


# --- rulings ------------------------------------------------------------------------------

def build_ruling(kind: str, *, seat: int | None, points: list[int | None] | None,
                 reason: str | None, who: str, at: str, weights: list[dict[str, Any]] | None = None,
                 total: int | None = None) -> dict[str, Any] | None:
    """The record's ``ruling`` (RECORD.md) from the form's values; None for as-played. An
    adjusted ruling with ``weights`` (its outcomes, RULES.md §3) gets the weighted points
    of the outcomes as its points (``total``: the hand's total); the engine checks them."""
    if kind not in RULING_KINDS:
        raise RecordError.of("ruling.kind", "ruling", "%(kind)s is not a ruling", kind=repr(kind))
    ruling: dict[str, Any] = {"kind": kind}
    if kind == "charge-offender" and seat is not None:
        ruling["seat"] = seat
    if kind == "adjusted" and weights:
        ruling["weights"] = weights
        points = _weighted(weights, total or 0)
    if kind == "adjusted":
        if points is None or any(p is None for p in points):
            raise RecordError.of("ruling.points", "missing-key",
                                 "missing: the four adjusted points")
        ruling["points"] = list(points)
    reason = (reason or "").strip()
    if reason:
        ruling["reason"] = reason
    ruling["by"] = who
    ruling["at"] = at
    return ruling


def _weighted(weights: list[dict[str, Any]], total: int) -> list[int | None]:
    """A weighted ruling's points from its outcomes (RULES.md §3); an outcome missing its
    share or a point is named (the engine checks the rest)."""
    for k, w in enumerate(weights):
        if w.get("share") is None or any(p is None for p in w.get("points") or [None]):
            raise RecordError.of(f"ruling.weights[{k}]", "missing-key",
                                 "missing: an outcome has a share and four points")
    return list(weighted_points([(w["share"], w["points"]) for w in weights], total))


def hand_total(game: Any, index: int) -> int:
    """What hand row index+1's points add up to (a weighted ruling's points keep it)."""
    return int(queries.replay_game(game).hands[index].expected_total)


def apply_ruling(session: Session, game: Any, index: int, ruling: dict[str, Any] | None, *,
                 expected_version: int | None, who: str, reason: str | None = None) -> Any:
    """Records (or, with an as-played ruling, removes) the ruling on hand row index+1.

    An as-played ruling is kept when it carries a reason or a name, so "who said the hand
    stands, and why" is on the record too. The change is a hand correction: replayed
    first, audited, refused on a stale version.
    """
    hand = copy.deepcopy(game.hands[index])
    if ruling is None:
        hand.pop("ruling", None)
    else:
        hand["ruling"] = ruling
    return hands_service.replace_hand(session, game, index, hand,
                                      expected_version=expected_version, who=who, reason=reason)


__all__ = ["Setup", "apply_ruling", "build_ruling", "hand_total", "deal_from_params", "deal_params",
           "deal_problem", "parse_card", "parse_card_list"]

