"""Replaying a game record: the schedule, every hand's checks and scores, the totals.

:func:`load` reads a record (RECORD.md) in order -- format, profile, options, players, first
seat, then each hand -- and reports the first defect as a :class:`RecordError` naming its
field. Scores are never read from the record: they are computed here, every time.
"""
from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from app.rules.auction import OTHER_433_POINTS, OWNER_433_POINTS, AuctionOutcome, run_auction
from app.rules.cards import BIT, HEARTS_MASK, cards_of
from app.rules.errors import InputError, RecordError, RuleError, SumError, Term, contract_term
from app.rules.errors import element as element_term
from app.rules.limits import NAME_MAX, REASON_MAX, REPLAY_MAX, check_value, clean_text
from app.rules.play import PlayOutcome, Referee, Violation, hand_counts, play_out, play_rules, referee_for
from app.rules.profiles import (
    RIFKI_KOZ_LIMIT,
    RIFKI_LIMIT_PER_PENALTY,
    RIFKI_QUOTA,
    Contract,
    Options,
    Profile,
    full_counts,
    get_profile,
)
from app.rules.record import (
    CANON,
    CARD_BITS,
    CARD_CODES,
    FORMAT,
    HAND_KEYS,
    RULING_KEYS,
    RULING_KINDS,
    TOP_KEYS,
    card_text,
    check_keys,
    need_dict,
    need_int,
    need_list,
    need_seat,
    need_str,
    parse_card,
    parse_cards,
    parse_suit,
    suit_text,
    type_name,
    what_term,
)
from app.rules.schedule import Slot, slot_for
from app.rules.scoring import card_counts, hand_points


@dataclass(frozen=True, slots=True)
class Ruling:
    kind: str = "as-played"
    seat: int | None = None
    points: tuple[int, ...] | None = None
    reason: str | None = None
    by: str | None = None
    at: str | None = None


#: The default ruling, shared (a value: nothing changes it).
AS_PLAYED = Ruling()


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
    def early_end_reason(self) -> str | None:
        """Why a hand entered as tricks stopped before its last trick (English)."""
        if not self.ended_early:
            return None
        last = cards_of(_mask(self.trick_cards[-1]) & self.contract.scoring_mask)
        return (f"every scoring card has been taken (the last, "
                f"{' '.join(c.symbol for c in last)}, at trick {len(self.trick_cards)})")

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

    def canonical_record(self) -> dict[str, Any]:
        """The record's canonical JSON value (cards and suits canonical, keys as given): a new
        dict each call."""
        data = dict(self.record.header)
        data["hands"] = [canonical_hand(raw, h)
                         for raw, h in zip(self.record.raw_hands, self.hands, strict=True)]
        return data


# --- reading the header ------------------------------------------------------------------

def _header(data: object) -> tuple[Profile, Options, list[str], int, dict[str, Any]]:
    """The record's top level read and checked: profile, options, players, first seat and
    the canonical header (the hands left empty)."""
    if not isinstance(data, dict):
        raise InputError.of("record", "type", "must be a JSON object, not %(got)s",
                            got=type_name(data))
    check_value(data)
    top = data
    _check_format(top)
    if "profile" not in top:
        raise InputError.of("profile", "missing-key", "missing (ru32, fiestas, subastas or rifki)")
    profile = get_profile(top["profile"])
    check_keys(top, TOP_KEYS + (profile.seat_key,), "")
    options = profile.parse_options(top.get("options"))
    players = _players(top)
    first = _first_seat(top, profile.seat_key)
    if "hands" not in top:
        raise InputError.of("hands", "missing-key", "missing (an empty list for a new game)")
    need_list(top["hands"], "hands")
    canonical: dict[str, Any] = {}
    for key in top:
        if key == "hands":
            canonical[key] = []
        elif key == "players":
            canonical[key] = list(players)
        elif key == "options":
            canonical[key] = dict(top[key])
        else:
            canonical[key] = top[key]
    return profile, options, players, first, canonical


def _check_format(top: dict[str, Any]) -> None:
    if "format" not in top:
        raise InputError.of("format", "missing-key",
                            'missing; a record starts with "format": "%(format)s"', format=FORMAT)
    if top["format"] != FORMAT:
        raise InputError.of("format", "format",
                            '%(value)r is not a supported format (expected "%(format)s")',
                            value=top["format"], format=FORMAT)


def _players(top: dict[str, Any]) -> list[str]:
    """Four distinct names, in normal form C."""
    if "players" not in top:
        raise InputError.of("players", "missing-key", "missing: four names in seat order")
    players_raw = need_list(top["players"], "players", "names")
    if len(players_raw) != 4:
        raise InputError.of("players", "players", "a game has four players, not %(n)s",
                            n=len(players_raw))
    players: list[str] = []
    for k, name in enumerate(players_raw):
        name = clean_text(need_str(name, f"players[{k}]", nonempty=True), f"players[{k}]", NAME_MAX)
        if name in players:
            raise InputError.of(f"players[{k}]", "players", '"%(name)s" is already seat %(seat)s',
                                name=name, seat=players.index(name))
        players.append(name)
    return players


def _first_seat(top: dict[str, Any], seat_key: str) -> int:
    if seat_key not in top:
        if seat_key == "first_chooser":
            raise InputError.of(seat_key, "missing-key", "missing: the seat holding the 2♦ (0-3)")
        raise InputError.of(seat_key, "missing-key", "missing: the first dealer (0-3)")
    return need_seat(top[seat_key], seat_key)


# --- replaying ---------------------------------------------------------------------------

@dataclass(slots=True)
class _Played:
    """What a hand entered as tricks gives the builder (internal, never shared)."""

    tricks: list[list[int]]
    outcome: PlayOutcome
    counts: dict[str, list[int]]
    captured_masks: list[int]
    deal_order: list[list[str]] | None


