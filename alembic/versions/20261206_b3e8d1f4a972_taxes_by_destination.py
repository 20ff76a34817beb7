"""Taxes by destination (issue 19): a tax table by province in the store settings, the
GST/HST registration number, and the tax lines each order was charged.

- ``store_settings.tax_table``: the owner's table (``domain.tax.table_to_json``); NULL keeps
  Canada's default table (``domain.tax.CANADA_TAXES``).
- ``store_settings.gst_hst_number``: printed on invoices.
- ``orders.tax_lines``: one line per tax with the rate used and the amount; an order placed
  before keeps an empty list and shows its single tax amount as before.
- ``store_settings.tax_rate_bps`` goes: one rate for every address (12 %) was BC's, charged to
  Ontario and exports alike. A shop that had changed it gets Canada's default table, which the
  owner can edit in Store Settings.

Revision ID: b3e8d1f4a972
Revises: c81d5e0f3a69
Create Date: 2026-12-06 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "b3e8d1f4a972"
down_revision: str | None = "c81d5e0f3a69"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("store_settings") as batch:
        batch.add_column(sa.Column("tax_table", JSON_TYPE, nullable=True))
        batch.add_column(sa.Column("gst_hst_number", sa.String(length=30), server_default="", nullable=False))
        batch.drop_column("tax_rate_bps")
    # Plain ALTER TABLE on orders, never SQLite's batch mode: a batch may copy the table and drop
    # the old one, and with foreign keys on that deletes every order's items, payments and refunds
    # (ON DELETE CASCADE). The server default fills the existing rows.
    op.add_column("orders", sa.Column("tax_lines", JSON_TYPE, server_default="[]", nullable=False))


def downgrade() -> None:
    op.drop_column("orders", "tax_lines")  # in place, as upgrade() explains
    with op.batch_alter_table("store_settings") as batch:
        batch.add_column(sa.Column("tax_rate_bps", sa.Integer(), server_default="1200", nullable=False))
        batch.drop_column("gst_hst_number")
        batch.drop_column("tax_table")
