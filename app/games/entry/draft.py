"""The one service that previews, scores and saves a hand being entered.

The hand being entered is the engine's value (:class:`app.rules.entry.HandDraft`, built from
the entry form's fields or the cards played); whether it may be recorded and what it scores
is the engine's :class:`app.rules.entry.EntryState` (verify / can / apply) on the game as it
stands before the draft's row. The service functions take the stored game and a draft:

- :func:`preview` -- the hand's points when it is complete and fine, else every problem of
  it, at once (nothing is saved);
- :func:`score` -- the engine's ``HandResult`` of the draft at its row;
- :func:`save` -- records it: a new hand, or the correction of its row.

The hands before the draft are replayed through :func:`app.games.queries.replay_record`
(results kept by record content: for a new hand, the stored game's own), and the draft is
checked and scored on that result's state alone: a keystroke replays one hand. A save
replays the new record once, and its result is kept for the sheet that follows.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.games import hands as hands_service
from app.games.queries import replay_record
from app.models import Game
from app.rules import RecordError
from app.rules.entry import EntryState, HandDraft, Preview


def state_before(game: Game, draft: HandDraft) -> EntryState:
    """The game before the draft's row (the kept result of the hands before it: for a new
    hand, the stored game's own), which verifies and applies the draft."""
    hands = list(game.record.get("hands", []))
    if draft.index >= len(hands):
        return EntryState(replay_record(game.record))
    return EntryState(replay_record({**game.record, "hands": hands[:draft.index]}))


def preview(game: Game, draft: HandDraft) -> Preview:
    """The draft's points when it is complete and fine, else every problem of it."""
    return state_before(game, draft).preview(draft)


def problems(game: Game, draft: HandDraft) -> list[RecordError]:
    """Every problem of the draft on its row, at once (empty: the hand is fine)."""
    return list(state_before(game, draft).verify(draft))


def score(game: Game, draft: HandDraft) -> Any:
    """The engine's HandResult of the draft on its row (RecordError if it is refused)."""
    return state_before(game, draft).apply(draft)


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


__all__ = ["HandDraft", "Preview", "preview", "problems", "save", "score", "state_before"]
