"""The customer's mails about back-office changes to an order (docs/spec/mail.md#orders): a status
change, and a partial refund. Each states the amount refunded, if any, and what remains charged.

Written after the change's transaction has committed (``services.admin.order_changes``): a slow or
failing mail server never holds the order's lock, and never undoes a change.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.money import format_cents
from shop_app.domain.order_status import StatusChange
from shop_app.domain.orders import OrderStatus, PaymentStatus, status_label
from shop_app.domain.tracking import tracking_url
from shop_app.models import Order, OrderAddress, Refund
from shop_app.models.base import saved_id
from shop_app.routes import order_url
from shop_app.services import mail, order_access
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

STATUS_MAIL_KIND: Final = "order_status"
REFUND_MAIL_KIND: Final = "order_refund"
STATEMENT_DELAY: Final = "It can take 5 to 10 business days to appear on your statement."


def _refunded_in_all(session: Session, order_id: int) -> int:
    return int(
        session.execute(
            select(sa.func.coalesce(sa.func.sum(col(Refund.amount_cents)), 0)).where(
                col(Refund.order_id) == order_id
            )
        ).scalar_one()
    )


def _status_paragraphs(
    order: Order, change: StatusChange, refunded_cents: int, in_all_cents: int
) -> list[str]:
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
        paragraphs.append(f"{format_cents(refunded_cents)} has been refunded to your card. {STATEMENT_DELAY}")
        if in_all_cents > refunded_cents:
            in_all = format_cents(in_all_cents)
            paragraphs.append(f"With the earlier refunds, {in_all} has been refunded in all.")
        paragraphs.append("Nothing remains charged for this order.")
    elif order.payment_status == PaymentStatus.NOT_CHARGED:
        paragraphs.append("Nothing was charged for this order.")
    return paragraphs


def _send(
    session: Session,
    order: Order,
    *,
    subject: str,
    kind: str,
    paragraphs: list[str],
    link: str | None = None,
) -> None:
    """The shop's mail to the order's customer, with the tracking link or a link to the order."""
    order_id = saved_id(order)
    settings = get_store_settings(session)
    first_name = session.exec(
        select(col(OrderAddress.first_name))
        .where(col(OrderAddress.order_id) == order_id)
        .order_by(col(OrderAddress.id))
    ).first()
    action: tuple[str | None, str | None]
    if link:
        action = ("Track Package", link)
    elif order.user_id is not None:
        action = ("View your order", f"{get_settings().site_url}{order_url(order_id)}")
    else:  # a guest: a signed link to this order (services/order_access.py)
        action = ("View your order", order_access.new_link(session, order_id=order_id))
    mail.send_shop_mail(
        session,
        to=order.email,
        subject=f"{subject} | {settings.company_name}",
        kind=kind,
        brand=settings.company_name,
        greeting=f"Hello {first_name or 'there'},",
        paragraphs=paragraphs,
        action_label=action[0],
        action_url=action[1],
    )


def send_status_mail(session: Session, order_id: int, change: StatusChange, *, refunded_cents: int) -> None:
    """Tell the customer about a change: the status in the seed's words, the tracking link when
    shipped (else a link to the order: in the account of a customer, signed for a guest), and
    the amount refunded by this change with what remains charged (nothing)."""
    order = session.get(Order, order_id)
    if order is None:
        return
    in_all = _refunded_in_all(session, order_id) if refunded_cents else 0
    _send(
        session,
        order,
        subject=f"Your order {order.order_number} is {status_label(change.to_status)}",
        kind=STATUS_MAIL_KIND,
        paragraphs=_status_paragraphs(order, change, refunded_cents, in_all),
        link=tracking_url(change.tracking_number, change.carrier) if change.tracking_number else None,
    )


def send_refund_mail(
    session: Session, order_id: int, *, amount_cents: int, items: list[str], remaining_cents: int
) -> None:
    """Tell the customer about a partial refund: the amount, the items if any ("1 × Candle"), and
    what remains charged."""
    order = session.get(Order, order_id)
    if order is None:
        return
    number = order.order_number
    paragraphs = [f"We have refunded {format_cents(amount_cents)} to your card for your order {number}."]
    if items:
        paragraphs.append(f"Refunded items: {', '.join(items)}.")
    paragraphs += [f"{format_cents(remaining_cents)} remains charged for this order.", STATEMENT_DELAY]
    _send(
        session,
        order,
        subject=f"Refund of {format_cents(amount_cents)} for your order {number}",
        kind=REFUND_MAIL_KIND,
        paragraphs=paragraphs,
    )