@dataclass(slots=True)
class _Facts:
    """What the builder has read of a hand before its entry (internal)."""

    index: int
    number: int
    slot: Slot
    contract: Contract
    trump: int
    declarer: int | None
    bid: str | None
    payments: list[int]
    leader: int | None
    calls: tuple[str, ...]
    mode: str


@dataclass(slots=True)
class _Entry:
    """What a hand's counts, captures or tricks give (internal)."""

    entry: Any                       # the canonical counts / captures entry
    counts: dict[str, list[int]]
    captured_masks: list[int] | None
    played: _Played | None           # a hand entered as tricks
    tricks_played: int


def _sale(outcome: AuctionOutcome | None, slot: Slot, contract: Contract
          ) -> tuple[int | None, str | None, list[int], tuple[int, ...]]:
    """The declarer, the winning bid, the sale's payments and the seats that may lead."""
    payments = [0, 0, 0, 0]
    if outcome is None:
        return None, None, payments, (slot.leader,) if slot.leader is not None else ()
    if outcome.sale:
        declarer = outcome.declarer
        assert declarer is not None and slot.owner is not None
        payments[declarer] -= outcome.payment
        payments[slot.owner] += outcome.payment
        return declarer, outcome.bid, payments, outcome.leaders
    if contract.played:
        leaders = outcome.leaders[:1] if contract.id == "nulos" else outcome.leaders
        return slot.owner, None, payments, leaders
    return None, None, payments, ()


