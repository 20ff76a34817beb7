"""Changing an order's status from the back office (docs/spec/orders.md#placing "update orders by id with
status and optional tracking_number", made real as docs/spec/README.md#gaps says).

One change is one write transaction:

1. the order row is locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN
   IMMEDIATE`` holds the database's write lock), so a second admin's change waits and then
   sees the first one's result;
2. the status the admin saw (``expected_status``) must still be the order's status, else the
   change is refused: two admins never apply conflicting changes, whatever they clicked;
3. the rules of :mod:`shop_app.domain.order_status` decide (refusals carry their message);
4. a refund goes to Square through the SDK, with one idempotency key per order (derived from the
   order's payment key) and the same body whether the order is cancelled or refunded, so the
   money can only ever come back once, even when a retry follows a lost answer. A refusal or no
   answer raises, the transaction rolls back and the order is unchanged;
5. a conditional ``UPDATE`` moves the order, the items go back to stock, the payment row is
   marked refunded and a history row is written.

The customer's mail is recorded (and, with SMTP, sent) after the commit in its own transaction:
a slow mail server never holds the lock, and a mail failure never undoes a change. The Square
call is made while the lock is held: an admin action is rare, a refund is quick, and holding the
lock is what makes "refund, then record" one indivisible step.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.messages import OrderMessage
from shop_app.domain.money import format_cents
from shop_app.domain.order_status import ChangeRefused, StatusChange, plan_change
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus, status_label
from shop_app.domain.tracking import tracking_url
from shop_app.models import Order, OrderAddress, OrderItem, OrderStatusChange, Payment, Product
from shop_app.models.base import saved_id, utcnow
from shop_app.routes import order_url
from shop_app.services import mail, order_access
from shop_app.services.square.refunds import Refunder, RefundRequest, RefundStatus, square_refunds
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

log = logging.getLogger(__name__)

STATUS_MAIL_KIND = "order_status"
REFUND_KEY_PREFIX = "refund-"


class OrderChangeError(ValueError):
    """The change was not made; the message is for the admin. Nothing was changed."""


@dataclass(frozen=True, slots=True)
class ChangeResult:
    """A change that was made."""

    order_id: int
    order_number: str
    status: str
    refunded_cents: int  # 0 when no money went back

    @property
    def message(self) -> str:
        """The confirmation for the admin."""
        label = status_label(self.status)
        if self.refunded_cents:
            return M.CHANGED_AND_REFUNDED.format(
                number=self.order_number, status=label, amount=format_cents(self.refunded_cents)
            )
        return M.CHANGED.format(number=self.order_number, status=label)


def refund_key(payment: Payment) -> str:
    """The order's one refund idempotency key (≤ 45 characters): its payment key, prefixed."""
    return f"{REFUND_KEY_PREFIX}{payment.idempotency_key}"[:45]


