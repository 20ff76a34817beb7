"""A customer's order history, order details and "Reorder" (docs/spec/account.md#order-history;
docs/spec/orders.md#records, #statuses; docs/architecture.md#orders-and-payment; docs/spec/README.md#gaps).

Every function takes the ``user_id`` the caller has already authenticated
(docs/architecture.md#access-control). An order of another user is treated exactly like a missing one, so
nothing reveals that it exists. The one exception, ``order_with_access_proven``, serves
``services.order_access`` (a signed order link, or e-mail + order number), which proves the right to see an
order without an account.

The customer sees every order they placed (:func:`placed_orders`, docs/architecture.md#orders-and-payment):
``awaiting_payment`` never is one, and a ``cancelled`` order only when it had been placed (a declined payment
also ends as ``cancelled``, with no money taken; the shopper never placed that order as far as the history is
concerned). An order placed with the simulated PayPal of local mode is in the history, marked not charged
(``OrderSummary.not_charged``): the shopper did place it, but no money was taken.

This module holds the one definition of each set of orders the shop counts; every other module imports them:

- :func:`placed_orders`: every order the shopper completed (the customer's history, order page and lookup);
- :func:`paid_orders`: those whose money was taken (the back office's Orders list and the dashboard's
  Paid Orders card);
- :func:`not_charged_orders`: those placed with the simulated PayPal, no money taken (the Orders list's
  "Not charged" filter);
- :func:`sale_orders`: paid orders that still stand (the dashboard's sales overview).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from enum import StrEnum
from typing import Any, Final, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.discounts import discount_rows
from shop_app.domain.messages import OrderMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus, status_badge_colour, status_label
from shop_app.domain.pricing import line_label
from shop_app.domain.tax import TaxLine, lines_from_json, tax_rows
from shop_app.domain.text import long_us_date
from shop_app.domain.tracking import tracking_url
from shop_app.models import Order, OrderAddress, OrderItem, Product, Refund
from shop_app.models.base import saved_id
from shop_app.services import cart
from shop_app.services.cart import CartError, CartOwner, CartView
from shop_app.services.catalog.filters import primary_image_url

SHIPPING_ADDRESS_TYPE: Final = "shipping"

SHOP_TIME_ZONE_NAME: Final = "America/Vancouver"
"""The shop is in British Columbia: "placed on" dates are the shop's calendar dates."""

SALE_STATUSES: Final = (
    OrderStatus.PENDING,
    OrderStatus.PROCESSING,
    OrderStatus.SHIPPED,
    OrderStatus.DELIVERED,
)
"""Statuses of a placed order that still stands (neither cancelled nor refunded): :func:`sale_orders`."""

PAID_STATUSES: Final = (*SALE_STATUSES, OrderStatus.REFUNDED)
"""Statuses that imply the order was placed (a ``cancelled`` one may have been: :func:`placed_orders`)."""

PLACED_PAYMENT_STATUSES: Final = (PaymentStatus.COMPLETED, PaymentStatus.REFUNDED, PaymentStatus.NOT_CHARGED)
"""Payment outcomes of an order the shopper placed (``not_charged``: simulated PayPal, no money taken)."""

PAID_PAYMENT_STATUSES: Final = (PaymentStatus.COMPLETED, PaymentStatus.REFUNDED)
"""Payment outcomes of an order whose money was taken (and may have been given back since)."""


def _shop_time_zone() -> tzinfo:
    try:
        return ZoneInfo(SHOP_TIME_ZONE_NAME)
    except ZoneInfoNotFoundError:  # no time zone database on this machine
        return UTC


SHOP_TIME_ZONE: Final = _shop_time_zone()


class ReorderMessage(StrEnum):
    """Texts of the Reorder button (ours: the seed shows the button without behaviour)."""

    ADDED_ONE = "Added 1 item to your cart."
    ADDED_MANY = "Added {count} items to your cart."  # placeholder: count
    NOTHING_ADDED = "Nothing could be added to your cart."
    UNAVAILABLE = "Not available any more: {names}."  # archived, out of stock or option withdrawn
    LIMITED = "Fewer in stock than you ordered: {names}."
    NOT_FOUND = "Order not found"  # missing, another customer's, or never placed
    NOT_DELIVERED = "Only delivered orders can be reordered"


