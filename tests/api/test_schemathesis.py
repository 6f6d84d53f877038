"""/api/v1 against its own OpenAPI document (schemathesis, in-process, SQLite): every
operation, with a director's token and three games present, must answer no 5xx and nothing
outside what its document says (status codes, content types, bodies, headers)."""
from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.conftest import base_record, ensure_user, load_record, make_app

# The schema is read when the module is collected, so the app is made here (one per test
# session, on its own SQLite file). schemathesis.pytest.from_fixture would defer this to a
# fixture, but schemathesis 4.32 sets Node._nodeid, which pytest 9.2 no longer has.
_DB_DIR = Path(tempfile.mkdtemp(prefix="kingsheet-schemathesis-"))
atexit.register(shutil.rmtree, _DB_DIR, True)
# The analysis of a disputed play searches for at most this long (a stored 52-card hand
# analysed from its first trick would otherwise take the whole 8 s of a request each time).
APP = make_app(f"sqlite:///{_DB_DIR / 'kingsheet.sqlite'}", ANALYSIS_BUDGET_S=0.2)
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)


@functools.cache
def director_token() -> str:
    """Fills the database once -- games 1..3 (a complete rifki game, a fiestas game of two
    hands, an empty ru32 one), season 1 and call 1 to the director (game 2's) -- and makes
    a director's token."""
    from app.accounts.tokens import create_token
    from app.db import get_session
    from app.games.games import import_game
    from app.games.table.calls import open_call
    from app.models import Game, User
    from app.stats.seasons import save_season

    fiestas = base_record("fiestas", hands=[
        {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}},
        {"contract": "no-hearts", "counts": {"hearts": [2, 0, 3, 8]}}])
    user_id = ensure_user(APP, "directora", "director")
    with APP.app_context():
        session = get_session()
        for record in (load_record("rifki_complete.json"), fiestas, base_record("ru32")):
            import_game(session, record, who="test")
        save_season(session, name="Liga", starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1))
        open_call(session, session.get(Game, 2), user=session.get(User, user_id), who="directora",
                  note="revoke")
        _token, secret = create_token(session, session.get(User, user_id), "schemathesis")
    return secret


@schema.auth()
class DirectorToken:
    """The director's token on every case, except the ones generated without it (those
    must be answered 401)."""

    def get(self, case: Any, context: Any) -> str:
        return director_token()

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


#: The ids the database holds, 1..N (the three games seat the same four players; hand n of
#: game 1; the one call).
IDS = {"game_id": 3, "player_id": 4, "season_id": 1, "n": 20, "call_id": 1}


def aim(case: Any) -> None:
    """Points a generated case at what the database holds, as a client would, so that the
    route behind the 404 and the 412 is reached: small ids are folded onto the ids that
    exist (large ones still name nothing), and half the cases that send an If-Match (by the
    length of what was generated) name the game's version. schemathesis checks the case
    again as it is sent, so a case made valid here is judged as a valid one."""
    from app.db import get_session
    from app.games.queries import game_stamp

    path = case.path_parameters or {}
    for name, top in IDS.items():
        value = path.get(name)             # an int, or its text in the coverage phase
        if type(value) is int and 0 <= value <= 1000:
            path[name] = 1 + value % top
        elif _is_small_number(value):
            path[name] = str(1 + int(value) % top)
    sent = (case.headers or {}).get("If-Match")
    game_id = str(path.get("game_id"))
    if isinstance(sent, str) and len(sent) % 2 == 0 and _is_small_number(game_id):
        with APP.app_context():
            stamp = game_stamp(get_session(), int(game_id))
        if stamp is not None:
            case.headers["If-Match"] = f'"v{stamp.version}"'


def _is_small_number(value: Any) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit() and int(value) <= 1000


@pytest.fixture(scope="module", autouse=True)
def seeded() -> Iterator[None]:
    from app.db import get_db

    director_token()
    yield
    get_db(APP).dispose()


@schema.parametrize()
@settings(max_examples=25, deadline=None)
def test_every_operation_keeps_to_its_document(case: Any) -> None:
    # Every check schemathesis has runs (no 5xx, documented status codes, content types,
    # headers and bodies, 401 without the token, schema-violating requests refused, Allow
    # on a 405...) but one. positive_data_acceptance ("a request that fits the document
    # was refused") cannot apply: the document gives each request's shape, and the rules
    # of King (RECORD.md, RULES.md: what a hand may hold, who may confirm a seat, which
    # first seat a profile names) refuse most requests of the right shape with a 422 that
    # names the field.
    aim(case)
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
