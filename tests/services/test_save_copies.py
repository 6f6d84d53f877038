"""A save builds the new record beside the stored one, sharing its hands (no deep copy of a
whole trick-by-trick game, issue 28): nothing of the record a game held before is changed
in place, by the entry check, the replay, the canonical record or the write."""
from __future__ import annotations

import copy
import random

import pytest

from app.api import views as api_views
from app.games import hands
from app.games.games import import_game
from app.models import Game
from app.rules.simulate import random_game

pytestmark = pytest.mark.every_database


def test_saving_and_checking_hands_never_change_the_record_held_before(session):
    whole = random_game("rifki", random.Random(5))       # trick by trick, with deals
    first = {**whole, "hands": whole["hands"][:3]}
    game = import_game(session, first, who="t")
    held = game.record                                    # what a page or a cache still holds
    snapshot = copy.deepcopy(held)
    api_views.hand_problems(game, whole["hands"][3], 3)
    assert not api_views.hand_problems(game, whole["hands"][3], 3)
    hands.record_hand(session, game, whole["hands"][3], expected_version=game.version, who="t")
    assert held == snapshot
    held = session.get(Game, game.id).record
    snapshot = copy.deepcopy(held)
    hands.delete_last_hand(session, game, expected_version=game.version, who="t")
    assert held == snapshot and len(game.hands) == 3
    assert game.hands == snapshot["hands"][:3]