class GameBuilder:
    """Replays hands one by one, keeping the schedule, limits and totals."""

    def __init__(self, profile: Profile, options: Options, players: list[str],
                 first_seat: int) -> None:
        self.profile = profile
        self.options = options
        self.players = players
        self.first_seat = first_seat
        self.number = 1                      # schedule number of the next hand
        self.hands: list[HandResult] = []
        self.totals = [0, 0, 0, 0]
        self.expected_sum = 0
        self.replays = 0                     # replay rulings of the next hand so far
        self.contract_count: dict[str, int] = {}
        self.seat_penalties = [0, 0, 0, 0]
        self.seat_koz = [0, 0, 0, 0]
        self.referees: dict[tuple[str, int], Referee] = {}   # per contract id and trump
        self._slots: list[Slot] | None = None
        #: None: the first defect raises. A list: the entry checks note every problem here
        #: (see :func:`entry_problems`).
        self.problems: list[RecordError] | None = None

    @property
    def complete(self) -> bool:
        return self.number > self.profile.n_hands

    def slot(self) -> Slot:
        slots = self._slots
        if slots is None:
            slots = self._slots = [slot_for(self.profile, self.first_seat, n)
                                   for n in range(1, self.profile.n_hands + 1)]
        return slots[self.number - 1] if self.number <= len(slots) else \
            slot_for(self.profile, self.first_seat, self.number)

    def add(self, raw: object, i: int) -> HandResult:
        """Reads, checks and scores the hand at ``i``: one step per part of RECORD.md's hand
        (contract, trump, auction, leader, entry, ruling), then the game's totals."""
        fld = f"hands[{i}]"
        hand = need_dict(raw, fld, "hand")
        if self.complete:
            raise RuleError.of(fld, "game-over", "the game is over after %(n)s hands",
                               n=self.profile.n_hands)
        check_keys(hand, HAND_KEYS, fld + ".")
        slot = self.slot()
        contract = self._contract(hand, slot, fld)
        trump = self._trump(hand, contract, fld)
        outcome, calls = self._auction(hand, slot, contract, fld)
        declarer, bid, payments, leaders = _sale(outcome, slot, contract)
        leader = self._leader(hand, leaders, contract, fld)
        facts = _Facts(i, self.number, slot, contract, trump, declarer, bid, payments, leader,
                       tuple(calls), self._mode(hand, contract, fld))
        entry = self._entry(hand, facts, fld)
        if self.problems:
            if "ruling" in hand:
                try:
                    self._ruling(hand["ruling"], contract, f"{fld}.ruling")
                except RecordError as e:
                    self.problems.append(e)
            return self._hand_result(facts, entry, [0, 0, 0, 0], [0, 0, 0, 0], True, AS_PLAYED,
                                     False)
        played_points, made_king = self._played_points(facts, entry)
        ruling = AS_PLAYED
        if "ruling" in hand:
            ruling = self._ruling(hand["ruling"], contract, f"{fld}.ruling")
        points, counted = self._ruled_points(ruling, contract, played_points, fld)
        if counted:
            self._count(facts, points)
        result = self._hand_result(facts, entry, played_points, points, counted, ruling,
                                   made_king)
        self.hands.append(result)
        return result

    # --- the steps of a hand ---------------------------------------------------------------
    @staticmethod
    def _trump(hand: dict[str, Any], contract: Contract, fld: str) -> int:
        """The trump suit (-1: none)."""
        if contract.trump_game:
            if "trump" not in hand:
                raise InputError.of(f"{fld}.trump", "missing-key",
                                    "missing: %(contract)s needs a trump suit (S, H, D or C)",
                                    contract=_contract_word(contract))
            return parse_suit(hand["trump"], f"{fld}.trump")
        if "trump" in hand:
            raise InputError.of(f"{fld}.trump", "unexpected-key",
                                "%(contract)s is played without trumps",
                                contract=Term(contract.id, "contract"))
        return -1

    def _auction(self, hand: dict[str, Any], slot: Slot, contract: Contract, fld: str
                 ) -> tuple[AuctionOutcome | None, list[str]]:
        """A fiesta's auction (its outcome and calls); none for other hands."""
        if slot.fiesta:
            owner = slot.owner
            assert owner is not None
            raw_calls = None
            if "auction" in hand:
                raw_calls = need_list(hand["auction"], f"{fld}.auction", "calls")
            outcome, calls = run_auction(self.profile.id, owner, raw_calls, f"{fld}.auction")
            if contract.id not in outcome.contracts:
                raise self._fiesta_contract_error(outcome, f"{fld}.contract")
            return outcome, calls
        if "auction" in hand:
            raise InputError.of(f"{fld}.auction", "unexpected-key",
                                "only a fiesta (hands 7-10 of fiestas and subastas) has an auction")
        return None, []

    @staticmethod
    def _mode(hand: dict[str, Any], contract: Contract, fld: str) -> str:
        """How the hand is entered: counts, captures, tricks (or none: a 433)."""
        modes = [m for m in ("counts", "captures", "tricks") if m in hand]
        if not contract.played:
            if modes:
                raise InputError.of(f"{fld}.{modes[0]}", "unexpected-key",
                                    "a 433 is not played: it has no counts, captures or tricks")
            if "deal" in hand:
                raise InputError.of(f"{fld}.deal", "unexpected-key",
                                    "a 433 is not played: it has no deal")
        elif len(modes) != 1:
            if not modes:
                raise InputError.of(fld, "missing-key",
                                    "enter the hand as one of counts, captures or tricks")
            raise InputError.of(f"{fld}.{modes[1]}", "unexpected-key",
                                "enter the hand one way only (%(mode)s is already given)",
                                mode=modes[0])
        if "deal" in hand and modes != ["tricks"]:
            raise InputError.of(f"{fld}.deal", "unexpected-key",
                                "a deal goes with a hand entered as tricks")
        return modes[0] if modes else "none"

    def _entry(self, hand: dict[str, Any], facts: _Facts, fld: str) -> _Entry:
        """What the counts, captures or tricks say."""
        contract, mode = facts.contract, facts.mode
        n_tricks = self.profile.n_tricks
        if mode == "counts":
            entry = self._counts(hand["counts"], contract, f"{fld}.counts")
            return _Entry(entry, _counts_of(entry, contract), None, None, n_tricks)
        if mode == "captures":
            entry, counts, masks = self._captures(hand["captures"], contract, f"{fld}.captures")
            return _Entry(entry, counts, masks, None, n_tricks)
        if mode == "tricks":
            played = self._tricks(hand, contract, facts.trump, facts.leader, fld)
            return _Entry(None, played.counts, played.captured_masks, played,
                          len(played.tricks))
        return _Entry(None, {}, None, None, 0)

    def _played_points(self, facts: _Facts, entry: _Entry) -> tuple[list[int], bool]:
        """Each seat's points as played, and whether the hand made a King."""
        contract = facts.contract
        if not contract.played:
            owner = facts.slot.owner
            assert owner is not None
            return [OWNER_433_POINTS if s == owner else OTHER_433_POINTS for s in range(4)], False
        made_king = (contract.trump_game and self.profile.kings
                     and self.profile.n_tricks in entry.counts.get("tricks", ()))
        return hand_points(contract, entry.counts), made_king

    def _ruled_points(self, ruling: Ruling, contract: Contract, points: list[int], fld: str
                      ) -> tuple[list[int], bool]:
        """The points after the ruling, and whether the hand counts (a replay does not)."""
        if ruling.kind == "charge-offender":
            assert ruling.seat is not None
            return [contract.total if s == ruling.seat else 0 for s in range(4)], True
        if ruling.kind == "adjusted":
            assert ruling.points is not None
            return list(ruling.points), True
        if ruling.kind == "replay":
            if self.replays >= REPLAY_MAX:
                raise RuleError.of(f"{fld}.ruling.kind", "replay-limit",
                                   "hand %(n)s has been replayed %(max)s times already; record "
                                   "how this deal went (as played, charged or adjusted)",
                                   n=self.number, max=REPLAY_MAX)
            self.replays += 1
            return points, False
        return points, True

    def _count(self, facts: _Facts, points: list[int]) -> None:
        """A counted hand: the totals, the limits of chosen contracts, the next hand."""
        self.replays = 0
        totals, payments = self.totals, facts.payments
        for s in range(4):
            totals[s] += points[s] + payments[s]
        self.expected_sum += facts.contract.total
        if self.profile.chosen:
            self._count_choice(facts.contract, facts.slot)
        self.number += 1

    def _hand_result(self, facts: _Facts, entry: _Entry, played_points: list[int],
                     points: list[int], counted: bool, ruling: Ruling,
                     made_king: bool) -> HandResult:
        """The hand as a value, built once (lists become tuples here, not in loops)."""
        slot, contract, trump, played = facts.slot, facts.contract, facts.trump, entry.played
        masks = entry.captured_masks
        common = (facts.index, facts.number, contract, suit_text(trump) if trump >= 0 else None,
                  slot.dealer, slot.owner, slot.chooser, facts.declarer, facts.leader, facts.bid,
                  facts.calls, facts.mode, tuple(played_points), tuple(points),
                  tuple(facts.payments) if counted else (0, 0, 0, 0), sum(points),
                  contract.total, counted, ruling, entry.counts, tuple(self.totals))
        if played is None:
            return HandResult(*common, tricks_played=entry.tricks_played, entry=entry.entry,
                              made_king=made_king,
                              captured_masks=None if masks is None else tuple(masks))
        outcome = played.outcome
        return HandResult(
            *common, tuple(played.tricks), tuple(outcome.winners), tuple(outcome.leaders),
            entry.tricks_played, outcome.ended_early, tuple(played.captured_masks),
            None if played.deal_order is None else tuple(played.deal_order),
            made_king=made_king, violations=tuple(outcome.violations))

    # --- pieces of a hand ----------------------------------------------------------------
    def _contract(self, hand: dict[str, Any], slot: Slot, fld: str) -> Contract:
        """The hand's contract: the schedule's, a fiesta's or the chooser's (within limits)."""
        profile = self.profile
        f = f"{fld}.contract"
        if "contract" not in hand:
            if slot.contract is not None:
                return profile.contracts[slot.contract]
            raise self._missing_contract(slot, f)
        cid = hand["contract"]
        if not isinstance(cid, str):
            raise InputError.of(f, "type", "must be a contract id, not %(got)s",
                                got=type_name(cid))
        if slot.contract is not None:
            if cid != slot.contract:
                fixed = profile.contracts[slot.contract]
                raise RuleError.of(f, "schedule", "hand %(n)s is %(id)s (%(contract)s), not %(value)r",
                                   n=slot.number, id=slot.contract,
                                   contract=Term(fixed.name_es, "contract", fixed.id), value=cid)
            return profile.contracts[cid]
        contract = profile.contracts.get(cid)
        if slot.fiesta:
            if contract is None or not contract.fiesta:
                if "notrump" in profile.positive_fiestas:
                    raise InputError.of(f, "contract", "%(value)r is not a fiesta contract "
                                        "(trump, notrump, nulos or 433)", value=cid)
                raise InputError.of(f, "contract",
                                    "%(value)r is not a fiesta contract (trump, nulos or 433)",
                                    value=cid)
            return contract
        return self._chosen_contract(contract, cid, slot, f)

    def _missing_contract(self, slot: Slot, f: str) -> InputError:
        if slot.fiesta:
            if "notrump" in self.profile.positive_fiestas:
                return InputError.of(f, "missing-key",
                                     "missing: a fiesta is trump, notrump, nulos or 433")
            return InputError.of(f, "missing-key", "missing: a fiesta is trump, nulos or 433")
        chooser = slot.chooser or 0
        return InputError.of(f, "missing-key",
                             "missing: seat %(seat)s (%(name)s) chooses the contract",
                             seat=chooser, name=self.players[chooser])

    def _chosen_contract(self, contract: Contract | None, cid: str, slot: Slot,
                         f: str) -> Contract:
        profile = self.profile
        if contract is None:
            raise InputError.of(f, "contract", "%(value)r is not a %(profile)s contract (one of: "
                                "%(allowed)s)", value=cid, profile=profile.id,
                                allowed=", ".join(profile.contracts))
        if profile.chosen:
            problem = self.choice_problem(contract.id, slot)
            if problem is not None:
                raise problem.moved(f)
        return contract

    def choice_problem(self, cid: str, slot: Slot) -> RuleError | None:
        """Why a rifki choice breaks a limit (``.code`` is the rule, field "contract"), or None."""
        chooser = slot.chooser
        assert chooser is not None
        done = self.contract_count.get(cid, 0)
        f = "contract"
        if cid == "koz":
            if done >= RIFKI_KOZ_LIMIT:
                return RuleError.of(f, "koz-limit", "koz has been played %(n)s times already",
                                    n=RIFKI_KOZ_LIMIT)
            if self.options.choice_limit == "3+2" and self.seat_koz[chooser] >= RIFKI_QUOTA["koz"]:
                return RuleError.of(f, "choice-limit",
                                    "seat %(seat)s (%(name)s) has already chosen koz %(n)s times "
                                    "(3+2)", seat=chooser, name=self.players[chooser],
                                    n=RIFKI_QUOTA["koz"])
            return None
        if done >= RIFKI_LIMIT_PER_PENALTY:
            return RuleError.of(f, "penalty-limit", "%(contract)s has been played %(n)s times already",
                                contract=Term(cid, "contract"), n=RIFKI_LIMIT_PER_PENALTY)
        if (self.options.choice_limit == "3+2"
                and self.seat_penalties[chooser] >= RIFKI_QUOTA["penalty"]):
            return RuleError.of(f, "choice-limit",
                                "seat %(seat)s (%(name)s) has already chosen %(n)s penalties (3+2)",
                                seat=chooser, name=self.players[chooser], n=RIFKI_QUOTA["penalty"])
        return None

    def _count_choice(self, contract: Contract, slot: Slot) -> None:
        assert slot.chooser is not None
        self.contract_count[contract.id] = self.contract_count.get(contract.id, 0) + 1
        if contract.id == "koz":
            self.seat_koz[slot.chooser] += 1
        else:
            self.seat_penalties[slot.chooser] += 1

    @staticmethod
    def _fiesta_contract_error(outcome: AuctionOutcome, f: str) -> RuleError:
        code = "fiesta-contract"
        if outcome.sale:
            if outcome.contracts == ("trump",):
                return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays a trump",
                                    bid=outcome.bid)
            if "trump" in outcome.contracts:
                return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays a fiesta "
                                    "with or without trumps", bid=outcome.bid)
            return RuleError.of(f, code, "after a sale at %(bid)s the buyer plays nulos",
                                bid=outcome.bid)
        if outcome.reason == "refused":
            return RuleError.of(f, code, "after refusing 8 o nulos the owner plays nulos")
        return RuleError.of(f, code,
                            "433 is allowed only when the auction drew fewer than three bids")

    def _leader(self, hand: dict[str, Any], leaders: tuple[int, ...], contract: Contract,
                fld: str) -> int | None:
        if "leader" not in hand:
            return leaders[0] if leaders else None
        f = f"{fld}.leader"
        seat = need_seat(hand["leader"], f)
        if not leaders:
            raise InputError.of(f, "unexpected-key", "a 433 is not played: nobody leads")
        if seat not in leaders:
            names = self.players
            if len(leaders) == 1:
                raise RuleError.of(f, "leader",
                                   "seat %(seat)s (%(name)s) leads this hand, not seat %(value)s",
                                   seat=leaders[0], name=names[leaders[0]], value=seat)
            raise RuleError.of(f, "leader", "seat %(seat)s (%(name)s) or seat %(seat2)s "
                               "(%(name2)s) leads this hand, not seat %(value)s",
                               seat=leaders[0], name=names[leaders[0]], seat2=leaders[1],
                               name2=names[leaders[1]], value=seat)
        return seat

    def _fail(self, error: RecordError) -> None:
        """Raises ``error``; while collecting every problem of an entry, notes it instead."""
        if self.problems is None:
            raise error
        self.problems.append(error)

    def _counts(self, value: object, contract: Contract, fld: str) -> dict[str, Any]:
        counts = need_dict(value, fld)
        scored = [e for e, v in contract.values.items() if v]
        check_keys(counts, tuple(scored), fld + ".")
        n_tricks = self.profile.n_tricks
        full = _full_counts(self.profile)
        out: dict[str, Any] = {}
        for element in scored:
            f = f"{fld}.{element}"
            try:
                if element not in counts:
                    raise _missing_element(f, contract, element)
                out[element] = self._count_of(element, counts[element], f, full, n_tricks)
            except RecordError as e:
                self._fail(e)
        if len(out) == len(scored):
            out = {k: out[k] for k in counts}      # reorder as given, for a faithful round trip
        # collecting every problem, the checks below read the elements that read
        per_seat = _counts_of(out, contract)
        self._check_trick_room(per_seat, contract, fld)
        self._check_heart_faces(per_seat, fld)
        return out

    def _check_heart_faces(self, counts: dict[str, list[int]], fld: str) -> None:
        """One card counts in every element it belongs to (RULES.md §2; decisions.md).

        Where the contract counts the K♥ with hearts or kings, the seat credited with it has
        at least one heart and one king. Where it counts hearts with kings, queens or jacks,
        each seat's hearts fit its faces: all four of a face include its heart, and hearts
        beyond the plain ones are heart faces the seat's counts allow.
        """
        hearts = counts.get("hearts")
        kh = counts.get("kh")
        faces = [e for e in ("kings", "queens", "jacks")
                 if e in counts or (e == "kings" and kh is not None)]
        # the hearts that are no counted face
        plain = (HEARTS_MASK & self.profile.deck).bit_count() - len(faces)
        for s in range(4):
            if kh is not None and kh[s] and self._kh_without(counts, s, fld):
                continue
            if hearts is None:
                continue
            must: list[str] = []           # heart faces the seat's counts say it took
            may: list[str] = []            # ... and those they leave possible
            for e in faces:
                # the K♥ is where the kh count puts it; else all four of a face hold its
                # heart, none hold none
                n = (4 if kh[s] else 0) if e == "kings" and kh is not None else counts[e][s]
                if n == 4:
                    must.append(HEART_FACES[e])
                if n:
                    may.append(HEART_FACES[e])
            if hearts[s] < len(must):
                self._fail(SumError.of(
                    f"{fld}.hearts[{s}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                    "with %(n)s %(hearts)s, fewer than the hearts among its cards (%(cards)s)",
                    seat=s, name=self.players[s], n=hearts[s], hearts=element_term("hearts"),
                    cards=" ".join(must)))
            elif hearts[s] > plain + len(may):
                self._fail(SumError.of(
                    f"{fld}.hearts[{s}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                    "with %(n)s %(hearts)s, more than its other counts allow (at most %(max)s)",
                    seat=s, name=self.players[s], n=hearts[s], hearts=element_term("hearts"),
                    max=plain + len(may)))

    def _kh_without(self, counts: dict[str, list[int]], seat: int, fld: str) -> bool:
        """The seat credited with the K♥ has 0 hearts or 0 kings: says so (True)."""
        found = False
        for e in ("hearts", "kings"):
            if e in counts and counts[e][seat] == 0:
                found = True
                self._fail(SumError.of(
                    f"{fld}.{e}[{seat}]", "heart-faces", "seat %(seat)s (%(name)s) is credited "
                    "with the K♥ but with 0 %(element)s: the K♥ is one of the %(element)s too",
                    seat=seat, name=self.players[seat], element=element_term(e)))
        return found

    def _check_trick_room(self, counts: dict[str, list[int]], contract: Contract,
                          fld: str) -> None:
        """A seat credited with cards or last tricks must have taken enough tricks."""
        if "tricks" not in counts or contract.base:
            return
        tricks = counts["tricks"]
        faces = [e for e in ("kings", "queens", "jacks") if e in counts]
        for s in range(4):
            hearts = counts["hearts"][s] if "hearts" in counts else 0
            face = sum(counts[e][s] for e in faces)
            overlap = min(hearts, face, len(faces))   # K♥, Q♥, J♥ count twice
            cards = hearts + face - overlap
            if "kh" in counts and counts["kh"][s]:
                cards = max(cards, 1)
            if cards > 4 * tricks[s]:
                self._fail(SumError.of(
                    f"{fld}.tricks[{s}]", "trick-room", "seat %(seat)s (%(name)s) took at least "
                    "%(cards)s scoring cards in %(tricks)s tricks (4 cards a trick)",
                    seat=s, name=self.players[s], cards=cards, tricks=tricks[s]))
            if "last_two" in counts and counts["last_two"][s] > tricks[s]:
                self._fail(SumError.of(
                    f"{fld}.tricks[{s}]", "trick-room", "seat %(seat)s (%(name)s) took %(last)s "
                    "of the last two tricks but %(tricks)s tricks in all",
                    seat=s, name=self.players[s], last=counts["last_two"][s], tricks=tricks[s]))

    def _count_of(self, element: str, value: object, f: str, full: Mapping[str, int],
                  n_tricks: int) -> Any:
        """One element of a counts entry: the K♥ seat, the last two tricks' seats, or a count
        per seat adding up to the element's full count."""
        if element == "kh":
            return need_seat(value, f)
        if element == "last_two":
            if not isinstance(value, list):
                need_list(value, f, what_term("last-two", before=n_tricks - 1, last=n_tricks))
            assert isinstance(value, list)
            if len(value) != 2:
                raise _last_two_length(f, n_tricks, len(value))
            return [need_seat(s, f"{f}[{k}]") for k, s in enumerate(value)]
        items = need_list(value, f, "counts")
        if len(items) != 4:
            raise InputError.of(f, "length", "has one count per seat: 4, not %(n)s",
                                n=len(items))
        nums = [need_int(x, f"{f}[{k}]", 0, full[element]) for k, x in enumerate(items)]
        total = sum(nums)
        if total != full[element]:
            raise _sum_error(f, element, total, self.profile)
        return nums

    def _captures(self, value: object, contract: Contract, fld: str
                  ) -> tuple[dict[str, Any], dict[str, list[int]], list[int]]:
        """The canonical captures entry, the counts it gives and each seat's scoring cards."""
        caps = need_dict(value, fld)
        allowed = ["cards"] + [e for e in ("tricks", "last_two") if contract.values.get(e)]
        check_keys(caps, tuple(allowed), fld + ".")
        out: dict[str, Any] = {}
        masks = [0, 0, 0, 0]
        if "cards" in caps:
            out["cards"], masks = self._captured_cards(caps["cards"], contract, f"{fld}.cards")
        elif contract.scoring_mask:
            raise InputError.of(f"{fld}.cards", "missing-key",
                                "missing: the scoring cards each seat took")
        counts = card_counts(contract, masks)
        for element in ("tricks", "last_two"):
            if element not in allowed:
                continue
            f = f"{fld}.{element}"
            try:
                if element not in caps:
                    raise _missing_element(f, contract, element)
                if element == "tricks":
                    out[element] = counts["tricks"] = self._tricks_won(caps[element], f)
                else:
                    out[element] = pair = self._last_two_seats(caps[element], f)
                    counts["last_two"] = [pair.count(s) for s in range(4)]
            except RecordError as e:
                self._fail(e)
        out = {k: out[k] for k in caps if k in out}
        self._check_trick_room(counts, contract, fld)
        return out, counts, masks

    def _captured_cards(self, value: object, contract: Contract, fld: str
                        ) -> tuple[list[list[str]], list[int]]:
        """The scoring cards each seat took (canonical texts and bit sets); each card that
        does not score, is listed twice or is not assigned is a problem of its own."""
        deck, size = self.profile.deck, self.profile.deck_size
        scoring = contract.scoring_mask
        lists = need_list(value, fld, "card-lists")
        if len(lists) != 4:
            raise InputError.of(fld, "length", "has one list per seat: 4, not %(n)s",
                                n=len(lists))
        masks = [0, 0, 0, 0]
        seen = 0
        texts: list[list[str]] = []
        for s, items in enumerate(lists):
            f = f"{fld}[{s}]"
            row = []
            for k, text in enumerate(need_list(items, f, "cards")):
                c = parse_card(text, f"{f}[{k}]", deck, size)
                b = BIT[c]
                if not scoring & b:
                    self._fail(InputError.of(f"{f}[{k}]", "not-scoring",
                                             "%(card)s does not score in %(contract)s",
                                             card=card_text(c),
                                             contract=_contract_word(contract)))
                elif seen & b:
                    self._fail(InputError.of(f"{f}[{k}]", "card-twice",
                                             "%(card)s is listed twice", card=card_text(c)))
                else:
                    seen |= b
                    masks[s] |= b
                    row.append(card_text(c))
            texts.append(row)
        missing = scoring & ~seen
        if missing:
            names = " ".join(card_text(c) for c in cards_of(missing))
            if missing.bit_count() == 1:
                self._fail(SumError.of(fld, "sum", "every scoring card is taken "
                                       "by someone: %(cards)s is not assigned", cards=names))
            else:
                self._fail(SumError.of(fld, "sum", "every scoring card is taken "
                                       "by someone: %(cards)s are not assigned", cards=names))
        return texts, masks

    def _tricks_won(self, value: object, f: str) -> list[int]:
        n_tricks = self.profile.n_tricks
        items = need_list(value, f, "counts")
        if len(items) != 4:
            raise InputError.of(f, "length", "has one count per seat: 4, not %(n)s",
                                n=len(items))
        nums = [need_int(x, f"{f}[{k}]", 0, n_tricks) for k, x in enumerate(items)]
        if sum(nums) != n_tricks:
            raise _sum_error(f, "tricks", sum(nums), self.profile)
        return nums

    def _last_two_seats(self, value: object, f: str) -> list[int]:
        seats = need_list(value, f, "seats")
        if len(seats) != 2:
            raise _last_two_length(f, self.profile.n_tricks, len(seats))
        return [need_seat(s, f"{f}[{k}]") for k, s in enumerate(seats)]

    def _tricks(self, hand: dict[str, Any], contract: Contract, trump: int, leader: int | None,
                fld: str) -> _Played:
        profile = self.profile
        deck, size, n_tricks = profile.deck, profile.deck_size, profile.n_tricks
        tricks_fld = f"{fld}.tricks"
        raw = need_list(hand["tricks"], tricks_fld, "tricks")
        tricks = _parse_tricks(raw, tricks_fld, deck, size)
        deal: list[int] | None = None
        deal_order: list[list[str]] | None = None
        if "deal" in hand:
            deal_fld = f"{fld}.deal"
            lists = need_list(hand["deal"], deal_fld, "card-lists")
            if len(lists) != 4:
                raise InputError.of(deal_fld, "length", "has one list per seat: 4, not %(n)s",
                                    n=len(lists))
            deal = []
            seen = 0
            bits = CARD_BITS
            for seat, items in enumerate(lists):
                try:
                    mask = reduce(or_, map(bits.__getitem__, items), 0)
                    ok = type(items) is list and len(items) == n_tricks \
                        and mask.bit_count() == n_tricks and not seen & mask \
                        and (size == 52 or not mask & ~deck)
                except (KeyError, TypeError):
                    ok = False
                if not ok:
                    self._deal_defect(items, f"{deal_fld}[{seat}]", seat, seen)
                seen |= mask
                deal.append(mask)
            deal_order = lists
        assert leader is not None
        referee = self.referees.get((contract.id, trump))
        if referee is None:
            referee = self.referees[contract.id, trump] = referee_for(
                play_rules(profile, self.options, contract), trump)
        outcome = play_out(profile, referee, contract, leader, tricks, deal, tricks_fld, self.players)
        scoring = contract.scoring_mask
        return _Played(tricks, outcome, hand_counts(contract, outcome),
                       [mask & scoring for mask in outcome.captured], deal_order)

    def _deal_defect(self, items: object, fld: str, seat: int, seen: int) -> None:
        """Names what is wrong with one seat's dealt cards (the slow path)."""
        profile = self.profile
        cards = parse_cards(items, fld, profile.deck, profile.deck_size)
        if len(cards) != profile.n_tricks:
            raise InputError.of(fld, "length", "seat %(seat)s (%(name)s) was dealt %(n)s cards, "
                                "not %(got)s", seat=seat, name=self.players[seat],
                                n=profile.n_tricks, got=len(cards))
        for k, c in enumerate(cards):
            if seen & BIT[c]:
                raise InputError.of(f"{fld}[{k}]", "card-twice", "%(card)s is dealt twice",
                                    card=CANON[c])
            seen |= BIT[c]
        raise AssertionError("unreachable: the deal reads")  # pragma: no cover

    def _ruling(self, value: object, contract: Contract, fld: str) -> Ruling:
        """A hand's ruling (RULES.md §3): its kind, then each key the kind takes."""
        data = need_dict(value, fld)
        check_keys(data, RULING_KEYS, fld + ".")
        if "kind" not in data:
            raise InputError.of(f"{fld}.kind", "missing-key", "missing: one of %(allowed)s",
                                allowed=", ".join(RULING_KINDS))
        kind = data["kind"]
        if kind not in RULING_KINDS:
            raise InputError.of(f"{fld}.kind", "ruling", "%(value)r is not a ruling (one of "
                                "%(allowed)s)", value=kind, allowed=", ".join(RULING_KINDS))
        seat = _ruling_seat(data, kind, contract, fld)
        points = _ruling_points(data, kind, contract, fld)
        reason: str | None = None
        if "reason" in data:
            reason = clean_text(need_str(data["reason"], f"{fld}.reason",
                                         nonempty=kind == "adjusted"),
                                f"{fld}.reason", REASON_MAX)
        elif kind == "adjusted":
            raise InputError.of(f"{fld}.reason", "missing-key",
                                "missing: an adjusted ruling needs a reason")
        by: str | None = None
        if "by" in data:
            by = clean_text(need_str(data["by"], f"{fld}.by"), f"{fld}.by", NAME_MAX)
        at: str | None = None
        if "at" in data:
            at = need_str(data["at"], f"{fld}.at")
            try:
                datetime.datetime.fromisoformat(at)
            except ValueError:
                raise InputError.of(f"{fld}.at", "type", "%(value)r is not an ISO-8601 date and time",
                                    value=at) from None
        return Ruling(kind, seat, points, reason, by, at)

    # --- the game ------------------------------------------------------------------------
    def next_hand(self) -> NextHand | None:
        if self.complete:
            return None
        slot = self.slot()
        return NextHand(slot.number, slot.contract, slot.dealer, slot.owner, slot.chooser,
                        slot.leader, slot.fiesta)

    def result(self, record: Record) -> GameResult:
        totals = list(self.totals)
        total = sum(totals)
        complete = self.complete
        winners: tuple[int, ...] = ()
        if complete:
            top = max(totals)
            winners = tuple(s for s in range(4) if totals[s] == top)
        return GameResult(record, self.profile, self.options, tuple(self.hands), tuple(totals),
                          total, self.expected_sum, total == self.expected_sum, complete,
                          winners, self.next_hand())


