"""Square webhooks: verify the signature, apply each event once, reconcile payments and refunds.

Signature: ``base64(HMAC-SHA256(key, notification_url + raw_body))`` in the
``x-square-hmacsha256-signature`` header. Deliveries may repeat or arrive out of order, so every
event id is recorded once and an event only moves an order forward (awaiting → paid/cancelled,
paid → refunded), never back. A refund the back office made (recorded in ``refunds``) only has
its Square status updated (PENDING → COMPLETED): the order was moved when it was made.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment, Refund, WebhookEvent
from shop_app.models.base import saved_id, utcnow
from shop_app.services import checkout
from shop_app.services.payments import ChargeOutcome, ChargeStatus

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "x-square-hmacsha256-signature"
PAYMENT_EVENTS = ("payment.created", "payment.updated")
REFUND_EVENTS = ("refund.created", "refund.updated")


@dataclass(frozen=True, slots=True)
class Handled:
    """What an event did: "applied", "duplicate" or "ignored"."""

    result: str
    order_id: int | None = None


def signature(*, body: bytes, key: str, notification_url: str) -> str:
    """The signature Square sends for ``body`` delivered to ``notification_url``."""
    digest = hmac.new(key.encode("utf-8"), notification_url.encode("utf-8") + body, hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def signature_is_valid(*, body: bytes, header: str, key: str, notification_url: str) -> bool:
    """Whether the header matches (constant-time); never valid without a configured key."""
    if not key or not header:
        return False
    return hmac.compare_digest(signature(body=body, key=key, notification_url=notification_url), header)


def _event_id(event: dict[str, Any]) -> str:
    return str(event.get("event_id") or "")[:128]


def already_handled(session: Session, event: dict[str, Any]) -> bool:
    """Whether this event id was handled before (a repeated delivery)."""
    event_id = _event_id(event)
    return (
        not event_id
        or session.exec(select(WebhookEvent.id).where(WebhookEvent.event_id == event_id)).first() is not None
    )


def record_event(session: Session, event: dict[str, Any]) -> bool:
    """Record the event id once handled; False when another delivery recorded it first.

    Applying an event is idempotent (orders only move forward), so a rare concurrent repeat that
    passes :func:`already_handled` changes nothing.
    """
    event_id = _event_id(event)
    if not event_id:
        return False
    try:
        with session.begin_nested():
            session.add(WebhookEvent(event_id=event_id, event_type=str(event.get("type", ""))[:64]))
    except sa.exc.IntegrityError:
        return False
    return True


def handle(session: Session, event: dict[str, Any]) -> Handled:
    """Apply one verified event (idempotent); may commit ``session``."""
    kind = str(event.get("type", ""))
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        return Handled("ignored")
    if kind in PAYMENT_EVENTS and isinstance(obj.get("payment"), dict):
        return _payment_event(session, obj["payment"])
    if kind in REFUND_EVENTS and isinstance(obj.get("refund"), dict):
        return _refund_event(session, obj["refund"])
    return Handled("ignored")


def _order_for_payment(session: Session, payment: dict[str, Any]) -> Order | None:
    square_id = payment.get("id")
    if square_id:
        row = session.exec(select(Payment).where(Payment.square_payment_id == square_id)).first()
        if row is not None:
            return session.get(Order, row.order_id)
    reference = payment.get("reference_id")
    if reference:
        return session.exec(select(Order).where(Order.order_number == str(reference).upper())).first()
    return None


def _payment_event(session: Session, payment: dict[str, Any]) -> Handled:
    order = _order_for_payment(session, payment)
    if order is None:
        return Handled("ignored")
    status = payment.get("status")
    if status == "COMPLETED":
        card = (payment.get("card_details") or {}).get("card") or {}
        outcome = ChargeOutcome(
            ChargeStatus.COMPLETED,
            payment_id=payment.get("id"),
            provider_order_id=payment.get("order_id"),
            card_brand=card.get("card_brand"),
            card_last4=card.get("last_4"),
            receipt_url=payment.get("receipt_url"),
        )
    elif status in ("FAILED", "CANCELED"):
        card_details = payment.get("card_details")
        errors = card_details.get("errors") if isinstance(card_details, dict) else None
        first = errors[0] if isinstance(errors, list) and errors and isinstance(errors[0], dict) else {}
        outcome = ChargeOutcome(
            ChargeStatus.DECLINED,
            payment_id=payment.get("id"),
            error_code=str(first.get("code") or status),
            message=first.get("detail"),
        )
    else:
        return Handled("ignored", order.id)
    if order.status != OrderStatus.AWAITING_PAYMENT:
        return Handled("ignored", order.id)  # already settled by the checkout itself
    order_id = saved_id(order)
    session.commit()  # the order flow settles in its own transactions
    checkout.apply_outcome(order_id=order_id, outcome=outcome, engine=session.get_bind().engine)
    return Handled("applied", order_id)


def _refund_event(session: Session, refund: dict[str, Any]) -> Handled:
    recorded = (
        session.exec(select(Refund).where(Refund.square_refund_id == str(refund["id"])[:192])).first()
        if refund.get("id")
        else None
    )
    if recorded is not None:  # made by the back office: recorded already; only Square's status moves
        status = str(refund.get("status") or "")[:32]
        if not status or status == recorded.square_status:
            return Handled("ignored", recorded.order_id)
        recorded.square_status = status
        session.add(recorded)
        session.flush()
        return Handled("applied", recorded.order_id)
    if refund.get("status") != "COMPLETED":
        return Handled("ignored")
    row = session.exec(select(Payment).where(Payment.square_payment_id == refund.get("payment_id"))).first()
    order = session.get(Order, row.order_id) if row else None
    if (
        row is None  # then no order either
        or order is None
        or order.status in (OrderStatus.AWAITING_PAYMENT, OrderStatus.REFUNDED)
        or order.payment_status == PaymentStatus.REFUNDED  # the back office refunded it (a cancel stays)
    ):
        return Handled("ignored", order.id if order else None)
    refunded = int((refund.get("amount_money") or {}).get("amount") or 0)
    if refunded >= order.total_cents:
        order.status, order.payment_status, order.updated_at = (
            OrderStatus.REFUNDED,
            PaymentStatus.REFUNDED,
            utcnow(),
        )
        row.status, row.updated_at = PaymentStatus.REFUNDED, utcnow()
        session.add_all([order, row])
    else:
        log.info("partial refund of %s cents recorded for order %s", refunded, order.order_number)
    session.flush()
    return Handled("applied", order.id)
