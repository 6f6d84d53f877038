"""A hand's save answers with a value (issue 37 item 4): app.games.hands.save_hand says what
became of the hand -- Saved, Refused, Conflict or Locked -- and writes nothing unless it is
Saved with a change; the entry draft's save adds every problem of the hand to a refusal."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.errors import BadInput
from app.games import hands
from app.games.entry import draft
from app.games.games import import_game, start_game
from app.games.table.confirm import is_locked
from app.models import AuditEntry, Confirmation, ConfirmMethod, Game
from tests.conftest import PLAYERS, load_record

pytestmark = pytest.mark.every_database

NO_TRICKS = {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}}
BAD_SUM = {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 3]}}


def _game(session):
    return start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)


def _log(session, game):
    return session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.game_id == game.id))


def test_a_new_hand_is_saved_on_the_next_row(session):
    game = _game(session)
    outcome = hands.save_hand(session, game, NO_TRICKS, row=None, expected_version=game.version, who="Eva")
    assert isinstance(outcome, hands.Saved) and not outcome.unchanged
    assert outcome.index == 0 and outcome.game.hands == [NO_TRICKS]


def test_a_new_hand_does_not_replay_the_stored_record(session, monkeypatch):
    """Whether a save changes anything is asked of the stored record's replay only when the
    hands are as many: a new row always does (a finishing save replayed both records)."""
    from app.games import records

    game = _game(session)
    hands.save_hand(session, game, NO_TRICKS, row=None, expected_version=game.version, who="Eva")
    replayed: list[int] = []
    real = records.replay_game
    monkeypatch.setattr(records, "replay_game", lambda g: replayed.append(g.id) or real(g))
    second = {"contract": "no-hearts", "counts": {"hearts": [4, 3, 3, 3]}}
    outcome = hands.save_hand(session, game, second, row=None, expected_version=game.version, who="Eva")
    assert isinstance(outcome, hands.Saved) and outcome.index == 1 and replayed == []
    other = {"contract": "no-hearts", "counts": {"hearts": [3, 4, 3, 3]}}      # the row replaced
    again = hands.save_hand(session, game, other, row=1, expected_version=game.version, who="Eva")
    assert isinstance(again, hands.Saved) and not again.unchanged and replayed == [game.id]


def test_the_same_hand_again_is_saved_unchanged_and_writes_nothing(session):
    game = _game(session)
    hands.save_hand(session, game, NO_TRICKS, row=None, expected_version=game.version, who="Eva")
    version, logged = game.version, _log(session, game)
    outcome = hands.save_hand(session, game, dict(NO_TRICKS), row=0, expected_version=version, who="Eva")
    assert outcome == hands.Saved(game, 0, unchanged=True)
    assert (game.version, _log(session, game)) == (version, logged)


def test_a_hand_the_engine_refuses_comes_back_with_its_problem(session):
    game = _game(session)
    version = game.version
    outcome = hands.save_hand(session, game, BAD_SUM, row=None, expected_version=version, who="Eva")
    assert isinstance(outcome, hands.Refused)
    assert outcome.first.field.startswith("hands[0]") and outcome.every == (outcome.first,)
    assert session.get(Game, game.id).hands == [] and game.version == version


def test_a_stale_version_is_a_conflict_naming_the_current_one(session):
    game = _game(session)
    stale = game.version
    hands.save_hand(session, game, NO_TRICKS, row=None, expected_version=stale, who="Eva")
    outcome = hands.save_hand(session, game, NO_TRICKS, row=None, expected_version=stale, who="Beto")
    assert isinstance(outcome, hands.Conflict) and outcome.current_version == game.version
    assert len(session.get(Game, game.id).hands) == 1


def test_a_confirmed_sheet_is_locked_to_a_save_without_a_reason(session):
    game = import_game(session, load_record("ru32_complete.json"))
    for seat in range(4):
        session.add(Confirmation(game_id=game.id, seat=seat, version=game.version, n_rows=len(game.hands),
                                 method=ConfirmMethod.DIRECTOR))
    session.commit()
    assert is_locked(session, game)
    version, first = game.version, game.hands[0]
    outcome = hands.save_hand(session, game, {**first, "counts": {}}, row=0, expected_version=version,
                              who="Eva")
    assert isinstance(outcome, hands.Locked) and outcome.error.game_id == game.id
    assert session.get(Game, game.id).hands[0] == first and game.version == version


def test_a_row_that_is_not_there_is_bad_input_not_an_outcome(session):
    game = _game(session)
    with pytest.raises(BadInput):
        hands.save_hand(session, game, NO_TRICKS, row=3, expected_version=game.version, who="Eva")


def test_the_drafts_save_adds_every_problem_of_the_hand(session):
    game = _game(session)
    typed = draft.HandDraft(index=0, contract="no-tricks", mode="counts",
                            entry={"tricks": [1, 5, 3, 3]})
    outcome = draft.save(session, game, typed, expected_version=game.version, who="Eva")
    assert isinstance(outcome, hands.Refused)
    assert outcome.problems and outcome.every == outcome.problems
    assert outcome.first.code in {p.code for p in outcome.problems}
