"""first director: only one user may be the one the first visit (/setup) created

Revision ID: first_director
Revises: session_generation
Create Date: 2026-12-02 03:30:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "first_director"
down_revision = "session_generation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("user_account") as batch:
        batch.add_column(sa.Column("first_director", sa.Boolean(), nullable=True))
        batch.create_unique_constraint("uq_user_account_first_director", ["first_director"])


def downgrade() -> None:
    with op.batch_alter_table("user_account") as batch:
        batch.drop_constraint("uq_user_account_first_director", type_="unique")
        batch.drop_column("first_director")
