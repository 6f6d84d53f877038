"""accounts: users and roles, each game's scorers, table confirmations, seat PINs, share and
handover links; the change log's reason for a director's correction of a confirmed sheet

Games created before accounts have no scorer: only directors may change them (the first
director, created on the first visit or with `flask user create`, is the club's), see
docs/decisions.md.

Revision ID: accounts
Revises: export_jobs
Create Date: 2026-12-01 05:50:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = 'accounts'
down_revision = 'export_jobs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('user_account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('role', sa.Enum('director', 'scorer', 'player', name='role', native_enum=False,
                              length=16), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_user_account_player_id_player'),
                            ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_account')),
    sa.UniqueConstraint('player_id', name=op.f('uq_user_account_player_id')),
    sa.UniqueConstraint('username', name=op.f('uq_user_account_username'))
    )
    op.create_table('game_scorer',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_scorer_game_id_game'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user_account.id'],
                            name=op.f('fk_game_scorer_user_id_user_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'user_id', name=op.f('pk_game_scorer'))
    )
    op.create_index(op.f('ix_game_scorer_user_id'), 'game_scorer', ['user_id'], unique=False)
    op.create_table('confirmation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('n_rows', sa.Integer(), nullable=False),
    sa.Column('method', sa.Enum('account', 'pin', name='confirmmethod', native_enum=False,
                                length=16), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_confirmation_game_id_game'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user_account.id'],
                            name=op.f('fk_confirmation_user_id_user_account'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_confirmation'))
    )
    op.create_index(op.f('ix_confirmation_game_id'), 'confirmation', ['game_id'], unique=False)
    op.create_table('seat_pin',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('pin_hash', sa.String(length=255), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_seat_pin_game_id_game'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seat', name=op.f('pk_seat_pin'))
    )
    op.create_table('game_link',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('share', 'handover', name='linkkind', native_enum=False, length=16),
              nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['created_by'], ['user_account.id'],
                            name=op.f('fk_game_link_created_by_user_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_link_game_id_game'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_link')),
    sa.UniqueConstraint('token', name=op.f('uq_game_link_token'))
    )
    op.create_index(op.f('ix_game_link_game_id'), 'game_link', ['game_id'], unique=False)
    with op.batch_alter_table('audit_entry') as batch:
        batch.add_column(sa.Column('reason', sa.String(length=300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('audit_entry') as batch:
        batch.drop_column('reason')
    op.drop_index(op.f('ix_game_link_game_id'), table_name='game_link')
    op.drop_table('game_link')
    op.drop_table('seat_pin')
    op.drop_index(op.f('ix_confirmation_game_id'), table_name='confirmation')
    op.drop_table('confirmation')
    op.drop_index(op.f('ix_game_scorer_user_id'), table_name='game_scorer')
    op.drop_table('game_scorer')
    op.drop_table('user_account')