def _ruling_seat(data: dict[str, Any], kind: str, contract: Contract, fld: str) -> int | None:
    """The offending seat a charge-offender ruling names (for negative hands only)."""
    seat: int | None = None
    if "seat" in data:
        if kind != "charge-offender":
            raise InputError.of(f"{fld}.seat", "unexpected-key",
                                "a seat goes only with charge-offender")
        seat = need_seat(data["seat"], f"{fld}.seat")
    elif kind == "charge-offender":
        raise InputError.of(f"{fld}.seat", "missing-key", "missing: the offending seat")
    if kind == "charge-offender" and not contract.negative:
        raise RuleError.of(f"{fld}.kind", "charge-offender",
                           "charge-offender is for negative hands only")
    return seat


def _ruling_points(data: dict[str, Any], kind: str, contract: Contract, fld: str
                   ) -> tuple[int, ...] | None:
    """The four points of an adjusted ruling, adding up to the hand's total."""
    if "points" not in data:
        if kind == "adjusted":
            raise InputError.of(f"{fld}.points", "missing-key", "missing: the four adjusted points")
        return None
    if kind != "adjusted":
        raise InputError.of(f"{fld}.points", "unexpected-key",
                            "points go only with an adjusted ruling")
    items = need_list(data["points"], f"{fld}.points", "points")
    if len(items) != 4:
        raise InputError.of(f"{fld}.points", "length",
                            "has one number per seat: 4, not %(n)s", n=len(items))
    for k, x in enumerate(items):
        if type(x) is not int:
            raise InputError.of(f"{fld}.points[{k}]", "type",
                                "must be a whole number, not %(got)s", got=type_name(x))
    if sum(items) != contract.total:
        raise SumError.of(f"{fld}.points", "sum",
                          "the points add up to %(sum)s; this hand's total is %(total)s",
                          sum=sum(items), total=contract.total)
    return tuple(items)


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
            out[key] = ruling = dict(value)
            for text_key in ("reason", "by"):   # in normal form C, as read
                if text_key in ruling:
                    ruling[text_key] = getattr(h.ruling, text_key)
        else:
            out[key] = value
    return out


