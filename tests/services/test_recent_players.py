"""The game list's player filter offers the players who played most recently
(queries.recent_player_ids): read from the latest seat rows backwards, in the order the
grouped query gave (each player's latest game, then player id, both descending), ties at
one moment and a window that ends inside one included."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from app.games import queries
from app.games.games import import_game
from app.models import SeatResult
from tests.conftest import base_record

pytestmark = pytest.mark.every_database


def grouped(session, limit):
    """The former query: every seat row grouped by player."""
    last = func.max(SeatResult.played_at)
    return [int(p) for p in session.scalars(
        select(SeatResult.player_id).group_by(SeatResult.player_id)
        .order_by(last.desc(), SeatResult.player_id.desc()).limit(limit))]


def test_the_latest_players_are_the_grouped_querys(session):
    rng = random.Random(3)
    names = [f"Socio {k:02d}" for k in range(14)]
    for _ in range(40):
        import_game(session, base_record("ru32", players=rng.sample(names, 4)), who="t")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    game_ids = sorted(set(session.scalars(select(SeatResult.game_id))))
    for gid in game_ids:          # few distinct moments: many games share one
        moment = start + timedelta(days=rng.randrange(6))
        session.execute(update(SeatResult).where(SeatResult.game_id == gid).values(played_at=moment))
    session.commit()
    for limit in (1, 2, 3, 5, 8, 13, 14, 20):
        assert queries.recent_player_ids(session, limit) == grouped(session, limit), limit
    assert len(queries.recent_player_ids(session, 100)) == 14
