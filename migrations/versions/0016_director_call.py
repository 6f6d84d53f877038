"""director_call: a table's calls to the director and their answers (issue 40)

Revision ID: director_call
Revises: rating_backlog
Create Date: 2026-12-07 10:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "director_call"
down_revision = "rating_backlog"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "director_call",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("open_game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("called_by", sa.String(length=60), nullable=False),
        sa.Column("caller_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.Column("called_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answered_by", sa.String(length=60), nullable=True),
        sa.Column("answerer_id", sa.Integer(), nullable=True),
        sa.Column("answer", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_director_call_game_id_game"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["caller_id"], ["user_account.id"],
                                name=op.f("fk_director_call_caller_id_user_account"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["answerer_id"], ["user_account.id"],
                                name=op.f("fk_director_call_answerer_id_user_account"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_director_call")),
        sa.UniqueConstraint("open_game_id", name=op.f("uq_director_call_open_game_id")),
    )
    op.create_index(op.f("ix_director_call_game_id"), "director_call", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_director_call_game_id"), table_name="director_call")
    op.drop_table("director_call")
