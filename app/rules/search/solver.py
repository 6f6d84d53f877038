"""The search behind the analysis of a disputed play (ANALYSIS.md §2): the rest of a hand
played out by every line the referee allows, valued for one seat.

A :class:`Table` holds what one hand's search needs (the deal, the rules in force, what each
card and trick is worth to the seat); a :class:`Search` plays the hand out from a position
with alpha-beta: the seat maximises, the three others minimise (the paranoid value,
``guaranteed``), or all four maximise (``possible``). Values are *what is still to come*
for the seat: the score of a line is the score so far plus the value. Legality is the
engine's own (:func:`app.rules.referee.checks.judge_play`, asked only where the
:class:`~app.rules.referee.judge.Referee`'s masks say a rule may concern the play, as
:func:`app.rules.referee.play.play_out` asks it); tricks are won by
:func:`app.rules.referee.play.trick_winner`.

What makes it fast enough: bit sets for hands, a transposition table at each trick's start
keyed without the ranks' names (per suit, who holds each card still out from the highest
down and what kind of card it is; the leader; and the one piece of the past that still
moves a score: the owner's paid tricks under subastas' per-trick settlement), so that
positions differing only in which low cards already fell share their values; the history
heuristic (cards that cut a search off before are tried first), bounds from what is left
to win, and equivalent cards searched once (two cards of one suit in one hand, worth
the same, with no card still in play by another seat or on the table between them, lead to
the same values). A ``horizon`` stops the search at the start of a trick and values the
rest by its bound (the least the seat can score for ``guaranteed``, the most for
``possible``), which keeps the answer a sound bound.
"""
from __future__ import annotations

import time

from app.rules.cards import BIT, KH, SUIT_MASK, SUIT_OF
from app.rules.referee.play import trick_winner
from app.rules.search.search_table import (
    State,
    Table,
    card_at,
    card_classes,
    legal_mask,
    place_of,
    representatives,
)

INF = 1 << 40
#: Nodes between two looks at the clock, less one (a power of two, less one).
CLOCK_MASK = 4095


def _valued_cards(table: Table) -> int:
    """The cards whose capture scores for the seat; every card when tricks score (or pay)."""
    if table.trick_value or table.last_value or table.per_trick:
        return table.deck
    return sum(BIT[c] for c in range(52) if table.card_values[c]) & table.deck


def _key_classes(table: Table) -> tuple[int, ...]:
    """Per card, its class in the transposition key: its worth, whether it is the K♥, a
    penalty card, a scoring card (numbered in the order first met)."""
    classes: dict[tuple[int, bool, bool, bool], int] = {}
    return tuple(classes.setdefault(
        (table.card_values[c], c == KH, bool(table.rules.penalty_mask & BIT[c]),
         bool(table.scoring_mask & BIT[c])), len(classes)) for c in range(52))


def _bounds_learnt(lo: int, hi: int, a: int, b: int, value: int, best: int
                   ) -> tuple[int, int, int]:
    """The transposition entry after a search of the window [a, b] within the bounds
    [lo, hi] gave ``value``: an upper bound when it failed low, a lower bound when it failed
    high, else exact; with the best card's place."""
    if value <= a:
        return (lo, value, best)
    if value >= b:
        return (value, hi, best)
    return (value, value, best)


class OutOfTime(Exception):
    """The search's deadline passed (its partial work is dropped)."""


