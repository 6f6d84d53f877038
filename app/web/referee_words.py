"""The referee's words for people (issue 11.4): each rule's name, what it asks of a player and
the sentence for breaking it, the ruling kinds, how a seat confirmed, the evidence of a
violation and why a hand ended early. Part of the words of :mod:`app.web.words` (which
keeps the cards, numbers, names, the auction's calls and dates), registered for the
templates by :func:`init_referee_words`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from app.rules.game.record import RULING_KINDS
from app.rules.referee.play import RULE_IDS, rule_sentence
from app.web.words import _, bid_words, card_face, card_view

# --- the referee's rules and rulings -------------------------------------------------------

#: Every rule id of the referee, named as players say them.
RULE_NAMES = {
    "follow-suit": _l("Follow suit"),
    "hearts-lead": _l("Leading hearts"),
    "hearts-first-trick": _l("Heart in the first trick"),
    "kh-lead": _l("Leading the K♥"),
    "kh-discard": _l("Forced K♥ discard"),
    "kh-first-trick": _l("K♥ in the first trick"),
    "must-trump": _l("Must trump"),
    "must-overtrump": _l("Must overtrump"),
    "must-head-trump": _l("Must head a trump lead"),
    "penalty-discard": _l("Penalty card discard"),
    "penalty-drop": _l("Penalty card drop"),
    "must-overtake": _l("Must win the trick"),
    "trump-lead": _l("Leading trumps"),
}

#: What each rule asks of a player, in one sentence (shown next to a card it forbids).
RULE_DEMANDS = {
    "follow-suit": _l("A player holding a card of the suit led must play one."),
    "hearts-lead": _l("No heart may be led while the leader holds another suit."),
    "hearts-first-trick": _l("In the first trick a void player may not discard a heart "
                             "while holding another suit."),
    "kh-lead": _l("The K♥ may not be led unless it is the player's last card."),
    "kh-discard": _l("A player void in the suit led who holds the K♥ must play it."),
    "kh-first-trick": _l("In the first trick the K♥ may be played only to follow hearts."),
    "must-trump": _l("A player void in the suit led must play a trump."),
    "must-overtrump": _l("A void player must beat the trump on the table when able."),
    "must-head-trump": _l("On a trump lead, a player with a higher trump must play one."),
    "penalty-discard": _l("A player void in the suit led must play a penalty card of this "
                          "hand."),
    "penalty-drop": _l("A penalty card below the highest card of its suit on the table must "
                       "be dropped."),
    "must-overtake": _l("A player who can win the trick with the suit led must do so."),
    "trump-lead": _l("No trump may be led before trumps are broken while the leader holds "
                     "another suit."),
}

#: The ruling kinds of RECORD.md, in the order the forms offer them.
RULING_LABELS = {
    "as-played": _l("as played"),
    "replay": _l("replay the hand"),
    "charge-offender": _l("charge the offender"),
    "adjusted": _l("adjusted points"),
}
assert set(RULE_NAMES) == set(RULE_IDS) == set(RULE_DEMANDS)
assert tuple(RULING_LABELS) == RULING_KINDS


def rule_name(rule: str) -> str:
    return str(RULE_NAMES.get(rule, rule))


def rule_demand(rule: str) -> str:
    return str(RULE_DEMANDS.get(rule, ""))


def rule_broken(rule: str) -> str:
    """What a player who broke the rule did: the engine's own sentence, through the catalog."""
    try:
        return _(rule_sentence(rule))
    except KeyError:
        return rule


def confirmation_way(method: Any) -> str:
    """How a seat was confirmed (a ConfirmMethod or its value), as the log and the table
    page say it."""
    value = getattr(method, "value", method)
    if value == "account":
        text = _("from their account")
    elif value == "director":
        text = _("vouched for by a director")
    else:
        text = _("with the seat's PIN")
    return Markup(text)     # catalog text, written as the templates' own _() writes it


def ruling_label(kind: str | None) -> str:
    return str(RULING_LABELS.get(kind or "as-played", kind))


def _get(v: Any, key: str) -> Any:
    return v.get(key) if isinstance(v, Mapping) else getattr(v, key, None)


def evidence_text(item: str) -> str:
    """``"9S@6"`` -> "9♠ played at trick 6"; ``"9S@deal"`` -> "9♠ in the deal"."""
    code, _sep, where = item.partition("@")
    try:
        shown = card_face(code)
    except Exception:  # noqa: BLE001 - shown as written
        shown = code
    if where == "deal":
        return _("%(card)s in the deal", card=shown)
    return _("%(card)s played at trick %(t)s", card=shown, t=where)


def violation_row(v: Any, players: Sequence[str]) -> dict[str, Any]:
    """One violation (the engine's, or its plain dict) in the page's language."""
    seat, rule, card = _get(v, "seat"), str(_get(v, "rule")), str(_get(v, "card") or "")
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(seat)
    raw_evidence = list(_get(v, "evidence") or ())
    evidence = [evidence_text(e) for e in raw_evidence]
    shown = card_face(card) if card else ""
    sentence = _("%(name)s %(did)s at trick %(t)s: played %(card)s, holding %(proof)s.",
                 name=name, did=rule_broken(rule), t=_get(v, "trick"),
                 card=shown, proof=", ".join(evidence))
    return {"trick": _get(v, "trick"), "seat": seat, "player": name, "card": card,
            "card_view": card_view(card) if card else None, "rule": rule,
            "rule_name": rule_name(rule), "demand": rule_demand(rule), "evidence": evidence,
            "raw_evidence": raw_evidence, "sentence": sentence}


def explanation_text(explanation: Any) -> str:
    """Something the engine explains (:class:`app.rules.game.results.Explanation`: an English
    template, a msgid of the catalogs, and its params) in the page's language; a ``cards``
    param is printed as the cards' faces."""
    params = dict(explanation.params)
    cards = params.get("cards")
    if isinstance(cards, tuple):
        params["cards"] = " ".join(card_face(c) for c in cards)
    if isinstance(params.get("bid"), str):
        params["bid"] = bid_words(params["bid"])      # "−2", the minus sign (issue 27.11)
    return _(explanation.template, **params)


def early_end_text(contract: Any, trick_no: int) -> str:
    """Why a hand ended before its last trick, as players say it."""
    scored = [e for e in ("hearts", "kings", "queens", "jacks", "kh") if contract.values.get(e)]
    why = {("hearts",): _("the last heart is taken"), ("queens",): _("the last queen is taken"),
           ("kings",): _("the last king is taken"),
           ("kings", "jacks"): _("the last king and the last jack are taken"),
           ("kh",): _("the K♥ is taken")}.get(tuple(scored), _("every scoring card is taken"))
    return _("Hand over after trick %(t)s: %(why)s.", t=trick_no, why=why)


def init_referee_words(app: Flask) -> None:
    """The referee's words as globals of every template (pages and PDFs)."""
    app.jinja_env.globals.update(rule_name=rule_name, ruling_label=ruling_label,
                                 confirmation_way=confirmation_way, violation_text=violation_row,
                                 evidence_text=evidence_text, explanation_text=explanation_text)
