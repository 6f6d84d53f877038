"""Models: naming convention, enums as strings, the version column, migrations at head."""
from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from app.db import Base, get_db
from app.models import AuditAction, Game, GameStatus

pytestmark = pytest.mark.every_database


def test_naming_convention_on_metadata():
    assert Base.metadata.naming_convention["fk"].startswith("fk_")
    names = {c.name for c in Game.__table__.constraints}
    assert "pk_game" in names


def test_migrated_schema_matches_models(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = get_db(app).engine
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    assert set(inspect(engine).get_table_names()) >= {"game", "player", "seat", "audit_entry",
                                                     "alembic_version"}


def test_enums_stored_as_strings(app, make_game):
    gid = make_game("ru32")
    with get_db(app).engine.connect() as conn:
        status = conn.execute(text("SELECT status FROM game WHERE id = :i"), {"i": gid}).scalar()
        action = conn.execute(text("SELECT action FROM audit_entry WHERE game_id = :i"), {"i": gid}).scalar()
    assert status == GameStatus.IN_PROGRESS.value == "in_progress"
    assert action == AuditAction.IMPORT.value


def test_version_increments_on_every_write(session, make_game):
    gid = make_game("fiestas")
    game = session.get(Game, gid)
    assert game.version == 1
    game.record = dict(game.record, players=["W", "X", "Y", "Z"])
    session.commit()
    assert game.version == 2
