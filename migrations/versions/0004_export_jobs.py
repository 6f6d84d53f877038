"""export_job: bulk PDF exports kept in the database (any worker answers for any job)

Revision ID: export_jobs
Revises: stored_results
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = "export_jobs"
down_revision = "stored_results"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "export_job",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("pages", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("file_path", sa.String(length=300), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("worker", sa.String(length=80), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_export_job")),
    )
    op.create_index("ix_export_job_state_created", "export_job", ["state", "created_at"])
    op.create_index(op.f("ix_export_job_owner"), "export_job", ["owner"])


def downgrade() -> None:
    op.drop_index(op.f("ix_export_job_owner"), table_name="export_job")
    op.drop_index("ix_export_job_state_created", table_name="export_job")
    op.drop_table("export_job")
