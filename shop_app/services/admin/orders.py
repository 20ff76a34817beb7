"""The back office's orders (docs/architecture.md#orders-and-payment; docs/spec/README.md#gaps): the list of
paid orders and one order's details.

The list shows every paid order (``services.order_history.paid_orders``, the set the dashboard's
Paid Orders card counts): statuses ``pending`` to ``delivered`` and ``refunded``, and ``cancelled``
when it had been paid (a declined payment also ends as ``cancelled``; that order was never placed
as far as anyone is concerned). Orders placed with the simulated PayPal of local mode took no
money: they are left out of every view but the "Not charged" filter (:data:`NOT_CHARGED`,
``services.order_history.not_charged_orders``), where the owner finds them to decide what to do.
Newest first, searched by order number, customer name (shipping address) or e-mail, filtered by
status, one page at a time: the database does the searching, counting and paging. One order's
page opens any placed order, the not charged ones included.

An order that was refunded in part shows "Partially refunded" (its payment) in the list and on
its page, which also lists every refund. Status changes and refunds are made in
:mod:`shop_app.services.admin.order_changes`. Every function trusts that the caller has already
checked the admin role.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.order_numbers import SHOP_TIME_ZONE
from shop_app.domain.order_status import LISTED_STATUSES, allowed_targets, refundable
from shop_app.domain.orders import OrderStatus, PaymentStatus, status_badge_colour, status_label
from shop_app.domain.pricing import line_label
from shop_app.domain.refunds import RefundSituation
from shop_app.domain.text import short_us_date
from shop_app.domain.tracking import tracking_url
from shop_app.models import (
    Order,
    OrderAddress,
    OrderItem,
    OrderStatusChange,
    Payment,
    Product,
    Refund,
    RefundLine,
    User,
)
from shop_app.models.base import saved_id
from shop_app.services.admin import order_refunds
from shop_app.services.catalog.filters import escape_like
from shop_app.services.order_history import item_snapshot, not_charged_orders, paid_orders, placed_orders
from shop_app.services.ordering.receipt import Receipt, load_receipt

PAGE_SIZE: Final = 20
ALL_STATUSES: Final = "all"
NOT_CHARGED: Final = PaymentStatus.NOT_CHARGED.value
"""The status filter's value that lists the orders of the simulated PayPal (no money taken), only them."""
PARTIALLY_REFUNDED: Final = "partially_refunded"
"""What the payment of an order refunded in part is shown as (not stored: its payment is completed)."""
SEARCH_MAX: Final = 100


def shop_time_text(moment: datetime) -> str:
    """A moment as the shop reads it (America/Vancouver): "Nov 21, 2026, 10:05 AM".

    A naive datetime (SQLite) is read as UTC.
    """
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    local = aware.astimezone(SHOP_TIME_ZONE)
    hour = local.hour % 12 or 12
    return f"{short_us_date(local.date())}, {hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"


def _first_shipping_address() -> sa.ScalarSelect[int]:
    return (
        select(sa.func.min(OrderAddress.id))
        .where(OrderAddress.order_id == Order.id, OrderAddress.type == "shipping")
        .correlate(Order)
        .scalar_subquery()
    )


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class AdminOrderRow:
    """One order of the list."""

    id: int
    order_number: str
    placed_at: str  # "Nov 21, 2026, 10:05 AM", shop time
    customer_name: str  # the shipping address's name ("" without one)
    email: str
    item_count: int
    total_cents: int
    status: str
    status_label: str
    status_colour: str  # the seed's colour name: yellow, blue, purple, green, red, grey
    payment_status: str
    refunded_cents: int = 0  # every refund so far

    @property
    def not_charged(self) -> bool:
        """Placed with the simulated PayPal of local mode: no money was taken."""
        return self.payment_status == PaymentStatus.NOT_CHARGED

    @property
    def shown_payment_status(self) -> str:
        """The payment as the list shows it: "partially_refunded" while some money went back and
        some is still held, else the payment's status."""
        partly = self.payment_status == PaymentStatus.COMPLETED and self.refunded_cents > 0
        return PARTIALLY_REFUNDED if partly else self.payment_status


