"""Signed order links: ``order_access_tokens`` holds the SHA-256 of each link's secret.

A guest's order mails carry ``/order-status?token=…`` (services/order_access.py); the secret is
256 random bits, only its hash is stored, one row per link (deleting a row revokes that link).

Revision ID: e7b41c90d2a6
Revises: d5a9c2e7b813
Create Date: 2026-11-26 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "e7b41c90d2a6"
down_revision: str | None = "d5a9c2e7b813"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "order_access_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("order_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["order_id"], ["orders.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_order_access_tokens_order_id", "order_access_tokens", ["order_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_order_access_tokens_order_id", table_name="order_access_tokens")
    op.drop_table("order_access_tokens")
