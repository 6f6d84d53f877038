"""api: personal API tokens (stored hashed) and the answers kept for idempotent retries

Revision ID: api
Revises: every_option
Create Date: 2026-12-02 02:10:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "api"
down_revision = "every_option"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(length=60), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user_account.id"],
                                name=op.f("fk_api_token_user_id_user_account"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_token")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_token_token_hash")),
    )
    op.create_index(op.f("ix_api_token_user_id"), "api_token", ["user_id"], unique=False)
    op.create_table(
        "idempotency_record",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("request_digest", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user_account.id"],
                                name=op.f("fk_idempotency_record_user_id_user_account"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "key", name=op.f("pk_idempotency_record")),
    )
    op.create_index(op.f("ix_idempotency_record_created_at"), "idempotency_record", ["created_at"],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_idempotency_record_created_at"), table_name="idempotency_record")
    op.drop_table("idempotency_record")
    op.drop_index(op.f("ix_api_token_user_id"), table_name="api_token")
    op.drop_table("api_token")
