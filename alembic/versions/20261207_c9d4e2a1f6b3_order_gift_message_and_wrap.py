"""An order's gift message and gift wrap (issue 19, acceptance 6): chosen at checkout, shown on
the packing slip and in the back office. Existing orders: no message, not wrapped.

Revision ID: c9d4e2a1f6b3
Revises: b3e8d1f4a972
Create Date: 2026-12-07 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c9d4e2a1f6b3"
down_revision: str | None = "b3e8d1f4a972"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Plain ALTER TABLE, never SQLite's batch mode: a batch may copy ``orders`` to a new table and drop
# the old one, and with foreign keys on, dropping it deletes every order's items, payments and
# refunds (ON DELETE CASCADE). SQLite adds and drops columns in place (3.35+).


def upgrade() -> None:
    # The server defaults fill the existing rows; new rows get the model's defaults.
    op.add_column("orders", sa.Column("gift_message", sa.Text(), server_default="", nullable=False))
    op.add_column("orders", sa.Column("gift_wrap", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    op.drop_column("orders", "gift_wrap")
    op.drop_column("orders", "gift_message")
