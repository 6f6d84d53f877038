"""player folded name: the roster's order and search in SQL (issue 23.8)

Revision ID: player_folded_name
Revises: first_director
Create Date: 2026-12-03 10:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa

from app.collation import folded_name


revision = "player_folded_name"
down_revision = "first_director"
branch_labels = None
depends_on = None

_TEXT = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")   # by code point


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("folded_name", _TEXT, nullable=True))
    player = sa.table("player", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                      sa.column("folded_name", sa.Text()))
    bind = op.get_bind()
    rows = [{"pid": pid, "folded": folded_name(name)}
            for pid, name in bind.execute(sa.select(player.c.id, player.c.name))]
    if rows:
        bind.execute(player.update().where(player.c.id == sa.bindparam("pid"))
                     .values(folded_name=sa.bindparam("folded")), rows)
    with op.batch_alter_table("player") as batch:
        batch.alter_column("folded_name", existing_type=_TEXT, nullable=False)
        batch.create_index("ix_player_folded_name", ["folded_name"])


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_index("ix_player_folded_name")
        batch.drop_column("folded_name")