def _parse_tricks(raw: list[Any], fld: str, deck: int, size: int) -> list[list[int]]:
    """The tricks as card numbers: one pass when every card reads, the slow path names it."""
    codes = CARD_CODES
    try:
        if set(map(type, raw)) <= {list}:
            tricks = [[codes[card0], codes[card1], codes[card2], codes[card3]]
                      for card0, card1, card2, card3 in raw]
            if size == 52:
                return tricks
    except (KeyError, TypeError, ValueError):
        pass
    out = []
    for index, trick in enumerate(raw):
        trick_fld = f"{fld}[{index}]"
        items = need_list(trick, trick_fld, "trick")
        if len(items) != 4:
            raise InputError.of(trick_fld, "length", "a trick has four cards, not %(n)s", n=len(items))
        out.append(parse_cards(items, trick_fld, deck, size))
    return out


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


#: The heart among the four cards of each face element.
HEART_FACES = {"kings": "K♥", "queens": "Q♥", "jacks": "J♥"}


def _missing_element(fld: str, contract: Contract, element: str) -> InputError:
    """The error for an element the contract scores that the entry leaves out."""
    return InputError.of(fld, "missing-key", "missing: %(contract)s scores %(element)s",
                         contract=_contract_word(contract), element=element_term(element))


def _full_counts(profile: Profile) -> Mapping[str, int]:
    return full_counts(profile.deck_size)