def change_status(
    *,
    order_id: int,
    target: str,
    admin_user_id: int,
    expected_status: str | None,
    tracking_number: str | None = None,
    carrier: str | None = None,
    note: str = "",
    refunds: Refunder | None = None,
    engine: Engine | None = None,
) -> ChangeResult:
    """Move an order to ``target`` as the rules allow, refunding and restocking as they say.

    Args:
        order_id: The order.
        target: The status chosen.
        admin_user_id: The admin making the change (already checked by the caller).
        expected_status: The status the admin was looking at; ``None`` skips that check.
        tracking_number: With ``carrier``, required to mark the order shipped.
        carrier: A name of ``tracking.CARRIERS``.
        note: The admin's note for the history.
        refunds: Where refunds go (default: the shop's Square, or its local simulator).
        engine: The database.

    Raises:
        OrderChangeError: Refused (with the rule's message), changed meanwhile, or Square
            refused or did not answer the refund. Nothing was changed.
    """
    try:
        with write_transaction(engine) as session:
            order = session.exec(select(Order).where(Order.id == order_id).with_for_update()).first()
            if order is None:
                raise OrderChangeError(M.NOT_FOUND.value)
            if expected_status is not None and order.status != expected_status:
                raise OrderChangeError(M.CHANGED_MEANWHILE.value)
            try:
                change = plan_change(
                    status=order.status,
                    payment_status=order.payment_status,
                    target=target,
                    tracking_number=tracking_number,
                    carrier=carrier,
                    note=note,
                )
            except ChangeRefused as refused:
                raise OrderChangeError(str(refused)) from refused
            result = _apply(session, order, change, admin_user_id, refunds)
    except sa.exc.OperationalError as error:
        if not _database_busy(error):
            raise
        log.warning("status change of order %s gave up waiting for the write lock", order_id)
        raise OrderChangeError(OrderMessage.UPDATE_STATUS_FAILED.value) from error
    try:
        with session_scope(engine) as session:
            send_status_mail(session, result.order_id, change, refunded_cents=result.refunded_cents)
    except Exception:  # the change stands; the mail is recorded or logged, never worth undoing it
        log.exception("status mail of order %s could not be recorded", result.order_number)
    return result


def _database_busy(error: sa.exc.OperationalError) -> bool:
    return isinstance(error.orig, sqlite3.OperationalError) and "database is locked" in str(error.orig)


