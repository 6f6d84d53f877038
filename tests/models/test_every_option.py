"""Every option stored (RULES.md §4, RECORD.md; issue 21): a game kingsheet creates or
imports names every option of its profile; the migration ``every_option`` writes the
values the games stored before it were scored with, so that ``games rebuild`` changes no
stored total (SQLite and PostgreSQL)."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from app.games.games import import_game, start_game
from app.models import Game, SeatResult, StoredResult
from app.rules import digest, score_record
from app.stats.projections import rebuild as rebuild_results
from tests.conftest import load_record

pytestmark = pytest.mark.every_database

RIFKI_DEFAULTS = {"choice_limit": "3+2", "must_overtake": "no", "trump_lead_ban": "off",
                  "hearts_lead_ban": "kupa-rifki", "rifki_void": "kh"}


def test_new_and_imported_games_name_every_option(app):
    from app.db import get_session

    subastas = load_record("subastas_complete.json")
    del subastas["options"]
    rifki = load_record("rifki_complete.json")
    rifki["options"] = {"must_overtake": "koz"}
    with app.app_context():
        session = get_session()
        new = start_game(session, profile="subastas", players=["A", "B", "C", "D"], first_seat=0)
        fresh_ru32 = start_game(session, profile="ru32", players=["A", "B", "C", "D"], first_seat=1,
                                options={"keep_kh": "on"})
        imported = import_game(session, subastas, who="test")
        partial = import_game(session, rifki, who="test")
        assert new.record["options"] == {"settlement": "tricks"}
        assert list(new.record)[:3] == ["format", "profile", "options"]
        assert fresh_ru32.record["options"] == {"keep_kh": "on"}
        # an import without options takes today's defaults -- and keeps them
        assert imported.record["options"] == {"settlement": "tricks"}
        assert partial.record["options"] == {**RIFKI_DEFAULTS, "must_overtake": "koz"}


def _migrate_again(app: Any) -> None:
    """The revision ``every_option`` run again on the database as it stands: what a
    database stored before this issue goes through on its first start with it. (Run on its
    own: going down to the revision before it would also take the later revisions down and
    up, and SQLite's table rebuilds of those are not what is tested here.)"""
    import importlib.util

    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    from app.db import MIGRATIONS_DIR, get_db

    spec = importlib.util.spec_from_file_location(
        "every_option", Path(MIGRATIONS_DIR) / "versions" / "0006_every_option.py")
    assert spec is not None and spec.loader is not None
    revision = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(revision)
    with get_db(app).engine.begin() as connection, \
            Operations.context(MigrationContext.configure(connection)):
        revision.upgrade()


def _as_stored_before(session: Any, game_id: int, options: dict[str, str] | None) -> None:
    """The game's record as kingsheet stored it before this issue: ``options`` as given
    (None: no key), its stored results those of the reading of that time."""
    game = session.get(Game, game_id)
    record = {k: v for k, v in game.record.items() if k != "options"}
    if options is not None:
        record = {"format": record["format"], "profile": record["profile"], "options": options,
                  **record}
    session.execute(update(Game).where(Game.id == game_id).values(record=record))
    session.execute(update(StoredResult).where(StoredResult.game_id == game_id)
                    .values(record_digest=digest(record)))
    session.commit()


def _totals(session: Any) -> dict[int, list[int]]:
    rows = session.execute(select(SeatResult.game_id, SeatResult.seat, SeatResult.total)
                           .order_by(SeatResult.game_id, SeatResult.seat)).all()
    out: dict[int, list[int]] = {}
    for game_id, _seat, total in rows:
        out.setdefault(game_id, []).append(total)
    return out


def test_migration_writes_what_stored_games_were_scored_with(app):
    """The subastas game has a -2 sale in which the owner took 1 trick: scored (and stored)
    with the full bid before this issue, 75 lower for the buyer under today's default.
    After the migration it says ``settlement: bid`` and rebuild changes nothing; every other
    profile gets its defaults named."""
    from app.db import get_session

    subastas = load_record("subastas_complete.json")
    subastas["options"] = {"settlement": "bid"}       # stored results: the old reading
    with app.app_context():
        session = get_session()
        ids = {
            "subastas": import_game(session, copy.deepcopy(subastas), who="test").id,
            "ru32": import_game(session, load_record("ru32_complete.json"), who="test").id,
            "fiestas": import_game(session, load_record("fiestas_complete.json"), who="test").id,
            "rifki": import_game(session, load_record("rifki_complete.json"), who="test").id,
        }
        partial = import_game(session, {**load_record("rifki_complete.json"),
                                        "options": {"rifki_void": "kh", "must_overtake": "all"}},
                              who="test").id
        _as_stored_before(session, ids["subastas"], None)
        _as_stored_before(session, ids["ru32"], {})
        _as_stored_before(session, ids["fiestas"], None)
        _as_stored_before(session, ids["rifki"], None)
        _as_stored_before(session, partial, {"must_overtake": "all"})
        before = _totals(session)
        assert before[ids["subastas"]] == [-55, -130, -60, 245]
        session.close()

        _migrate_again(app)

        session = get_session()
        records = {g.id: g.record for g in session.scalars(select(Game))}
        assert records[ids["subastas"]]["options"] == {"settlement": "bid"}
        assert records[ids["ru32"]]["options"] == {"keep_kh": "off"}
        assert records[ids["fiestas"]]["options"] == {}
        assert records[ids["rifki"]]["options"] == RIFKI_DEFAULTS
        assert records[partial]["options"] == {**RIFKI_DEFAULTS, "must_overtake": "all"}
        assert all(list(r)[:3] == ["format", "profile", "options"] for r in records.values())
        summary = rebuild_results(session)
        assert (summary.games, summary.changed, summary.broken) == (5, 0, 0)
        assert _totals(session) == before
        # without the migration's "bid" the same record scores the seed's reading
        assert score_record({**records[ids["subastas"]], "options": {}})["totals"] == \
            [20, -130, -60, 170]


def test_migration_leaves_named_options_and_is_idempotent(app):
    from app.db import get_session

    record = load_record("subastas_complete.json")
    record["options"] = {"settlement": "tricks"}
    with app.app_context():
        session = get_session()
        game_id = import_game(session, record, who="test").id
        version = session.get(Game, game_id).version
        session.close()
        _migrate_again(app)
        _migrate_again(app)
        session = get_session()
        game = session.get(Game, game_id)
        assert game.record["options"] == {"settlement": "tricks"}
        assert game.version == version
        assert rebuild_results(session).changed == 0