def _sum_error(fld: str, element: str, total: int, profile: Profile) -> SumError:
    """``hearts add up to 12; a 52-card hand has 13`` (``there are 4`` for faces)."""
    full = _full_counts(profile)[element]
    if element in ("tricks", "hearts"):
        return SumError.of(fld, "sum", "%(element)s add up to %(total)s; a %(deck)s-card hand "
                           "has %(full)s", element=element_term(element), total=total,
                           deck=profile.deck_size, full=full)
    return SumError.of(fld, "sum", "%(element)s add up to %(total)s; there are %(full)s",
                       element=element_term(element), total=total, full=full)


def _last_two_length(fld: str, n_tricks: int, n: int) -> InputError:
    return InputError.of(fld, "length", "names two seats (trick %(before)s then %(last)s), not %(n)s",
                         before=n_tricks - 1, last=n_tricks, n=n)


def _contract_word(contract: Contract) -> Term:
    return contract_term(contract.id, contract.name_en)


def _counts_of(entered: dict[str, Any], contract: Contract) -> dict[str, list[int]]:
    """Entered counts as per-seat lists (kh and last_two name seats in the record)."""
    out: dict[str, list[int]] = {}
    for element, v in entered.items():
        if element == "kh":
            out[element] = [1 if s == v else 0 for s in range(4)]
        elif element == "last_two":
            out[element] = [v.count(s) for s in range(4)]
        else:
            out[element] = list(v)
    return out


