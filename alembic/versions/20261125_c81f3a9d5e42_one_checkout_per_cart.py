"""One checkout per cart at a time.

``orders.cart_id``: the cart an order was placed from (``ON DELETE SET NULL``); a partial unique
index allows at most one order awaiting payment per cart, so two tabs (or workers) paying the
same cart at once can never both place an order (services/ordering/place.py claims the cart
first and says so; the index is the database's guarantee).

Revision ID: c81f3a9d5e42
Revises: b4d2e81f6c37
Create Date: 2026-11-25 21:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c81f3a9d5e42"
down_revision: str | None = "b4d2e81f6c37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AWAITING = sa.text("status = 'awaiting_payment'")


def upgrade() -> None:
    with op.batch_alter_table("orders") as batch:
        batch.add_column(sa.Column("cart_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_orders_cart_id_carts", "carts", ["cart_id"], ["id"], ondelete="SET NULL")
    op.create_index(
        "uq_orders_cart_awaiting_payment",
        "orders",
        ["cart_id"],
        unique=True,
        sqlite_where=AWAITING,
        postgresql_where=AWAITING,
    )


def downgrade() -> None:
    op.drop_index("uq_orders_cart_awaiting_payment", table_name="orders")
    with op.batch_alter_table("orders") as batch:
        batch.drop_constraint("fk_orders_cart_id_carts", type_="foreignkey")
        batch.drop_column("cart_id")
