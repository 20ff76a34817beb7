"""The outbox of changes to send to Square: ``square_outbox``.

Every create, edit, archive, delete and stock movement of a product writes a row here in its own
transaction; after the commit a pusher sends the product as it then is to Square, and retries
while Square cannot be reached (``services.square.outbox``).

Revision ID: b8e2d4f61a37
Revises: a4c7e2f91b30
Create Date: 2026-11-28 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "b8e2d4f61a37"
down_revision: str | None = "a4c7e2f91b30"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "square_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("product_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("square_item_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("next_attempt_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("lease_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
        sa.Column("done_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_square_outbox_product_id", "square_outbox", ["product_id"])
    op.create_index("ix_square_outbox_pending", "square_outbox", ["done_at", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_square_outbox_pending", table_name="square_outbox")
    op.drop_index("ix_square_outbox_product_id", table_name="square_outbox")
    op.drop_table("square_outbox")
