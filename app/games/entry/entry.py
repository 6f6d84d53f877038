"""What entering one hand needs to know, asked of the engine (reads only, no writes).

- the hand's place in the game (number, dealer, owner, chooser, fiesta) from replaying the
  hands before it;
- the auction so far and its legal calls (app.rules.referee.auction);
- the rifki choices with limits (app.rules.schedule.contract_choices);
- which elements and cards the contract scores, so the form shows only those;
- the hand dict (RECORD.md) built from what was entered, and back.
"""
from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.queries import replay_record
from app.rules import RecordError
from app.rules.cards import cards_of
from app.rules.game.choices import contract_choices
from app.rules.profiles import COUNT_ELEMENTS, full_counts
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


# --- the entry form's shape ---------------------------------------------------------------

@dataclass
class EntrySpec:
    contract: Any
    counts: list[str]            # per-seat count rows in counts mode
    kh: bool                     # the K♥ seat (counts mode)
    last_two: bool
    cards: list[str]             # scoring cards (captures mode)
    capture_counts: list[str]    # per-seat rows in captures mode ("tricks" where scored)
    full: Mapping[str, int] = field(default_factory=dict)

    @property
    def has_cards(self) -> bool:
        return bool(self.cards)

    def values(self) -> dict[str, int]:
        return dict(self.contract.values)


def entry_spec(profile: Any, contract_id: str) -> EntrySpec:
    """What the entry form of ``contract_id`` asks for: only what the contract scores (a 433,
    not played, asks for nothing)."""
    contract = profile.contracts[contract_id]
    full = full_counts(profile.deck_size)
    if not contract.played:
        return EntrySpec(contract, [], False, False, [], [], full)
    scored = {e for e, v in contract.values.items() if v}
    return EntrySpec(contract, [e for e in COUNT_ELEMENTS if e in scored], "kh" in scored,
                     "last_two" in scored, [str(c) for c in cards_of(contract.scoring_mask)],
                     ["tricks"] if "tricks" in scored else [], full)


def entry_of(spec: EntrySpec, mode: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The counts or captures entry (RECORD.md) from the form's values (field name -> value)."""
    if mode == "captures" and spec.has_cards:
        return _captures(spec, data)
    return _counts(spec, data)


def _rows(elements: list[str], data: Mapping[str, Any]) -> dict[str, Any]:
    return {el: [data.get(f"{el}_{s}") for s in range(4)] for el in elements}


def _last_two(spec: EntrySpec, data: Mapping[str, Any]) -> dict[str, Any]:
    return {"last_two": [data.get("last_two_0"), data.get("last_two_1")]} if spec.last_two else {}


def _captures(spec: EntrySpec, data: Mapping[str, Any]) -> dict[str, Any]:
    cards: list[list[str]] = [[], [], [], []]
    for card in spec.cards:
        seat = data.get(f"card_{card}")
        if seat is not None:
            cards[seat].append(card)
    return {"cards": cards, **_rows(spec.capture_counts, data), **_last_two(spec, data)}


def _counts(spec: EntrySpec, data: Mapping[str, Any]) -> dict[str, Any]:
    counts = _rows(spec.counts, data)
    if spec.kh:
        counts["kh"] = data.get("kh")
    return {**counts, **_last_two(spec, data)}


def entry_values(spec: EntrySpec, hand: dict[str, Any] | None, result: Any) -> dict[str, Any]:
    """Field values that show a stored hand again (for corrections): as entered, else as
    the engine read it (a hand entered as tricks shows its counts and captured cards)."""
    if not hand:
        return {}
    counts = result.counts if result is not None else {}
    source = hand.get("counts") or hand.get("captures") or {}
    return {**_row_values(spec, source, counts), **_seat_values(source, counts, result),
            **_card_values(hand, result)}


def _row_values(spec: EntrySpec, source: Mapping[str, Any],
                counts: Mapping[str, Any]) -> dict[str, Any]:
    """Each per-seat count row the form shows (``tricks_0`` ... ``jacks_3``)."""
    values: dict[str, Any] = {}
    for el in set(spec.counts) | set(spec.capture_counts):
        row = source.get(el) or counts.get(el)
        if row:
            values.update({f"{el}_{s}": row[s] for s in range(4)})
    return values


def _seat_values(source: Mapping[str, Any], counts: Mapping[str, Any],
                 result: Any) -> dict[str, Any]:
    """The seats the form names: who took the K♥ and the last two tricks."""
    values: dict[str, Any] = {}
    kh = source.get("kh")
    if kh is None and counts.get("kh"):
        kh = next((s for s, n in enumerate(counts["kh"]) if n), None)
    if kh is not None:
        values["kh"] = kh
    last_two = source.get("last_two") or _last_two_played(result)
    if last_two:
        values["last_two_0"], values["last_two_1"] = last_two[0], last_two[1]
    return values


def _card_values(hand: dict[str, Any], result: Any) -> dict[str, int]:
    """Each captured card's seat (``card_QS``: 2), as entered or as the engine read it."""
    captured = (hand.get("captures") or {}).get("cards")
    if captured is None and result is not None and result.captured:
        captured = result.captured
    return {f"card_{str(card).upper()}": seat
            for seat, cards in enumerate(captured or []) for card in cards}


def _last_two_played(result: Any) -> list[int] | None:
    """Who won the last two tricks of a hand played to its end, else None."""
    if result is None or result.ended_early or len(result.trick_winners or ()) < 2:
        return None
    return list(result.trick_winners[-2:])


def mode_of(hand: dict[str, Any] | None, spec: EntrySpec) -> str:
    if hand and "captures" in hand and spec.has_cards:
        return "captures"
    if hand and "tricks" in hand and spec.has_cards:
        return "captures"
    return "counts"
