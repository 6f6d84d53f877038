"""The engine owns a hand's entry (issue 37 item 4): what a contract's entry asks for, the form's
fields read into a HandDraft and back, and the state before a row verifying and applying it."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest

from app.rules import RecordError, load
from app.rules.entry import EntryState, HandDraft, entry_of, entry_spec, entry_values, mode_of
from tests.conftest import load_record

PROFILES = ["ru32", "fiestas", "subastas", "rifki"]


@dataclass(frozen=True)
class Setup:
    contract: str
    trump: str | None = None
    record_leader: int | None = None
    auction: tuple[str, ...] | None = None


def setup_of(hand: dict[str, Any], contract: str) -> Setup:
    calls = hand.get("auction")
    return Setup(contract, hand.get("trump"), hand.get("leader"), None if calls is None else tuple(calls))


def before(record: dict[str, Any], index: int) -> EntryState:
    return EntryState(load({**record, "hands": record["hands"][:index]}))


def typed_hands(name: str) -> list[tuple[int, dict[str, Any], Any]]:
    """(index, stored hand, its HandResult) of every hand the record holds as counts or
    captures, with the contract played."""
    record = load_record(f"{name}_complete.json")
    result = load(record)
    return [(i, h, result.hands[i]) for i, h in enumerate(record["hands"])
            if ("counts" in h or "captures" in h) and result.hands[i].contract.played]


@pytest.mark.parametrize("name", PROFILES)
def test_a_stored_hand_shown_in_its_form_and_typed_again_scores_the_same(name: str) -> None:
    """A correction's round trip: the stored hand's field values (entry_values) read back
    into a draft (HandDraft.of_form) give the same entry and the same points on the state
    before its row; the draft is verified clean and applies."""
    record = load_record(f"{name}_complete.json")
    hands = typed_hands(name)
    assert len(hands) >= 4
    for index, hand, result in hands:
        spec = entry_spec(result.profile if hasattr(result, "profile") else load(record).profile,
                          result.contract.id)
        mode = mode_of(hand, spec)
        assert mode == ("captures" if "captures" in hand else "counts")
        values = entry_values(spec, hand, result)
        draft = HandDraft.of_form(index, setup_of(hand, result.contract.id), spec, mode, values, None)
        assert draft.entry == entry_of(spec, mode, values)
        state = before(record, index)
        assert state.verify(draft) == () and state.can(draft)
        scored = state.apply(draft)
        assert scored.played_points == result.played_points, (name, index)
        assert state.preview(draft).points == result.played_points


@pytest.mark.parametrize("name", PROFILES)
def test_a_wrong_sum_is_verified_named_and_refused(name: str) -> None:
    """One seat's count off by one: verify names the element's field, can says no, apply
    raises that problem, and the preview shows no points but the problem."""
    record = load_record(f"{name}_complete.json")
    profile = load(record).profile
    index, hand, result = next((i, h, r) for i, h, r in typed_hands(name) if "counts" in h)
    spec = entry_spec(profile, result.contract.id)
    values = entry_values(spec, hand, result)
    element = spec.counts[0]
    values[f"{element}_0"] = int(values[f"{element}_0"]) + 1
    draft = HandDraft.of_form(index, setup_of(hand, result.contract.id), spec, "counts", values, None)
    state = before(record, index)
    problems = state.verify(draft)
    assert problems and any(f"counts.{element}" in p.field for p in problems), [p.field for p in problems]
    assert all(p.field.startswith(f"hands[{index}]") for p in problems)
    assert not state.can(draft)
    with pytest.raises(RecordError) as raised:
        state.apply(draft)
    assert raised.value.field in {p.field for p in problems}
    shown = state.preview(draft)
    assert shown.points is None and [str(p) for p in shown.problems] == [str(p) for p in problems]


def test_an_entry_asks_only_for_what_its_contract_scores() -> None:
    profile = load(load_record("fiestas_complete.json")).profile
    for contract in profile.contracts.values():
        spec = entry_spec(profile, contract.id)
        scored = {e for e, v in contract.values.items() if v} if contract.played else set()
        assert set(spec.counts) <= scored
        assert spec.kh == ("kh" in scored) and spec.last_two == ("last_two" in scored)
        assert bool(spec.cards) == bool(contract.played and contract.scoring_mask)


def test_a_draft_is_a_value_and_its_hand_a_new_dict_each_time() -> None:
    draft = HandDraft.of_plays(3, Setup("no-tricks", auction=("pass",)), ["AS", "KS", "QS", "JS", "TS"],
                               None, {"kind": "as-played"})
    first = draft.hand()
    assert first == {"contract": "no-tricks", "auction": ["pass"],
                     "tricks": [["AS", "KS", "QS", "JS"], ["TS"]], "ruling": {"kind": "as-played"}}
    first["tricks"][0].append("9S")
    assert draft.hand() != first and copy.deepcopy(draft) == draft
    with pytest.raises(AttributeError):
        draft.contract = "kings"  # type: ignore[misc]
