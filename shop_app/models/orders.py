"""Orders, their items (with a product snapshot), addresses, payments, status history and refunds.

An order item references its product with ``ON DELETE RESTRICT``: a product that was ever
ordered cannot be deleted, only archived (docs/spec/admin-products.md#delete relies on this).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models.base import JSONType, utcnow


class Order(SQLModel, table=True):
    """An order. Amounts are integer cents, computed on the server from the database."""

    __tablename__ = "orders"
    __table_args__ = (
        sa.CheckConstraint(
            "total_cents = subtotal_cents - discount_cents + tax_cents + shipping_cents",
            name="ck_orders_total",
        ),
        sa.Index("ix_orders_user_created", "user_id", "created_at"),
        sa.Index("ix_orders_status_created", "status", "created_at"),
        # One checkout per cart at a time: a cart has at most one order awaiting its payment
        # (services/ordering/place.py claims the cart; this makes a second claim impossible).
        sa.Index(
            "uq_orders_cart_awaiting_payment",
            "cart_id",
            unique=True,
            sqlite_where=sa.text(f"status = '{OrderStatus.AWAITING_PAYMENT.value}'"),
            postgresql_where=sa.text(f"status = '{OrderStatus.AWAITING_PAYMENT.value}'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    order_number: str = Field(max_length=32, unique=True)
    user_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    # The cart it was placed from (emptied when it is paid; one unpaid order per cart).
    cart_id: int | None = Field(default=None, foreign_key="carts.id", ondelete="SET NULL")
    email: str = Field(max_length=254)
    phone: str = Field(default="", max_length=40)
    status: str = Field(default=OrderStatus.AWAITING_PAYMENT, max_length=32)
    payment_status: str = Field(default=PaymentStatus.PENDING, max_length=32)
    currency: str = Field(default="CAD", max_length=3)
    subtotal_cents: int
    tax_cents: int
    shipping_cents: int
    total_cents: int
    # The taxes it was charged, one line each with the rate used (domain.tax.lines_to_json);
    # their amounts add up to tax_cents. Empty for an order placed before issue 19.
    tax_lines: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONType)
    # A discount code's amount off the goods, before tax (domain.discounts), and the code.
    discount_cents: int = Field(default=0)
    discount_code: str | None = Field(default=None, max_length=32)
    notes: str = Field(default="", sa_type=sa.Text)  # the shopper's special instructions
    gift_message: str = Field(default="", sa_type=sa.Text)  # for the card in the parcel (no prices)
    gift_wrap: bool = Field(default=False)  # wrap the order as a gift (free)
    tracking_number: str | None = Field(default=None, max_length=100)
    carrier: str | None = Field(default=None, max_length=50)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    paid_at: datetime | None = Field(default=None)


class OrderItem(SQLModel, table=True):
    """A line of an order, frozen at the time of purchase."""

    __tablename__ = "order_items"
    __table_args__ = (sa.CheckConstraint("quantity > 0", name="ck_order_items_quantity"),)

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", index=True)
    product_id: int = Field(foreign_key="products.id", ondelete="RESTRICT", index=True)
    quantity: int
    unit_price_cents: int
    total_price_cents: int
    # {"name", "base_price_cents", "sale_price_cents", "image_url", "selected_options"}
    product_snapshot: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)


class OrderAddress(SQLModel, table=True):
    """An address of an order (the seed uses only ``shipping``)."""

    __tablename__ = "order_addresses"

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", index=True)
    type: str = Field(default="shipping", max_length=20)
    first_name: str = Field(max_length=100)
    last_name: str = Field(max_length=100)
    address_line1: str = Field(max_length=255)
    address_line2: str = Field(default="", max_length=255)
    city: str = Field(max_length=100)
    state: str = Field(max_length=100)
    zip_code: str = Field(max_length=20)
    country: str = Field(max_length=100)
    phone: str = Field(default="", max_length=40)


class Payment(SQLModel, table=True):
    """One payment attempt. The idempotency key is written before the first charge attempt."""

    __tablename__ = "payments"

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", index=True)
    provider: str = Field(max_length=32)
    idempotency_key: str = Field(max_length=45, unique=True)
    status: str = Field(default=PaymentStatus.PENDING, max_length=32)
    amount_cents: int
    currency: str = Field(default="CAD", max_length=3)
    square_payment_id: str | None = Field(default=None, max_length=192, unique=True)
    square_order_id: str | None = Field(default=None, max_length=192)
    card_brand: str | None = Field(default=None, max_length=32)
    card_last4: str | None = Field(default=None, max_length=4)
    receipt_url: str | None = Field(default=None, max_length=1024)
    error_code: str | None = Field(default=None, max_length=100)
    error_detail: str | None = Field(default=None, sa_type=sa.Text)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class WebhookEvent(SQLModel, table=True):
    """A provider webhook already handled: deliveries may repeat, each event is applied once."""

    __tablename__ = "webhook_events"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(max_length=128, unique=True)
    event_type: str = Field(max_length=64)
    received_at: datetime = Field(default_factory=utcnow)


class OrderStatusChange(SQLModel, table=True):
    """One status change made in the back office, kept for the order's history.

    ``changed_by`` is the admin who made it (kept as ``NULL`` if that account is deleted);
    ``square_refund_id`` is Square's refund when the change gave the money back.
    """

    __tablename__ = "order_status_changes"
    __table_args__ = (sa.Index("ix_order_status_changes_order_created", "order_id", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE")
    from_status: str = Field(max_length=32)
    to_status: str = Field(max_length=32)
    note: str = Field(default="", sa_type=sa.Text)
    tracking_number: str | None = Field(default=None, max_length=100)
    carrier: str | None = Field(default=None, max_length=50)
    refunded_cents: int = Field(default=0)
    square_refund_id: str | None = Field(default=None, max_length=192)
    changed_by: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utcnow)


class Refund(SQLModel, table=True):
    """Money given back for an order through Square: a partial refund or the rest (a full refund,
    a cancel). Rules: ``domain.refunds``; written by ``services.admin.order_changes``.

    ``kind`` is how it was asked (``items``, ``amount``, ``rest``); its items are
    :class:`RefundLine` rows (none for an amount). ``restocked`` says whether those items went back
    to stock. ``idempotency_key`` is the key Square received: one refund per key, so a retried
    request finds its row instead of refunding twice. ``square_status`` is Square's answer
    (PENDING, then COMPLETED by its webhook); ``created_by`` the admin (``NULL`` once the account
    is deleted).
    """

    __tablename__ = "refunds"
    __table_args__ = (
        sa.CheckConstraint("amount_cents > 0", name="ck_refunds_amount"),
        sa.Index("ix_refunds_order_created", "order_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE")
    payment_id: int = Field(foreign_key="payments.id", ondelete="CASCADE", index=True)
    kind: str = Field(max_length=16)
    amount_cents: int
    currency: str = Field(default="CAD", max_length=3)
    restocked: bool = Field(default=False)
    note: str = Field(default="", sa_type=sa.Text)
    square_refund_id: str | None = Field(default=None, max_length=192, unique=True)
    square_status: str = Field(default="", max_length=32)
    idempotency_key: str = Field(max_length=45, unique=True)
    created_by: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utcnow)


class RefundLine(SQLModel, table=True):
    """An item a refund took back: which line of the order, and how many."""

    __tablename__ = "refund_lines"
    __table_args__ = (
        sa.CheckConstraint("quantity > 0", name="ck_refund_lines_quantity"),
        sa.UniqueConstraint("refund_id", "order_item_id", name="uq_refund_lines_refund_item"),
    )

    id: int | None = Field(default=None, primary_key=True)
    refund_id: int = Field(foreign_key="refunds.id", ondelete="CASCADE")
    order_item_id: int = Field(foreign_key="order_items.id", ondelete="CASCADE", index=True)
    quantity: int


class OrderAccessToken(SQLModel, table=True):
    """A signed order link: whoever holds the secret may see this one order (a guest's mail).

    Only the SHA-256 of the secret is stored (``services.order_access``): a copy of the database
    opens no order, and the secret is 256 random bits, unrelated to the order's id or number.
    An order may have several (one per mail that carried a link); deleting the row revokes it.
    """

    __tablename__ = "order_access_tokens"

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", index=True)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
