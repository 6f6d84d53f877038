"""event_player.leaves: a player withdrawn from an event is not drawn from that round on
(issue 38)

Revision ID: event_leaves
Revises: director_call
Create Date: 2026-12-06 11:05:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "event_leaves"
down_revision = "director_call"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event_player") as batch:
        batch.add_column(sa.Column("leaves", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_player") as batch:
        batch.drop_column("leaves")
