"""What entering one hand needs to know of the stored game, asked of the engine (reads only).

- the hand's place in the game (number, dealer, owner, chooser, fiesta) from replaying the
  hands before it;
- the auction so far and its legal calls (app.rules.referee.auction);
- the rifki choices with limits (app.rules.schedule.contract_choices).

What a contract's entry asks for and the hand built from what was typed are the engine's
(:mod:`app.rules.entry`).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from app.games.queries import replay_record
from app.rules import RecordError
from app.rules.game.choices import contract_choices
from app.rules.referee.auction import Auction, run_auction


@dataclass
class Context:
    """The hand at `index` as the game stands before it."""

    index: int
    profile: Any
    options: dict[str, str]
    players: list[str]
    next: Any                    # NextHand
    prefix_result: Any           # GameResult of the hands before
    existing: dict[str, Any] | None = None
    existing_result: Any = None  # HandResult of the stored hand (when editing)
    record: dict[str, Any] = field(default_factory=dict)   # the whole record (JSON value)


def context(record: dict[str, Any], index: int) -> Context:
    """The hand at ``index`` as the game stands before it. Replays go through the kept
    results (:func:`app.games.queries.replay_record`): a new hand's context is the stored
    game's own result, so opening the entry of the next hand replays nothing again."""
    hands = record.get("hands", [])
    whole = None
    with contextlib.suppress(RecordError):         # the entry still opens; its save will say
        whole = replay_record(record)
    if index >= len(hands) and whole is not None:
        result = whole
    else:
        result = replay_record({**record, "hands": hands[:index]})
    existing = hands[index] if index < len(hands) else None
    existing_result = whole.hands[index] if existing is not None and whole is not None else None
    return Context(index, result.profile, dict(record.get("options") or {}), list(record["players"]),
                   result.next, result, existing, existing_result, record)


# --- the auction ---------------------------------------------------------------------------

@dataclass
class AuctionState:
    auction: Auction | None
    calls: list[str]
    error: RecordError | None = None
    held: bool = True

    @property
    def finished(self) -> bool:
        return self.auction is None or self.auction.finished

    @property
    def outcome(self) -> Any:
        return self.auction.outcome if self.auction is not None else None


def auction_state(profile_id: str, owner: int, calls: list[str] | None) -> AuctionState:
    """The auction after `calls` (None: no auction was held). Stops at the first bad call."""
    if calls is None:
        outcome, _ = run_auction(profile_id, owner, None, "auction")
        state = AuctionState(None, [], held=False)
        state.no_auction_outcome = outcome  # type: ignore[attr-defined]
        return state
    auction = Auction(profile_id, owner)
    done: list[str] = []
    for j, text in enumerate(calls):
        try:
            auction.call(text)
        except RecordError as e:
            return AuctionState(auction, done, e.moved(f"auction[{j}]"))
        done.append(text)
    return AuctionState(auction, done)


def outcome_of(state: AuctionState) -> Any:
    if state.auction is None:
        return state.no_auction_outcome  # type: ignore[attr-defined]
    return state.auction.outcome


# --- rifki ----------------------------------------------------------------------------------

def rifki_choices(ctx: Context) -> list[Any]:
    """Every rifki contract, allowed or why not (the engine's answer)."""
    return contract_choices(ctx.prefix_result)


def chooser_quota(ctx: Context, seat: int) -> dict[str, Any]:
    """How many penalties and koz `seat` has chosen so far (counted hands only): the quota
    state the engine keeps on the result."""
    return dict(ctx.prefix_result.quota.of(seat))