@dataclass(frozen=True, slots=True)
class OrderPage:
    """One page of the list, and how many orders match in all."""

    rows: tuple[AdminOrderRow, ...]
    total: int  # matching orders
    page: int  # 1-based, within 1..pages
    pages: int  # at least 1
    any_orders: bool  # whether there is any paid order at all (empty list: "no match" or "none yet")


def _search_condition(search: str) -> sa.ColumnElement[bool] | None:
    term = " ".join(search.split())[:SEARCH_MAX].lower()
    if not term:
        return None
    pattern = f"%{escape_like(term)}%"
    full_name = sa.func.lower(OrderAddress.first_name + " " + OrderAddress.last_name)
    return sa.or_(
        sa.func.lower(Order.order_number).like(pattern, escape="\\"),
        sa.func.lower(Order.email).like(pattern, escape="\\"),
        full_name.like(pattern, escape="\\"),
    )


def listed(statement: sa.Select, *, search: str = "", status: str = ALL_STATUSES) -> sa.Select:
    """``statement`` (over ``Order``) narrowed to the orders the list shows for ``search`` and
    ``status`` (as :func:`list_orders` reads them), with each order's first shipping address
    joined as ``OrderAddress`` (none: its columns are null): the one filter of the list and of the
    accountant's export (``services.admin.orders_export``)."""
    conditions: list[sa.ColumnElement[bool]] = [
        not_charged_orders() if status == NOT_CHARGED else paid_orders()
    ]
    if status in {s.value for s in LISTED_STATUSES}:
        conditions.append(col(Order.status) == status)
    found = _search_condition(search)
    if found is not None:
        conditions.append(found)
    return statement.outerjoin(OrderAddress, col(OrderAddress.id) == _first_shipping_address()).where(
        *conditions
    )


