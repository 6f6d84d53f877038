"""session generation: a user's session cookies carry it, raising it ends them all

Revision ID: session_generation
Revises: throttles
Create Date: 2026-12-02 03:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "session_generation"
down_revision = "throttles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("user_account") as batch:
        batch.add_column(sa.Column("session_generation", sa.Integer(), server_default="0",
                                   nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("user_account") as batch:
        batch.drop_column("session_generation")
