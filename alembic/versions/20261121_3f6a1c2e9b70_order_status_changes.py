"""Order status changes made in the back office (the order's history).

Revision ID: 3f6a1c2e9b70
Revises: 3f6d2b8e4a17
Create Date: 2026-11-21 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "3f6a1c2e9b70"
down_revision: str | None = "3f6d2b8e4a17"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "order_status_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("order_id", sa.Integer(), nullable=False),
        sa.Column("from_status", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("to_status", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("tracking_number", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
        sa.Column("carrier", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=True),
        sa.Column("refunded_cents", sa.Integer(), nullable=False),
        sa.Column("square_refund_id", sqlmodel.sql.sqltypes.AutoString(length=192), nullable=True),
        sa.Column("changed_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["order_id"], ["orders.id"], name="fk_order_status_changes_order_id", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["changed_by"], ["users.id"], name="fk_order_status_changes_changed_by", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_order_status_changes"),
    )
    op.create_index(
        "ix_order_status_changes_order_created", "order_status_changes", ["order_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_order_status_changes_order_created", table_name="order_status_changes")
    op.drop_table("order_status_changes")
