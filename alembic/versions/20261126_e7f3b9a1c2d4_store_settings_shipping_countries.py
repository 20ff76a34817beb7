"""Store settings: the countries the shop ships to (Canada and the United States by default).

Checkout's country list, its address validation and the FAQ and shipping texts read it, so what
the shop says and what checkout accepts always agree.

Revision ID: e7f3b9a1c2d4
Revises: e7b41c90d2a6
Create Date: 2026-11-26 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e7f3b9a1c2d4"
down_revision: str | None = "e7b41c90d2a6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
DEFAULT = '["United States", "Canada"]'


def upgrade() -> None:
    with op.batch_alter_table("store_settings") as batch:
        # The server default fills the existing row; new rows get the model's default.
        batch.add_column(sa.Column("shipping_countries", JSON_TYPE, server_default=DEFAULT, nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("store_settings") as batch:
        batch.drop_column("shipping_countries")
