"""A hand being entered, as one value, and the one service that previews, scores and saves it.

A :class:`HandDraft` is what the scorer has set up and typed for one hand row -- the setup
(contract, trump, the record's leader, the fiesta's calls) and the entry (counts, captures or
the tricks and deal) -- parsed once, from the entry form or from the trick page's address,
and turned once into the hand RECORD.md holds (:meth:`HandDraft.hand`). The pages never build
a hand dict themselves.

The service functions take the stored game and a draft:

- :func:`preview` -- the hand's points when it is complete and fine, else every problem of
  it, at once (nothing is saved);
- :func:`score` -- the engine's ``HandResult`` of the draft at its row;
- :func:`save` -- records it: a new hand, or the correction of its row.

The hands before the draft are replayed through :func:`app.games.queries.replay_record`
(results kept by record content: for a new hand, the stored game's own), and the draft is
checked and scored on that result's state alone (:func:`app.rules.game.choices.preview`): a
keystroke replays one hand. A save replays the new record once, and its result is kept for
the sheet that follows.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.games import hands as hands_service
from app.games.entry.entry import EntrySpec, entry_of
from app.games.entry.setup import Setup
from app.games.queries import replay_record
from app.models import Game
from app.rules import RecordError
from app.rules.game import choices

#: How a draft's entry is given; "tricks" is the trick page's (a hand played card by card).
MODES = ("counts", "captures", "tricks")


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
    def of_form(cls, index: int, setup: Setup, spec: EntrySpec, mode: str,
                values: Mapping[str, Any], ruling: Mapping[str, Any] | None) -> HandDraft:
        """A counts or captures entry (``values``: the form's field name -> value)."""
        mode = "captures" if mode == "captures" and spec.has_cards else "counts"
        entry = entry_of(spec, mode, values) if spec.contract.played else {}
        return cls(index, setup.contract, setup.trump, setup.record_leader, _calls(setup),
                   mode, entry, (), None, ruling)

    @classmethod
    def of_plays(cls, index: int, setup: Setup, plays: list[str],
                 deal: list[list[str]] | None, ruling: Mapping[str, Any] | None) -> HandDraft:
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


def _calls(setup: Setup) -> tuple[str, ...] | None:
    return None if setup.auction is None else tuple(setup.auction)


def _copy(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


def _before(game: Game, draft: HandDraft) -> Any:
    """The result of the hands before the draft's row (kept: for a new hand, the stored
    game's own), whose state the draft is checked on."""
    hands = list(game.record.get("hands", []))
    if draft.index >= len(hands):
        return replay_record(game.record)
    return replay_record({**game.record, "hands": hands[:draft.index]})


@dataclass(frozen=True, slots=True)
class Preview:
    """What the entry page shows while the scorer types."""

    points: tuple[int, ...] | None               # as played; None unless the hand is fine
    problems: tuple[RecordError, ...] = ()


def preview(game: Game, draft: HandDraft) -> Preview:
    """The draft's points when it is complete and fine, else every problem of it."""
    before = _before(game, draft)
    hand = draft.hand()
    try:
        result = choices.preview(before, hand)
    except RecordError as first:
        return Preview(None, tuple(choices.preview_problems(before, hand) or [first]))
    return Preview(result.played_points)


def problems(game: Game, draft: HandDraft) -> list[RecordError]:
    """Every problem of the draft on its row, at once (empty: the hand is fine)."""
    return choices.preview_problems(_before(game, draft), draft.hand())


def score(game: Game, draft: HandDraft) -> Any:
    """The engine's HandResult of the draft on its row (RecordError if it is refused)."""
    return choices.preview(_before(game, draft), draft.hand())


def save(session: Session, game: Game, draft: HandDraft, *, expected_version: int | None,
         who: str, reason: str | None = None) -> hands_service.Outcome:
    """Records the draft -- a new hand after the last, or the correction of its row -- and
    says what became of it; a refused draft comes back with every problem of the hand."""
    row = draft.index if draft.index < len(game.hands) else None
    outcome = hands_service.save_hand(session, game, draft.hand(), row=row,
                                      expected_version=expected_version, who=who, reason=reason)
    if isinstance(outcome, hands_service.Refused):
        return hands_service.Refused(outcome.first, tuple(problems(game, draft)))
    return outcome


__all__ = ["MODES", "HandDraft", "Preview", "preview", "problems", "save", "score"]
