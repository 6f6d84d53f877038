"""What may come next: the next hand's legal setups as values, and one hand added or
previewed on the cached state of the hands before it (issue 20 items 1 and 3).

:class:`NextChoices` answers, after the hands played so far, what the record check of the
next hand (``hands[i]``) accepts: the auction calls legal now, the contracts, the leaders of
each, the trump suits, the rifki choices within the quotas. Each has a ``verify_…`` that
raises exactly the :class:`RecordError` :func:`app.rules.load` raises for a record with that
setup (same field ``hands[i]…``, code, template, params) and a ``can_…``. The answers come
from the builder's own steps (:meth:`GameBuilder.read_setup`), never from replaying a record.

:func:`preview`, :func:`preview_problems` and :func:`append` check (and score) one new hand
on a :class:`GameState` -- which every :class:`GameResult` carries -- without replaying the
hands before it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.rules.cards import SUITS
from app.rules.counting import count_hand
from app.rules.errors import RecordError
from app.rules.game.builder import GameBuilder
from app.rules.game.entries import HandFacts
from app.rules.game.replay import builder_for, hand_problems
from app.rules.game.results import GameResult, GameState, HandResult, NextHand, Record
from app.rules.profiles import RIFKI_KOZ_LIMIT, RIFKI_LIMIT_PER_PENALTY, RIFKI_PENALTIES
from app.rules.referee.auction import Auction
from app.rules.referee.sale import AuctionOutcome, no_sale_outcome

#: Where the next hand stands: a builder positioned after the hands (read, not changed), a
#: result or its state, or a record (replayed once).
State = GameBuilder | GameResult | GameState | Record


def _builder(state: State) -> GameBuilder:
    """A builder after the hands of ``state``: the caller's own (read only) or a new one."""
    if isinstance(state, GameBuilder):
        return state
    return _fresh(state)


def _fresh(state: State) -> GameBuilder:
    """A new builder after the hands of ``state`` (adding to it changes nothing shared)."""
    if isinstance(state, GameBuilder):
        return GameBuilder.resume(state.snapshot())
    if isinstance(state, GameResult):
        if state.state is None:
            return builder_for(state.record)
        state = state.state
    if isinstance(state, GameState):
        return GameBuilder.resume(state)
    return builder_for(state)


@dataclass(frozen=True, slots=True)
class Choice:
    contract: str
    allowed: bool
    rule: str | None
    message: str | None
    played: int               # times played so far in the game
    limit: int                # per-game limit of this contract
    #: why not, translatable (field "contract"); not compared (``rule`` and ``message`` are)
    error: RecordError | None = field(default=None, compare=False)


def contract_choices(record: State) -> list[Choice]:
    """The rifki contracts the next chooser may name, each with why not when refused."""
    builder = _builder(record)
    if builder.complete or not builder.profile.chosen:
        return []
    slot = builder.slot()
    out = []
    for cid in RIFKI_PENALTIES + ("koz",):
        problem = builder.choice_problem(cid, slot)
        limit = RIFKI_KOZ_LIMIT if cid == "koz" else RIFKI_LIMIT_PER_PENALTY
        out.append(Choice(cid, problem is None, problem.code if problem else None,
                          problem.message if problem else None,
                          builder.contract_count.get(cid, 0), limit, problem))
    return out


@dataclass(frozen=True, slots=True)
class Setups:
    """Every legal setup of the next hand at once (``calls``: the auction so far)."""

    index: int                              # the hand's index in the record
    next: NextHand | None                   # its schedule slot (None: the game is over)
    calls: tuple[str, ...]                  # the auction calls legal now (fiestas)
    auction_over: bool                      # a fiesta's auction is over (or none was held)
    contracts: tuple[str, ...]              # the contracts allowed now
    leaders: Mapping[str, tuple[int, ...]]  # per contract: who may lead, the default first
    trumps: Mapping[str, tuple[str, ...]]   # per contract: the trump suits ("S" "H" "D" "C")
    choices: tuple[Choice, ...]             # rifki: every contract, allowed or why not


