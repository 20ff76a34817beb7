"""Placing an order: one write transaction, or nothing at all (DESIGN.md §5).

Inside a single ``write_transaction`` (``BEGIN IMMEDIATE`` on SQLite):

1. the cart is re-priced from the database (:func:`~shop_app.services.ordering.forms.quote`);
2. the quantities are summed per product and each product's stock is decremented with
   ``UPDATE products SET stock_quantity = stock_quantity - :n WHERE id = :id AND
   stock_quantity >= :n AND is_active``, in product id order (a fixed lock order, so two
   checkouts on PostgreSQL never deadlock). Anything but one row refuses the whole order with
   the seed's 'Insufficient stock for "…". Available: n, Requested: n';
3. the order (``awaiting_payment`` / ``pending``), its items with a product snapshot, the
   shipping address and the payment row with its idempotency key (uuid4) are inserted.

Any failure raises :class:`CheckoutError` and rolls everything back. The cart is not cleared
here: it is cleared when the payment completes, so a declined card leaves it as it was.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.db import write_transaction
from shop_app.domain.messages import CartMessage, OrderMessage
from shop_app.domain.order_numbers import RandomSource, new_order_number
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.domain.validation import insufficient_stock_message
from shop_app.models import Order, OrderAddress, OrderItem, Payment, Product
from shop_app.models.base import utcnow
from shop_app.services.cart import CartLineView, CartOwner
from shop_app.services.ordering.forms import CheckoutError, CheckoutForm, Quote, quote, validate

log = logging.getLogger(__name__)

ORDER_NUMBER_ATTEMPTS: Final = 5
SHIPPING: Final = "shipping"


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
    engine: Engine | None = None,
    now: Callable[[], datetime] = utcnow,
    random_source: RandomSource | None = None,
) -> PlacedOrder:
    """Turn the owner's cart into an order awaiting payment, with its stock taken.

    Args:
        owner: Whose cart (the signed-in user's, else the cart cookie's).
        user_id: The signed-in customer, ``None`` for a guest order. Must be the owner's user.
        form: The checkout form; validated again here.
        provider: How the shopper chose to pay (card through Square, or simulated PayPal).
        engine: The database (the process's engine by default).
        now: The clock (tests pin the date of the order number).
        random_source: Where the order number's random characters come from (tests).

    Returns:
        The order's id, number, total and the idempotency key of its payment.

    Raises:
        CheckoutError: Invalid form, empty cart, insufficient stock, or a database failure
            (with the seed's "Failed to create …" text). Nothing was written.
    """
    if owner.user_id is not None and owner.user_id != user_id:
        msg = "a signed-in customer orders from their own cart"
        raise ValueError(msg)
    problem = validate(form)
    if problem is not None:
        raise CheckoutError(problem)
    form = form.cleaned()
    with write_transaction(engine) as session:
        summary = quote(session, owner)
        if summary.is_empty:
            raise CheckoutError(CartMessage.EMPTY_CHECKOUT.value)
        _take_stock(session, summary.lines)
        placed_at = now()
        with _step(OrderMessage.CREATE_FAILED):
            order = _insert_order(
                session,
                summary=summary,
                form=form,
                user_id=user_id,
                placed_at=placed_at,
                random_source=random_source,
            )
        with _step(OrderMessage.ITEMS_FAILED):
            _insert_items(session, order, summary.lines)
        with _step(OrderMessage.ADDRESS_FAILED):
            _insert_address(session, order, form)
        key = str(uuid.uuid4())
        with _step(OrderMessage.CREATE_FAILED):
            session.add(
                Payment(
                    order_id=order.id,
                    provider=provider.value,
                    idempotency_key=key,
                    status=PaymentStatus.PENDING.value,
                    amount_cents=order.total_cents,
                    currency=order.currency,
                    created_at=placed_at,
                    updated_at=placed_at,
                )
            )
            session.flush()
        return PlacedOrder(
            order_id=order.id,
            order_number=order.order_number,
            total_cents=order.total_cents,
            idempotency_key=key,
        )


@contextmanager
def _step(message: OrderMessage) -> Iterator[None]:
    """Turn a database failure of one step into the seed's error for that step."""
    try:
        yield
    except sa.exc.SQLAlchemyError as error:
        log.exception("order placement failed: %s", message.value)
        raise CheckoutError(message.value) from error


def quantities_by_product(lines: list[CartLineView]) -> dict[int, int]:
    """Sum the quantities of the lines per product (two scents of one product share its stock)."""
    totals: dict[int, int] = {}
    for line in lines:
        totals[line.product_id] = totals.get(line.product_id, 0) + line.quantity
    return totals


def _take_stock(session: Session, lines: list[CartLineView]) -> None:
    """Decrement every product's stock, or raise the seed's message for the first one short."""
    wanted = quantities_by_product(lines)
    for product_id in sorted(wanted):
        quantity = wanted[product_id]
        with _step(OrderMessage.STOCK_CHECK_FAILED):
            taken = session.execute(
                sa.update(Product)
                .where(
                    Product.id == product_id,
                    Product.is_active,
                    Product.stock_quantity >= quantity,
                )
                .values(stock_quantity=Product.stock_quantity - quantity)
                .execution_options(synchronize_session=False)
            ).rowcount
        if taken != 1:
            row = session.execute(
                select(Product.name, Product.stock_quantity, Product.is_active).where(
                    Product.id == product_id
                )
            ).first()
            name = row.name if row else next(line.name for line in lines if line.product_id == product_id)
            available = row.stock_quantity if row and row.is_active else 0
            raise CheckoutError(insufficient_stock_message(name, available, quantity))


def _insert_order(
    session: Session,
    *,
    summary: Quote,
    form: CheckoutForm,
    user_id: int | None,
    placed_at: datetime,
    random_source: RandomSource | None,
) -> Order:
    """Insert the order under a fresh number; a colliding number is drawn again (savepoint)."""
    totals = summary.totals
    for _ in range(ORDER_NUMBER_ATTEMPTS):
        order = Order(
            order_number=new_order_number(placed_at, random_source),
            user_id=user_id,
            email=form.email,
            phone=form.phone,
            status=OrderStatus.AWAITING_PAYMENT.value,
            payment_status=PaymentStatus.PENDING.value,
            subtotal_cents=totals.subtotal_cents,
            tax_cents=totals.tax_cents,
            shipping_cents=totals.shipping_cents,
            total_cents=totals.total_cents,
            notes=form.special_instructions,
            created_at=placed_at,
            updated_at=placed_at,
        )
        if _number_taken(session, order.order_number):
            continue
        try:
            with session.begin_nested():
                session.add(order)
                session.flush()
        except sa.exc.IntegrityError:
            if not _number_taken(session, order.order_number):
                raise
            continue
        return order
    raise CheckoutError(OrderMessage.ORDER_NUMBER_FAILED.value)


def _number_taken(session: Session, number: str) -> bool:
    return session.execute(select(Order.id).where(Order.order_number == number)).first() is not None


def _insert_items(session: Session, order: Order, lines: list[CartLineView]) -> None:
    ids = {line.product_id for line in lines}
    products = {p.id: p for p in session.exec(select(Product).where(Product.id.in_(ids))).all()}
    for line in lines:
        product = products[line.product_id]
        session.add(
            OrderItem(
                order_id=order.id,
                product_id=line.product_id,
                quantity=line.quantity,
                unit_price_cents=line.unit_price_cents,
                total_price_cents=line.line_total_cents,
                product_snapshot={
                    "name": line.name,
                    "base_price_cents": product.base_price_cents,
                    "sale_price_cents": product.sale_price_cents,
                    "image_url": line.image_url,
                    "selected_options": dict(line.selected_options),
                },
            )
        )
    session.flush()


def _insert_address(session: Session, order: Order, form: CheckoutForm) -> None:
    session.add(
        OrderAddress(
            order_id=order.id,
            type=SHIPPING,
            first_name=form.first_name,
            last_name=form.last_name,
            address_line1=form.address,
            address_line2=form.address_line2,
            city=form.city,
            state=form.state,
            zip_code=form.zip_code,
            country=form.country,
            phone=form.phone,
        )
    )
    session.flush()
