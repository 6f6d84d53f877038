"""The analysis of a disputed play (ANALYSIS.md): what a seat could have made.

``analyse(record, hand, trick, seat)`` answers exactly the 200 of ``POST /api/v1/analysis``
(ANALYSIS.md §3): every card the referee allows the seat at that moment, and the card it
played, each with ``guaranteed`` (the most the seat makes sure of, the others playing
against it) and ``possible`` (the most it reaches, everyone playing for it), exact or, when
the search would run past its budget, sound bounds. A bad record or position raises a
:class:`~app.rules.errors.RecordError` whose field is that of ANALYSIS.md §3's 422 list
(``record``/``record.<path>``, ``hand``, ``trick``, ``seat``, checked in that order).

The score of a line is the score report's ``points[s] + payments[s]`` of that hand (the
ruling set aside): the contract's points plus a sale's payment, which under subastas'
``settlement: tricks`` moves with the owner's tricks. The search is :mod:`app.rules.search.solver`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from app.rules.cards import BIT, SUITS
from app.rules.errors import InputError, RecordError
from app.rules.game.record import CANON, CARD_BITS, need_int, need_seat
from app.rules.game.replay import load
from app.rules.game.results import GameResult, HandResult
from app.rules.limits import check_value
from app.rules.referee.judge import referee_for
from app.rules.referee.play import play_rules
from app.rules.referee.sale import bid_points, sale_terms
from app.rules.scoring import card_counts, hand_points
from app.rules.search.native import new_search
from app.rules.search.solver import INF, OutOfTime, State, Table, card_classes, legal_mask
from app.rules.search.solver import representatives as equivalent_classes

#: 52-card positions with at most this many tricks left are always solved exactly.
EXACT_TRICKS_52 = 7
#: The search time of one analysis (the API's ``ANALYSIS_BUDGET_S``, the command line's):
#: ANALYSIS.md §2 answers every request within 10 s, and this leaves half a second for
#: reading the record and writing the answer.
BUDGET_S = 9.5
#: Of the budget, what an exact search may use before it falls back to bounds (at 9.5 s,
#: 8.55 s). In Python (solver.Search) the hardest ru32 positions of ``bench/solver.py`` took
#: 11-14 s even with the ``possible`` probes below started from ``guaranteed``, so the
#: analysis runs the compiled port of that search (native.py, _core.c: the same nodes, some
#: 25 times as many per second), which answers them in about half a second.
EXACT_SHARE = 0.9


@dataclass(slots=True)
class Position:
    """A position of ANALYSIS.md §1 made ready for the search."""

    table: Table
    state: State
    played: int                     # the card the seat played there
    base: int                       # the seat's score so far (points and payment)
    tricks_left: int


class _Missing:
    """A key the request left out (refused on that key, in ANALYSIS.md §3's order)."""

    def __repr__(self) -> str:
        return "MISSING"


#: Pass it for a key a request (or command line) did not give.
MISSING: Any = _Missing()


def analyse(record: object, hand: object, trick: object, seat: object,
            budget_s: float = BUDGET_S) -> dict[str, Any]:
    """The answer of ANALYSIS.md §3 for the position (record, hand, trick, seat); any of
    them may be :data:`MISSING`."""
    start = time.perf_counter()
    _, index, t, s, position = _read_position(record, hand, trick, seat)
    alternatives = solve(position, start + budget_s)
    return {"hand": index, "trick": t, "seat": s, "played": CANON[position.played],
            "tricks_left": position.tricks_left, "alternatives": alternatives}


def analyse_request(body: object, budget_s: float = BUDGET_S) -> dict[str, Any]:
    """:func:`analyse` of a request body ``{"record", "hand", "trick", "seat"}`` (other keys
    are ignored); a body that is not an object lacks every key."""
    data: dict[str, Any] = body if isinstance(body, dict) else {}
    return analyse(data.get("record", MISSING), data.get("hand", MISSING),
                   data.get("trick", MISSING), data.get("seat", MISSING), budget_s)


def _read_position(record: object, hand: object, trick: object, seat: object
                   ) -> tuple[HandResult, int, int, int, Position]:
    """(the hand, its index, the trick, the seat, the position) of a request, or the first
    refusal in ANALYSIS.md §3's order."""
    result = _read_record(record)
    h, index = _read_hand(result, hand)
    if trick is MISSING:
        raise InputError.of("trick", "missing-key", "missing: a whole number")
    t = need_int(trick, "trick", 0, len(h.trick_cards) - 1)
    if seat is MISSING:
        raise InputError.of("seat", "missing-key", "missing: a seat (0-3)")
    s = need_seat(seat, "seat")
    return h, index, t, s, build_position(result, h, t, s)


def _read_record(record: object) -> GameResult:
    """The record replayed; its first defect as a 422 on ``record`` or ``record.<path>``."""
    if record is MISSING:
        raise InputError.of("record", "missing-key", "missing: the game record (RECORD.md)")
    try:
        check_value(record, "record")
        return load(record)
    except RecordError as e:
        field = e.field
        if field == "record" or field.startswith("record."):
            raise
        raise e.moved(f"record.{field}" if field else "record") from None


def _read_hand(result: GameResult, hand: object) -> tuple[HandResult, int]:
    """The hand at index ``hand``, entered trick by trick with its deal."""
    if hand is MISSING:
        raise InputError.of("hand", "missing-key", "missing: a whole number")
    need_int(hand, "hand")
    assert isinstance(hand, int)
    if not result.hands:
        raise InputError.of("hand", "range", "%(value)s is out of range (the record has no hands)",
                            value=hand)
    need_int(hand, "hand", 0, len(result.hands) - 1)
    h = result.hands[hand]
    if h.mode != "tricks" or h.deal_order is None:
        raise InputError.of("hand", "no-deal", "hand %(n)s was not entered trick by trick with "
                            "its deal: there is nothing to analyse", n=hand + 1)
    return h, hand


def build_position(result: GameResult, h: HandResult, t: int, s: int) -> Position:
    """The state just before seat ``s`` plays in trick ``t`` of hand ``h`` (ANALYSIS.md §1)."""
    profile, contract = result.profile, h.contract
    table = _table(result, h, s)
    before, captured, tricks_won, last_two = _tricks_before(h, t, profile.n_tricks)
    leader = h.trick_leaders[t]
    pos = (s - leader) & 3
    current = list(h.trick_cards[t][:pos])
    hands = _hands_now(table.deal, before, leader, current)
    counts = card_counts(contract, captured)
    counts.update(tricks=tricks_won, last_two=last_two)
    paid, payment = _paid(table, h, tricks_won)
    state = State(hands, before, current, t, leader, paid)
    return Position(table, state, h.trick_cards[t][pos],
                    hand_points(contract, counts)[s] + payment, profile.n_tricks - t)


def _table(result: GameResult, h: HandResult, s: int) -> Table:
    """The constants of the hand's search, seen by seat ``s``."""
    profile, contract = result.profile, h.contract
    trump = SUITS.index(h.trump) if h.trump else -1
    rules = play_rules(profile, result.options, contract)
    deal = tuple(sum(CARD_BITS[c] for c in cards) for cards in h.deal_order or ())
    values = tuple(sum(v for e, m in contract.card_elements if BIT[c] & m
                       for v in (contract.values[e],)) for c in range(52))
    settle = _settlement(result, h)
    return Table(deal, profile.deck, rules, referee_for(rules, trump), trump, profile.n_tricks, s, values,
                 card_classes(values), contract.values.get("tricks", 0),
                 contract.values.get("last_two", 0), contract.ends_early, contract.scoring_mask,
                 *settle)


def _tricks_before(h: HandResult, t: int, n_tricks: int
                   ) -> tuple[int, list[int], list[int], list[int]]:
    """The cards of the tricks before trick ``t``, and per seat the cards captured, the
    tricks won and the last two tricks won in them."""
    before, captured, tricks_won = 0, [0, 0, 0, 0], [0, 0, 0, 0]
    last_two = [0, 0, 0, 0]
    for k in range(t):
        mask = sum(BIT[c] for c in h.trick_cards[k])
        winner = h.trick_winners[k]
        before |= mask
        captured[winner] |= mask
        tricks_won[winner] += 1
        last_two[winner] += k >= n_tricks - 2
    return before, captured, tricks_won, last_two


def _hands_now(deal: tuple[int, ...], before: int, leader: int, current: list[int]) -> list[int]:
    """Each seat's cards: its deal less the tricks before and its card in the current trick."""
    hands = [deal[seat] & ~before for seat in range(4)]
    for k, card in enumerate(current):
        hands[(leader + k) & 3] &= ~BIT[card]
    return hands


def _settlement(result: GameResult, h: HandResult) -> tuple[int, int, int, int]:
    """Owner, buyer, per-trick payment and its ceiling of a sale settled by the owner's
    tricks (subastas, ``settlement: tricks``); -1, -1, 0, 0 otherwise."""
    if h.bid is None or h.declarer is None or h.owner is None:
        return -1, -1, 0, 0
    terms = sale_terms(result.profile, result.options, h.bid)
    if not terms.per_trick:
        return -1, -1, 0, 0
    return h.owner, h.declarer, terms.per_trick, terms.most


def _paid(table: Table, h: HandResult, tricks_won: list[int]) -> tuple[int, int]:
    """The owner's settled tricks so far and the seat's payment so far."""
    s = table.seat
    if table.per_trick:
        owner_tricks = tricks_won[table.owner]
        paid = min(owner_tricks, -(-table.most // table.per_trick))
        pay = min(table.most, table.per_trick * owner_tricks)
        return paid, pay if s == table.owner else -pay if s == table.buyer else 0
    if h.bid is None or h.declarer is None or h.owner is None:
        return 0, 0
    most = bid_points(h.bid)          # a sale settled by its bid (sale.sale_of)
    return 0, most if s == h.owner else -most if s == h.declarer else 0


# --- the search over the alternatives ------------------------------------------------------

def solve(position: Position, deadline: float) -> list[dict[str, Any]]:
    """Every alternative with its values, sorted as ANALYSIS.md §3 says."""
    table, state = position.table, position.state
    legal = legal_mask(table, state, table.seat)
    # one search per class of equivalent legal cards, and one for an illegal played card
    classes: dict[int, int] = {}
    rest = legal
    for rep in equivalent_classes(table, state, legal, table.seat):
        members = _members(table, state, rest, rep)
        rest &= ~members
        classes[rep] = members
    if not legal & BIT[position.played]:
        classes[position.played] = BIT[position.played]
    values = _values(position, list(classes), deadline)
    rows: list[tuple[int, int, int, int, bool]] = []
    for rep, members in classes.items():
        g, p, exact = values[rep]
        rows += [(position.base + g, position.base + p, card, -(card % 13), exact)
                 for card in _cards(members)]
    rows.sort(key=lambda r: (-r[0], -r[1], r[2] // 13, r[3]))
    return [{"card": CANON[card], "legal": bool(legal & BIT[card]), "guaranteed": g,
             "possible": p, "exact": exact} for g, p, card, _, exact in rows]


def _members(table: Table, state: State, legal: int, rep: int) -> int:
    """The legal cards equivalent to ``rep`` (``rep`` included)."""
    members = BIT[rep]
    for card in _cards(legal & ~BIT[rep]):
        if equivalent_classes(table, state, BIT[rep] | BIT[card], table.seat) == [max(rep, card)]:
            members |= BIT[card]
    return members


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask & BIT[c]]


def _values(position: Position, cards: list[int], deadline: float
            ) -> dict[int, tuple[int, int, bool]]:
    """Per card: guaranteed and possible (relative to the score so far) and whether both are
    exact. An exact search first where ANALYSIS.md §2 requires it; otherwise, or when it runs
    out of time, deeper and deeper horizons, keeping the deepest values found."""
    table, state = position.table, position.state
    start = time.perf_counter()
    found = {c: _static(table, state) for c in cards}
    required = table.n_tricks == 8 or position.tricks_left <= EXACT_TRICKS_52
    if required:
        cutoff = start + EXACT_SHARE * (deadline - start)
        if _at_horizon(table, state, cards, table.n_tricks, cutoff, found):
            return found
    for horizon in range(state.k + 1, table.n_tricks + 1):
        if not _at_horizon(table, state, cards, horizon, deadline, found):
            break
        if all(exact for _, _, exact in found.values()):
            break
    return found


def _static(table: Table, state: State) -> tuple[int, int, bool]:
    """Bounds without a search: the least and the most the seat can still score."""
    rest = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    for c in state.trick:
        rest |= BIT[c]
    lo, hi = table.rest_bounds(state.k, rest, state.paid)
    return lo, hi, lo == hi


def _at_horizon(table: Table, state: State, cards: list[int], horizon: int, deadline: float,
                found: dict[int, tuple[int, int, bool]]) -> bool:
    """Every card searched up to ``horizon`` (into ``found``, card by card); False when the
    deadline passed first."""
    guaranteed = new_search(table, False, horizon, deadline)
    possible = new_search(table, True, horizon, deadline)
    guess: int | None = None
    for card in cards:
        if found[card][2]:
            continue
        # the flags are not reset per card: a value kept in the shared table from a line a
        # horizon stopped is itself a bound, so once anything was cut no later card of this
        # horizon is exact either
        lo, hi, _ = found[card]
        try:
            g = guaranteed.value_after(state, card, lo, hi, hi if guess is None else guess)
            p = possible.value_after(state, card, g, hi, g)
            guess = g
        except OutOfTime:
            return False
        exact = not guaranteed.cut and not possible.cut
        old_g, old_p, _ = found[card]
        found[card] = (max(g, old_g), min(p, old_p), exact)
    return True


__all__ = ["BUDGET_S", "INF", "MISSING", "Position", "analyse", "analyse_request", "build_position", "solve"]