def list_orders(
    session: Session,
    *,
    search: str = "",
    status: str = ALL_STATUSES,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> OrderPage:
    """A page of paid orders, newest first, matching ``search`` and ``status``.

    Args:
        search: Part of the order number, the customer's name or e-mail (any letter case).
        status: A status of :data:`LISTED_STATUSES` (its paid orders), :data:`NOT_CHARGED` (the
            orders of the simulated PayPal, whatever their status), or ``"all"`` (anything else
            means all: every paid order, the set the dashboard's Paid Orders card counts).
        page: The page wanted; beyond the last page gives the last page.
        page_size: Orders per page.
    """
    total = session.execute(
        select(sa.func.count()).select_from(
            listed(select(col(Order.id)), search=search, status=status).subquery()
        )
    ).scalar_one()
    pages = max(1, -(-total // page_size))
    page = min(max(1, page), pages)
    item_count = (
        select(sa.func.coalesce(sa.func.sum(OrderItem.quantity), 0))
        .where(OrderItem.order_id == Order.id)
        .correlate(Order)
        .scalar_subquery()
    )
    refunded = (
        select(sa.func.coalesce(sa.func.sum(Refund.amount_cents), 0))
        .where(Refund.order_id == Order.id)
        .correlate(Order)
        .scalar_subquery()
    )
    columns = sa.select(
        col(Order.id),
        col(Order.order_number),
        col(Order.created_at),
        col(Order.email),
        col(Order.total_cents),
        col(Order.status),
        col(Order.payment_status),
        col(OrderAddress.first_name),
        col(OrderAddress.last_name),
        item_count.label("item_count"),
        refunded.label("refunded_cents"),
    )
    rows = session.execute(
        listed(columns, search=search, status=status)
        .order_by(col(Order.created_at).desc(), col(Order.id).desc())
        .limit(page_size)
        .offset((page - 1) * page_size)
    ).all()
    any_orders = (
        total > 0 or session.execute(select(Order.id).where(paid_orders()).limit(1)).first() is not None
    )
    return OrderPage(
        rows=tuple(_row(row) for row in rows), total=total, page=page, pages=pages, any_orders=any_orders
    )


def _row(row: sa.Row) -> AdminOrderRow:
    return AdminOrderRow(
        id=row.id,
        order_number=row.order_number,
        placed_at=shop_time_text(row.created_at),
        customer_name=f"{row.first_name or ''} {row.last_name or ''}".strip(),
        email=row.email,
        item_count=int(row.item_count or 0),
        total_cents=row.total_cents,
        status=row.status,
        status_label=status_label(row.status),
        status_colour=status_badge_colour(row.status),
        payment_status=row.payment_status,
        refunded_cents=int(row.refunded_cents or 0),
    )


# --------------------------------------------------------------------------- one order


@dataclass(frozen=True, slots=True)
class PaymentInfo:
    """The order's payment as recorded (the newest attempt)."""

    provider: str
    status: str
    amount_cents: int
    square_payment_id: str  # "" when none (simulated PayPal, a payment never sent)
    card: str  # "VISA •••• 1111", or ""
    receipt_url: str


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One status change of the order."""

    at: str  # shop time
    from_status: str
    to_status: str
    from_label: str
    to_label: str
    by: str  # the admin's name or e-mail, "" when the account is gone
    note: str
    tracking_number: str
    carrier: str
    refunded_cents: int
    square_refund_id: str


@dataclass(frozen=True, slots=True)
class RefundEntry:
    """One refund of the order."""

    at: str  # shop time
    amount_cents: int
    kind: str  # items, amount, rest (domain.refunds.RefundMode)
    items: tuple[str, ...]  # "1 × 8oz Amber Soy Candle (Vanilla Bean)"; none for an amount
    restocked: bool
    by: str  # the admin's name or e-mail, "" when the account is gone
    note: str
    square_refund_id: str
    square_status: str


@dataclass(frozen=True, slots=True)
class RefundChoice:
    """A line of the order in the Refund dialog."""

    item_id: int
    name: str
    options: str  # "Vanilla Bean", or ""
    quantity: int  # ordered
    refundable: int  # not refunded by line yet
    unit_price_cents: int


@dataclass(frozen=True, slots=True)
class AdminOrderDetail:
    """Everything the order page shows."""

    receipt: Receipt  # number, e-mail, items with snapshots, totals, address, notes
    placed_at: str
    status_label: str
    status_colour: str
    user_id: int | None  # the customer's account, None for a guest
    tracking_number: str
    carrier: str
    tracking_url: str
    payment: PaymentInfo | None
    history: tuple[HistoryEntry, ...]
    allowed: tuple[OrderStatus, ...]  # the changes the rules allow now
    refunds: tuple[RefundEntry, ...] = ()  # oldest first
    refunded_cents: int = 0  # every refund so far
    refund_situation: RefundSituation | None = None  # when the order can be refunded now
    refund_choices: tuple[RefundChoice, ...] = ()  # the lines, when it can be refunded now

    @property
    def partially_refunded(self) -> bool:
        """Some money went back, some is still held: "Partially refunded"."""
        return self.refunded_cents > 0 and self.receipt.payment_status == PaymentStatus.COMPLETED

    @property
    def not_charged(self) -> bool:
        """Placed with the simulated PayPal of local mode: no money was taken, none to refund."""
        return self.receipt.not_charged

    @property
    def order_id(self) -> int:
        """The order's id."""
        return self.receipt.order_id


def order_detail(session: Session, order_id: int) -> AdminOrderDetail | None:
    """One placed order (paid or not charged) with its payment and history, or ``None`` (missing
    or never placed)."""
    order = session.exec(select(Order).where(Order.id == order_id, placed_orders())).first()
    receipt = load_receipt(session, order_id) if order is not None else None
    if order is None or receipt is None:
        return None
    payment = session.exec(
        select(Payment).where(col(Payment.order_id) == order.id).order_by(col(Payment.id).desc()).limit(1)
    ).first()
    history = session.execute(
        select(OrderStatusChange, col(User.first_name), col(User.last_name), col(User.email))
        .outerjoin(User, col(User.id) == col(OrderStatusChange.changed_by))
        .where(col(OrderStatusChange.order_id) == order.id)
        .order_by(col(OrderStatusChange.created_at), col(OrderStatusChange.id))
    ).all()
    situation, choices = _refund_situation(session, order, payment)
    entries = _refunds(session, saved_id(order))
    return AdminOrderDetail(
        receipt=receipt,
        placed_at=shop_time_text(order.created_at),
        status_label=status_label(order.status),
        status_colour=status_badge_colour(order.status),
        user_id=order.user_id,
        tracking_number=order.tracking_number or "",
        carrier=order.carrier or "",
        tracking_url=tracking_url(order.tracking_number, order.carrier) or "",
        payment=_payment(payment) if payment is not None else None,
        history=tuple(_entry(change, first, last, email) for change, first, last, email in history),
        allowed=allowed_targets(order.status, order.payment_status),
        refunds=entries,
        refunded_cents=sum(entry.amount_cents for entry in entries),
        refund_situation=situation,
        refund_choices=choices,
    )


def _refund_situation(
    session: Session, order: Order, payment: Payment | None
) -> tuple[RefundSituation | None, tuple[RefundChoice, ...]]:
    """What the Refund dialog offers, when the order can be refunded now (a Square payment held)."""
    if (
        payment is None
        or payment.square_payment_id is None
        or not refundable(order.status, order.payment_status)
    ):
        return None, ()
    situation, _ = order_refunds.situation_of(session, order, paid_cents=payment.amount_cents)
    options: dict[int, str] = {}
    for item in session.exec(select(OrderItem).where(col(OrderItem.order_id) == order.id)):
        snapshot = item_snapshot(item)
        options[saved_id(item)] = line_label(snapshot.options, snapshot.custom_note)
    choices = tuple(
        RefundChoice(
            item_id=line.item_id,
            name=line.name,
            options=options.get(line.item_id, ""),
            quantity=line.quantity,
            refundable=line.refundable_quantity,
            unit_price_cents=line.unit_price_cents,
        )
        for line in situation.lines
    )
    return situation, choices


def _refunds(session: Session, order_id: int) -> tuple[RefundEntry, ...]:
    rows = session.execute(
        select(Refund, col(User.first_name), col(User.last_name), col(User.email))
        .outerjoin(User, col(User.id) == col(Refund.created_by))
        .where(col(Refund.order_id) == order_id)
        .order_by(col(Refund.created_at), col(Refund.id))
    ).all()
    items: dict[int, list[str]] = {}
    for refund_id, quantity, item, product_name in session.execute(
        select(col(RefundLine.refund_id), col(RefundLine.quantity), OrderItem, col(Product.name))
        .join(OrderItem, col(OrderItem.id) == col(RefundLine.order_item_id))
        .outerjoin(Product, col(Product.id) == col(OrderItem.product_id))
        .join(Refund, col(Refund.id) == col(RefundLine.refund_id))
        .where(col(Refund.order_id) == order_id)
        .order_by(col(RefundLine.refund_id), col(OrderItem.id))
    ):
        snapshot = item_snapshot(item)
        options = line_label(snapshot.options, snapshot.custom_note)
        name = snapshot.name or product_name or ""
        name = f"{name} ({options})" if options else name
        items.setdefault(refund_id, []).append(f"{quantity} × {name}")
    return tuple(
        RefundEntry(
            at=shop_time_text(refund.created_at),
            amount_cents=refund.amount_cents,
            kind=refund.kind,
            items=tuple(items.get(saved_id(refund), ())),
            restocked=refund.restocked,
            by=f"{first or ''} {last or ''}".strip() or email or "",
            note=refund.note,
            square_refund_id=refund.square_refund_id or "",
            square_status=refund.square_status,
        )
        for refund, first, last, email in rows
    )


def _payment(payment: Payment) -> PaymentInfo:
    card = " •••• ".join(p for p in (payment.card_brand or "", payment.card_last4 or "") if p)
    return PaymentInfo(
        provider=payment.provider,
        status=payment.status,
        amount_cents=payment.amount_cents,
        square_payment_id=payment.square_payment_id or "",
        card=card,
        receipt_url=payment.receipt_url or "",
    )


def _entry(change: OrderStatusChange, first: str | None, last: str | None, email: str | None) -> HistoryEntry:
    name = f"{first or ''} {last or ''}".strip()
    return HistoryEntry(
        at=shop_time_text(change.created_at),
        from_status=change.from_status,
        to_status=change.to_status,
        from_label=status_label(change.from_status),
        to_label=status_label(change.to_status),
        by=name or email or "",
        note=change.note,
        tracking_number=change.tracking_number or "",
        carrier=change.carrier or "",
        refunded_cents=change.refunded_cents,
        square_refund_id=change.square_refund_id or "",
    )