# --- the public entry points -------------------------------------------------------------

def load(data: object) -> GameResult:
    """Reads, checks and replays a record; the first defect raises RecordError."""
    profile, options, players, first, canonical = _header(data)
    assert isinstance(data, dict)
    builder = GameBuilder(profile, options, players, first)
    for i, raw in enumerate(data["hands"]):
        builder.add(raw, i)
    record = Record(profile, options, tuple(players), first, canonical, tuple(data["hands"]))
    return builder.result(record)


def entry_problems(data: object, index: int) -> list[RecordError]:
    """Every problem of the hand at ``index`` (entered as counts or captures), at once.

    The hands before it are replayed first (their first defect is the only problem). In the
    hand itself, each element is checked on its own -- its shape, its sum -- then each seat's
    trick room on the elements that read, and each listed card (not scoring, listed twice,
    not assigned); a defect before the entry (contract, trump, leader, auction) stops there.
    An empty list: the hand is fine (hands after it are not looked at).
    """
    try:
        profile, options, players, first, _canonical = _header(data)
        assert isinstance(data, dict)
        hands = data["hands"]
        builder = GameBuilder(profile, options, players, first)
        for i, raw in enumerate(hands[:index]):
            builder.add(raw, i)
    except RecordError as e:
        return [e]
    if index >= len(hands):
        return []
    problems: list[RecordError] = []
    builder.problems = problems
    try:
        builder.add(hands[index], index)
    except RecordError as e:
        problems.append(e)
    return problems


def parse_record(data: object) -> Record:
    return load(data).record


def normalize_record(data: object) -> dict[str, Any]:
    return load(data).canonical_record()


def replay(record: Record) -> GameResult:
    return load(record.raw_data())


def builder_for(record: Record) -> GameBuilder:
    """A builder positioned after the record's hands (for what may come next)."""
    builder = GameBuilder(record.profile, record.options, list(record.players),
                          record.first_seat)
    for i, raw in enumerate(record.raw_hands):
        builder.add(raw, i)
    return builder


__all__ = ["GameResult", "HandResult", "NextHand", "Record", "RecordError", "Ruling", "load",
           "normalize_record", "parse_record", "replay", "builder_for", "entry_problems"]
