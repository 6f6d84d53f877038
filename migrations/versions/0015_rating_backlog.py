"""rating_backlog: profiles whose ratings a job is bringing up to date after a correction
that reached many later games (issue 41)

Revision ID: rating_backlog
Revises: events
Create Date: 2026-12-06 10:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "rating_backlog"
down_revision = "events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_backlog",
        sa.Column("profile", sa.String(length=16), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("profile", name=op.f("pk_rating_backlog")),
    )


def downgrade() -> None:
    op.drop_table("rating_backlog")
