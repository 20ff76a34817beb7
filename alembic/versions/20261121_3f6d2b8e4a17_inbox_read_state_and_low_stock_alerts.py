"""Inbox read state and low-stock alerts

``contact_messages.read_at`` and ``order_inquiries.read_at``: when an admin opened the message in
the back office inbox (null: unread). ``products.low_stock_alerted_at``: when the shop was told
that an order left the product at 5 units or fewer (null: the next such order tells it).

Revision ID: 3f6d2b8e4a17
Revises: a7c31f5e9b20
Create Date: 2026-11-21 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "3f6d2b8e4a17"
down_revision: str | None = "a7c31f5e9b20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("contact_messages", "order_inquiries"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("read_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("low_stock_alerted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.drop_column("low_stock_alerted_at")
    for table in ("order_inquiries", "contact_messages"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("read_at")
