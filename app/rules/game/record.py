"""Reading the game record (RECORD.md) strictly: types, keys, seats, cards.

These helpers check the *shape* of values and return them canonical; what a value means in
its hand (the schedule, the auction, the sums) is checked by :mod:`app.rules.game.replay`, which
calls them while it replays the record, so that the first defect in record order is the one
reported.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.cards import ALL_CARDS, BIT, CARD_BY_TEXT, SUITS, suit_of_text
from app.rules.errors import InputError, Term

FORMAT = "kingsheet/1"
REPORT_FORMAT = "kingsheet-score/1"
TOP_KEYS = ("format", "profile", "options", "players", "hands")
HAND_KEYS = ("contract", "trump", "leader", "auction", "counts", "captures", "tricks", "deal",
             "ruling")
RULING_KEYS = ("kind", "seat", "points", "weights", "reason", "by", "at")
OUTCOME_KEYS = ("share", "points", "label")
RULING_KINDS = ("as-played", "replay", "charge-offender", "adjusted")


#: What a JSON value is, for messages (``must be a list, not text``): id -> English.
TYPE_NAMES = {"null": "null", "bool": "true/false", "number": "a number", "text": "text",
              "list": "a list", "object": "an object"}
#: What a value must be, for messages: id -> English (the web translates the ids).
WHAT = {
    "object": "an object", "list": "a list", "hand": "an object (one hand)",
    "names": "a list of four names", "calls": "a list of calls", "counts": "a list of four counts",
    "seats": "a list of two seats", "last-two": "a list of two seats (trick %(before)s then %(last)s)",
    "cards": "a list of cards", "card-lists": "four lists of cards",
    "points": "a list of four points", "tricks": "a list of tricks", "trick": "a list of four cards",
}


def type_name(value: object) -> Term:
    """What ``value`` is, as a word of a message (``null``, ``a number``, ``text`` ...)."""
    if value is None:
        tid = "null"
    elif isinstance(value, bool):
        tid = "bool"
    else:
        tid = {int: "number", float: "number", str: "text", list: "list",
               dict: "object"}.get(type(value), "")
        if not tid:
            return Term(type(value).__name__, "type", "other")
    return Term(TYPE_NAMES[tid], "type", tid)


def what_term(what: str, **params: object) -> Term:
    """A :data:`WHAT` id as a word of a message."""
    return Term(WHAT[what] % params if params else WHAT[what], "what", what)


def need_dict(value: object, fld: str, what: str = "object") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError.of(fld, "type", "must be %(what)s, not %(got)s",
                            what=what if isinstance(what, Term) else what_term(what),
                            got=type_name(value))
    return value


def need_list(value: object, fld: str, what: str = "list") -> list[Any]:
    if not isinstance(value, list):
        raise InputError.of(fld, "type", "must be %(what)s, not %(got)s",
                            what=what if isinstance(what, Term) else what_term(what),
                            got=type_name(value))
    return value


@dataclass(frozen=True)
class _NotWhole:
    """The errors for a value that is not a whole number: null, text, anything else."""

    null: Callable[[str], InputError]
    text: Callable[[str, str], InputError]
    other: Callable[[str, Term], InputError]

    def of(self, value: object, fld: str) -> InputError:
        if value is None:
            return self.null(fld)
        if isinstance(value, str):
            return self.text(fld, value)
        return self.other(fld, type_name(value))


_NOT_A_NUMBER = _NotWhole(
    lambda fld: InputError.of(fld, "type", "must be a whole number, not null"),
    lambda fld, text: InputError.of(fld, "type", "must be a whole number, not text %(value)r",
                                    value=text),
    lambda fld, got: InputError.of(fld, "type", "must be a whole number, not %(got)s", got=got))
_NOT_A_SEAT = _NotWhole(
    lambda fld: InputError.of(fld, "type", "a seat is a whole number 0-3, not null"),
    lambda fld, text: InputError.of(fld, "type", "a seat is a whole number 0-3, not text %(value)r",
                                    value=text),
    lambda fld, got: InputError.of(fld, "type", "a seat is a whole number 0-3, not %(got)s", got=got))


def need_int(value: object, fld: str, lo: int = 0, hi: int | None = None) -> int:
    if type(value) is not int:
        raise _NOT_A_NUMBER.of(value, fld)
    if value < lo or (hi is not None and value > hi):
        if hi is not None:
            raise InputError.of(fld, "range", "%(value)s is out of range (from %(lo)s to %(hi)s)",
                                value=value, lo=lo, hi=hi)
        raise InputError.of(fld, "range", "%(value)s is out of range (at least %(lo)s)",
                            value=value, lo=lo)
    return value


def need_seat(value: object, fld: str) -> int:
    if type(value) is not int:
        raise _NOT_A_SEAT.of(value, fld)
    if not 0 <= value <= 3:
        raise InputError.of(fld, "range", "%(value)s is not a seat (0-3)", value=value)
    return value


def need_str(value: object, fld: str, nonempty: bool = False) -> str:
    if not isinstance(value, str):
        raise InputError.of(fld, "type", "must be text, not %(got)s", got=type_name(value))
    if nonempty and not value.strip():
        raise InputError.of(fld, "empty", "must not be empty")
    return value


def check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
    if data.keys() <= _key_set(allowed):
        return
    for key in data:
        if key not in allowed:
            raise InputError.of(f"{prefix}{key}" if prefix else key, "unknown-key",
                                "unknown key (allowed: %(allowed)s)", allowed=", ".join(allowed))


_KEY_SETS: dict[tuple[str, ...], frozenset[str]] = {}


def _key_set(allowed: tuple[str, ...]) -> frozenset[str]:
    keys = _KEY_SETS.get(allowed)
    if keys is None:
        keys = _KEY_SETS[allowed] = frozenset(allowed)
    return keys


def parse_card(value: object, fld: str, deck: int, deck_size: int) -> int:
    """A card number from its text, in this deck; InputError naming ``fld`` otherwise."""
    if not isinstance(value, str):
        raise InputError.of(fld, "type", 'a card is text like "QH", not %(got)s',
                            got=type_name(value))
    card = CARD_BY_TEXT.get(value.upper())
    if card is None:
        raise InputError.of(fld, "card", '"%(text)s" is not a card', text=value)
    if not deck & BIT[card]:
        raise InputError.of(fld, "card", '"%(text)s" is not in the %(deck)s-card deck',
                            text=value, deck=deck_size)
    return int(card)


def _codes() -> dict[str, int]:
    """Every spelling in any letter case -> card number (the fast path of parsing)."""
    table: dict[str, int] = {}
    for text, card in CARD_BY_TEXT.items():
        variants = {""}
        for ch in text:
            variants = {v + x for v in variants for x in {ch, ch.lower()}}
        for v in variants:
            table[v] = int(card)
    return table


CARD_CODES = _codes()
#: Every spelling -> the card's bit (for building bit sets in one pass).
CARD_BITS: dict[str, int] = {text: 1 << card for text, card in CARD_CODES.items()}
#: Canonical text of each card number.
CANON: tuple[str, ...] = tuple(str(c) for c in ALL_CARDS)


def parse_cards(value: object, fld: str, deck: int, deck_size: int) -> list[int]:
    """A list of card texts -> card numbers; the first bad one raises naming ``fld[k]``."""
    items = need_list(value, fld, "cards")
    try:
        cards = [CARD_CODES[x] for x in items]
    except (KeyError, TypeError):
        return [parse_card(v, f"{fld}[{k}]", deck, deck_size) for k, v in enumerate(items)]
    if deck_size != 52:
        for k, c in enumerate(cards):
            if not deck & BIT[c]:
                parse_card(items[k], f"{fld}[{k}]", deck, deck_size)
    return cards


def card_text(card: int) -> str:
    return CANON[card]


def parse_suit(value: object, fld: str) -> int:
    suit = suit_of_text(value)
    if suit is None:
        raise InputError.of(fld, "suit", "%(value)r is not a suit (S, H, D or C)", value=value)
    return suit


def suit_text(suit: int) -> str:
    return SUITS[suit]
