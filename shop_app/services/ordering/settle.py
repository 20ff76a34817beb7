"""Recording a payment's outcome on the order: each transition is one conditional update.

Every function runs inside the caller's write transaction and returns whether *this* call moved
the order. The order only leaves ``awaiting_payment`` once, so applying an outcome twice (a
retry, a webhook and a reconcile racing) changes nothing the second time: the cart is cleared,
the stock given back and the mail sent by the call that made the move, and by no other.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.models import Order, OrderItem, Payment, Product
from shop_app.models.base import utcnow
from shop_app.models.square_outbox import record_stock
from shop_app.services import cart, discounts
from shop_app.services.cart import CartOwner
from shop_app.services.payments import ChargeOutcome

log = logging.getLogger(__name__)

AWAITING = OrderStatus.AWAITING_PAYMENT.value
ABANDONED_CODE = "ABANDONED"
"""Error code of a payment whose order was given up (the provider never saw a charge)."""
SUPERSEDED_CODE = "SUPERSEDED"
"""Error code of a payment never attempted whose cart was checked out again later."""


@dataclass(frozen=True, slots=True)
class OrderState:
    """The order and its payment attempt, as read before talking to the provider."""

    order_id: int
    order_number: str
    user_id: int | None
    cart_id: int | None
    email: str
    status: str
    payment_status: str
    total_cents: int
    currency: str
    payment_id: int
    provider: str
    idempotency_key: str
    attempt_status: str
    error_code: str | None
    error_detail: str | None


def read_state(session: Session, order_id: int) -> OrderState | None:
    """The order with its newest payment row, or ``None``."""
    row = session.execute(
        select(Order, Payment)
        .join(Payment, col(Payment.order_id) == col(Order.id))
        .where(col(Order.id) == order_id)
        .order_by(col(Payment.id).desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    order, payment = row
    return OrderState(
        order_id=order.id,
        order_number=order.order_number,
        user_id=order.user_id,
        cart_id=order.cart_id,
        email=order.email,
        status=order.status,
        payment_status=order.payment_status,
        total_cents=order.total_cents,
        currency=order.currency,
        payment_id=payment.id,
        provider=payment.provider,
        idempotency_key=payment.idempotency_key,
        attempt_status=payment.status,
        error_code=payment.error_code,
        error_detail=payment.error_detail,
    )


def _move_order(session: Session, order_id: int, *, from_status: str, **values: object) -> bool:
    now = utcnow()
    moved = session.exec(
        sa.update(Order)
        .where(col(Order.id) == order_id, col(Order.status) == from_status)
        .values(updated_at=now, **values)
        .execution_options(synchronize_session=False)
    ).rowcount
    return moved == 1


def _update_payment(
    session: Session, payment_id: int, *conditions: sa.ColumnElement[bool], **values: object
) -> None:
    session.execute(
        sa.update(Payment)
        .where(col(Payment.id) == payment_id, *conditions)
        .values(updated_at=utcnow(), **values)
        .execution_options(synchronize_session=False)
    )


def mark_attempt(session: Session, state: OrderState, provider: PaymentProvider) -> bool:
    """Before the first charge: ``pending`` → ``unknown`` ("a charge may be under way").

    Returns False when another request marked (or settled) it first; that request owns the
    first charge and this one must reconcile instead.
    """
    moved = session.exec(
        sa.update(Payment)
        .where(col(Payment.id) == state.payment_id, col(Payment.status) == PaymentStatus.PENDING.value)
        .values(status=PaymentStatus.UNKNOWN.value, provider=provider.value, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    if moved == 1:
        _move_order(session, state.order_id, from_status=AWAITING, payment_status=PaymentStatus.UNKNOWN.value)
    return moved == 1


def complete(session: Session, state: OrderState, outcome: ChargeOutcome, owner: CartOwner | None) -> bool:
    """The money was taken: order ``pending`` (paid), payment ``completed``, the cart emptied."""
    now = utcnow()
    moved = _move_order(
        session,
        state.order_id,
        from_status=AWAITING,
        status=OrderStatus.PENDING.value,
        payment_status=PaymentStatus.COMPLETED.value,
        paid_at=now,
    )
    if not moved:
        order = session.get(Order, state.order_id, populate_existing=True)
        if order is None or order.payment_status == PaymentStatus.COMPLETED:
            return False
        # Decided before the money arrived (an admin or a reaper cancelled it): keep the record
        # true so the back office sees a paid, cancelled order and refunds it.
        log.error(
            "order %s was %s when its payment completed: refund needed", order.order_number, order.status
        )
        order.payment_status, order.paid_at, order.updated_at = PaymentStatus.COMPLETED.value, now, now
        session.add(order)
    _update_payment(
        session,
        state.payment_id,
        col(Payment.status) != PaymentStatus.COMPLETED.value,
        status=PaymentStatus.COMPLETED.value,
        square_payment_id=outcome.payment_id,
        square_order_id=outcome.provider_order_id,
        card_brand=outcome.card_brand,
        card_last4=outcome.card_last4,
        receipt_url=outcome.receipt_url,
        error_code=None,
        error_detail=None,
    )
    if moved:
        _clear_cart(session, state, owner)
    session.flush()
    return moved


def decline(session: Session, state: OrderState, *, error_code: str | None, message: str) -> bool:
    """Nothing was taken: order ``cancelled``, payment ``failed``, the stock given back.

    ``error_code`` is the provider's code (kept for the shop); ``message`` is what the shopper was
    told, stored as the payment's ``error_detail``.

    The stock is incremented only by the call that cancelled the order, so it comes back once.
    """
    if not _cancel_and_restock(session, state):
        return False
    _update_payment(
        session,
        state.payment_id,
        col(Payment.status).in_([PaymentStatus.PENDING.value, PaymentStatus.UNKNOWN.value]),
        status=PaymentStatus.FAILED.value,
        error_code=(error_code or "")[:100] or None,
        error_detail=message,
    )
    session.flush()
    return True


def give_up_unstarted(session: Session, state: OrderState, *, message: str) -> bool:
    """Cancel an order whose payment was never attempted (its stock back), so its cart is free.

    Safe whatever else is running: the payment row moves from ``pending`` to ``failed`` first, with
    a conditional update, and ``mark_attempt`` starts a charge only from ``pending``. When a charge
    did start meanwhile nothing changes and False is returned.
    """
    given_up = session.exec(
        sa.update(Payment)
        .where(col(Payment.id) == state.payment_id, col(Payment.status) == PaymentStatus.PENDING.value)
        .values(
            status=PaymentStatus.FAILED.value,
            error_code=SUPERSEDED_CODE,
            error_detail=message,
            updated_at=utcnow(),
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    if given_up != 1:
        return False
    moved = _cancel_and_restock(session, state)
    session.flush()
    return moved


def _cancel_and_restock(session: Session, state: OrderState) -> bool:
    """``awaiting_payment`` → ``cancelled`` and the stock back, once (False: it had moved)."""
    moved = _move_order(
        session,
        state.order_id,
        from_status=AWAITING,
        status=OrderStatus.CANCELLED.value,
        payment_status=PaymentStatus.FAILED.value,
    )
    if not moved:
        return False
    returned = session.execute(
        select(col(OrderItem.product_id), sa.func.sum(col(OrderItem.quantity)))
        .where(col(OrderItem.order_id) == state.order_id)
        .group_by(col(OrderItem.product_id))
        .order_by(col(OrderItem.product_id))
    ).all()
    for product_id, quantity in returned:
        session.execute(
            sa.update(Product)
            .where(Product.id == product_id)
            .values(stock_quantity=Product.stock_quantity + quantity)
            .execution_options(synchronize_session=False)
        )
    record_stock(session, (product_id for product_id, _quantity in returned))
    discounts.release(session.connection(), state.order_id)  # the order never happened: its use is back
    return True


def still_unknown(session: Session, state: OrderState, outcome: ChargeOutcome) -> None:
    """No answer from the provider: the payment stays ``unknown`` and the order awaits it."""
    _update_payment(
        session,
        state.payment_id,
        col(Payment.status).in_([PaymentStatus.PENDING.value, PaymentStatus.UNKNOWN.value]),
        status=PaymentStatus.UNKNOWN.value,
        error_code=(outcome.error_code or "")[:100] or None,
        error_detail=outcome.message,
    )
    _move_order(session, state.order_id, from_status=AWAITING, payment_status=PaymentStatus.UNKNOWN.value)


def complete_not_charged(session: Session, state: OrderState, owner: CartOwner | None) -> bool:
    """Simulated PayPal: order ``pending``, payment ``not_charged``, the cart emptied.

    Only an order whose card payment was never attempted can take this path.
    """
    moved = session.exec(
        sa.update(Order)
        .where(
            col(Order.id) == state.order_id,
            col(Order.status) == AWAITING,
            col(Order.payment_status) == PaymentStatus.PENDING.value,
        )
        .values(
            status=OrderStatus.PENDING.value,
            payment_status=PaymentStatus.NOT_CHARGED.value,
            updated_at=utcnow(),
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    if moved != 1:
        return False
    _update_payment(
        session,
        state.payment_id,
        status=PaymentStatus.NOT_CHARGED.value,
        provider=PaymentProvider.PAYPAL_SIMULATED.value,
    )
    _clear_cart(session, state, owner)
    session.flush()
    return True


def _clear_cart(session: Session, state: OrderState, owner: CartOwner | None) -> None:
    """Empty the cart the order was placed from (else the given owner's, else the customer's own)."""
    if state.cart_id is not None:
        cart.clear_cart(session, cart_id=state.cart_id)
        return
    if owner is None and state.user_id is not None:
        owner = CartOwner(user_id=state.user_id)
    if owner is not None:
        cart.clear(session, owner)