class ReorderError(ValueError):
    """Reorder was refused; the message is for the shopper."""


@dataclass(frozen=True, slots=True)
class OrderLine:
    """An item of an order, as frozen at purchase (prices are those paid)."""

    product_id: int
    name: str  # snapshot name, else the product's current name, else "Unknown Product"
    unit_price_cents: int
    quantity: int
    total_cents: int
    image_url: str  # snapshot image, else the product's current card image, else ""
    options_label: str  # option values by option name: "Lavender, 8oz" (scent, size); "" without
    selected_options: dict[str, str] = field(default_factory=dict)
    custom_note: str = ""  # a custom candle's special instructions (also in the label)
    listed: bool = True  # False: a custom candle design, whose product has no page


@dataclass(frozen=True, slots=True)
class OrderSummary:
    """An order card of the history, and the order details page."""

    id: int
    order_number: str
    email: str
    placed_on: str  # "November 21, 2026", the shop's calendar date
    created_at: datetime
    status: str
    status_label: str
    status_colour: str
    subtotal_cents: int
    tax_cents: int
    shipping_cents: int
    total_cents: int
    lines: tuple[OrderLine, ...]
    ship_name: str
    ship_line1: str
    ship_line2: str
    ship_city: str
    ship_state: str
    ship_zip: str
    ship_country: str
    ship_phone: str
    tracking_number: str  # "" when none
    carrier: str  # "" when none
    tracking_url: str  # the carrier's tracking page, "" when none or unknown carrier
    can_reorder: bool  # delivered orders only (docs/spec/account.md#order-history)
    notes: str = ""
    not_charged: bool = False  # placed with the simulated PayPal of local mode: no money was taken
    refunded_cents: int = 0  # given back so far (every refund, partial or the rest)
    tax_lines: tuple[TaxLine, ...] = ()  # the taxes charged, one per line (none: an export, or older)
    discount_cents: int = 0  # a discount code's amount off the goods, before tax
    discount_code: str = ""  # "" when none

    @property
    def tax_rows(self) -> tuple[tuple[str, int], ...]:
        """The summary's tax rows: "GST 5%", "PST 7%"… or a single "Tax" row."""
        return tax_rows(self.tax_lines, self.tax_cents)

    @property
    def discount_rows(self) -> tuple[tuple[str, int], ...]:
        """The summary's discount row ("Discount (TEN)", -500), none without a discount."""
        return discount_rows(self.discount_cents, self.discount_code)

    @property
    def item_count(self) -> int:
        """Number of items (sum of quantities)."""
        return sum(line.quantity for line in self.lines)


@dataclass(frozen=True, slots=True)
class ReorderResult:
    """What Reorder put in the cart, and what it could not."""

    added_count: int  # items added (sum of quantities)
    unavailable: tuple[str, ...]  # names of items not added at all
    limited: tuple[str, ...]  # names of items added (or not) in a smaller quantity than ordered
    message: str
    kind: Literal["success", "warning", "error"]
    cart: CartView


def placed_orders() -> sa.ColumnElement[bool]:
    """Which orders the shopper placed: the one definition (docs/architecture.md#orders-and-payment).

    Every order whose checkout completed: statuses ``pending`` to ``delivered`` and ``refunded``,
    and ``cancelled`` when it had been placed (paid, or placed with the simulated PayPal). Never
    ``awaiting_payment``, nor a declined or abandoned payment (which also ends ``cancelled``).

    The customer's history, order page and order lookup show exactly these, the simulated PayPal's
    included (marked not charged); what the shop counts as money taken is :func:`paid_orders`.
    """
    return sa.or_(
        col(Order.status).in_([s.value for s in PAID_STATUSES]),
        sa.and_(
            col(Order.status) == OrderStatus.CANCELLED.value,
            sa.or_(
                col(Order.paid_at).is_not(None),
                col(Order.payment_status).in_([s.value for s in PLACED_PAYMENT_STATUSES]),
            ),
        ),
    )


def paid_orders() -> sa.ColumnElement[bool]:
    """Which orders count as paid: :func:`placed_orders` whose money was taken.

    The simulated PayPal of local mode (payment ``not_charged``) is left out: no money was taken,
    whatever its status. Refunded orders, and cancelled ones that had been paid, stay in (the money
    was taken, then given back). The back office's Orders list (its default view and total) and
    the dashboard's Paid Orders card count exactly these; the sales overview counts the ones that
    still stand (:func:`sale_orders`).
    """
    return sa.and_(placed_orders(), col(Order.payment_status) != PaymentStatus.NOT_CHARGED.value)


def not_charged_orders() -> sa.ColumnElement[bool]:
    """:func:`placed_orders` that were never charged (the simulated PayPal): the Orders list's filter."""
    return sa.and_(placed_orders(), col(Order.payment_status) == PaymentStatus.NOT_CHARGED.value)


def sale_orders() -> sa.ColumnElement[bool]:
    """Which orders are sales: :func:`paid_orders` that still stand (not cancelled, not refunded).

    The dashboard's sales overview counts exactly these; with the refunded and cancelled paid
    orders they are :func:`paid_orders`.
    """
    return sa.and_(paid_orders(), col(Order.status).in_([s.value for s in SALE_STATUSES]))


def kept_cents() -> sa.ColumnElement[int]:
    """What the customer paid for an order and kept paid: its total less every refund so far
    (an expression over ``Order``; the sales overview's revenue and a customer's "Spent")."""
    refunded = (
        select(sa.func.sum(col(Refund.amount_cents)))
        .where(col(Refund.order_id) == col(Order.id))
        .correlate(Order)
        .scalar_subquery()
    )
    return col(Order.total_cents) - sa.func.coalesce(refunded, 0)


def _orders_with_address() -> sa.Select:
    """Orders with their (first) shipping address, one row per order."""
    first_shipping = (
        select(sa.func.min(OrderAddress.id))
        .where(OrderAddress.order_id == Order.id, OrderAddress.type == SHIPPING_ADDRESS_TYPE)
        .correlate(Order)
        .scalar_subquery()
    )
    return select(Order, OrderAddress).outerjoin(OrderAddress, col(OrderAddress.id) == first_shipping)


def list_orders(session: Session, *, user_id: int) -> list[OrderSummary]:
    """The user's placed orders, newest first, with items and shipping address (two queries)."""
    rows = session.execute(
        _orders_with_address()
        .where(col(Order.user_id) == user_id, placed_orders())
        .order_by(col(Order.created_at).desc(), col(Order.id).desc())
    ).all()
    return _summaries(session, rows)


def list_orders_where(session: Session, condition: sa.ColumnElement[bool]) -> list[OrderSummary]:
    """The paid orders matching ``condition`` (over ``Order``), newest first: for the back office.

    The caller builds ``condition`` from what it has already checked (View Users: an account's
    orders, a guest's by e-mail, ``services.admin.customers``); paid means :func:`paid_orders`.
    """
    rows = session.execute(
        _orders_with_address()
        .where(condition, paid_orders())
        .order_by(col(Order.created_at).desc(), col(Order.id).desc())
    ).all()
    return _summaries(session, rows)


def get_order(session: Session, *, user_id: int, order_id: int) -> OrderSummary | None:
    """One placed order of the user, or None (missing, another customer's and unpaid alike)."""
    rows = session.execute(
        _orders_with_address().where(
            col(Order.id) == order_id, col(Order.user_id) == user_id, placed_orders()
        )
    ).all()
    summaries = _summaries(session, rows)
    return summaries[0] if summaries else None


def order_with_access_proven(session: Session, *, order_id: int) -> OrderSummary | None:
    """One placed order, whoever placed it, or None (missing and unpaid alike).

    Only for a caller that has proved the right to see this order another way than by account:
    a signed order link, or its e-mail address with its number (``services.order_access``).
    """
    rows = session.execute(_orders_with_address().where(col(Order.id) == order_id, placed_orders())).all()
    summaries = _summaries(session, rows)
    return summaries[0] if summaries else None


def _summaries(session: Session, rows: Iterable[Any]) -> list[OrderSummary]:
    pairs: list[tuple[Order, OrderAddress | None]] = [(order, address) for order, address in rows]
    if not pairs:
        return []
    order_ids = [saved_id(order) for order, _ in pairs]
    lines = _lines_by_order(session, order_ids)
    refunded = _refunded_by_order(session, order_ids)
    return [
        replace(
            _summary(order, address, lines.get(saved_id(order), ())),
            refunded_cents=refunded.get(saved_id(order), 0),
        )
        for order, address in pairs
    ]


def _refunded_by_order(session: Session, order_ids: list[int]) -> dict[int, int]:
    """What each order got back so far, in one query."""
    rows = session.execute(
        select(col(Refund.order_id), sa.func.sum(col(Refund.amount_cents)))
        .where(col(Refund.order_id).in_(order_ids))
        .group_by(col(Refund.order_id))
    ).all()
    return {order_id: int(total) for order_id, total in rows}


def _lines_by_order(session: Session, order_ids: list[int]) -> dict[int, tuple[OrderLine, ...]]:
    """Items of all the orders in one query, with the current product name and image as fallbacks."""
    rows = session.execute(
        select(
            OrderItem,
            col(Product.name),
            primary_image_url(col(OrderItem.product_id)).label("image_url"),
            col(Product.is_listed),
        )
        .outerjoin(Product, col(Product.id) == col(OrderItem.product_id))
        .where(col(OrderItem.order_id).in_(order_ids))
        .order_by(col(OrderItem.order_id), col(OrderItem.id))
    ).all()
    grouped: dict[int, list[OrderLine]] = {}
    for item, product_name, image_url, listed in rows:
        grouped.setdefault(item.order_id, []).append(_line(item, product_name, image_url, listed=listed))
    return {order_id: tuple(lines) for order_id, lines in grouped.items()}


@dataclass(frozen=True)
class ItemSnapshot:
    """What an order item recorded when it was bought (``OrderItem.product_snapshot``), trimmed."""

    name: str
    image_url: str
    options: dict[str, str]
    custom_note: str


def item_snapshot(item: OrderItem) -> ItemSnapshot:
    """The item's recorded name, image, chosen options (sorted by option name) and note ("" if absent)."""
    snapshot: Mapping[str, Any] = item.product_snapshot if isinstance(item.product_snapshot, dict) else {}
    raw_options = snapshot.get("selected_options")
    # Sorted by option name: PostgreSQL's JSONB does not keep the order the keys were written in,
    # and the label must read the same on both databases.
    options = (
        {str(k): str(v) for k, v in sorted(raw_options.items(), key=lambda kv: str(kv[0])) if v is not None}
        if isinstance(raw_options, dict)
        else {}
    )
    return ItemSnapshot(
        name=_text(snapshot.get("name")),
        image_url=_text(snapshot.get("image_url")),
        options=options,
        custom_note=_text(snapshot.get("custom_note")),
    )


def _line(
    item: OrderItem, product_name: str | None, image_url: str | None, *, listed: bool | None = True
) -> OrderLine:
    recorded = item_snapshot(item)
    return OrderLine(
        product_id=item.product_id,
        name=recorded.name or product_name or OrderMessage.UNKNOWN_PRODUCT.value,
        unit_price_cents=item.unit_price_cents,
        quantity=item.quantity,
        total_cents=item.total_price_cents,
        image_url=recorded.image_url or image_url or "",
        options_label=line_label(recorded.options, recorded.custom_note),
        selected_options=recorded.options,
        custom_note=recorded.custom_note,
        listed=listed is not False,
    )


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def placed_on_text(moment: datetime) -> str:
    """The "placed on" date: the shop's calendar date in long US form ("November 21, 2026").

    A naive datetime (SQLite without time zone support) is read as UTC.
    """
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return long_us_date(aware.astimezone(SHOP_TIME_ZONE).date())


def _summary(order: Order, address: OrderAddress | None, lines: tuple[OrderLine, ...]) -> OrderSummary:
    name = f"{address.first_name} {address.last_name}".strip() if address else ""
    return OrderSummary(
        id=saved_id(order),
        order_number=order.order_number,
        email=order.email,
        placed_on=placed_on_text(order.created_at),
        created_at=order.created_at,
        status=order.status,
        status_label=status_label(order.status),
        status_colour=status_badge_colour(order.status),
        subtotal_cents=order.subtotal_cents,
        discount_cents=order.discount_cents,
        discount_code=order.discount_code or "",
        tax_cents=order.tax_cents,
        tax_lines=lines_from_json(order.tax_lines),
        shipping_cents=order.shipping_cents,
        total_cents=order.total_cents,
        lines=lines,
        ship_name=name,
        ship_line1=address.address_line1 if address else "",
        ship_line2=address.address_line2 if address else "",
        ship_city=address.city if address else "",
        ship_state=address.state if address else "",
        ship_zip=address.zip_code if address else "",
        ship_country=address.country if address else "",
        ship_phone=address.phone if address else "",
        tracking_number=order.tracking_number or "",
        carrier=order.carrier or "",
        tracking_url=tracking_url(order.tracking_number, order.carrier) or "",
        can_reorder=order.status == OrderStatus.DELIVERED,
        notes=order.notes or "",
        not_charged=order.payment_status == PaymentStatus.NOT_CHARGED,
    )


def reorder(session: Session, *, user_id: int, order_id: int, cart_owner: CartOwner) -> ReorderResult:
    """Put the items of a delivered order back in the cart, at today's prices and stock.

    Each item is added through :func:`shop_app.services.cart.add_item` with its options, so the
    cart prices it from the database as for any other line (never the price paid then). An item
    whose product is archived or out of stock, or whose option is no longer offered, is skipped
    and named; an item with less stock than ordered is added in the quantity still available.

    Raises:
        ReorderError: ``NOT_FOUND`` when the order is not a placed order of this user,
            ``NOT_DELIVERED`` when it has not been delivered.
        ValueError: When ``cart_owner`` is another user's cart (a programming error).
    """
    if cart_owner.user_id is not None and cart_owner.user_id != user_id:
        msg = "reorder puts items in the ordering user's own cart only"
        raise ValueError(msg)
    order = get_order(session, user_id=user_id, order_id=order_id)
    if order is None:
        raise ReorderError(ReorderMessage.NOT_FOUND.value)
    if not order.can_reorder:
        raise ReorderError(ReorderMessage.NOT_DELIVERED.value)

    ids = {line.product_id for line in order.lines}
    products = {saved_id(p): p for p in session.exec(select(Product).where(col(Product.id).in_(ids))).all()}
    view = cart.view_cart(session, cart_owner)
    in_cart = _quantities(view)
    added, unavailable, limited = 0, [], []
    for line in order.lines:
        product = products.get(line.product_id)
        if product is None or not product.is_active or product.stock_quantity <= 0:
            unavailable.append(line.name)
            continue
        product_id = saved_id(product)
        wanted = min(line.quantity, product.stock_quantity - in_cart[product_id])
        if wanted <= 0:  # the cart already holds all the stock there is
            limited.append(line.name)
            continue
        try:
            view, _ = cart.add_item(
                session,
                cart_owner,
                product_id=product_id,
                quantity=wanted,
                selected_options=line.selected_options,
                custom_note=line.custom_note,
            )
        except CartError:
            unavailable.append(line.name)
            continue
        now_in_cart = _quantities(view)
        added_here = now_in_cart[product_id] - in_cart[product_id]
        in_cart = now_in_cart
        added += added_here
        if added_here < line.quantity:
            limited.append(line.name)
    return _reorder_result(added, _unique(unavailable), _unique(limited), view)


def _quantities(view: CartView) -> Counter[int]:
    counts: Counter[int] = Counter()
    for line in view.lines:
        counts[line.product_id] += line.quantity
    return counts


def _unique(names: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def _reorder_result(
    added: int, unavailable: tuple[str, ...], limited: tuple[str, ...], view: CartView
) -> ReorderResult:
    if added == 0:
        parts = [ReorderMessage.NOTHING_ADDED.value]
    elif added == 1:
        parts = [ReorderMessage.ADDED_ONE.value]
    else:
        parts = [ReorderMessage.ADDED_MANY.format(count=added)]
    if limited:
        parts.append(ReorderMessage.LIMITED.format(names=", ".join(limited)))
    if unavailable:
        parts.append(ReorderMessage.UNAVAILABLE.format(names=", ".join(unavailable)))
    if added == 0:
        kind: Literal["success", "warning", "error"] = "error"
    else:
        kind = "warning" if unavailable or limited else "success"
    return ReorderResult(
        added_count=added,
        unavailable=unavailable,
        limited=limited,
        message=" ".join(parts),
        kind=kind,
        cart=view,
    )
