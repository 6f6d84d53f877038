"""Cards, suits and decks, as small integers and bit sets.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank`` with suits S, H, D, C (0-3) and
ranks 2..A (0-12), so that within a suit a higher card is a higher number. A set of cards
is an ``int`` bit set (bit ``card``). :class:`Card` is an ``int`` subclass that prints and
parses as the record's text (``Card.parse("QH")``, ``str(card) == "QH"``).
"""
from __future__ import annotations

from collections.abc import Iterator

from app.rules.errors import InputError

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
RANK_J, RANK_Q, RANK_K, RANK_A = 9, 10, 11, 12


class Card(int):
    """A card: an int 0-51 that prints as ``QH``."""

    __slots__ = ()

    @property
    def suit(self) -> int:
        return self // 13

    @property
    def rank(self) -> int:
        return self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANKS[self % 13] + SUITS[self // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def symbol(self) -> str:
        """``Q♥``, ``10♠``: the text players read."""
        rank = "10" if self % 13 == 8 else RANKS[self % 13]
        return rank + SUIT_SYMBOLS[self // 13]

    @classmethod
    def parse(cls, text: str) -> Card:
        card = CARD_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise InputError.of("", "card", '"%(text)s" is not a card', text=text)
        return card


ALL_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def _texts() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in ALL_CARDS:
        ranks = [RANKS[card.rank]] + (["10"] if card.rank == 8 else [])
        for rank in ranks:
            for suit in (SUITS[card.suit], SUIT_SYMBOLS[card.suit]):
                table[rank + suit] = card
    return table


#: Every accepted spelling (upper case) -> card: ``QH``, ``Q♥``, ``10H``, ``TH``.
CARD_BY_TEXT: dict[str, Card] = _texts()

SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52))
BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASK[HEARTS]


def rank_mask(rank: int) -> int:
    return sum(1 << (s * 13 + rank) for s in range(4))


KINGS_MASK = rank_mask(RANK_K)
QUEENS_MASK = rank_mask(RANK_Q)
JACKS_MASK = rank_mask(RANK_J)
KH = Card(HEARTS * 13 + RANK_K)
KH_BIT = 1 << KH

#: Cards of the same suit ranked above / below each card.
ABOVE: tuple[int, ...] = tuple(
    SUIT_MASK[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))
BELOW: tuple[int, ...] = tuple(
    SUIT_MASK[c // 13] & ((1 << c) - 1) for c in range(52))

DECK_52 = (1 << 52) - 1
DECK_32 = sum(1 << (s * 13 + r) for s in range(4) for r in range(5, 13))


def deck_mask(size: int) -> int:
    return DECK_32 if size == 32 else DECK_52


def suit_of_text(text: object) -> int | None:
    """``"S"``, ``"s"`` or ``"♠"`` -> 0; anything else -> None."""
    if not isinstance(text, str):
        return None
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    if len(t) == 1 and t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    return None


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit set, in canonical order: suits S H D C, high rank first."""
    out: list[Card] = []
    for suit in range(4):
        part = (mask >> (13 * suit)) & 0x1FFF
        for rank in range(12, -1, -1):
            if part >> rank & 1:
                out.append(ALL_CARDS[suit * 13 + rank])
    return out


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
