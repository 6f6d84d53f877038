"""Reading the game record (RECORD.md) strictly: types, keys, seats, cards.

These helpers check the *shape* of values and return them canonical; what a value means in
its hand (the schedule, the auction, the sums) is checked by :mod:`app.rules.game`, which
calls them while it replays the record, so that the first defect in record order is the one
reported.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.cards import ALL_CARDS, BIT, CARD_BY_TEXT, SUITS, suit_of_text
from app.rules.errors import InputError

FORMAT = "kingsheet/1"
REPORT_FORMAT = "kingsheet-score/1"
TOP_KEYS = ("format", "profile", "options", "players", "hands")
HAND_KEYS = ("contract", "trump", "leader", "auction", "counts", "captures", "tricks", "deal",
             "ruling")
RULING_KEYS = ("kind", "seat", "points", "reason", "by", "at")
RULING_KINDS = ("as-played", "replay", "charge-offender", "adjusted")


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def need_dict(value: object, fld: str, what: str = "an object") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(fld, f"must be {what}, not {type_name(value)}", "type")
    return value


def need_list(value: object, fld: str, what: str = "a list") -> list[Any]:
    if not isinstance(value, list):
        raise InputError(fld, f"must be {what}, not {type_name(value)}", "type")
    return value


def need_int(value: object, fld: str, lo: int = 0, hi: int | None = None) -> int:
    if type(value) is not int:
        raise InputError(fld, f"must be a whole number, not {type_name(value)}"
                         + (f" {value!r}" if isinstance(value, str) else ""), "type")
    if value < lo or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise InputError(fld, f"{value} is out of range ({span})", "range")
    return value


def need_seat(value: object, fld: str) -> int:
    if type(value) is not int:
        raise InputError(fld, f"a seat is a whole number 0-3, not {type_name(value)}"
                         + (f" {value!r}" if isinstance(value, str) else ""), "type")
    if not 0 <= value <= 3:
        raise InputError(fld, f"{value} is not a seat (0-3)", "range")
    return value


def need_str(value: object, fld: str, nonempty: bool = False) -> str:
    if not isinstance(value, str):
        raise InputError(fld, f"must be text, not {type_name(value)}", "type")
    if nonempty and not value.strip():
        raise InputError(fld, "must not be empty", "empty")
    return value


def check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in allowed:
            raise InputError(f"{prefix}{key}" if prefix else key,
                             f"unknown key (allowed: {', '.join(allowed)})", "unknown-key")


def parse_card(value: object, fld: str, deck: int, deck_size: int) -> int:
    """A card number from its text, in this deck; InputError naming ``fld`` otherwise."""
    if not isinstance(value, str):
        raise InputError(fld, f'a card is text like "QH", not {type_name(value)}', "type")
    card = CARD_BY_TEXT.get(value.upper())
    if card is None:
        raise InputError(fld, f'"{value}" is not a card', "card")
    if not deck & BIT[card]:
        raise InputError(fld, f'"{value}" is not in the {deck_size}-card deck', "card")
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
    items = need_list(value, fld, "a list of cards")
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
        raise InputError(fld, f"{value!r} is not a suit (S, H, D or C)", "suit")
    return suit


def suit_text(suit: int) -> str:
    return SUITS[suit]
