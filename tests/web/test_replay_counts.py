"""A hand crosses the engine once: a save replays the record once, a live preview replays
only the new hand (on the cached state of the hands before it). Counted on the engine's
builder: every time the first hand of the record is read again is one replay."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.games.queries import _REPLAYS as replays
from app.rules.game.replay import GameBuilder
from tests.web.helpers import counts_form, version_of

THREE = [{"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}},
         {"contract": "no-hearts", "counts": {"hearts": [1, 5, 3, 4]}},
         {"contract": "no-queens", "counts": {"queens": [1, 1, 1, 1]}}]
NO_MEN = {"kings": [1, 1, 1, 1], "jacks": [2, 0, 1, 1]}


@pytest.fixture
def hands_read(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How often each hand index was read by the engine since the fixture started."""
    seen: Counter[int] = Counter()
    replays.clear()                       # results kept by other tests' records do not count
    builder = GameBuilder
    original = builder.add

    def add(self: Any, raw: object, i: int) -> Any:
        seen[i] += 1
        return original(self, raw, i)

    monkeypatch.setattr(builder, "add", add)
    return seen


def _game(make_game: Any) -> int:
    return int(make_game("fiestas", hands=THREE))


def test_a_saved_hand_replays_the_record_once(client: Any, make_game: Any,
                                              hands_read: Counter[int]) -> None:
    gid = _game(make_game)
    version = version_of(client, gid)
    hands_read.clear()
    r = client.post(f"/games/{gid}/hands/new", data=counts_form(NO_MEN, version))
    assert r.status_code == 302, r.get_data(as_text=True)
    assert hands_read[0] == 1, hands_read
    assert hands_read[3] == 1, hands_read


def test_a_preview_replays_only_the_new_hand(client: Any, make_game: Any,
                                             hands_read: Counter[int]) -> None:
    gid = _game(make_game)
    version = version_of(client, gid)
    client.get(f"/games/{gid}/hands/new")          # the entry page: the hands before are cached
    hands_read.clear()
    r = client.post(f"/games/{gid}/hands/new",
                    data={**counts_form(NO_MEN, version), "preview": "1"})
    assert r.status_code == 200 and r.get_json()["points"] is not None, r.get_data(as_text=True)
    assert hands_read[0] == 0, hands_read
    assert hands_read[3] == 1, hands_read