class Search:
    """One search mode over one hand: ``possible`` (all maximise) or the paranoid value."""

    def __init__(self, table: Table, possible: bool, horizon: int, deadline: float) -> None:
        self.table = table
        self.possible = possible
        self.horizon = horizon
        self.deadline = deadline
        #: trick start (cards played | leader << 52 | paid << 54) -> (lo, hi, best card)
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        #: a horizon stopped some line (the values are bounds, not exact)
        self.cut = False
        self._best = -1
        self.history = [[0] * 52 for _ in range(4)]
        #: per seat: whether it maximises, and the value its choice starts from (the worst)
        self._maximises = tuple(possible or seat == table.seat for seat in range(4))
        self._worst = tuple(-INF if maximise else INF for maximise in self._maximises)
        #: who chooses the card of each position in the trick (the last card: :meth:`_last`)
        self._plays = (self._turn, self._turn, self._turn, self._last)
        #: the cards whose capture scores; every card when tricks score (or pay)
        self._valued = _valued_cards(table)
        self._cls = _key_classes(table)
        self._suit_codes: dict[tuple[int, int, int, int], int] = {}
        self._patterns: dict[tuple[int, ...], int] = {}
        #: the hands' part of the key, by the hands themselves (searched again and again)
        self._hands_keys: dict[tuple[int, int, int, int], int] = {}

    # --- the tree -----------------------------------------------------------------------
    def value_after(self, state: State, card: int, lo: int, hi: int, guess: int) -> int:
        """The value (exact within the horizon) of the seat to play playing ``card``, known
        to lie in [lo, hi]: MTD(f), null-window probes from ``guess`` that narrow the
        bounds until they meet (the transposition table keeps what each probe learnt).
        ``state`` is left as it was, also when the deadline stops the search."""
        value = max(lo, min(hi, guess))
        while lo < hi:
            beta = value + 1 if value == lo else value
            work = State(list(state.hands), state.played, list(state.trick), state.k,
                         state.leader, state.paid)
            value = self.child(work, card, beta - 1, beta)
            if value < beta:
                hi = value
            else:
                lo = value
        return lo

    def trick_start(self, state: State, alpha: int, beta: int) -> int:
        """The value at the start of a trick: the transposition table, the bounds, then the
        leader's choices."""
        table = self.table
        played = state.played
        if self.settled(state):
            return 0
        if state.k == table.n_tricks - 1:
            return self._final(state)
        key = self._key(state.hands, state.leader, state.paid)
        entry = self.tt.get(key)
        if entry is None:
            lo, hi = table.rest_bounds(state.k, table.deck & ~played, state.paid)
            if state.k >= self.horizon:
                self.cut = True
                return hi if self.possible else lo
            first = -1
        else:
            lo, hi, first = entry
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if first >= 0:
            first = card_at(state.hands, first)
        a, b = max(alpha, lo), min(beta, hi)
        value = self._turn(state, a, b, first)
        self.tt[key] = _bounds_learnt(lo, hi, a, b, value, place_of(state.hands, self._best))
        return value

    def settled(self, state: State) -> bool:
        """Whether nothing is left to score: the hand is over (or ends early here), or no
        card left scores for the seat while tricks themselves do not."""
        table, played = self.table, state.played
        return (state.k >= table.n_tricks or not self._valued & ~played
                or (table.ends_early and played & table.scoring_mask == table.scoring_mask))

    def _final(self, state: State) -> int:
        """The last trick: every seat has one card left, so it plays itself."""
        self.nodes += 4
        hands, leader, values = state.hands, state.leader, self.table.card_values
        cards = [hands[(leader + i) & 3].bit_length() - 1 for i in range(4)]
        winner = (leader + trick_winner(cards, self.table.trump)) & 3
        worth = values[cards[0]] + values[cards[1]] + values[cards[2]] + values[cards[3]]
        return self.table.gain_of(state.k, winner, worth, state.paid)

    def _key(self, hands: list[int], leader: int, paid: int) -> int:
        """The transposition key of a trick start: the leader, the owner's paid tricks and,
        per suit, who holds each card still out from the highest down, with its class
        (worth, K♥, penalty card, scoring card). Two positions with the same key are the
        same game up to the ranks' names (tricks are won by rank order within a suit, and
        every rule reads ranks only through that order)."""
        held = (hands[0], hands[1], hands[2], hands[3])
        cards = self._hands_keys.get(held)
        if cards is None:
            h0, h1, h2, h3 = held
            codes = self._suit_codes
            cards = 0
            for sm in SUIT_MASK:
                t = (h0 & sm, h1 & sm, h2 & sm, h3 & sm)
                code = codes.get(t)
                if code is None:
                    code = codes[t] = self._suit_code(t)
                cards = cards << 32 | code
            self._hands_keys[held] = cards
        return cards << 8 | paid << 2 | leader

    def _suit_code(self, held: tuple[int, int, int, int]) -> int:
        rest = held[0] | held[1] | held[2] | held[3]
        pattern = []
        cls = self._cls
        while rest:
            c = rest.bit_length() - 1
            rest ^= 1 << c
            bit = 1 << c
            holder = 0 if held[0] & bit else 1 if held[1] & bit else 2 if held[2] & bit else 3
            pattern.append(holder << 8 | cls[c])
        return self._patterns.setdefault(tuple(pattern), len(self._patterns))

    def _turn(self, state: State, alpha: int, beta: int, first: int = -1) -> int:
        """The seat to play chooses among its (representative) legal cards (one of the
        trick's first three cards; the last is :meth:`_last`'s)."""
        pos = len(state.trick)
        seat = (state.leader + pos) & 3
        maximise = self._maximises[seat]
        cards = self.order(state, seat, first)
        best = self._worst[seat]
        best_card = cards[0]
        hands, trick, turn = state.hands, state.trick, self._plays[pos + 1]
        for card in cards:
            # the card played (as child, inlined: this is the search's busiest loop)
            self.nodes += 1
            if not self.nodes & CLOCK_MASK and time.perf_counter() > self.deadline:
                raise OutOfTime
            bit = BIT[card]
            hands[seat] ^= bit
            trick.append(card)
            v = turn(state, alpha, beta)
            trick.pop()
            hands[seat] |= bit
            if maximise:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
            if alpha >= beta:
                # the history heuristic: a card that cut off here is tried early elsewhere
                self.history[seat][card] += 1 << (self.table.n_tricks - state.k)
                break
        self._best = best_card
        return best

    def _last(self, state: State, alpha: int, beta: int) -> int:
        """The trick's last card: what each choice makes of the trick is known before it is
        played (the choices are tried best first); then the next trick from its winner."""
        seat = (state.leader + 3) & 3
        maximise = self._maximises[seat]
        table, hands = self.table, state.hands
        choices = self._last_choices(state, seat, maximise)
        played, leader, paid, trick = state.played, state.leader, state.paid, state.trick
        before = played | BIT[trick[0]] | BIT[trick[1]] | BIT[trick[2]]
        state.trick = []
        state.k += 1
        best = self._worst[seat]
        best_card = choices[0][2]
        for _, winner, card, gain in choices:
            self.nodes += 1
            if not self.nodes & CLOCK_MASK and time.perf_counter() > self.deadline:
                raise OutOfTime
            bit = BIT[card]
            hands[seat] ^= bit
            state.played = before | bit
            state.leader = winner
            state.paid = table.paid_after(winner, paid)
            v = gain + self.trick_start(state, alpha - gain, beta - gain)
            hands[seat] |= bit
            if maximise:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        state.played, state.leader, state.paid, state.trick = played, leader, paid, trick
        state.k -= 1
        self._best = best_card
        return best

    def _last_choices(self, state: State, seat: int, maximise: bool
                      ) -> list[tuple[int, int, int, int]]:
        """(order, winner, card, gain) of each choice for the trick's last card, best first."""
        table = self.table
        trump, values = table.trump, table.card_values
        c0, c1, c2 = state.trick
        top, pos, suit = c0, 0, SUIT_OF[c0]
        for i, c in ((1, c1), (2, c2)):
            s = SUIT_OF[c]
            if s == suit:
                if c > top:
                    top, pos = c, i
            elif s == trump:
                top, pos, suit = c, i, s
        holder = (state.leader + pos) & 3
        worth = values[c0] + values[c1] + values[c2]
        k, paid = state.k, state.paid
        out = []
        for c in representatives(table, state, legal_mask(table, state, seat), seat):
            s = SUIT_OF[c]
            winner = seat if (c > top if s == suit else s == trump) else holder
            gain = table.gain_of(k, winner, worth + values[c], paid)
            out.append((-gain if maximise else gain, winner, c, gain))
        out.sort()
        return out

    def child(self, state: State, card: int, alpha: int, beta: int) -> int:
        """Plays ``card`` for the seat to play, values what follows, takes it back."""
        self.nodes += 1
        if not self.nodes & CLOCK_MASK and time.perf_counter() > self.deadline:
            raise OutOfTime
        trick = state.trick
        seat = (state.leader + len(trick)) & 3
        bit = BIT[card]
        state.hands[seat] ^= bit
        trick.append(card)
        value = (self._trick_end(state, alpha, beta) if len(trick) == 4
                 else self._plays[len(trick)](state, alpha, beta))
        trick.pop()
        state.hands[seat] |= bit
        return value

    def _trick_end(self, state: State, alpha: int, beta: int) -> int:
        """A complete trick: its gain, then the next trick from its winner."""
        table, trick = self.table, state.trick
        winner = (state.leader + trick_winner(trick, table.trump)) & 3
        mask = BIT[trick[0]] | BIT[trick[1]] | BIT[trick[2]] | BIT[trick[3]]
        gain = table.trick_gain(state.k, winner, mask, state.paid)
        saved = (state.played, state.leader, state.paid)
        state.played |= mask
        state.k += 1
        state.leader = winner
        state.paid = table.paid_after(winner, state.paid)
        state.trick = []
        value = gain + self.trick_start(state, alpha - gain, beta - gain)
        state.played, state.leader, state.paid = saved
        state.k -= 1
        state.trick = trick
        return value

    # --- the moves ----------------------------------------------------------------------
    def order(self, state: State, seat: int, first: int) -> list[int]:
        """The seat's legal cards, one per class of equivalent cards, best guesses first: the
        table's best card, then by history (not the trick's last card: :meth:`_last`)."""
        table = self.table
        cards = representatives(table, state, legal_mask(table, state, seat), seat)
        if len(cards) < 2:
            return cards
        cards.sort(key=self.history[seat].__getitem__, reverse=True)
        if first in cards:
            cards.remove(first)
            cards.insert(0, first)
        return cards


__all__ = ["CLOCK_MASK", "INF", "OutOfTime", "Search", "State", "Table", "card_classes", "legal_mask",
           "representatives"]
