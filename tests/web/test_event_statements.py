"""The director's view and the results screen read a round's tables in a fixed number of
statements, whatever the number of tables (issue 25/28: a 100-table evening refreshes
them every second; one statement per table was two hundred a page)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import sql_statements
from tests.web.test_events import NAMES, create

pytestmark = pytest.mark.every_database


def _statements(app: Any, client: Any, n_players: int) -> tuple[int, int]:
    names = [f"{n} {k}" for k in range(3) for n in NAMES][:n_players]
    event_id = int(create(client, names=names).headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/events/{event_id}/share").status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    key = re.search(r'screen\?key=([\w-]+)', page).group(1)  # type: ignore[union-attr]
    screen, view = f"/events/{event_id}/screen?key={key}", f"/events/{event_id}"
    anonymous = app.test_client(user=None)
    assert anonymous.get(screen).status_code == 200 and client.get(view).status_code == 200
    with sql_statements(app) as on_screen:
        assert anonymous.get(screen).status_code == 200
    with sql_statements(app) as on_view:
        assert client.get(view).status_code == 200
    return len(on_screen), len(on_view)


def test_the_screen_and_the_directors_view_do_not_read_table_by_table(app, client):
    small = _statements(app, client, 8)        # 2 tables
    large = _statements(app, client, 40)       # 10 tables
    assert large == small, (small, large)
