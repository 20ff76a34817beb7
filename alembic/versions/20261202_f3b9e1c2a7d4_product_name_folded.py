"""product name folded

``products.name_folded`` holds each product's name case-folded (``str.casefold``, as the back
office's search needle is), kept in step by the model's listener like ``search_text``. The back
office's lists (Manage Products, its grouped view, the dashboard's list) search and sort names by
it; they took the name out of ``search_text`` (name and description) before, scanning the long
descriptions too. ``ix_products_name_folded``: trigram on PostgreSQL (``LIKE '%word%'`` uses it),
on SQLite a narrow b-tree scanned instead of the table (issue 17, acceptance 8: the grouped view's
search at 20,000 products on SQLite, 0.6 of the time it took).

Revision ID: f3b9e1c2a7d4
Revises: e5a8c3d17f20
Create Date: 2026-12-02 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f3b9e1c2a7d4"
down_revision: str | None = "e5a8c3d17f20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 1000

_products = sa.table(
    "products",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("name_folded", sa.Text()),
)


def _fill_name_folded() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(_products.c.id, _products.c.name).order_by(_products.c.id)).all()
    update = (
        _products.update()
        .where(_products.c.id == sa.bindparam("product_id"))
        .values(name_folded=sa.bindparam("folded"))
    )
    for start in range(0, len(rows), _BATCH):
        connection.execute(
            update,
            [{"product_id": row.id, "folded": (row.name or "").casefold()} for row in rows[start : start + _BATCH]],
        )


# Plain ALTER TABLE on both databases, as for vessel_key (d162661c6772).


def upgrade() -> None:
    op.add_column("products", sa.Column("name_folded", sa.Text(), server_default="", nullable=False))
    _fill_name_folded()
    op.create_index(
        "ix_products_name_folded",
        "products",
        ["name_folded"],
        unique=False,
        postgresql_using="gin",
        postgresql_ops={"name_folded": "gin_trgm_ops"},
    )


def downgrade() -> None:
    op.drop_index("ix_products_name_folded", table_name="products")
    op.drop_column("products", "name_folded")