def _apply(
    session: Session, order: Order, change: StatusChange, admin_user_id: int, refunds: Refunder | None
) -> ChangeResult:
    order_id = saved_id(order)
    refunded_cents, refund_id, payment = 0, None, None
    if change.refund:
        payment = _square_payment(session, order_id)
        refund_id = _refund(order, payment, refunds or square_refunds(get_settings()))
        refunded_cents = payment.amount_cents
    values: dict[str, object] = {
        "status": change.to_status.value,
        "payment_status": change.payment_status_after(order.payment_status),
        "updated_at": utcnow(),
    }
    if change.tracking_number is not None:
        values |= {"tracking_number": change.tracking_number, "carrier": change.carrier}
    moved = session.exec(
        sa.update(Order)
        .where(
            col(Order.id) == order_id,
            col(Order.status) == change.from_status.value,
            col(Order.payment_status) == order.payment_status,
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    ).rowcount
    if moved != 1:  # cannot happen under the row lock; never record a change made on stale data
        log.error("order %s changed under its row lock", order.order_number)
        raise OrderChangeError(M.CHANGED_MEANWHILE.value)
    if change.restock:
        _restock(session, order_id)
    if payment is not None:
        payment.status, payment.updated_at = PaymentStatus.REFUNDED.value, utcnow()
        session.add(payment)
    session.add(
        OrderStatusChange(
            order_id=order_id,
            from_status=change.from_status.value,
            to_status=change.to_status.value,
            note=change.note,
            tracking_number=change.tracking_number,
            carrier=change.carrier,
            refunded_cents=refunded_cents,
            square_refund_id=refund_id,
            changed_by=admin_user_id,
        )
    )
    session.flush()
    return ChangeResult(order_id, order.order_number, change.to_status.value, refunded_cents)


def _square_payment(session: Session, order_id: int) -> Payment:
    payment = session.exec(
        select(Payment)
        .where(
            col(Payment.order_id) == order_id,
            col(Payment.status) == PaymentStatus.COMPLETED.value,
            col(Payment.provider) == PaymentProvider.SQUARE.value,
            col(Payment.square_payment_id).is_not(None),
        )
        .order_by(col(Payment.id).desc())
        .limit(1)
    ).first()
    if payment is None:
        raise OrderChangeError(M.NO_SQUARE_PAYMENT.value)
    return payment


def _refund(order: Order, payment: Payment, refunds: Refunder) -> str | None:
    """Give the payment back in full; raises unless Square accepted the refund."""
    outcome = refunds.refund(
        RefundRequest(
            idempotency_key=refund_key(payment),
            payment_id=payment.square_payment_id or "",
            amount_cents=payment.amount_cents,
            currency=payment.currency,
            reason=f"Order {order.order_number}",  # the same for a cancel and a refund: one key, one body
        )
    )
    if outcome.status == RefundStatus.DONE:
        log.info("order %s refunded in full: %s", order.order_number, outcome.refund_id)
        return outcome.refund_id
    if outcome.status == RefundStatus.REFUSED:
        detail = (outcome.message or outcome.error_code or "").strip()
        if detail and not detail.endswith("."):
            detail += "."
        raise OrderChangeError(M.REFUND_REFUSED.format(detail=detail))
    raise OrderChangeError(M.REFUND_NO_ANSWER.value)


def _restock(session: Session, order_id: int) -> None:
    """Give every item of the order back to stock (in product id order: a fixed lock order)."""
    returned = session.execute(
        select(col(OrderItem.product_id), sa.func.sum(col(OrderItem.quantity)))
        .where(col(OrderItem.order_id) == order_id)
        .group_by(col(OrderItem.product_id))
        .order_by(col(OrderItem.product_id))
    ).all()
    for product_id, quantity in returned:
        session.execute(
            sa.update(Product)
            .where(Product.id == product_id)
            .values(stock_quantity=Product.stock_quantity + quantity, updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )


# --------------------------------------------------------------------------- the customer's mail


def _paragraphs(order: Order, change: StatusChange, refunded_cents: int) -> list[str]:
    number, label = order.order_number, status_label(change.to_status)
    target = change.to_status
    if target == OrderStatus.PROCESSING:
        return [
            f"Your order {number} is now {label}: we are preparing it.",
            "Orders are processed in 1 to 3 business days; we will email you again when it ships.",
        ]
    if target == OrderStatus.SHIPPED:
        return [
            f"Your order {number} has {label} with {change.carrier}.",
            f"Tracking number: {change.tracking_number}",
        ]
    if target == OrderStatus.DELIVERED:
        return [f"Your order {number} has been {label}. We hope you enjoy it!"]
    paragraphs = [f"Your order {number} has been {label}."]
    if refunded_cents:
        paragraphs.append(
            f"{format_cents(refunded_cents)} has been refunded to your card. It can take 5 to 10 "
            "business days to appear on your statement."
        )
    elif order.payment_status == PaymentStatus.NOT_CHARGED:
        paragraphs.append("Nothing was charged for this order.")
    return paragraphs


def send_status_mail(session: Session, order_id: int, change: StatusChange, *, refunded_cents: int) -> None:
    """Tell the customer about a change: the status in the seed's words, and the tracking link
    when shipped (else a link to the order: in the account of a customer, signed for a guest)."""
    order = session.get(Order, order_id)
    if order is None:
        return
    settings = get_store_settings(session)
    first_name = session.exec(
        select(col(OrderAddress.first_name))
        .where(col(OrderAddress.order_id) == order_id)
        .order_by(col(OrderAddress.id))
    ).first()
    action: tuple[str | None, str | None] = (None, None)
    link = tracking_url(change.tracking_number, change.carrier) if change.tracking_number else None
    if link:
        action = ("Track Package", link)
    elif order.user_id is not None:
        action = ("View your order", f"{get_settings().site_url}{order_url(order_id)}")
    else:  # a guest: a signed link to this order (services/order_access.py)
        action = ("View your order", order_access.new_link(session, order_id=order_id))
    label = status_label(change.to_status)
    mail.send_shop_mail(
        session,
        to=order.email,
        subject=f"Your order {order.order_number} is {label} | {settings.company_name}",
        kind=STATUS_MAIL_KIND,
        brand=settings.company_name,
        greeting=f"Hello {first_name or 'there'},",
        paragraphs=_paragraphs(order, change, refunded_cents),
        action_label=action[0],
        action_url=action[1],
    )
