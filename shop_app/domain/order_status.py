"""What the back office may do to a paid order, and what each change implies
(docs/architecture.md#orders-and-payment; docs/spec/README.md#gaps).

The seed only has the call "update orders by id with status and optional tracking_number"
(docs/spec/orders.md#placing); docs/spec/README.md#gaps makes it an orders screen. The rules, all pure:

- The main line moves one step at a time: ``pending`` (paid) → ``processing`` → ``shipped``
  (a tracking number and the carrier are required) → ``delivered``.
- **Cancel** is possible until the parcel leaves: from ``pending`` or ``processing``.
- **Refund** is possible at any point after payment: from ``pending``, ``processing``,
  ``shipped`` and ``delivered``, and from ``cancelled`` while the money is still held (a payment
  that completed after the order had been given up, see ``services.ordering.settle``). A refund
  may be partial (by items or by amount, :mod:`shop_app.domain.refunds`); the order keeps its
  status until the whole amount paid has come back, then it is ``refunded``.
- An order placed with the local mode's simulated PayPal (payment ``not_charged``) was never
  paid: it is **never refundable**, whatever its status (:func:`refundable`); cancelling it is
  the way to give it up while it can still be cancelled.
- Cancelling gives the items back to stock (the order still holds them before shipping); a
  cancelled order gave them back already. Refunding in full ("the rest") returns them to stock
  by default before shipping and not once shipped (:func:`restock_by_default`: the parcel has
  left; the admin may still choose to). Items already refunded by line are never returned twice.
  The money that remains (all of it, less earlier partial refunds) goes back whenever it is held
  (payment ``completed``); a ``not_charged`` order has nothing to give back.
- ``refunded`` is final; ``awaiting_payment`` belongs to the payment flow, never to the back
  office.

Every refused change has its own message, so the admin knows what to do instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.orders import OrderStatus, PaymentStatus, status_label
from shop_app.domain.tracking import carrier_from_name, normalize_tracking_number

S = OrderStatus

LISTED_STATUSES: Final[tuple[OrderStatus, ...]] = (
    S.PENDING,
    S.PROCESSING,
    S.SHIPPED,
    S.DELIVERED,
    S.CANCELLED,
    S.REFUNDED,
)
"""Statuses of the back office's list and its filter, in life-cycle order (paid orders only)."""

NEXT_STEP: Final[dict[OrderStatus, OrderStatus]] = {
    S.PENDING: S.PROCESSING,
    S.PROCESSING: S.SHIPPED,
    S.SHIPPED: S.DELIVERED,
}
"""The main line: each status's one next step."""

CANCELLABLE: Final = frozenset({S.PENDING, S.PROCESSING})
BEFORE_SHIPPING: Final = CANCELLABLE
"""Statuses whose parcel has not left: a refund returns its items to stock by default."""
STOCK_HELD: Final = frozenset({S.PENDING, S.PROCESSING, S.SHIPPED, S.DELIVERED})
"""Statuses whose items are out of stock for this order (taken at placement, not given back)."""

ENDINGS: Final[tuple[OrderStatus, ...]] = (S.CANCELLED, S.REFUNDED)
TRACKING_NUMBER_MAX: Final = 100  # the column's length
NOTE_MAX: Final = 500
_TRACKING_SHAPE: Final = re.compile(r"[A-Z0-9-]+", re.ASCII)


class ChangeRefused(ValueError):
    """A status change the rules do not allow; the message says why, for the admin."""


@dataclass(frozen=True, slots=True)
class StatusChange:
    """One allowed change and what goes with it."""

    from_status: OrderStatus
    to_status: OrderStatus
    restock: bool  # give back to stock the items not yet refunded by line
    refund: bool  # give back what remains of the money (all of it, less partial refunds), through Square
    tracking_number: str | None = None  # set when shipping (normalised), else None
    carrier: str | None = None  # a name of ``tracking.CARRIERS`` when shipping, else None
    note: str = ""

    def payment_status_after(self, payment_status: str) -> str:
        """The order's payment status once the change is made."""
        return PaymentStatus.REFUNDED.value if self.refund else payment_status


def money_held(payment_status: str) -> bool:
    """Whether the shop holds the customer's money for the order (a completed card payment).

    Examples:
        >>> money_held("completed"), money_held("not_charged"), money_held("refunded")
        (True, False, False)
    """
    return payment_status == PaymentStatus.COMPLETED


def never_charged(payment_status: str) -> bool:
    """Whether the order was placed without any money taken (the simulated PayPal of local mode).

    Examples:
        >>> never_charged("not_charged"), never_charged("completed"), never_charged("refunded")
        (True, False, False)
    """
    return payment_status == PaymentStatus.NOT_CHARGED


def refundable(status: str, payment_status: str) -> bool:
    """Whether the back office may refund the order now, in full or in part (:func:`allowed_targets`
    offers it).

    A not charged order never is: there is no money to give back.

    Examples:
        >>> refundable("pending", "completed"), refundable("pending", "not_charged")
        (True, False)
        >>> refundable("delivered", "not_charged"), refundable("cancelled", "completed")
        (False, True)
    """
    return refund_refusal(status, payment_status) is None


def refund_refusal(status: str, payment_status: str) -> str | None:
    """Why the order cannot be refunded now (the admin's message), or ``None`` when it can.

    Examples:
        >>> refund_refusal("pending", "completed") is None
        True
        >>> refund_refusal("refunded", "refunded")
        'This order is already Refunded.'
    """
    return _refusal(status, payment_status, S.REFUNDED)


