"""Refunds: every refund of an order (partial or the rest) and the items it took back.

``refunds`` holds one row per refund sent to Square (amount, how it was asked, restocked or not,
the admin's note, Square's refund id and status, the admin, when, the idempotency key);
``refund_lines`` the order lines and quantities it took back (none for a refund of an amount).

Data: until now a refund was always the whole payment, made by a status change (cancel or
refund) and kept only in ``order_status_changes.refunded_cents``. Each such change becomes a
refund of the rest: its amount, Square refund id, note, admin and time; the key it was sent with
(``refund-`` and the payment's key); every item of the order; restocked when the order still held
its items (pending to delivered). Downgrading drops both tables (the status changes keep the
full refunds; partial refunds are lost).

Revision ID: 317b8d246543
Revises: e7f3b9a1c2d4
Create Date: 2026-11-27 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "317b8d246543"
down_revision: str | None = "e7f3b9a1c2d4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STOCK_HELD = ("pending", "processing", "shipped", "delivered")
KEY_MAX = 45
REFUND_COLUMNS = (
    "order_id",
    "payment_id",
    "kind",
    "amount_cents",
    "currency",
    "restocked",
    "note",
    "square_refund_id",
    "square_status",
    "idempotency_key",
    "created_by",
    "created_at",
)


def upgrade() -> None:
    op.create_table(
        "refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("order_id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
        sa.Column("restocked", sa.Boolean(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("square_refund_id", sqlmodel.sql.sqltypes.AutoString(length=192), nullable=True),
        sa.Column("square_status", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("idempotency_key", sqlmodel.sql.sqltypes.AutoString(length=KEY_MAX), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.CheckConstraint("amount_cents > 0", name="ck_refunds_amount"),
        sa.ForeignKeyConstraint(["order_id"], ["orders.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["payment_id"], ["payments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("idempotency_key"),
        sa.UniqueConstraint("square_refund_id"),
    )
    op.create_index("ix_refunds_order_created", "refunds", ["order_id", "created_at"], unique=False)
    op.create_index("ix_refunds_payment_id", "refunds", ["payment_id"], unique=False)
    op.create_table(
        "refund_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("refund_id", sa.Integer(), nullable=False),
        sa.Column("order_item_id", sa.Integer(), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.CheckConstraint("quantity > 0", name="ck_refund_lines_quantity"),
        sa.ForeignKeyConstraint(["refund_id"], ["refunds.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["order_item_id"], ["order_items.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("refund_id", "order_item_id", name="uq_refund_lines_refund_item"),
    )
    op.create_index("ix_refund_lines_order_item_id", "refund_lines", ["order_item_id"], unique=False)
    _record_earlier_refunds()


def _record_earlier_refunds() -> None:
    """One refund of the rest per status change that gave the money back (module docstring),
    in SQL only: the values are copied as stored, on SQLite and PostgreSQL alike."""
    changes = sa.table(
        "order_status_changes",
        sa.column("order_id", sa.Integer),
        sa.column("from_status", sa.String),
        sa.column("note", sa.Text),
        sa.column("refunded_cents", sa.Integer),
        sa.column("square_refund_id", sa.String),
        sa.column("changed_by", sa.Integer),
        sa.column("created_at", sa.DateTime),
        sa.column("id", sa.Integer),
    )
    payments = sa.table(
        "payments",
        sa.column("id", sa.Integer),
        sa.column("order_id", sa.Integer),
        sa.column("provider", sa.String),
        sa.column("square_payment_id", sa.String),
        sa.column("idempotency_key", sa.String),
        sa.column("currency", sa.String),
    )
    refunds = sa.table("refunds", sa.column("id"), *(sa.column(name) for name in REFUND_COLUMNS))
    items = sa.table(
        "order_items", sa.column("id", sa.Integer), sa.column("order_id", sa.Integer), sa.column("quantity")
    )
    lines = sa.table(
        "refund_lines", sa.column("refund_id"), sa.column("order_item_id"), sa.column("quantity")
    )
    inner = payments.alias("latest_payment")
    latest = (
        sa.select(inner.c.id)
        .where(
            inner.c.order_id == changes.c.order_id,
            inner.c.provider == "square",
            inner.c.square_payment_id.is_not(None),
        )
        .order_by(inner.c.id.desc())
        .limit(1)
        .correlate(changes)
        .scalar_subquery()
    )
    earlier = (
        sa.select(
            changes.c.order_id,
            payments.c.id,
            sa.literal_column("'rest'", sa.String),
            changes.c.refunded_cents,
            payments.c.currency,
            changes.c.from_status.in_(STOCK_HELD),
            sa.func.coalesce(changes.c.note, sa.literal_column("''", sa.Text)),
            changes.c.square_refund_id,
            sa.literal_column("''", sa.String),
            sa.func.substr(
                sa.literal_column("'refund-'", sa.String) + payments.c.idempotency_key, 1, KEY_MAX
            ),
            changes.c.changed_by,
            changes.c.created_at,
        )
        .select_from(changes.join(payments, payments.c.id == latest))
        .where(changes.c.refunded_cents > 0)
        .order_by(changes.c.id)
    )
    op.execute(refunds.insert().from_select(list(REFUND_COLUMNS), earlier))
    op.execute(
        lines.insert().from_select(
            ["refund_id", "order_item_id", "quantity"],
            sa.select(refunds.c.id, items.c.id, items.c.quantity).select_from(
                refunds.join(items, items.c.order_id == refunds.c.order_id)
            ),
        )
    )


def downgrade() -> None:
    op.drop_index("ix_refund_lines_order_item_id", table_name="refund_lines")
    op.drop_table("refund_lines")
    op.drop_index("ix_refunds_payment_id", table_name="refunds")
    op.drop_index("ix_refunds_order_created", table_name="refunds")
    op.drop_table("refunds")
