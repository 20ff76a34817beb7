"""Products remember what Square holds of them: ``square_fingerprint``.

A digest of the name, description and selling price Square last had for the product (what the
shop pushed, or what a sync found both sides agreeing on), so "Sync from Square" can tell which
side changed since (``domain.square_agreement``). Existing products start without one: unknown,
so a sync keeps the shop's values for them until the two agree again.

Revision ID: a4c7e2f91b30
Revises: 317b8d246543
Create Date: 2026-11-27 11:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a4c7e2f91b30"
down_revision: str | None = "317b8d246543"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Plain ALTER TABLE on both databases (SQLite 3.35+ drops a column in place): a batch copy of
# ``products`` would fail on SQLite while other tables' foreign keys point at it.


def upgrade() -> None:
    op.add_column("products", sa.Column("square_fingerprint", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("products", "square_fingerprint")
