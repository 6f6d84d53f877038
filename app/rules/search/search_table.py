"""What the analysis's search (:mod:`app.rules.search.solver`) reads: the constants of one hand's
search (:class:`Table`: the deal, the rules in force, what each card and trick is worth to
the seat), where the hand stands (:class:`State`), and the moves: the cards a seat may play
(the engine's judge, asked only where the referee's masks say a rule may concern the play)
and one card of each class of equivalent cards.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.cards import ABOVE, BELOW, BIT, KH, SUIT_MASK, SUIT_OF
from app.rules.referee.checks import PlayRules, judge_play
from app.rules.referee.judge import Referee


@dataclass(frozen=True, slots=True)
class Table:
    """The constants of one hand's search, for the seat ``seat``."""

    deal: tuple[int, ...]           # each seat's dealt cards (bit sets)
    deck: int                       # every card of the deck (bit set)
    rules: PlayRules
    referee: Referee
    trump: int                      # -1: none
    n_tricks: int
    seat: int
    card_values: tuple[int, ...]    # per card: what capturing it is worth (all elements)
    same_class: tuple[int, ...]     # per card: the cards worth the same (the K♥: none)
    trick_value: int                # per trick won
    last_value: int                 # per one of the last two tricks won
    ends_early: bool
    scoring_mask: int
    owner: int = -1                 # subastas' per-trick settlement: owner and buyer
    buyer: int = -1
    per_trick: int = 0              # what each of the owner's tricks moves, up to ``most``
    most: int = 0

    def trick_gain(self, k: int, winner: int, cards: int, paid: int) -> int:
        """What trick ``k`` (0-based) holding ``cards``, won by ``winner``, is worth to the
        seat, the owner having ``paid`` tricks settled before it."""
        worth = 0
        while cards:
            low = cards & -cards
            worth += self.card_values[low.bit_length() - 1]
            cards ^= low
        return self.gain_of(k, winner, worth, paid)

    def gain_of(self, k: int, winner: int, worth: int, paid: int) -> int:
        """:meth:`trick_gain` of a trick whose cards are ``worth`` that much together."""
        gain = 0
        if winner == self.seat:
            gain = self.trick_value + worth + (self.last_value if k >= self.n_tricks - 2 else 0)
        if winner == self.owner and self.per_trick and self.per_trick * paid < self.most:
            step = min(self.most, self.per_trick * (paid + 1)) - self.per_trick * paid
            gain += step if self.seat == self.owner else -step if self.seat == self.buyer else 0
        return gain

    def paid_after(self, winner: int, paid: int) -> int:
        """The owner's settled tricks after a trick won by ``winner`` (capped where the
        payment stops growing, so that equal futures share one key)."""
        if winner == self.owner and self.per_trick and self.per_trick * paid < self.most:
            return paid + 1
        return paid

    def rest_bounds(self, k: int, cards: int, paid: int) -> tuple[int, int]:
        """The least and the most the seat can still score from trick ``k`` on, ``cards``
        being every card not yet in a completed trick."""
        lo, hi = self.trick_bounds[k]
        for value, mask in self.value_masks:
            n = (cards & mask).bit_count()
            if value < 0:
                lo += value * n
            else:
                hi += value * n
        if self.per_trick and self.seat in (self.owner, self.buyer):
            left = max(0, self.most - self.per_trick * paid)
            room = min(left, self.per_trick * (self.n_tricks - k))
            lo, hi = (lo, hi + room) if self.seat == self.owner else (lo - room, hi)
        return lo, hi

    @property
    def trick_bounds(self) -> tuple[tuple[int, int], ...]:
        """Per trick index k: the least and the most the tricks from k on are worth."""
        return _trick_bounds(self.n_tricks, self.trick_value, self.last_value)

    @property
    def value_masks(self) -> tuple[tuple[int, int], ...]:
        """The cards of each non-zero worth: (worth, bit set)."""
        return _value_masks(self.card_values)


