"""Discount codes (issue 19, acceptance 3): the codes, the orders that used them, the code a
cart holds, and an order's discount.

- ``discount_codes``: the owner's codes (``domain.discounts``); ``uses`` never above
  ``max_uses`` (a CHECK: the database's own guarantee against two checkouts taking the last use).
- ``discount_redemptions``: one row per order that used a code (its amount, the e-mail the
  per-customer limit counts by).
- ``carts.discount_code``: the code entered in the cart or at checkout.
- ``orders.discount_cents`` / ``orders.discount_code``: existing orders had none (0, NULL), and
  the total's CHECK becomes ``total = subtotal - discount + tax + shipping``.

The CHECK is part of the table's definition on SQLite, which cannot alter it in place: the table
is rebuilt by SQLite's own procedure (https://www.sqlite.org/lang_altertable.html#otheralter:
new table, copy, drop, rename, the indexes again), with the foreign keys off meanwhile
(``migrate._run``). Not alembic's batch mode, which rebuilds the indexes from reflection and
could lose the partial unique index ``uq_orders_cart_awaiting_payment``'s ``WHERE``.

Revision ID: e5b8d3f0a2c7
Revises: d4a7c2e9b1f0
Create Date: 2026-12-09 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e5b8d3f0a2c7"
down_revision: str | None = "d4a7c2e9b1f0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
OLD_TOTAL = "total_cents = subtotal_cents + tax_cents + shipping_cents"
NEW_TOTAL = "total_cents = subtotal_cents - discount_cents + tax_cents + shipping_cents"


def _replace_orders_check(old: str, new: str) -> None:
    """Give ``orders`` the CHECK ``ck_orders_total`` of ``new`` instead of ``old``."""
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        op.drop_constraint("ck_orders_total", "orders", type_="check")
        op.create_check_constraint("ck_orders_total", "orders", new)
        return
    table_sql = connection.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'orders'"
    ).scalar_one()
    if old not in table_sql:
        raise RuntimeError("orders' CHECK is not the one this revision replaces")
    indexes = connection.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders' AND sql IS NOT NULL"
    ).scalars().all()
    rebuilt = table_sql.replace(old, new).replace("CREATE TABLE orders", "CREATE TABLE orders_rebuilt", 1)
    if "orders_rebuilt" not in rebuilt:
        rebuilt = rebuilt.replace('CREATE TABLE "orders"', "CREATE TABLE orders_rebuilt", 1)
    connection.exec_driver_sql(rebuilt)
    connection.exec_driver_sql("INSERT INTO orders_rebuilt SELECT * FROM orders")
    connection.exec_driver_sql("DROP TABLE orders")
    connection.exec_driver_sql("ALTER TABLE orders_rebuilt RENAME TO orders")
    for index in indexes:
        connection.exec_driver_sql(index)


def upgrade() -> None:
    op.create_table(
        "discount_codes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sa.String(length=32), nullable=False, unique=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.Column("min_subtotal_cents", sa.Integer(), nullable=False),
        sa.Column("starts_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("ends_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("max_uses", sa.Integer(), nullable=True),
        sa.Column("max_uses_per_customer", sa.Integer(), nullable=True),
        sa.Column("product_ids", JSON_TYPE, nullable=False),
        sa.Column("category_ids", JSON_TYPE, nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.Column("is_active", sa.Boolean(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.CheckConstraint("uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)", name="ck_discount_codes_uses"),
    )
    op.create_table(
        "discount_redemptions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code_id", sa.Integer(), sa.ForeignKey("discount_codes.id", ondelete="RESTRICT"), nullable=False),
        sa.Column(
            "order_id", sa.Integer(), sa.ForeignKey("orders.id", ondelete="CASCADE"), nullable=False, unique=True
        ),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    )
    op.create_index("ix_discount_redemptions_code_email", "discount_redemptions", ["code_id", "email"])
    op.add_column("carts", sa.Column("discount_code", sa.String(length=32), nullable=True))
    # In place, never a batch copy (c9d4e2a1f6b3 says why); the server default fills the rows.
    op.add_column("orders", sa.Column("discount_cents", sa.Integer(), server_default="0", nullable=False))
    op.add_column("orders", sa.Column("discount_code", sa.String(length=32), nullable=True))
    _replace_orders_check(OLD_TOTAL, NEW_TOTAL)


def downgrade() -> None:
    _replace_orders_check(NEW_TOTAL, OLD_TOTAL)  # fails on an order with a discount, as it must
    op.drop_column("orders", "discount_code")
    op.drop_column("orders", "discount_cents")
    op.drop_column("carts", "discount_code")
    op.drop_index("ix_discount_redemptions_code_email", table_name="discount_redemptions")
    op.drop_table("discount_redemptions")
    op.drop_table("discount_codes")
