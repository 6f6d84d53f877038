"""A hand being entered, as one value, and the game's state before its row, which verifies and
applies it (pokerkit's verify / can / apply).

A :class:`HandDraft` is what the scorer has set up and typed for one hand row -- the setup
(contract, trump, the record's leader, the fiesta's calls) and the entry (counts, captures or
the tricks and deal) -- parsed once, from the entry form's fields or from the cards played,
and turned once into the hand RECORD.md holds (:meth:`HandDraft.hand`).

An :class:`EntryState` is the game as it stands before the draft's row (the result of the
hands before it, replayed once): :meth:`~EntryState.verify` gives every problem of a draft at
once, :meth:`~EntryState.can` whether it has none, :meth:`~EntryState.apply` its scored hand
(or the first problem, raised), :meth:`~EntryState.preview` what an entry page shows while the
scorer types. Nothing before the row is replayed again for any of them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.rules.entry.form import EntrySpec, entry_of
from app.rules.errors import RecordError
from app.rules.game import choices
from app.rules.game.results import HandResult


class SetUp(Protocol):
    """A hand's complete setup, as the pages carry it (the app's ``Setup``)."""

    @property
    def contract(self) -> str: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def record_leader(self) -> int | None: ...
    @property
    def auction(self) -> Sequence[str] | None: ...


@dataclass(frozen=True, slots=True)
class HandDraft:
    """One hand row as entered and not yet saved (a value: nothing changes it)."""

    index: int                                   # the hand row (0-based) it is entered as
    contract: str
    trump: str | None = None
    leader: int | None = None                    # the record's ``leader`` key (fiestas)
    auction: tuple[str, ...] | None = None       # a fiesta's calls (None: none held)
    mode: str = "counts"
    #: the counts or captures entry, as RECORD.md holds it (counts and captures modes)
    entry: Mapping[str, Any] = field(default_factory=dict)
    tricks: tuple[tuple[str, ...], ...] = ()     # the cards played, trick by trick
    deal: tuple[tuple[str, ...], ...] | None = None
    ruling: Mapping[str, Any] | None = None

    @classmethod
    def of_form(cls, index: int, setup: SetUp, spec: EntrySpec, mode: str,
                values: Mapping[str, Any], ruling: Mapping[str, Any] | None) -> HandDraft:
        """A counts or captures entry (``values``: the form's field name -> value)."""
        mode = "captures" if mode == "captures" and spec.has_cards else "counts"
        entry = entry_of(spec, mode, values) if spec.contract.played else {}
        return cls(index, setup.contract, setup.trump, setup.record_leader, _calls(setup),
                   mode, entry, (), None, ruling)

    @classmethod
    def of_plays(cls, index: int, setup: SetUp, plays: Sequence[str],
                 deal: Sequence[Sequence[str]] | None, ruling: Mapping[str, Any] | None) -> HandDraft:
        """A hand played card by card (``plays`` in the order they were played)."""
        tricks = tuple(tuple(plays[k:k + 4]) for k in range(0, len(plays), 4))
        dealt = None if deal is None else tuple(tuple(cards) for cards in deal)
        return cls(index, setup.contract, setup.trump, setup.record_leader, _calls(setup),
                   "tricks", {}, tricks, dealt, ruling)

    def hand(self) -> dict[str, Any]:
        """The hand as the record holds it (RECORD.md): a new dict each call."""
        hand: dict[str, Any] = {"contract": self.contract}
        if self.trump:
            hand["trump"] = self.trump
        if self.leader is not None:
            hand["leader"] = self.leader
        if self.auction is not None:
            hand["auction"] = list(self.auction)
        if self.mode == "tricks":
            hand["tricks"] = [list(trick) for trick in self.tricks]
            if self.deal is not None:
                hand["deal"] = [list(cards) for cards in self.deal]
        elif self.entry:
            hand[self.mode] = _copy(self.entry)
        if self.ruling:
            hand["ruling"] = dict(self.ruling)
        return hand


def _calls(setup: SetUp) -> tuple[str, ...] | None:
    return None if setup.auction is None else tuple(setup.auction)


def _copy(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


@dataclass(frozen=True, slots=True)
class Preview:
    """What the entry page shows while the scorer types."""

    points: tuple[int, ...] | None               # as played; None unless the hand is fine
    problems: tuple[RecordError, ...] = ()


@dataclass(frozen=True, slots=True)
class EntryState:
    """The game before a hand row: ``before`` is the result (or builder, or state) of the hands
    before it, as :mod:`app.rules.game.choices` takes it."""

    before: choices.State

    def verify(self, draft: HandDraft) -> tuple[RecordError, ...]:
        """Every problem of the draft on this state, at once (empty: the hand is fine), as
        :func:`app.rules.entry_problems` reports them for the record with the draft added."""
        return tuple(choices.preview_problems(self.before, draft.hand()))

    def can(self, draft: HandDraft) -> bool:
        """Whether the draft would be recorded as it is."""
        try:
            self.apply(draft)
        except RecordError:
            return False
        return True

    def apply(self, draft: HandDraft) -> HandResult:
        """The draft checked and scored on this state; raises its first problem (field
        ``hands[i]…``), as :func:`app.rules.load` would for the record with it added."""
        return choices.preview(self.before, draft.hand())

    def preview(self, draft: HandDraft) -> Preview:
        """The draft's points when it is complete and fine, else every problem of it."""
        try:
            result = self.apply(draft)
        except RecordError as first:
            return Preview(None, self.verify(draft) or (first,))
        return Preview(tuple(result.played_points))


__all__ = ["EntryState", "HandDraft", "Preview", "SetUp"]
