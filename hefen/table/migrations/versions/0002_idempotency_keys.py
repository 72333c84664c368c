"""Idempotency keys: a repeated write is answered, not written again.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hefen_idempotency_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("hefen_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("secret", sa.String(80), nullable=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.UniqueConstraint("table_id", "key", name="uq_hefen_idempotency_table_key"),
    )


def downgrade() -> None:
    op.drop_table("hefen_idempotency_keys")
