"""Kept sums (app/stats/sums.py): rows created when missing, differences added when
present; on PostgreSQL in one statement whatever the number of rows."""
from __future__ import annotations

from typing import Any, cast

import pytest
from sqlalchemy import Table, select

from app.models import Player, PlayerStat
from app.stats.sums import add_to_sums
from tests.web.helpers import sql_statements

pytestmark = pytest.mark.every_database

TABLE = cast(Table, PlayerStat.__table__)
KEYS = ["player_id", "profile", "key"]


def players(session: Any, n: int) -> list[int]:
    made = [Player(name=f"Jugador {k}", folded_name=f"jugador {k}") for k in range(n)]
    session.add_all(made)
    session.flush()
    return [p.id for p in made]


def sums(session: Any) -> dict[tuple[int, str, str], int]:
    return {(r.player_id, r.profile, r.key): r.value for r in session.scalars(select(PlayerStat))}


def test_rows_are_created_then_added_to(app, session):
    ids = players(session, 4)
    rows = [{"player_id": p, "profile": "fiestas", "key": f"k{k}", "value": k + 1}
            for p in ids for k in range(20)]
    add_to_sums(session, TABLE, KEYS, ["value"], rows)
    assert sums(session) == {(r["player_id"], "fiestas", r["key"]): r["value"] for r in rows}
    # again, with a difference to take away from one and a row not there before
    more = [{**rows[0], "value": -1}, {"player_id": ids[0], "profile": "rifki", "key": "k0", "value": 7}]
    with sql_statements(app) as statements:
        add_to_sums(session, TABLE, KEYS, ["value"], more)
    got = sums(session)
    assert got[(ids[0], "fiestas", "k0")] == 0 and got[(ids[0], "rifki", "k0")] == 7
    assert got[(ids[1], "fiestas", "k3")] == 4 and len(got) == 81
    if session.get_bind().dialect.name == "postgresql":
        assert len(statements) == 1 and "unnest" in statements[0]      # one statement for all


def test_no_rows_no_statement(app, session):
    with sql_statements(app) as statements:
        add_to_sums(session, TABLE, KEYS, ["value"], [])
    assert statements == []
