"""Replaying a game record: the schedule, every hand's checks and scores, the totals.

:func:`load` reads a record (RECORD.md) in order -- format, profile, options, players, first
seat, then each hand -- and reports the first defect as a :class:`RecordError` naming its
field. Scores are never read from the record: they are computed here, every time.
:class:`GameBuilder` reads one hand after another (contract, trump, auction, leader, entry
-- :mod:`app.rules.game.entries` --, ruling -- :mod:`app.rules.game.rulings` --), then the totals.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from app.rules.errors import InputError, RecordError, RuleError, Term
from app.rules.game.entries import Entered, EntryChecks, HandFacts
from app.rules.game.entry_fields import contract_word, counts_of, entry_mode
from app.rules.game.record import (
    HAND_KEYS,
    check_keys,
    need_dict,
    need_list,
    need_seat,
    parse_suit,
    suit_text,
    type_name,
)
from app.rules.game.results import AS_PLAYED, GameResult, GameState, HandResult, NextHand, Record, Ruling
from app.rules.game.rulings import read_ruling
from app.rules.limits import REPLAY_MAX
from app.rules.profiles import Contract, Options, Profile
from app.rules.quota import Quota, choice_problem
from app.rules.referee.auction import run_auction
from app.rules.referee.judge import Referee
from app.rules.referee.sale import (
    OTHER_433_POINTS,
    OWNER_433_POINTS,
    AuctionOutcome,
    fiesta_contract_error,
    sale_of,
    sale_terms,
)
from app.rules.schedule import Slot, slot_for
from app.rules.scoring import hand_points


class GameBuilder(EntryChecks):
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
        facts = self.read_setup(hand, i)
        contract = facts.contract
        facts.mode = entry_mode(hand, contract, fld)
        entry = self._entry(hand, facts, fld)
        if self.problems:
            if "ruling" in hand:
                try:
                    read_ruling(hand["ruling"], contract, f"{fld}.ruling")
                except RecordError as e:
                    self.problems.append(e)
            return self._hand_result(facts, entry, [0, 0, 0, 0], [0, 0, 0, 0], True, AS_PLAYED,
                                     False)
        played_points, made_king = self._played_points(facts, entry)
        self._settle(facts, entry)
        ruling = AS_PLAYED
        if "ruling" in hand:
            ruling = read_ruling(hand["ruling"], contract, f"{fld}.ruling")
        points, counted = self._ruled_points(ruling, contract, played_points, fld)
        if counted:
            self._count(facts, points)
        result = self._hand_result(facts, entry, played_points, points, counted, ruling,
                                   made_king)
        self.hands.append(result)
        return result

    def read_setup(self, hand: dict[str, Any], i: int) -> HandFacts:
        """The steps of the hand at ``i`` before its entry: the game is not over, the keys,
        the contract, trump, auction and leader (``.leaders``: the seats that may lead)."""
        fld = f"hands[{i}]"
        if self.complete:
            raise RuleError.of(fld, "game-over", "the game is over after %(n)s hands",
                               n=self.profile.n_hands)
        check_keys(hand, HAND_KEYS, fld + ".")
        slot = self.slot()
        contract = self._contract(hand, slot, fld)
        trump = self._trump(hand, contract, fld)
        outcome, calls = self._auction(hand, slot, contract, fld)
        declarer, bid, payments, leaders = sale_of(outcome, slot, contract)
        leader = self._leader(hand, leaders, contract, fld)
        return HandFacts(i, self.number, slot, contract, trump, declarer, bid, payments, leader,
                      tuple(calls), "none", leaders)

    # --- the steps of a hand ---------------------------------------------------------------
    @staticmethod
    def _trump(hand: dict[str, Any], contract: Contract, fld: str) -> int:
        """The trump suit (-1: none)."""
        if contract.trump_game:
            if "trump" not in hand:
                raise InputError.of(f"{fld}.trump", "missing-key",
                                    "missing: %(contract)s needs a trump suit (S, H, D or C)",
                                    contract=contract_word(contract))
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
                raise fiesta_contract_error(outcome, f"{fld}.contract")
            return outcome, calls
        if "auction" in hand:
            raise InputError.of(f"{fld}.auction", "unexpected-key",
                                "only a fiesta (hands 7-10 of fiestas and subastas) has an auction")
        return None, []

    def _entry(self, hand: dict[str, Any], facts: HandFacts, fld: str) -> Entered:
        """What the counts, captures or tricks say."""
        contract, mode = facts.contract, facts.mode
        n_tricks = self.profile.n_tricks
        if mode == "counts":
            entry = self._counts(hand["counts"], contract, f"{fld}.counts")
            return Entered(entry, counts_of(entry, contract), None, None, n_tricks)
        if mode == "captures":
            entry, counts, masks = self._captures(hand["captures"], contract, f"{fld}.captures")
            return Entered(entry, counts, masks, None, n_tricks)
        if mode == "tricks":
            played = self._tricks(hand, contract, facts.trump, facts.leader, facts.slot, fld)
            return Entered(None, played.counts, played.captured_masks, played,
                          len(played.tricks))
        return Entered(None, {}, None, None, 0)

    def _played_points(self, facts: HandFacts, entry: Entered) -> tuple[list[int], bool]:
        """Each seat's points as played, and whether the hand made a King."""
        contract = facts.contract
        if not contract.played:
            owner = facts.slot.owner
            assert owner is not None
            return [OWNER_433_POINTS if s == owner else OTHER_433_POINTS for s in range(4)], False
        made_king = (contract.trump_game and self.profile.kings
                     and self.profile.n_tricks in entry.counts.get("tricks", ()))
        return hand_points(contract, entry.counts), made_king

    def _settle(self, facts: HandFacts, entry: Entered) -> None:
        """A sale's payment once the hand is known (:func:`app.rules.referee.sale.sale_terms`):
        after a -N sale of subastas it may depend on the tricks the owner took as played (a
        ruling replaces the points only; RULES.md §4 "Replays")."""
        if facts.bid is None or facts.declarer is None:
            return
        terms = sale_terms(self.profile, self.options, facts.bid)
        if not terms.per_trick:
            return
        owner = facts.slot.owner
        assert owner is not None
        pay = terms.payment(entry.counts["tricks"][owner])
        facts.payments = [0, 0, 0, 0]
        facts.payments[facts.declarer] -= pay
        facts.payments[owner] += pay

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

    def _count(self, facts: HandFacts, points: list[int]) -> None:
        """A counted hand: the totals, the limits of chosen contracts, the next hand."""
        self.replays = 0
        totals, payments = self.totals, facts.payments
        for s in range(4):
            totals[s] += points[s] + payments[s]
        self.expected_sum += facts.contract.total
        if self.profile.chosen:
            self._count_choice(facts.contract, facts.slot)
        self.number += 1

    def _hand_result(self, facts: HandFacts, entry: Entered, played_points: list[int],
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
        assert slot.chooser is not None
        return choice_problem(cid, slot.chooser, self.contract_count, self.seat_penalties,
                              self.seat_koz, self.options, self.players)

    def _count_choice(self, contract: Contract, slot: Slot) -> None:
        assert slot.chooser is not None
        self.contract_count[contract.id] = self.contract_count.get(contract.id, 0) + 1
        if contract.id == "koz":
            self.seat_koz[slot.chooser] += 1
        else:
            self.seat_penalties[slot.chooser] += 1

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
                          winners, self.next_hand(), self.quota(), self.snapshot())

    def snapshot(self) -> GameState:
        """The state after the hands added so far, frozen (cheap: no hand is replayed)."""
        return GameState(self.profile, self.options, tuple(self.players), self.first_seat,
                         self.number, tuple(self.hands), tuple(self.totals), self.expected_sum,
                         self.replays, MappingProxyType(dict(self.contract_count)),
                         tuple(self.seat_penalties), tuple(self.seat_koz))

    @classmethod
    def resume(cls, state: GameState) -> GameBuilder:
        """A builder positioned after the hands of ``state`` (they are not replayed)."""
        builder = cls(state.profile, state.options, list(state.players), state.first_seat)
        builder.number, builder.hands = state.number, list(state.hands)
        builder.totals, builder.expected_sum = list(state.totals), state.expected_sum
        builder.replays, builder.contract_count = state.replays, dict(state.contract_count)
        builder.seat_penalties, builder.seat_koz = list(state.seat_penalties), list(state.seat_koz)
        return builder

    def quota(self) -> Quota:
        """Rifki's quota state now (counted hands only)."""
        return Quota(tuple(self.seat_penalties), tuple(self.seat_koz),
                     self.options.choice_limit == "3+2", MappingProxyType(dict(self.contract_count)))
