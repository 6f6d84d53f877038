"""events: club nights and tournaments -- registered players, drawn rounds with their seed,
each table a game, and the event's change log (issue 25)

Revision ID: events
Revises: player_stats
Create Date: 2026-12-02 07:10:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "events"
down_revision = "player_stats"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("profile", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("seating", sa.String(length=16), nullable=False),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("ranking_points", sa.JSON(), nullable=False),
        sa.Column("sit_out", sa.String(length=16), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("share_token", sa.String(length=64), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["user_account.id"],
                                name=op.f("fk_event_created_by_user_account"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"], name=op.f("fk_event_season_id_season"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
        sa.UniqueConstraint("share_token", name=op.f("uq_event_share_token")),
    )
    op.create_table(
        "event_player",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("joins", sa.Integer(), nullable=False),
        sa.Column("pin_hash", sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_event_player_event_id_event"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_event_player_player_id_player")),
        sa.PrimaryKeyConstraint("event_id", "player_id", name=op.f("pk_event_player")),
    )
    op.create_index(op.f("ix_event_player_player_id"), "event_player", ["player_id"], unique=False)
    op.create_table(
        "event_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("sitting_out", sa.JSON(), nullable=False),
        sa.Column("forced_reason", sa.String(length=300), nullable=True),
        sa.Column("drawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_event_round_event_id_event"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_round")),
        sa.UniqueConstraint("event_id", "number", name=op.f("uq_event_round_event_id")),
    )
    op.create_index(op.f("ix_event_round_event_id"), "event_round", ["event_id"], unique=False)
    op.create_table(
        "event_table",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_event_table_game_id_game"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["round_id"], ["event_round.id"], name=op.f("fk_event_table_round_id_event_round"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("round_id", "number", name=op.f("pk_event_table")),
        sa.UniqueConstraint("game_id", name=op.f("uq_event_table_game_id")),
    )
    op.create_table(
        "event_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(length=60), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=300), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_event_log_event_id_event"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_log")),
    )
    op.create_index(op.f("ix_event_log_event_id"), "event_log", ["event_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_event_log_event_id"), table_name="event_log")
    op.drop_table("event_log")
    op.drop_table("event_table")
    op.drop_index(op.f("ix_event_round_event_id"), table_name="event_round")
    op.drop_table("event_round")
    op.drop_index(op.f("ix_event_player_player_id"), table_name="event_player")
    op.drop_table("event_player")
    op.drop_table("event")
