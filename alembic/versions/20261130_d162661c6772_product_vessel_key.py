"""product vessel key

``products.vessel_key`` holds the back office's vessel group of each product (the base name, the
text before ``" - "``, case-folded: ``models.catalog.product_vessel_key``), so the grouped view
groups, orders, searches and pages in SQL (issue 17, acceptance 8). Filled in here for the
existing rows with the domain's own function; ``ix_products_vessel_key_created`` (vessel key,
creation time, id, stock) gives each group's size and newest variation, an opened group's
variations newest first, and the view's figures without reading the table.

Revision ID: d162661c6772
Revises: c5d1f3a8e920
Create Date: 2026-11-30 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from shop_app.domain.product_names import vessel_group_name

revision: str = "d162661c6772"
down_revision: str | None = "c5d1f3a8e920"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 1000

_products = sa.table(
    "products",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("vessel_key", sa.Text()),
)


def _fill_vessel_key() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(_products.c.id, _products.c.name).order_by(_products.c.id)).all()
    update = (
        _products.update()
        .where(_products.c.id == sa.bindparam("product_id"))
        .values(vessel_key=sa.bindparam("key"))
    )
    for start in range(0, len(rows), _BATCH):
        connection.execute(
            update,
            [
                {"product_id": row.id, "key": vessel_group_name(row.name or "").casefold()}
                for row in rows[start : start + _BATCH]
            ],
        )


# Plain ALTER TABLE on both databases (SQLite 3.35+ drops a column in place): a batch copy of
# ``products`` would fail on SQLite while other tables' foreign keys point at it.


def upgrade() -> None:
    op.add_column("products", sa.Column("vessel_key", sa.Text(), server_default="", nullable=False))
    _fill_vessel_key()
    op.create_index(
        "ix_products_vessel_key_created",
        "products",
        ["vessel_key", "created_at", "id", "stock_quantity"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_products_vessel_key_created", table_name="products")
    op.drop_column("products", "vessel_key")