class NextChoices:
    """What may come next after the hands of ``state`` (see the module's doc).

    ``calls`` is the next hand's auction as the record would hold it: None when no auction
    is held (no ``auction`` key), else the calls so far. Calls so far that the record check
    refuses raise its error (``hands[i].auction[j]``) from every method that reads them.
    """

    def __init__(self, state: State) -> None:
        self.builder = _builder(state)
        self.profile = self.builder.profile
        self.index = len(self.builder.hands)
        self.field = f"hands[{self.index}]"

    # --- the auction -------------------------------------------------------------------
    def _auction(self, calls: Sequence[str]) -> Auction | None:
        """The auction after ``calls`` (None: the next hand is no fiesta); a bad call raises
        its error at ``hands[i].auction[j]``."""
        slot = self.builder.slot()
        if self.builder.complete or not slot.fiesta:
            return None
        assert slot.owner is not None
        auction = Auction(self.profile, slot.owner)
        for j, text in enumerate(calls):
            try:
                auction.call(text)
            except RecordError as e:
                raise e.moved(f"{self.field}.auction[{j}]") from None
        return auction

    def legal_calls(self, calls: Sequence[str] = ()) -> tuple[str, ...]:
        """The calls legal after ``calls`` (none once the auction is over, or no fiesta)."""
        auction = self._auction(calls)
        return () if auction is None else tuple(auction.legal_calls())

    def verify_call(self, calls: Sequence[str], call: str) -> None:
        """Raises what the record check raises for ``call`` after ``calls``."""
        auction = self._auction(calls)
        if auction is None:
            self.builder.read_setup(self._probe(None, [*calls, call]), self.index)
            return
        try:
            auction.call(call)
        except RecordError as e:
            raise e.moved(f"{self.field}.auction[{len(calls)}]") from None

    def can_call(self, calls: Sequence[str], call: str) -> bool:
        return _ok(self.verify_call, calls, call)

    def outcome(self, calls: Sequence[str] | None) -> AuctionOutcome | None:
        """What the auction decided (None: not over yet, or no fiesta)."""
        if calls is None:           # no auction held
            owner = self.builder.slot().owner
            if not self._fiesta() or owner is None:
                return None
            return no_sale_outcome(owner, "no-bids", 0, self.profile)
        auction = self._auction(calls)
        return auction.outcome if auction is not None and auction.finished else None

    def _fiesta(self) -> bool:
        return not self.builder.complete and self.builder.slot().fiesta

    # --- the contract ------------------------------------------------------------------
    def contracts(self, calls: Sequence[str] | None = None) -> tuple[str, ...]:
        """The contracts the next hand may be (after the auction ``calls``)."""
        builder = self.builder
        if builder.complete:
            return ()
        slot = builder.slot()
        if slot.fiesta:
            outcome = self.outcome(calls)
            return () if outcome is None else outcome.contracts
        if calls is not None:
            return ()
        if slot.contract is not None:
            return (slot.contract,)
        return tuple(c for c in self.profile.contracts if builder.choice_problem(c, slot) is None)

    def verify_contract(self, contract: str, calls: Sequence[str] | None = None) -> None:
        self._facts(contract, calls)

    def can_contract(self, contract: str, calls: Sequence[str] | None = None) -> bool:
        return _ok(self.verify_contract, contract, calls)

    # --- the leader --------------------------------------------------------------------
    def leaders(self, contract: str, calls: Sequence[str] | None = None) -> tuple[int, ...]:
        """Who may lead ``contract`` (the default first); none for a 433 or a contract not
        allowed."""
        try:
            return self._facts(contract, calls).leaders
        except RecordError:
            return ()

    def verify_leader(self, contract: str, leader: int,
                      calls: Sequence[str] | None = None) -> None:
        self._facts(contract, calls, leader=leader)

    def can_lead(self, contract: str, leader: int, calls: Sequence[str] | None = None) -> bool:
        return _ok(self.verify_leader, contract, leader, calls)

    # --- the trump ---------------------------------------------------------------------
    def trumps(self, contract: str) -> tuple[str, ...]:
        """The trump suits ``contract`` may name (none when it is played without)."""
        played = self.profile.contracts.get(contract)
        return tuple(SUITS) if played is not None and played.trump_game else ()

    def verify_trump(self, contract: str, trump: object,
                     calls: Sequence[str] | None = None) -> None:
        self._facts(contract, calls, trump=trump)

    def can_trump(self, contract: str, trump: object, calls: Sequence[str] | None = None) -> bool:
        return _ok(self.verify_trump, contract, trump, calls)

    # --- everything at once ------------------------------------------------------------
    def choices(self) -> tuple[Choice, ...]:
        return tuple(contract_choices(self.builder))

    def setups(self, calls: Sequence[str] | None = None) -> Setups:
        contracts = self.contracts(calls)
        fiesta = self._fiesta()
        legal = self.legal_calls(calls) if fiesta and calls is not None else ()
        return Setups(self.index, self.builder.next_hand(), legal,
                      fiesta and (calls is None or not legal),
                      contracts, MappingProxyType({c: self.leaders(c, calls) for c in contracts}),
                      MappingProxyType({c: self.trumps(c) for c in contracts}), self.choices())

    # --- the record check of a setup ---------------------------------------------------
    def _probe(self, contract: str | None, calls: Sequence[str] | None, *,
               leader: int | None = None, trump: object = None) -> dict[str, Any]:
        """The setup part of the next hand as the record holds it (no entry)."""
        hand: dict[str, Any] = {}
        if contract is not None:
            hand["contract"] = contract
            if trump is None and self.trumps(contract):
                trump = SUITS[0]
        if trump is not None:
            hand["trump"] = trump
        if calls is not None:
            hand["auction"] = list(calls)
        if leader is not None:
            hand["leader"] = leader
        return hand

    def _facts(self, contract: str | None, calls: Sequence[str] | None, *,
               leader: int | None = None, trump: object = None) -> HandFacts:
        """The builder's reading of the setup (its ``.leaders``, ``.outcome``); raises the
        record check's error."""
        return self.builder.read_setup(
            self._probe(contract, calls, leader=leader, trump=trump), self.index)


def _ok(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except RecordError:
        return False
    return True


# --- one hand on the cached state --------------------------------------------------------

def preview(state: State, raw: object) -> HandResult:
    """The next hand ``raw`` checked and scored on ``state`` (the hands before it are not
    replayed); raises what :func:`app.rules.load` raises for it (field ``hands[i]…``)."""
    builder = _fresh(state)
    count_hand()
    return builder.add(raw, len(builder.hands))


def preview_problems(state: State, raw: object) -> list[RecordError]:
    """Every problem of the next hand ``raw``, as :func:`app.rules.entry_problems` gives them
    for it, without replaying the hands before it."""
    builder = _fresh(state)
    count_hand()
    return hand_problems(builder, raw, len(builder.hands))


def append(result: GameResult, raw: object) -> GameResult:
    """The result of ``result``'s record with the hand ``raw`` added: what :func:`load`
    gives for that record, the hands before it not replayed."""
    builder = _fresh(result)
    count_hand()
    builder.add(raw, len(builder.hands))
    r = result.record
    return builder.result(Record(r.profile, r.options, r.players, r.first_seat, r.header,
                                 (*r.raw_hands, raw)))
