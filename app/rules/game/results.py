"""What a replay gives: the result of each hand and of the game, the record as read.

Values only (frozen dataclasses): :class:`HandResult`, :class:`GameResult`, :class:`Record`,
:class:`NextHand`, :class:`Ruling`; and :func:`canonical_hand`, one hand's canonical JSON.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.rules.cards import BIT, Card, cards_of
from app.rules.game.record import CANON, CARD_CODES
from app.rules.profiles import Contract, Options, Profile
from app.rules.quota import Quota
from app.rules.referee.play import Violation, turn_order
from app.rules.referee.sale import sale_terms


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of a weighted ruling (RULES.md §3): its share in percent, the four points
    it gives and, optionally, a label (``with QS``)."""

    share: int
    points: tuple[int, ...]
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    kind: str = "as-played"
    seat: int | None = None
    points: tuple[int, ...] | None = None
    reason: str | None = None
    by: str | None = None
    at: str | None = None
    #: the outcomes of a weighted adjusted ruling (``points`` are their weighted points)
    weights: tuple[Outcome, ...] | None = None


#: The default ruling, shared (a value: nothing changes it).
AS_PLAYED = Ruling()


#: The template of :attr:`HandResult.early_end` (``cards`` printed as symbols, spaced).
EARLY_END = "every scoring card has been taken (the last, %(cards)s, at trick %(trick)s)"
#: The templates of :meth:`GameResult.payment_note` (RULES.md 1.3 "Settlement").
PAYMENT_PER_TRICK = ("%(buyer)s bought at %(bid)s: %(per)s for each trick %(owner)s took "
                     "(%(tricks)s), up to %(most)s; %(buyer)s pays %(owner)s %(paid)s")
PAYMENT_BID = "%(buyer)s bought at %(bid)s: %(buyer)s pays %(owner)s the whole bid, %(paid)s"
#: Every template of an :class:`Explanation` (each is a msgid of the app's catalogs).
EXPLANATIONS = (EARLY_END, PAYMENT_PER_TRICK, PAYMENT_BID)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Something the engine explains (not an error): a stable ``code``, an English
    ``template`` with named placeholders and the ``params`` that fill it. A card param is
    a tuple of canonical card texts; :attr:`message` prints them as symbols."""

    code: str
    template: str
    params: Mapping[str, object]

    @property
    def message(self) -> str:
        params = dict(self.params)
        cards = params.get("cards")
        if isinstance(cards, tuple):
            params["cards"] = " ".join(Card.parse(c).symbol for c in cards)
        return self.template % params

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand replayed: a value, built once when the hand is read (never changed)."""

    index: int
    number: int
    contract: Contract
    trump: str | None
    dealer: int | None
    owner: int | None
    chooser: int | None
    declarer: int | None
    leader: int | None
    bid: str | None
    auction: tuple[str, ...]
    mode: str
    played_points: tuple[int, ...]      # as played, before any ruling
    points: tuple[int, ...]             # after the ruling
    payments: tuple[int, ...]
    total: int
    expected_total: int
    counted: bool
    ruling: Ruling
    # per element, per seat (as entered or derived); read it, never change it
    counts: Mapping[str, Sequence[int]]
    running_totals: tuple[int, ...]
    # A hand entered as counts keeps the shared empty tuples: it builds nothing it does not use.
    trick_cards: tuple[Sequence[int], ...] = ()   # as played, card numbers
    trick_winners: tuple[int, ...] = ()
    trick_leaders: tuple[int, ...] = ()
    tricks_played: int = 0
    ended_early: bool = False
    captured_masks: tuple[int, ...] | None = None   # scoring cards each seat took (bit sets)
    deal_order: tuple[Sequence[str], ...] | None = None  # the deal as entered (checked card texts)
    entry: Any = None                                # the canonical counts / captures entry
    made_king: bool = False
    violations: tuple[Violation, ...] = ()

    @property
    def tricks(self) -> list[list[str]]:
        return [[CANON[c] for c in trick] for trick in self.trick_cards]

    @property
    def captured(self) -> list[list[str]] | None:
        if self.captured_masks is None:
            return None
        return [[CANON[c] for c in cards_of(m)] for m in self.captured_masks]

    @property
    def deal(self) -> list[list[str]] | None:
        if self.deal_order is None:
            return None
        return [[CANON[CARD_CODES[c]] for c in cards] for cards in self.deal_order]

    @property
    def trick_seats(self) -> tuple[tuple[int, ...], ...]:
        """For each trick, the seat that played each card, in card order (the leader first)."""
        return tuple(turn_order(lead)[:len(trick)]
                     for lead, trick in zip(self.trick_leaders, self.trick_cards, strict=False))

    @property
    def king_seat(self) -> int | None:
        """The seat that made a King (took every trick of a trump hand), or None."""
        if not self.made_king:
            return None
        tricks = list(self.counts["tricks"])
        return tricks.index(max(tricks))

    @property
    def early_end(self) -> Explanation | None:
        """Why a hand entered as tricks stopped before its last trick: code ``early-end``,
        params ``cards`` (the last scoring cards taken, canonical texts) and ``trick``."""
        if not self.ended_early:
            return None
        last = cards_of(_mask(self.trick_cards[-1]) & self.contract.scoring_mask)
        return Explanation("early-end", EARLY_END, MappingProxyType(
            {"cards": tuple(CANON[c] for c in last), "trick": len(self.trick_cards)}))

    @property
    def early_end_reason(self) -> str | None:
        """Why a hand entered as tricks stopped before its last trick (English; kept for
        callers: :attr:`early_end` is the same as a code and params)."""
        early_end = self.early_end
        return None if early_end is None else early_end.message

    @property
    def check(self) -> int:
        """The hand's check: its total minus the expected total (0 when it adds up)."""
        return self.total - self.expected_total


