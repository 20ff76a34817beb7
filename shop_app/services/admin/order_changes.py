"""Changing an order from the back office: its status (docs/spec/orders.md#placing "update orders by
id with status and optional tracking_number", made real as docs/spec/README.md#gaps says) and its
refunds, full or partial (docs/spec/admin.md#refunds).

One change or refund is one write transaction:

1. the order row is locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN
   IMMEDIATE`` holds the database's write lock), so a second admin's change waits and then
   sees the first one's result;
2. what the admin saw must still be true: the order's status (``expected_status``) and, for a
   refund, the amount refunded so far (``expected_refunded_cents``); else the change is refused:
   two admins never apply conflicting changes, whatever they clicked;
3. the rules decide (:mod:`shop_app.domain.order_status`, :mod:`shop_app.domain.refunds`;
   refusals carry their message);
4. the money goes back through Square's RefundPayment (the SDK), for exactly the refund's
   amount, with an idempotency key that makes a repeat harmless:

   - a refund from the Refund dialog carries the dialog's key (made on the server when the
     dialog opens, kept until that refund is recorded). A key already recorded returns the
     recorded refund without calling Square again (a retried click); a lost answer retried with
     the same key and amount gets Square's first refund back, never a second one;
   - the rest given back by a status change (a cancel, a Refund without the dialog) carries the
     order's own key, ``order_refunds.refund_key``: derived from the payment's key and the
     number of refunds recorded, so its body (what remains) is the same on every retry.

   A refusal or no answer raises, the transaction rolls back and nothing is changed;
5. the refund and its items are recorded, the items chosen go back to stock (the same
   transaction), and when the status changes (a cancel, or a refund that leaves nothing to
   refund) a conditional ``UPDATE`` moves the order, the payment is marked refunded and a
   history row is written. A partial refund leaves the order's status as it is.

The customer's mail (``order_mails``) is recorded in the outbox in the change's own transaction,
in a savepoint (``mail.recording_apart``): it goes out if and only if the change commits, a
failure to write it never undoes the change, and no mail server is talked to under the lock (the
delivery worker sends it after the commit, docs/architecture.md#mail). The Square call is made
while the lock is held: an admin action is rare, a refund is quick, and holding the lock is what
makes "refund, then record" one indivisible step. (Should the commit itself fail after Square
refunded, the same request retried is answered by Square with its first refund, which is then
recorded.)
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import write_transaction
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.messages import OrderMessage
from shop_app.domain.money import format_cents
from shop_app.domain.order_status import (
    ChangeRefused,
    StatusChange,
    can_restock,
    money_held,
    plan_change,
    refund_refusal,
    restock_by_default,
)
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus, status_label
from shop_app.domain.refunds import RefundMode, RefundPlan, RefundRefused, plan_refund, rest_lines
from shop_app.models import Order, OrderStatusChange, Payment, Refund
from shop_app.models.base import saved_id, utcnow
from shop_app.services import mail
from shop_app.services.admin import order_refunds
from shop_app.services.admin.order_mails import STATUS_MAIL_KIND, send_refund_mail, send_status_mail
from shop_app.services.admin.order_refunds import refund_key
from shop_app.services.square.refunds import Refunder, RefundRequest, RefundStatus, square_refunds
from shop_app.settings import get_settings

__all__ = [
    "STATUS_MAIL_KIND",
    "ChangeResult",
    "OrderChangeError",
    "RefundResult",
    "change_status",
    "refund_key",
    "refund_order",
    "send_status_mail",
]

log = logging.getLogger(__name__)

KEY_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{1,45}", re.ASCII)
"""A refund idempotency key as Square takes it (at most 45 characters)."""


class OrderChangeError(ValueError):
    """The change was not made; the message is for the admin. Nothing was changed.

    ``unanswered``: Square's answer to a refund never came (or the key had been used with another
    amount): a refund may exist at Square unrecorded, so the same request must be sent again with
    the same key, which records it; a new key could refund twice.
    """

    def __init__(self, message: str, *, unanswered: bool = False) -> None:
        super().__init__(message)
        self.unanswered = unanswered


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


@dataclass(frozen=True, slots=True)
class RefundResult:
    """A refund that was made (or, ``replayed``, had been made by the same request before)."""

    order_id: int
    order_number: str
    status: str  # the order's status now: ``refunded`` once nothing remains
    amount_cents: int
    remaining_cents: int  # still charged
    replayed: bool = False

    @property
    def completed(self) -> bool:
        """Nothing remains charged: the order is refunded."""
        return self.remaining_cents == 0

    @property
    def message(self) -> str:
        """The confirmation for the admin."""
        amount = format_cents(self.amount_cents)
        if self.completed:
            return M.CHANGED_AND_REFUNDED.format(
                number=self.order_number, status=status_label(self.status), amount=amount
            )
        return M.REFUNDED_PART.format(
            amount=amount, number=self.order_number, remaining=format_cents(self.remaining_cents)
        )


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

    Cancelling or refunding gives back what remains of the money (all of it, less earlier
    partial refunds) and the items not yet refunded by line (a cancel always; a refund as
    ``order_status.restock_by_default`` says: not once shipped).

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
    with _locked_order(order_id, engine) as (session, order):
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
        with _mailing(session, order):
            send_status_mail(session, result.order_id, change, refunded_cents=result.refunded_cents)
    return result


def refund_order(
    *,
    order_id: int,
    admin_user_id: int,
    mode: str,
    quantities: Mapping[int, int] | None = None,
    amount_cents: int | None = None,
    restock: bool | None = None,
    note: str = "",
    idempotency_key: str | None,
    expected_status: str | None,
    expected_refunded_cents: int | None,
    refunds: Refunder | None = None,
    engine: Engine | None = None,
) -> RefundResult:
    """Refund an order in full or in part (``domain.refunds``): items, an amount, or the rest.

    One RefundPayment of exactly the refund's amount; the refund and its items recorded, the
    items returned to stock if asked, all in one transaction; the order becomes ``refunded`` when
    nothing remains, else keeps its status. Then the customer's mail.

    Args:
        order_id: The order.
        admin_user_id: The admin making the refund (already checked by the caller).
        mode: ``items``, ``amount`` or ``rest`` (:class:`~shop_app.domain.refunds.RefundMode`).
        quantities: For ``items``: order item id → quantity (this order's items only).
        amount_cents: For ``amount``: the amount.
        restock: Return the items to stock; ``None``: the default (yes before shipping, else no;
            never for an amount).
        note: The admin's note (reason), kept with the refund.
        idempotency_key: The dialog's key (module docstring); ``None``: the order's own key for
            the rest (``rest`` only).
        expected_status: The status the admin was looking at; ``None`` skips that check.
        expected_refunded_cents: The amount refunded so far the admin was looking at; ``None``
            skips that check.
        refunds: Where refunds go (default: the shop's Square, or its local simulator).
        engine: The database.

    Raises:
        OrderChangeError: Refused (with the rule's message), changed meanwhile, or Square
            refused or did not answer. Nothing was changed.
    """
    if idempotency_key is None and mode != RefundMode.REST:
        raise ValueError("a refund of items or of an amount needs the dialog's idempotency key")
    if idempotency_key is not None and not KEY_SHAPE.fullmatch(idempotency_key):
        raise ValueError("the idempotency key must be 1 to 45 letters, digits, '-' or '_'")
    with _locked_order(order_id, engine) as (session, order):
        recorded = order_refunds.find_refund(session, idempotency_key) if idempotency_key else None
        if recorded is not None:
            return _replayed(session, order, recorded)
        if expected_status is not None and order.status != expected_status:
            raise OrderChangeError(M.CHANGED_MEANWHILE.value)
        refusal = refund_refusal(order.status, order.payment_status)
        if refusal is not None:
            raise OrderChangeError(refusal)
        payment = _square_payment(session, saved_id(order))
        situation, count = order_refunds.situation_of(session, order, paid_cents=payment.amount_cents)
        if expected_refunded_cents is not None and situation.refunded_cents != expected_refunded_cents:
            raise OrderChangeError(M.CHANGED_MEANWHILE.value)
        try:
            plan = plan_refund(
                situation,
                status=order.status,
                payment_status=order.payment_status,
                mode=mode,
                quantities=quantities,
                amount_cents=amount_cents,
                restock=_default_restock(order.status, mode) if restock is None else restock,
                note=note,
            )
        except RefundRefused as refused:
            raise OrderChangeError(str(refused)) from refused
        key = idempotency_key or refund_key(payment, count)
        refund_id = _give_back(
            session, order, payment, plan, key=key, admin_user_id=admin_user_id, refunds=refunds
        )
        change = None
        if plan.completes:
            change = StatusChange(
                from_status=OrderStatus(order.status),
                to_status=OrderStatus.REFUNDED,
                restock=plan.restock,
                refund=True,
                note=plan.note,
            )
            _move(
                session, order, change, admin_user_id, refunded_cents=plan.amount_cents, refund_id=refund_id
            )
        names = {line.item_id: line.name for line in situation.lines}
        items = [f"{quantity} × {names[item_id]}" for item_id, quantity in plan.lines]
        result = RefundResult(
            order_id=saved_id(order),
            order_number=order.order_number,
            status=OrderStatus.REFUNDED.value if change else order.status,
            amount_cents=plan.amount_cents,
            remaining_cents=plan.remaining_after_cents,
        )
        with _mailing(session, order):
            if change is not None:
                send_status_mail(session, result.order_id, change, refunded_cents=result.amount_cents)
            else:
                send_refund_mail(
                    session,
                    result.order_id,
                    amount_cents=result.amount_cents,
                    items=items if plan.mode == RefundMode.ITEMS else [],
                    remaining_cents=result.remaining_cents,
                )
    return result


def _default_restock(status: str, mode: str) -> bool:
    """The default of "Return items to stock": before shipping yes, once shipped no; an amount has
    no items to return."""
    return mode != RefundMode.AMOUNT and restock_by_default(status)


@contextmanager
def _locked_order(order_id: int, engine: Engine | None) -> Iterator[tuple[Session, Order]]:
    """One write transaction holding the order's row lock; a missing order, and a database that
    stays busy (SQLite's write lock), become :class:`OrderChangeError`."""
    try:
        with write_transaction(engine) as session:
            order = session.exec(select(Order).where(Order.id == order_id).with_for_update()).first()
            if order is None:
                raise OrderChangeError(M.NOT_FOUND.value)
            yield session, order
    except sa.exc.OperationalError as error:
        if not _database_busy(error):
            raise
        log.warning("a change of order %s gave up waiting for the write lock", order_id)
        raise OrderChangeError(OrderMessage.UPDATE_STATUS_FAILED.value) from error


@contextmanager
def _mailing(session: Session, order: Order) -> Iterator[None]:
    """Record the customer's mail in the change's transaction, apart (a savepoint): the mail
    reads the order as the change left it (its Core statements bypass the loaded row)."""
    with mail.recording_apart(session, f"order {order.order_number}"):
        session.flush()
        session.refresh(order)
        yield


def _database_busy(error: sa.exc.OperationalError) -> bool:
    return isinstance(error.orig, sqlite3.OperationalError) and "database is locked" in str(error.orig)


def _apply(
    session: Session, order: Order, change: StatusChange, admin_user_id: int, refunds: Refunder | None
) -> ChangeResult:
    """Make a planned status change: give back the rest of the money and the items not yet
    refunded by line, as ``change`` says, then move the order."""
    order_id = saved_id(order)
    refunded_cents, refund_id = 0, None
    if change.refund:
        payment = _square_payment(session, order_id)
        situation, count = order_refunds.situation_of(session, order, paid_cents=payment.amount_cents)
        try:
            plan = plan_refund(
                situation,
                status=order.status,
                payment_status=order.payment_status,
                mode=RefundMode.REST,
                restock=change.restock and can_restock(order.status),
                note=change.note,
            )
        except RefundRefused as refused:
            raise OrderChangeError(str(refused)) from refused
        refund_id = _give_back(
            session,
            order,
            payment,
            plan,
            key=refund_key(payment, count),
            admin_user_id=admin_user_id,
            refunds=refunds,
        )
        refunded_cents = plan.amount_cents
    elif change.restock:  # nothing to give back (not charged): the items still come back
        situation, _ = order_refunds.situation_of(session, order, paid_cents=0)
        order_refunds.restock_items(session, rest_lines(situation))
    _move(session, order, change, admin_user_id, refunded_cents=refunded_cents, refund_id=refund_id)
    return ChangeResult(order_id, order.order_number, change.to_status.value, refunded_cents)


def _move(
    session: Session,
    order: Order,
    change: StatusChange,
    admin_user_id: int,
    *,
    refunded_cents: int,
    refund_id: str | None,
) -> None:
    """Move the order (one conditional UPDATE), mark its payment refunded when the money went
    back, and write the history row."""
    order_id = saved_id(order)
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
    if change.refund and money_held(order.payment_status):
        session.execute(
            sa.update(Payment)
            .where(
                col(Payment.order_id) == order_id,
                col(Payment.status) == PaymentStatus.COMPLETED.value,
                col(Payment.provider) == PaymentProvider.SQUARE.value,
            )
            .values(status=PaymentStatus.REFUNDED.value, updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )
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


def _give_back(
    session: Session,
    order: Order,
    payment: Payment,
    plan: RefundPlan,
    *,
    key: str,
    admin_user_id: int,
    refunds: Refunder | None,
) -> str | None:
    """Refund ``plan`` through Square, then record it and return its items to stock if asked.
    Raises (nothing recorded) unless Square accepted the refund; returns Square's refund id."""
    outcome = (refunds or square_refunds(get_settings())).refund(
        RefundRequest(
            idempotency_key=key,
            payment_id=payment.square_payment_id or "",
            amount_cents=plan.amount_cents,
            currency=payment.currency,
            reason=f"Order {order.order_number}",  # the same on every retry: one key, one body
        )
    )
    if outcome.status == RefundStatus.REFUSED:
        detail = (outcome.message or outcome.error_code or "").strip()
        if detail and not detail.endswith("."):
            detail += "."
        raise OrderChangeError(M.REFUND_REFUSED.format(detail=detail))
    if outcome.status != RefundStatus.DONE:
        if outcome.error_code == "IDEMPOTENCY_KEY_REUSED":
            raise OrderChangeError(M.REFUND_KEY_REUSED.value, unanswered=True)
        raise OrderChangeError(M.REFUND_NO_ANSWER.value, unanswered=True)
    log.info(
        "order %s: %s refunded (%s, Square refund %s)",
        order.order_number,
        format_cents(plan.amount_cents),
        plan.mode.value,
        outcome.refund_id,
    )
    order_refunds.record_refund(
        session,
        order_id=saved_id(order),
        payment=payment,
        plan=plan,
        idempotency_key=key,
        square_refund_id=outcome.refund_id,
        square_status=outcome.square_status,
        admin_user_id=admin_user_id,
    )
    if plan.restock:
        order_refunds.restock_items(session, plan.lines)
    return outcome.refund_id


def _replayed(session: Session, order: Order, recorded: Refund) -> RefundResult:
    """The same request again (a retried click): what it did, without doing anything."""
    if recorded.order_id != order.id:  # a key is made per dialog of one order: never another's
        raise OrderChangeError(M.CHANGED_MEANWHILE.value)
    refunded = session.execute(
        select(sa.func.coalesce(sa.func.sum(col(Refund.amount_cents)), 0)).where(
            col(Refund.order_id) == recorded.order_id
        )
    ).scalar_one()
    paid = session.execute(
        select(col(Payment.amount_cents)).where(col(Payment.id) == recorded.payment_id)
    ).scalar_one()
    return RefundResult(
        order_id=saved_id(order),
        order_number=order.order_number,
        status=order.status,
        amount_cents=recorded.amount_cents,
        remaining_cents=max(0, paid - int(refunded)),
        replayed=True,
    )


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
