"""throttles: login attempts counted in the database (every worker sees them) and each seat
PIN's wrong tries with the time the seat waits

Revision ID: throttles
Revises: api
Create Date: 2026-12-02 02:30:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "throttles"
down_revision = "api"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=40), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_attempt")),
    )
    op.create_index(op.f("ix_login_attempt_username"), "login_attempt", ["username"])
    op.create_index(op.f("ix_login_attempt_address"), "login_attempt", ["address"])
    op.create_index(op.f("ix_login_attempt_at"), "login_attempt", ["at"])
    with op.batch_alter_table("seat_pin") as batch:
        batch.add_column(sa.Column("failures", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("wait_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat_pin") as batch:
        batch.drop_column("wait_until")
        batch.drop_column("failures")
    op.drop_index(op.f("ix_login_attempt_at"), table_name="login_attempt")
    op.drop_index(op.f("ix_login_attempt_address"), table_name="login_attempt")
    op.drop_index(op.f("ix_login_attempt_username"), table_name="login_attempt")
    op.drop_table("login_attempt")
