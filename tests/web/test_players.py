"""The players roster."""
from __future__ import annotations

import re

import pytest

from app.rules import score_record
from tests.conftest import load_record

pytestmark = pytest.mark.every_database


def test_roster_counts_games_and_wins_and_links(client, make_game):
    data = load_record("fiestas_complete.json")
    make_game(record=data)
    make_game("ru32", players=data["players"])
    winners = score_record(data)["winners"]
    html = client.get("/players").get_data(as_text=True)
    for seat, name in enumerate(data["players"]):
        row = re.search(rf'<a href="(/players/\d+)">{re.escape(name)}</a></th>\s*'
                        rf'<td data-games="(\d+)">\d+</td><td data-wins="(\d+)">',
                        html)
        assert row, name
        assert row.group(2) == "1"          # finished games only: the empty ru32 game is not played
        assert row.group(3) == ("1" if seat in winners else "0")
        page = client.get(row.group(1)).get_data(as_text=True)
        assert page.count("/games/") >= 2


def test_roster_empty(client):
    assert client.get("/players").status_code == 200
