"""What a contract's entry asks for, and the fields of the counts and captures forms read
into the entry RECORD.md holds, and back.

- :func:`entry_spec` -- only what the contract scores: the per-seat count rows, the K♥ seat,
  the last two tricks' seats, the scoring cards (a 433, not played, asks for nothing);
- :func:`entry_of` -- the ``counts`` or ``captures`` entry from the form's values (field name
  -> value: ``tricks_0``, ``kh``, ``last_two_1``, ``card_QS``...);
- :func:`entry_values` -- those field values again from a stored hand, as entered or, for a
  hand entered as tricks, as the engine read it (a correction shows what is stored);
- :func:`mode_of` -- the mode a stored hand is corrected in.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules.cards import Card, cards_of
from app.rules.errors import InputError
from app.rules.profiles import COUNT_ELEMENTS, Contract, Profile, full_counts


@dataclass
class EntrySpec:
    """What the entry of one contract asks for."""

    contract: Contract
    counts: list[str]            # per-seat count rows in counts mode
    kh: bool                     # the K♥ seat (counts mode)
    last_two: bool
    cards: list[str]             # scoring cards (captures mode)
    capture_counts: list[str]    # per-seat rows in captures mode ("tricks" where scored)
    full: Mapping[str, int] = field(default_factory=dict)

    @property
    def has_cards(self) -> bool:
        return bool(self.cards)


def entry_spec(profile: Profile, contract_id: str) -> EntrySpec:
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
    return {f"card_{_canonical(card)}": seat
            for seat, cards in enumerate(captured or []) for card in cards}


def _canonical(card: object) -> str:
    """A card's canonical text (``QD``) from any text the record accepts (``Q♦``, ``qd``):
    the form's fields are named by the canonical text. (The app stores records normalized;
    a record read as given, as tests/data/records/ru32_complete.json is, has such cards.)"""
    try:
        return str(Card.parse(str(card)))
    except InputError:
        return str(card).upper()


def _last_two_played(result: Any) -> list[int] | None:
    """Who won the last two tricks of a hand played to its end, else None."""
    if result is None or result.ended_early or len(result.trick_winners or ()) < 2:
        return None
    return list(result.trick_winners[-2:])


def mode_of(hand: Mapping[str, Any] | None, spec: EntrySpec) -> str:
    """The mode a stored hand is shown in: its captured cards where the contract scores cards
    and the hand was entered with cards or trick by trick, else its counts."""
    if hand and "captures" in hand and spec.has_cards:
        return "captures"
    if hand and "tricks" in hand and spec.has_cards:
        return "captures"
    return "counts"