_TRICK_BOUNDS: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
_VALUE_MASKS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}


def _trick_bounds(n: int, trick_value: int, last_value: int) -> tuple[tuple[int, int], ...]:
    key = (n, trick_value, last_value)
    found = _TRICK_BOUNDS.get(key)
    if found is None:
        rows = []
        for k in range(n + 1):
            worths = [trick_value + (last_value if j >= n - 2 else 0) for j in range(k, n)]
            rows.append((sum(min(v, 0) for v in worths), sum(max(v, 0) for v in worths)))
        found = _TRICK_BOUNDS[key] = tuple(rows)
    return found


def _value_masks(card_values: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    found = _VALUE_MASKS.get(card_values)
    if found is None:
        masks: dict[int, int] = {}
        for c, v in enumerate(card_values):
            if v:
                masks[v] = masks.get(v, 0) | BIT[c]
        found = _VALUE_MASKS[card_values] = tuple(sorted(masks.items()))
    return found


@dataclass(slots=True)
class State:
    """Where a hand stands: the cards still held, those of completed tricks, the trick
    being played, its index and leader, the owner's settled tricks."""

    hands: list[int]
    played: int
    trick: list[int]
    k: int
    leader: int
    paid: int


def place_of(hands: list[int], card: int) -> int:
    """A card as its suit and how many cards of that suit still out rank above it."""
    out = (hands[0] | hands[1] | hands[2] | hands[3]) & ABOVE[card]
    return SUIT_OF[card] << 4 | out.bit_count()


def card_at(hands: list[int], place: int) -> int:
    """The card at a place of :func:`place_of` in these hands."""
    out = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[place >> 4]
    for _ in range(place & 15):
        out ^= 1 << (out.bit_length() - 1)
    return out.bit_length() - 1


def legal_mask(table: Table, state: State, seat: int) -> int:
    """The cards ``seat`` may play now (RULES.md §1, §3, §4): the engine's judge, asked only
    where the referee's masks say some rule may concern the play."""
    held = state.hands[seat]
    trick = state.trick
    referee = table.referee
    if not trick:
        need = held & referee.lead_mask
        candidates = held
    else:
        led = SUIT_OF[trick[0]]
        same = held & SUIT_MASK[led]
        if same:
            candidates, need = same, held & referee.follow_by_suit[led]
        else:
            candidates, need = held, held & referee.void_by_suit[led]
    if not need:
        return candidates
    legal = 0
    trick_no, broken = state.k + 1, state.played
    rules, trump = table.rules, table.trump
    rest = candidates
    while rest:
        low = rest & -rest
        rest ^= low
        if judge_play(rules, trump, trick_no, trick, low.bit_length() - 1, held, broken) is None:
            legal |= low
    return legal


def representatives(table: Table, state: State, legal: int, seat: int) -> list[int]:
    """One card of each class of equivalent legal cards (the highest): same suit, same
    worth, and no card between them still held by another seat or on the table."""
    if not legal & (legal - 1):
        return [legal.bit_length() - 1]
    hands = state.hands
    live = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
    for c in state.trick:
        live |= BIT[c]
    out = []
    same_class, below_of, above_of = table.same_class, BELOW, ABOVE
    while legal:
        card = legal.bit_length() - 1
        out.append(card)
        below = below_of[card]
        legal &= below | ~SUIT_MASK[SUIT_OF[card]]
        blockers = live & below
        if blockers:
            below &= above_of[blockers.bit_length() - 1]
        legal &= ~(below & same_class[card])
    return out


def card_classes(card_values: tuple[int, ...]) -> tuple[int, ...]:
    """Per card, the cards worth the same as it (the K♥, which some rules name, has none)."""
    by_value: dict[int, int] = {}
    for c, v in enumerate(card_values):
        if c != KH:
            by_value[v] = by_value.get(v, 0) | BIT[c]
    return tuple(0 if c == KH else by_value[v] for c, v in enumerate(card_values))