@dataclass(frozen=True, slots=True)
class NextHand:
    number: int
    contract: str | None
    dealer: int | None
    owner: int | None
    chooser: int | None
    leader: int | None
    fiesta: bool


@dataclass(frozen=True, slots=True)
class Record:
    """A record read and checked: its header and its hands as given (the canonical JSON value
    is :meth:`GameResult.canonical_record`, which knows the hands replayed)."""

    profile: Profile
    options: Options
    players: tuple[str, ...]
    first_seat: int
    header: Mapping[str, Any]
    raw_hands: tuple[Any, ...]

    def raw_data(self) -> dict[str, Any]:
        return {**self.header, "hands": list(self.raw_hands)}


@dataclass(frozen=True, slots=True)
class GameState:
    """A game builder's state after some hands, frozen (``GameBuilder.snapshot()``); a new
    builder resumes from it (``GameBuilder.resume(state)``) without replaying the hands."""

    profile: Profile
    options: Options
    players: tuple[str, ...]
    first_seat: int
    number: int                        # schedule number of the next hand
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    expected_sum: int
    replays: int                       # replay rulings of the next hand so far
    contract_count: Mapping[str, int]
    seat_penalties: tuple[int, ...]
    seat_koz: tuple[int, ...]

    @property
    def index(self) -> int:
        """The record index of the next hand."""
        return len(self.hands)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A record replayed: a value (callers may keep and share it; nothing changes it)."""

    record: Record
    profile: Profile
    options: Options
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    sum: int
    expected_sum: int
    zero_sum_ok: bool
    complete: bool
    winners: tuple[int, ...]
    next: NextHand | None
    #: rifki's quota state after these hands (counted hands only; zeros elsewhere)
    quota: Quota = field(default_factory=Quota)
    #: the builder's state after these hands, to add or preview the next hand without
    #: replaying them (:func:`app.rules.game.choices.preview`, :func:`~app.rules.game.choices.append`)
    state: GameState | None = field(default=None, compare=False, repr=False)

    def payment_note(self, index: int) -> Explanation | None:
        """How the sale of hand ``index`` was settled (:func:`app.rules.referee.sale.sale_terms`):
        code ``payment-per-trick`` (a -N sale of subastas under ``settlement: tricks``:
        params ``per``, ``tricks`` the owner took, ``most``) or ``payment-bid``; with
        ``buyer``, ``owner`` (names), ``bid`` and ``paid``. None without a counted sale."""
        h = self.hands[index]
        if h.bid is None or h.declarer is None or h.owner is None or not h.counted:
            return None
        terms = sale_terms(self.profile, self.options, h.bid)
        players = self.record.players
        params: dict[str, object] = {"buyer": players[h.declarer], "owner": players[h.owner],
                                     "bid": h.bid, "paid": h.payments[h.owner]}
        if terms.per_trick:
            params.update(per=terms.per_trick, most=terms.most, tricks=h.counts["tricks"][h.owner])
            return Explanation("payment-per-trick", PAYMENT_PER_TRICK, MappingProxyType(params))
        return Explanation("payment-bid", PAYMENT_BID, MappingProxyType(params))

    @property
    def kings(self) -> tuple[int, ...]:
        """Kings made per seat, in counted hands (:attr:`HandResult.king_seat`)."""
        kings = [0, 0, 0, 0]
        for h in self.hands:
            if h.counted and h.made_king:
                seat = h.king_seat
                assert seat is not None
                kings[seat] += 1
        return tuple(kings)

    def canonical_record(self) -> dict[str, Any]:
        """The record's canonical JSON value (cards and suits canonical, keys as given): a new
        dict each call."""
        data = dict(self.record.header)
        data["hands"] = [canonical_hand(raw, h)
                         for raw, h in zip(self.record.raw_hands, self.hands, strict=True)]
        return data



def canonical_hand(raw: dict[str, Any], h: HandResult) -> dict[str, Any]:
    """One hand of the record, canonical: the keys as given, cards and suits canonical."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("counts", "captures"):
            out[key] = h.entry
        elif key == "tricks":
            out[key] = h.tricks
        elif key == "deal":
            out[key] = h.deal
        elif key == "trump":
            out[key] = h.trump
        elif key == "auction":
            out[key] = list(h.auction)
        elif key == "ruling":
            out[key] = _ruling_json(value, h.ruling)
        else:
            out[key] = value
    return out


def _ruling_json(raw: dict[str, Any], ruling: Ruling) -> dict[str, Any]:
    """A hand's ruling, canonical: the keys as given, the texts as read (normal form C)."""
    out = dict(raw)
    for text_key in ("reason", "by"):
        if text_key in out:
            out[text_key] = getattr(ruling, text_key)
    if ruling.weights is not None and "weights" in out:
        out["weights"] = [_outcome_json(raw_o, o)
                          for raw_o, o in zip(out["weights"], ruling.weights, strict=True)]
    return out


def _outcome_json(raw: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """One outcome of a weighted ruling, canonical: the keys as given, the label as read."""
    out = dict(raw)
    if "label" in out:
        out["label"] = outcome.label
    return out


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask

