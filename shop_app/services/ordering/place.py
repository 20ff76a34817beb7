"""Placing an order: one write transaction, or nothing at all (docs/architecture.md#orders-and-payment,
#performance-budgets).

Inside a single ``write_transaction`` (``BEGIN IMMEDIATE`` on SQLite), on its Core connection:

0. the cart is claimed: ``UPDATE carts … RETURNING id`` takes its row lock (on PostgreSQL a
   second checkout of the same cart waits here until the first commits), then an order of that
   cart still awaiting payment refuses this one with :attr:`OrderMessage.ALREADY_PAYING` (another
   tab, window or worker is paying it: one checkout per cart, never two orders or two charges).
   An awaiting order whose payment was never attempted for :data:`UNSTARTED_TIMEOUT` (its worker
   stopped) is given up instead, its stock back (``settle.give_up_unstarted``). The new order
   records the cart, and a partial unique index (one awaiting order per cart) is the database's
   own guarantee;
1. the cart is re-priced from the database with one narrow ``SELECT``
   (:func:`~shop_app.services.ordering.reprice.reprice`: lines ⋈ cart ⋈ products, the store
   settings joined; priced with the domain rules, as the checkout summary prices them), and the
   form is validated against the countries those settings ship to (an invalid form, or one
   shipping elsewhere, raises :class:`CheckoutError` and the transaction rolls back);
2. the quantities are summed per product and each product's stock is decremented with
   ``UPDATE products SET stock_quantity = stock_quantity - :n WHERE id = :id AND
   stock_quantity >= :n AND is_active``, in product id order (a fixed lock order, so two
   checkouts on PostgreSQL never deadlock). Anything but one row refuses the whole order with
   the seed's 'Insufficient stock for "…". Available: n, Requested: n'. The same statement
   re-arms the product's low-stock alert when the stock it found was above 5
   (:data:`~shop_app.services.low_stock.REARM_ON_TAKE`);
3. the order (``awaiting_payment`` / ``pending``) is inserted with ``INSERT … ON CONFLICT
   (order_number) DO NOTHING RETURNING id``; when a number drawn is already taken nothing comes
   back and another is drawn;
4. its items with a product snapshot (one executemany), the shipping address and the payment row
   with its idempotency key (uuid4) are inserted;
5. the cart's discount code, checked with the rest of the cart in step 1 for the customer (the
   account's e-mail when signed in, else the form's), takes one of its uses atomically
   (``services.discounts.redeem``): a code used up meanwhile, or already used by this customer,
   refuses the whole order with its reason. A code that no longer applies is not taken off: the
   order goes through without it when the page showed that total, and is refused with the
   code's reason when the page still showed the discount.

The statements are built once, at import, and run on ``session.connection()``: no ORM objects,
no unit-of-work flushes (docs/benchmarks.md, "Order placement"). Any failure raises
:class:`CheckoutError` and rolls everything back; a database failure of one step gives the
seed's message for that step, and SQLite's "database is locked" (the write lock stayed taken
past the busy timeout) gives :attr:`OrderMessage.BUSY`, so the shopper knows to try again. The
cart is not cleared here: it is cleared when the payment completes, so a declined card leaves it
as it was.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from shop_app.db import write_transaction
from shop_app.domain.messages import (
    CartMessage,
    CheckoutMessage,
    DiscountMessage,
    OrderMessage,
    PaymentMessage,
)
from shop_app.domain.order_numbers import RandomSource, new_order_number
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.domain.shown_cart import shown_cart
from shop_app.domain.tax import lines_to_json
from shop_app.domain.validation import insufficient_stock_message
from shop_app.models import Cart, Order, OrderAddress, OrderItem, Payment, Product, User
from shop_app.models.base import table_of, utcnow
from shop_app.models.square_outbox import record_stock
from shop_app.services import discounts
from shop_app.services.cart import CartOwner, token_hash
from shop_app.services.low_stock import REARM_ON_TAKE
from shop_app.services.ordering import settle
from shop_app.services.ordering.forms import CartChangedError, CheckoutError, CheckoutForm, validate
from shop_app.services.ordering.reprice import OrderLine, PricedCart, reprice

log = logging.getLogger(__name__)

ORDER_NUMBER_ATTEMPTS: Final = 5
UNSTARTED_TIMEOUT: Final = timedelta(minutes=2)
"""An order awaiting payment whose charge never started for this long belongs to a stopped worker."""
SHIPPING: Final = "shipping"
CURRENCY: Final[str] = Order.model_fields["currency"].default
"""The order's currency (the column's default), which its payment row repeats."""

_PRODUCTS = table_of(Product)
_ORDERS = table_of(Order)
_CARTS = table_of(Cart)
_PAYMENTS = table_of(Payment)
_USERS = table_of(User)

CLAIM_CART: Final = {
    owner: sa.update(_CARTS)
    .where(_CARTS.c[owner] == sa.bindparam("owner"))
    .values(updated_at=sa.bindparam("now"))
    .returning(_CARTS.c.id)
    for owner in ("user_id", "token_hash")
}
"""Lock the owner's cart row for the transaction and return its id (SQLite 3.35+ has RETURNING)."""
AWAITING_ORDER_OF_CART: Final = (
    sa.select(
        _ORDERS.c.id,
        (_PAYMENTS.c.status == PaymentStatus.PENDING.value).label("never_attempted"),
        (_ORDERS.c.created_at <= sa.bindparam("cutoff")).label("old"),
    )
    .join(_PAYMENTS, _PAYMENTS.c.order_id == _ORDERS.c.id)
    .where(
        _ORDERS.c.cart_id == sa.bindparam("cart_id"), _ORDERS.c.status == OrderStatus.AWAITING_PAYMENT.value
    )
)
ONE_AWAITING_ORDER_PER_CART: Final = "uq_orders_cart_awaiting_payment"

TAKE_STOCK: Final = (
    sa.update(_PRODUCTS)
    .where(
        _PRODUCTS.c.id == sa.bindparam("product_id"),
        _PRODUCTS.c.is_active,
        _PRODUCTS.c.stock_quantity >= sa.bindparam("quantity"),
    )
    .values(
        stock_quantity=_PRODUCTS.c.stock_quantity - sa.bindparam("quantity"),
        low_stock_alerted_at=REARM_ON_TAKE,
    )
)
STOCK_OF: Final = sa.select(_PRODUCTS.c.name, _PRODUCTS.c.stock_quantity, _PRODUCTS.c.is_active).where(
    _PRODUCTS.c.id == sa.bindparam("product_id")
)
INSERT_ORDER: Final = {
    dialect.dialect.name: dialect.insert(_ORDERS)
    .on_conflict_do_nothing(index_elements=[_ORDERS.c.order_number])
    .returning(_ORDERS.c.id)
    for dialect in (postgresql, sqlite)
}
"""Per database (both support ``ON CONFLICT … DO NOTHING RETURNING``; SQLite from 3.35)."""
# inline(): no ``RETURNING id`` on PostgreSQL (nothing reads these rows' ids back).
INSERT_ITEMS: Final = sa.insert(table_of(OrderItem)).inline()
INSERT_ADDRESS: Final = sa.insert(table_of(OrderAddress)).inline()
INSERT_PAYMENT: Final = sa.insert(table_of(Payment)).inline()


@dataclass(frozen=True, slots=True)
class PlacedOrder:
    """An order written and waiting for its payment."""

    order_id: int
    order_number: str
    total_cents: int
    idempotency_key: str


def place_order(
    *,
    owner: CartOwner,
    user_id: int | None,
    form: CheckoutForm,
    provider: PaymentProvider = PaymentProvider.SQUARE,
    shown: str | None = None,
    engine: Engine | None = None,
    now: Callable[[], datetime] = utcnow,
    random_source: RandomSource | None = None,
) -> PlacedOrder:
    """Turn the owner's cart into an order awaiting payment, with its stock taken.

    Args:
        owner: Whose cart (the signed-in user's, else the cart cookie's).
        user_id: The signed-in customer, ``None`` for a guest order. Must be the owner's user.
        form: The checkout form; validated again here, against the countries the store settings
            ship to as this transaction reads them (a forged form cannot order to elsewhere).
        provider: How the shopper chose to pay (card through Square, or simulated PayPal).
        shown: What the shopper's page showed (:func:`~shop_app.domain.shown_cart.shown_cart` of
            its summary, kept on the server): when the cart this transaction reads differs
            (another tab changed it, paid it, or a price changed), nothing is ordered.
        engine: The database (the process's engine by default).
        now: The clock (tests pin the date of the order number).
        random_source: Where the order number's random characters come from (tests).

    Returns:
        The order's id, number, total and the idempotency key of its payment.

    Raises:
        CartChangedError: The cart is not the one ``shown``. Nothing was written.
        CheckoutError: Invalid form, empty cart, insufficient stock, a busy database (SQLite),
            or a database failure (with the seed's "Failed to create …" text). Nothing was
            written.
    """
    if owner.user_id is not None and owner.user_id != user_id:
        msg = "a signed-in customer orders from their own cart"
        raise ValueError(msg)
    placed_at = now()
    try:
        with write_transaction(engine) as session:
            connection = session.connection()
            cart_id = _claim_cart(session, owner, placed_at)
            customer = _customer_email(connection, user_id) or form.email
            summary = (
                reprice(connection, owner, form.destination, email=customer, now=placed_at)
                if cart_id is not None
                else None
            )
            if shown is not None and _shown(summary) != shown:
                refused = summary.discount.refused if summary is not None else None
                if refused is not None:  # the page showed a discount this cart no longer gets
                    log.info("checkout refused: the cart's discount code no longer applies")
                    raise CartChangedError(DiscountMessage.NO_LONGER_APPLIES.format(reason=refused))
                log.info("checkout refused: the cart changed since the shopper's page showed it")
                raise CartChangedError(CheckoutMessage.CART_CHANGED.value)
            if cart_id is None or summary is None or not summary.lines:
                raise CheckoutError(CartMessage.EMPTY_CHECKOUT.value)
            if summary.totals.total_cents <= 0:  # a card is never charged $0.00: it would wait forever
                raise CheckoutError(CheckoutMessage.NOTHING_TO_PAY.value)
            problem = validate(form, ships_to=summary.ships_to)  # the settings of this transaction
            if problem is not None:
                raise CheckoutError(problem)
            form = form.cleaned()
            _take_stock(connection, summary.lines)
            return _write_order(
                connection,
                summary=summary,
                form=form,
                customer=customer,
                user_id=user_id,
                cart_id=cart_id,
                provider=provider,
                placed_at=placed_at,
                random_source=random_source,
            )
    except sa.exc.OperationalError as error:
        if not _database_busy(error):
            raise
        log.warning("order placement gave up waiting for the database's write lock: %s", error.orig)
        raise CheckoutError(OrderMessage.BUSY.value) from error


def _customer_email(connection: Connection, user_id: int | None) -> str:
    """A signed-in customer's account e-mail (a code's per-customer limit counts by it, whatever
    contact e-mail the form gives); ``""`` for a guest."""
    if user_id is None:
        return ""
    return connection.execute(sa.select(_USERS.c.email).where(_USERS.c.id == user_id)).scalar() or ""


def _shown(summary: PricedCart | None) -> str:
    """The cart as a page showing it now would (no cart: an empty one)."""
    if summary is None:
        return shown_cart([], 0)
    return shown_cart(summary.lines, summary.totals.total_cents)


def _database_busy(error: sa.exc.SQLAlchemyError) -> bool:
    """SQLite's write lock stayed taken past the busy timeout (``SQLITE_BUSY``)."""
    return (
        isinstance(error, sa.exc.OperationalError)
        and isinstance(error.orig, sqlite3.OperationalError)
        and "database is locked" in str(error.orig)
    )


def _claim_cart(session: Session, owner: CartOwner, now: datetime) -> int | None:
    """Lock the owner's cart for this transaction (``None``: the owner has none); refuse when an
    order of it awaits payment."""
    connection = session.connection()
    if owner.user_id is not None:
        claimed = connection.execute(CLAIM_CART["user_id"], {"owner": owner.user_id, "now": now})
    elif owner.token:
        claimed = connection.execute(CLAIM_CART["token_hash"], {"owner": token_hash(owner.token), "now": now})
    else:
        return None
    cart_id = claimed.scalar()
    if cart_id is None:
        return None
    waiting = connection.execute(
        AWAITING_ORDER_OF_CART, {"cart_id": cart_id, "cutoff": now - UNSTARTED_TIMEOUT}
    ).first()
    if waiting is not None:
        state = settle.read_state(session, waiting.id) if waiting.never_attempted and waiting.old else None
        if state is None or not settle.give_up_unstarted(session, state, message=PaymentMessage.FAILED.value):
            log.info("checkout refused: order %s of the same cart awaits its payment", waiting.id)
            raise CheckoutError(OrderMessage.ALREADY_PAYING.value)
        log.warning("order %s never started its payment; its cart is checked out again", waiting.id)
    return cart_id


@contextmanager
def _step(message: OrderMessage) -> Iterator[None]:
    """Turn a database failure of one step into the seed's error for that step."""
    try:
        yield
    except sa.exc.IntegrityError as error:
        if ONE_AWAITING_ORDER_PER_CART in str(error) or "orders.cart_id" in str(error):
            raise CheckoutError(OrderMessage.ALREADY_PAYING.value) from error
        log.exception("order placement failed: %s", message.value)
        raise CheckoutError(message.value) from error
    except sa.exc.SQLAlchemyError as error:
        if _database_busy(error):
            log.warning("order placement gave up waiting for the database's write lock: %s", error)
            raise CheckoutError(OrderMessage.BUSY.value) from error
        log.exception("order placement failed: %s", message.value)
        raise CheckoutError(message.value) from error


class _Line(Protocol):
    @property
    def product_id(self) -> int: ...

    @property
    def quantity(self) -> int: ...


def quantities_by_product(lines: Iterable[_Line]) -> dict[int, int]:
    """Sum the quantities of the lines per product (two scents of one product share its stock)."""
    totals: dict[int, int] = {}
    for line in lines:
        totals[line.product_id] = totals.get(line.product_id, 0) + line.quantity
    return totals


def _take_stock(connection: Connection, lines: list[OrderLine]) -> None:
    """Decrement every product's stock, or raise the seed's message for the first one short."""
    wanted = quantities_by_product(lines)
    for product_id in sorted(wanted):
        params = {"product_id": product_id, "quantity": wanted[product_id]}
        with _step(OrderMessage.STOCK_CHECK_FAILED):
            taken = connection.execute(TAKE_STOCK, params).rowcount
        if taken != 1:
            row = connection.execute(STOCK_OF, params).first()
            name = row.name if row else next(line.name for line in lines if line.product_id == product_id)
            available = row.stock_quantity if row and row.is_active else 0
            raise CheckoutError(insufficient_stock_message(name, available, wanted[product_id]))
    record_stock(connection, wanted)


def _write_order(
    connection: Connection,
    *,
    summary: PricedCart,
    form: CheckoutForm,
    customer: str,
    user_id: int | None,
    cart_id: int,
    provider: PaymentProvider,
    placed_at: datetime,
    random_source: RandomSource | None,
) -> PlacedOrder:
    """Insert the order, its items, its shipping address and its payment row."""
    totals = summary.totals
    order = {
        "user_id": user_id,
        "cart_id": cart_id,
        "email": form.email,
        "phone": form.phone,
        "status": OrderStatus.AWAITING_PAYMENT.value,
        "payment_status": PaymentStatus.PENDING.value,
        "currency": CURRENCY,
        "subtotal_cents": totals.subtotal_cents,
        "tax_cents": totals.tax_cents,
        "shipping_cents": totals.shipping_cents,
        "total_cents": totals.total_cents,
        "tax_lines": lines_to_json(totals.tax_lines),
        "discount_cents": totals.discount_cents,
        "discount_code": summary.discount.code if totals.discount is not None else None,
        "notes": form.special_instructions,
        "gift_message": form.gift_message,
        "gift_wrap": form.gift_wrap == "on",
        "created_at": placed_at,
        "updated_at": placed_at,
    }
    with _step(OrderMessage.CREATE_FAILED):
        order_id, order_number = _insert_order(connection, order, placed_at, random_source)
    with _step(OrderMessage.ITEMS_FAILED):
        connection.execute(INSERT_ITEMS, [_item(order_id, line) for line in summary.lines])
    with _step(OrderMessage.ADDRESS_FAILED):
        connection.execute(INSERT_ADDRESS, _address(order_id, form))
    try:
        discounts.redeem(connection, summary.discount, order_id=order_id, email=customer, now=placed_at)
    except discounts.DiscountRefused as refused:
        raise CartChangedError(DiscountMessage.NO_LONGER_APPLIES.format(reason=refused)) from refused
    key = str(uuid.uuid4())
    with _step(OrderMessage.CREATE_FAILED):
        connection.execute(
            INSERT_PAYMENT,
            {
                "order_id": order_id,
                "provider": provider.value,
                "idempotency_key": key,
                "status": PaymentStatus.PENDING.value,
                "amount_cents": totals.total_cents,
                "currency": CURRENCY,
                "created_at": placed_at,
                "updated_at": placed_at,
            },
        )
    return PlacedOrder(
        order_id=order_id, order_number=order_number, total_cents=totals.total_cents, idempotency_key=key
    )


def _insert_order(
    connection: Connection,
    order: dict[str, Any],
    placed_at: datetime,
    random_source: RandomSource | None,
) -> tuple[int, str]:
    """Insert the order under a fresh number; a number already taken is drawn again."""
    statement = INSERT_ORDER[connection.dialect.name]
    for _ in range(ORDER_NUMBER_ATTEMPTS):
        number = new_order_number(placed_at, random_source)
        order_id = connection.execute(statement, {**order, "order_number": number}).scalar()
        if order_id is not None:
            return order_id, number
    raise CheckoutError(OrderMessage.ORDER_NUMBER_FAILED.value)


def _item(order_id: int, line: OrderLine) -> dict[str, Any]:
    return {
        "order_id": order_id,
        "product_id": line.product_id,
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "total_price_cents": line.line_total_cents,
        "product_snapshot": line.snapshot(),
    }


def _address(order_id: int, form: CheckoutForm) -> dict[str, Any]:
    return {
        "order_id": order_id,
        "type": SHIPPING,
        "first_name": form.first_name,
        "last_name": form.last_name,
        "address_line1": form.address,
        "address_line2": form.address_line2,
        "city": form.city,
        "state": form.state,
        "zip_code": form.zip_code,
        "country": form.country,
        "phone": form.phone,
    }
