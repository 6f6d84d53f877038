"""Small helpers for driving the pages with the test client."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def sql_statements(app: Any) -> Iterator[list[str]]:
    """The SQL statements the app's engine runs inside the block (a SQLAlchemy event)."""
    from sqlalchemy import event

    from app.db import get_db

    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    engine = get_db(app).engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


@contextmanager
def signal_log(app: Any, signal: Any, what: Any) -> Iterator[list[Any]]:
    """``what(sender, **extra)`` of every `signal` (a Flask signal) the app sends inside the
    block."""
    seen: list[Any] = []

    def note(sender: Any, **extra: Any) -> None:
        seen.append(what(sender, **extra))

    signal.connect(note, app)
    try:
        yield seen
    finally:
        signal.disconnect(note, app)


def csrf_from(html: str) -> str:
    m = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or \
        re.search(r'name="csrf_token" value="([^"]+)"', html) or \
        re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert m, "no CSRF token in the page"
    return m.group(1)


def version_of(client: Any, game_id: int) -> int:
    return int(client.get(f"/api/v1/games/{game_id}").get_json()["version"])


def record_of(client: Any, game_id: int) -> dict[str, Any]:
    return json.loads(client.get(f"/games/{game_id}/record.json").data)


def upload(record: Any) -> dict[str, Any]:
    raw = record if isinstance(record, bytes) else json.dumps(record).encode()
    return {"record": (io.BytesIO(raw), "game.json")}


def counts_form(counts: dict[str, Any], version: int, **extra: Any) -> dict[str, str]:
    data = {"version": str(version)}
    for key, value in counts.items():
        if key == "kh":
            data["kh"] = str(value)
        elif key == "last_two":
            data["last_two_0"], data["last_two_1"] = str(value[0]), str(value[1])
        else:
            for s, n in enumerate(value):
                data[f"{key}_{s}"] = str(n)
    data.update({k: str(v) for k, v in extra.items()})
    return data


def legal_hand(profile_id: str, contract: str, leader: int, seed: int,
               trump: str | None = None) -> tuple[list[list[str]], list[str]]:
    """A random deal and a random legal play of it (the engine's HandState picks). In rifki
    the leader holds the 2♦, as hand 1's chooser does (RULES.md 1.4)."""
    import random

    from app.rules.cards import cards_of
    from app.rules.game.hand import HandState
    from app.rules.profiles import PROFILES
    from app.rules.simulate import random_deal

    rng = random.Random(seed)
    deal = [[str(c) for c in cards_of(m)] for m in random_deal(PROFILES[profile_id], rng, leader)]
    state = HandState(profile_id, {}, contract, trump, leader, deal=deal)
    while not state.over:
        state.play(rng.choice(state.legal_cards()))
    return deal, [c for t in state.tricks() for c in t]
