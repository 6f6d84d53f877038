"""audit_entry.version: the game's version each change produced (what changed since N)

Revision ID: audit_version
Revises: 0001
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "audit_version"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.drop_column("version")
