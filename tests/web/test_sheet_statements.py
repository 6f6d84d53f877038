"""Issue 28, item 3: the sheet page of a game whose record has not changed reads at most 3
SQL statements: the user (the guard), the game, and ONE for the table's confirmations, the
live stamp, the share link and the user's rights (games/table/confirm.sheet_state)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import load_record
from tests.web.helpers import sql_statements as statements

pytestmark = pytest.mark.every_database


def sheet(client: Any, gid: int) -> str:
    r = client.get(f"/games/{gid}")
    assert r.status_code == 200
    return str(r.get_data(as_text=True))


def test_the_sheet_reads_three_statements(app, client, make_game):
    from app.db import get_session
    from app.games import links
    from app.games.table import confirm
    from app.models import Game

    gid = make_game(record=load_record("ru32_complete.json"))
    with app.app_context():
        session = get_session()
        links.share_link(session, gid)
        game = session.get(Game, gid)
        confirm.set_pins(session, gid, ["1234", None, None, None])
        session.commit()
        confirm.confirm_by_pin(session, game, 0, "1234", None, game.version)
    sheet(client, gid)                            # the record replayed and its body kept
    with statements(app) as seen:
        again = sheet(client, gid)
    assert len(seen) <= 3, "\n".join(seen)
    assert 'id="share-url"' in again and 'data-table="1"' in again


def test_a_scorers_rights_come_with_the_same_statement(app, make_game):
    from app.accounts import accounts
    from app.db import get_session
    from app.models import User

    record = load_record("ru32_complete.json")
    record["hands"] = record["hands"][:3]
    gid = make_game(record=record)
    keeper = app.test_client(user="keeper", role="scorer")
    other = app.test_client(user="other", role="scorer")
    with app.app_context():
        session = get_session()
        user = session.query(User).filter_by(username="keeper").one()
        accounts.add_scorer(session, gid, user.id)
        session.commit()
    for client in (keeper, other):
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
        sheet(client, gid)
    with statements(app) as seen:
        mine = sheet(keeper, gid)
        theirs = sheet(other, gid)
    assert len(seen) <= 6, "\n".join(seen)
    assert 'id="enter-hand"' in mine and 'id="enter-hand"' not in theirs