def restock_by_default(status: str) -> bool:
    """Whether "Return items to stock" starts ticked: yes before shipping, no once shipped.

    Examples:
        >>> restock_by_default("processing"), restock_by_default("shipped"), restock_by_default("cancelled")
        (True, False, False)
    """
    return status in BEFORE_SHIPPING


def can_restock(status: str) -> bool:
    """Whether a refund may return items to stock: only while the order holds them (a cancelled
    order gave them back when it was cancelled).

    Examples:
        >>> can_restock("delivered"), can_restock("cancelled")
        (True, False)
    """
    return status in STOCK_HELD


def allowed_targets(status: str, payment_status: str) -> tuple[OrderStatus, ...]:
    """The statuses the back office may move an order to now, next step first.

    Examples:
        >>> [s.value for s in allowed_targets("pending", "completed")]
        ['processing', 'cancelled', 'refunded']
        >>> [s.value for s in allowed_targets("cancelled", "refunded")]
        []
        >>> [s.value for s in allowed_targets("pending", "not_charged")]
        ['processing', 'cancelled']
    """
    candidates = (*NEXT_STEP.values(), *ENDINGS)
    return tuple(target for target in candidates if _refusal(status, payment_status, target) is None)


def _status(value: str) -> OrderStatus | None:
    try:
        return OrderStatus(value)
    except ValueError:
        return None


def _refusal(status: str, payment_status: str, target: str) -> str | None:
    """Why ``status`` cannot become ``target`` (the tracking details aside), or ``None``."""
    current, wanted = _status(status), _status(target)
    if current is None or current == S.AWAITING_PAYMENT:
        return M.NOT_PAID.value
    refusals = (
        (wanted == current, M.ALREADY.format(status=status_label(current))),
        (current == S.REFUNDED, M.FINAL.value),
        (wanted == S.CANCELLED and current in (S.SHIPPED, S.DELIVERED), M.TOO_LATE_TO_CANCEL.value),
        (
            wanted == S.REFUNDED and current == S.CANCELLED and not money_held(payment_status),
            M.NOTHING_TO_REFUND.value,
        ),
        (
            wanted == S.REFUNDED and never_charged(payment_status),
            M.NOT_CHARGED_CANCEL_INSTEAD.value if current in CANCELLABLE else M.NOTHING_TO_REFUND.value,
        ),
    )
    for refused, message in refusals:
        if refused:
            return message
    allowed = (
        (wanted is not None and NEXT_STEP.get(current) == wanted)
        or (wanted == S.CANCELLED and current in CANCELLABLE)
        or (wanted == S.REFUNDED and (current in STOCK_HELD or current == S.CANCELLED))
    )
    if allowed:
        return None
    return M.NOT_ALLOWED.format(status=status_label(current), target=status_label(target))


def clean_tracking_number(raw: str | None) -> str:
    """The tracking number as stored: whitespace removed, upper case; refused when malformed.

    Examples:
        >>> clean_tracking_number(" 1z 999 aa1 0123 4567 84 ")
        '1Z999AA10123456784'

    Raises:
        ChangeRefused: Empty, longer than :data:`TRACKING_NUMBER_MAX`, or with characters other
            than letters, digits, spaces and hyphens.
    """
    number = normalize_tracking_number(raw)
    if not number:
        raise ChangeRefused(M.TRACKING_REQUIRED.value)
    if len(number) > TRACKING_NUMBER_MAX:
        raise ChangeRefused(M.TRACKING_TOO_LONG.format(n=TRACKING_NUMBER_MAX))
    if not _TRACKING_SHAPE.fullmatch(number):
        raise ChangeRefused(M.TRACKING_INVALID.value)
    return number


def plan_change(
    *,
    status: str,
    payment_status: str,
    target: str,
    tracking_number: str | None = None,
    carrier: str | None = None,
    note: str = "",
) -> StatusChange:
    """Check a change against the rules and say what it implies.

    Args:
        status: The order's status now.
        payment_status: The order's payment status now.
        target: The status the admin chose.
        tracking_number: Required (and only used) for ``shipped``.
        carrier: A name of ``tracking.CARRIERS``; required (and only used) for ``shipped``.
        note: The admin's optional note for the history.

    Returns:
        The change, with whether the items go back to stock and the money back to the customer:
        a cancel returns the items; a refund returns them only before shipping
        (:func:`restock_by_default`; the Refund dialog lets the admin choose).

    Raises:
        ChangeRefused: With the reason, when the rules refuse the change.
    """
    reason = _refusal(status, payment_status, target)
    if reason is not None:
        raise ChangeRefused(reason)
    current, wanted = OrderStatus(status), OrderStatus(target)
    cleaned_note = free_text.multiline(note)
    if len(cleaned_note) > NOTE_MAX:
        raise ChangeRefused(M.NOTE_TOO_LONG.format(n=NOTE_MAX))
    number = chosen = None
    if wanted == S.SHIPPED:
        number = clean_tracking_number(tracking_number)
        found = carrier_from_name(carrier) if carrier and carrier.strip() else None
        if found is None:
            raise ChangeRefused(M.CARRIER_REQUIRED.value)
        chosen = found.value
    ending = wanted in ENDINGS
    restock = current in STOCK_HELD if wanted == S.CANCELLED else restock_by_default(current)
    return StatusChange(
        from_status=current,
        to_status=wanted,
        restock=ending and restock,
        refund=ending and money_held(payment_status),
        tracking_number=number,
        carrier=chosen,
        note=cleaned_note,
    )
