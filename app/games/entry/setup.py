"""A hand's setup -- the auction, the contract, the trump, the leader -- asked of the engine.

One service for every page that sets a hand up (the counts/cards entry and the trick-by-trick
page): it takes the hand's context and the values the scorer submitted and returns either the
complete :class:`Setup` or the step still to do with the engine's problems. What may be
called, played and who may lead is the engine's answer, never a copy of its rules:

- the auction's calls and outcome come from :mod:`app.rules.referee.auction`;
- the rifki choices and their limits from :func:`app.rules.schedule.contract_choices`;
- who may lead each contract is the engine's answer too (:class:`app.rules.game.choices.NextChoices`,
  whose ``verify_leader`` raises the record check's own error), so the page offers exactly
  the leaders the save will accept, and nothing is replayed to find out.

Problems are :class:`app.rules.RecordError` values (field, code, template, params): the web
translates them like any engine error.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.games.entry import entry
from app.rules import RecordError, RuleError
from app.rules.errors import contract_term
from app.rules.game.choices import Choice, NextChoices
from app.rules.referee.sale import SaleTerms, sale_terms

SUITS = ("S", "H", "D", "C")
SEATS = ("0", "1", "2", "3")

#: The steps of setting a hand up, in order; ``ready`` means the setup is complete.
STEPS = ("auction", "fiesta", "choose", "ready")


@dataclass(frozen=True)
class Setup:
    """A complete setup for a hand, as the entry pages carry it."""

    contract: str
    trump: str | None
    leader: int | None                # who leads trick 1 (None: a 433 is not played)
    record_leader: int | None         # the `leader` key written to the record (fiestas)
    auction: list[str] | None         # fiesta calls (None: no auction held / not a fiesta)
    auction_raw: str = ""
    params: dict[str, str] = field(default_factory=dict)   # for URLs


@dataclass(frozen=True)
class SetupStep:
    """Where setting the hand up stands: the step to show, or ``ready`` with the setup.

    ``problems`` are the engine's (or this service's) objections to what was submitted;
    an empty tuple on a step that is not ready means the step only waits for a choice.
    """

    step: str
    setup: Setup | None = None
    problems: tuple[RecordError, ...] = ()
    owner: int | None = None                        # fiestas: whose fiesta it is
    auction: entry.AuctionState | None = None       # fiestas: the auction so far
    outcome: Any = None                             # fiestas: what the auction decided
    #: fiestas: the contracts the auction allows, each with the leaders the engine accepts
    leaders: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    chooser: int | None = None                      # rifki: who chooses
    choices: tuple[Choice, ...] = ()                # rifki: every contract, allowed or why not
    quota: Mapping[str, Any] = field(default_factory=dict)
    terms: SaleTerms | None = None                  # fiestas: what the buyer pays, after a sale

    @property
    def ready(self) -> bool:
        return self.setup is not None

    @property
    def leader_seats(self) -> tuple[int, ...]:
        """Every seat that may lead one of the allowed contracts (for the step's choices)."""
        return tuple(sorted({s for seats in self.leaders.values() for s in seats}))


def resolve(ctx: entry.Context, contract: str | None, trump: str | None, leader: str | None,
            auction_raw: str | None) -> SetupStep:
    """The setup of hand ``ctx.index`` from the submitted values (strings, maybe junk)."""
    trump = trump if trump in SUITS else None
    seat = int(leader) if leader in SEATS else None
    contract = contract or None
    if ctx.next.fiesta:
        step = _fiesta(ctx, contract, trump, seat, auction_raw or "")
        if step.outcome is not None and step.outcome.sale:
            step = replace(step, terms=sale_terms(ctx.profile, ctx.prefix_result.options,
                                                  step.outcome.bid))
        return step
    if ctx.profile.seat_key == "first_chooser":
        return _rifki(ctx, contract, trump)
    nxt = ctx.next
    assert nxt.contract is not None
    return SetupStep("ready", Setup(nxt.contract, None, nxt.leader, None, None, "",
                                    _params(nxt.contract, None, None, "")))


def _fiesta(ctx: entry.Context, contract: str | None, trump: str | None, seat: int | None,
            raw: str) -> SetupStep:
    owner = ctx.next.owner
    assert owner is not None
    calls = parse_calls(raw)
    state = entry.auction_state(ctx.profile.id, owner, calls)
    if state.error is not None:
        return SetupStep("auction", problems=(state.error,), owner=owner, auction=state)
    if not state.finished:
        return SetupStep("auction", owner=owner, auction=state)
    outcome = entry.outcome_of(state)
    auction = None if calls is None else list(state.calls)
    return _fiesta_contract(ctx, SetupStep("fiesta", owner=owner, auction=state, outcome=outcome),
                            contract, trump, seat, raw, auction)


def _fiesta_contract(ctx: entry.Context, step: SetupStep, contract: str | None,
                     trump: str | None, seat: int | None, raw: str,
                     auction: list[str] | None) -> SetupStep:
    """After the auction: the contract it allows, its trump and leader."""
    owner, state, outcome = step.owner, step.auction, step.outcome
    leaders = leaders_by_contract(ctx, outcome.contracts, auction)
    step = SetupStep("fiesta", owner=owner, auction=state, outcome=outcome, leaders=leaders)
    if contract is None:
        return step
    problem = _fiesta_contract_problem(ctx, contract, trump, outcome.contracts)
    if problem is not None:
        return _with(step, problem)
    accepted = leaders[contract]
    if accepted and seat is not None and seat not in accepted:
        return _with(step, *_leader_problem(ctx, contract, seat, auction))
    # a 433 (nobody leads, whatever the form said); the seat named; else the default
    lead = None if not accepted else (accepted[0] if seat is None else seat)
    t = trump if ctx.profile.contracts[contract].trump_game else None
    setup = Setup(contract, t, lead, lead, auction, raw, _params(contract, t, lead, raw))
    return SetupStep("ready", setup, owner=owner, auction=state, outcome=outcome, leaders=leaders)


def _fiesta_contract_problem(ctx: entry.Context, contract: str, trump: str | None,
                             allowed: tuple[str, ...]) -> RecordError | None:
    """Why the fiesta may not be ``contract`` (after this auction), or its trump is missing."""
    if contract not in allowed:
        return RuleError.of("contract", "fiesta-contract",
                            "%(c)s may not be played after this auction.",
                            c=_contract_word(ctx, contract))
    return _trump_missing(ctx, contract, trump)


def _trump_missing(ctx: entry.Context, contract: str, trump: str | None) -> RecordError | None:
    if ctx.profile.contracts[contract].trump_game and trump is None:
        return RuleError.of("trump", "choose-trump", "Choose the trump suit.")
    return None


def _rifki(ctx: entry.Context, contract: str | None, trump: str | None) -> SetupStep:
    chooser = ctx.next.chooser
    assert chooser is not None
    choices = tuple(entry.rifki_choices(ctx))
    step = SetupStep("choose", chooser=chooser, choices=choices,
                     quota=entry.chooser_quota(ctx, chooser))
    if contract is None:
        return step
    choice = next((c for c in choices if c.contract == contract), None)
    if choice is None:
        return _with(step, RuleError.of("contract", "unknown-contract",
                                    "%(c)s is not a contract of this game.",
                                    c=_contract_word(ctx, contract)))
    if not choice.allowed:
        assert choice.error is not None
        return _with(step, choice.error)
    missing = _trump_missing(ctx, contract, trump)
    if missing is not None:
        return _with(step, missing)
    t = trump if ctx.profile.contracts[contract].trump_game else None
    setup = Setup(contract, t, ctx.next.leader, None, None, "", _params(contract, t, None, ""))
    return SetupStep("ready", setup, chooser=chooser, choices=choices, quota=step.quota)


def _contract_word(ctx: entry.Context, cid: str) -> str:
    """A contract id as a word of a message (translated by the web), or as typed."""
    known = ctx.profile.contracts.get(cid)
    return contract_term(cid, known.name_en) if known is not None else cid


def _with(step: SetupStep, *problems: RecordError) -> SetupStep:
    return SetupStep(step.step, None, problems, step.owner, step.auction, step.outcome,
                     step.leaders, step.chooser, step.choices, step.quota)


def _next(ctx: entry.Context) -> NextChoices:
    """The engine's answers about the hand after the ones before ``ctx.index``."""
    return NextChoices(ctx.prefix_result)


def leaders_by_contract(ctx: entry.Context, contracts: tuple[str, ...],
                        auction: list[str] | None) -> dict[str, tuple[int, ...]]:
    """Each contract with the leaders the record check accepts for it (the default first);
    empty for a contract nobody leads."""
    nxt = _next(ctx)
    return {cid: nxt.leaders(cid, auction) for cid in contracts}


def _leader_problem(ctx: entry.Context, contract: str, seat: int,
                    auction: list[str] | None) -> tuple[RecordError, ...]:
    """The engine's own words for a refused leader."""
    try:
        _next(ctx).verify_leader(contract, seat, auction)
    except RecordError as e:
        return (e.moved("leader"),)
    return (RuleError.of("leader", "leader", "%(name)s may not lead this hand.",
                         name=ctx.players[seat]),)


def of_hand(ctx: entry.Context) -> Setup:
    """The setup of the stored hand at ``ctx.index`` (to correct it): as the engine read it,
    or as the record gives it when the record no longer replays."""
    hand = ctx.existing or {}
    res = ctx.existing_result
    auction = hand.get("auction")
    raw = auction_text(auction, ctx.next is not None and ctx.next.fiesta)
    if res is None:
        contract, trump, leader = hand.get("contract") or "", hand.get("trump"), hand.get("leader")
    else:
        contract, trump = res.contract.id, res.trump
        leader = res.leader if res.leader is not None else ctx.next.leader
    return Setup(contract, trump, leader, hand.get("leader"), auction, raw,
                 _params(contract, trump, hand.get("leader"), raw))


def parse_calls(text: str | None) -> list[str] | None:
    """The auction as the address carries it: ``none`` (no auction held), else its calls
    separated by commas."""
    if text == "none":
        return None
    return [c.strip() for c in (text or "").split(",") if c.strip()]


def auction_text(calls: list[str] | None, fiesta: bool) -> str:
    """The address's text of a fiesta's calls (:func:`parse_calls` reads it back)."""
    if calls is not None:
        return ",".join(calls)
    return "none" if fiesta else ""


def form_data(setup: Setup, mode: str) -> dict[str, str]:
    """The setup form's values showing ``setup`` (a stored hand's, to correct it)."""
    return {"contract": setup.contract, "trump": setup.trump or "",
            "leader": "" if setup.record_leader is None else str(setup.record_leader),
            "auction": setup.auction_raw, "mode": mode}


def _params(contract: str, trump: str | None, leader: int | None, auction: str) -> dict[str, str]:
    out = {"contract": contract}
    if trump:
        out["trump"] = trump
    if leader is not None:
        out["leader"] = str(leader)
    if auction:
        out["auction"] = auction
    return out


def ready_setups(ctx: entry.Context) -> list[Setup]:
    """Every complete setup of hand ``ctx.index`` that needs no auction: each contract the
    engine allows now, with each trump it allows. A phone keeps the entry pages of these so
    that the hand can be entered while the network is down. A fiesta's auction is asked
    call by call, so none of its setups is listed."""
    if ctx.next is None or ctx.next.fiesta:
        return []
    nxt = _next(ctx)
    found: dict[tuple[tuple[str, str], ...], Setup] = {}
    for contract in nxt.contracts():
        for trump in nxt.trumps(contract) or (None,):
            ready = resolve(ctx, contract, trump, None, None).setup
            if ready is not None:
                found.setdefault(tuple(sorted(ready.params.items())), ready)
    return list(found.values())
