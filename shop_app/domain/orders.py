"""Order and payment statuses (DESIGN.md §5) and their display rules."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Final


class OrderStatus(StrEnum):
    """Life cycle of an order.

    ``awaiting_payment`` is internal: the order row and its idempotency key exist, the charge has
    not been confirmed yet. ``pending`` is the first status a shopper sees (paid, not yet handled).
    """

    AWAITING_PAYMENT = "awaiting_payment"
    PENDING = "pending"
    PROCESSING = "processing"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"
    REFUNDED = "refunded"


class PaymentStatus(StrEnum):
    """Outcome of one payment attempt as we know it."""

    PENDING = "pending"  # written before the first charge attempt
    COMPLETED = "completed"
    FAILED = "failed"
    UNKNOWN = "unknown"  # transport error: reconcile before telling the shopper anything final
    REFUNDED = "refunded"
    NOT_CHARGED = "not_charged"  # simulated PayPal in local mode


class PaymentProvider(StrEnum):
    """Who took (or simulated) the payment."""

    SQUARE = "square"
    PAYPAL_SIMULATED = "paypal_simulated"


STATUS_BADGE_COLOURS: Final[Mapping[str, str]] = MappingProxyType(
    {
        OrderStatus.PENDING: "yellow",
        OrderStatus.PROCESSING: "blue",
        OrderStatus.SHIPPED: "purple",
        OrderStatus.DELIVERED: "green",
        OrderStatus.CANCELLED: "red",
    }
)
"""Badge colour per displayed status (seed 000 §4); any other status is :data:`OTHER_COLOUR`."""

OTHER_COLOUR: Final = "grey"

ADMIN_TRANSITIONS: Final[Mapping[OrderStatus, frozenset[OrderStatus]]] = MappingProxyType(
    {
        OrderStatus.AWAITING_PAYMENT: frozenset({OrderStatus.PENDING, OrderStatus.CANCELLED}),
        OrderStatus.PENDING: frozenset({OrderStatus.PROCESSING, OrderStatus.CANCELLED, OrderStatus.REFUNDED}),
        OrderStatus.PROCESSING: frozenset({OrderStatus.SHIPPED, OrderStatus.CANCELLED, OrderStatus.REFUNDED}),
        OrderStatus.SHIPPED: frozenset({OrderStatus.DELIVERED, OrderStatus.REFUNDED}),
        OrderStatus.DELIVERED: frozenset({OrderStatus.REFUNDED}),
        OrderStatus.CANCELLED: frozenset({OrderStatus.REFUNDED}),
        OrderStatus.REFUNDED: frozenset(),
    }
)
"""Status changes allowed from the back office (DESIGN.md §5).

The main line is ``awaiting_payment -> pending -> processing -> shipped -> delivered``, one step
at a time. Our decisions where DESIGN.md is silent: an order can be cancelled until it ships
(an unpaid one too, which is also what a declined payment does); a paid order can be refunded
at any point after payment, including after a cancellation (money back for a cancelled paid
order); ``refunded`` is final.
"""


def status_badge_colour(status: str) -> str:
    """Return the badge colour of an order status; unknown statuses are grey.

    Examples:
        >>> status_badge_colour("shipped"), status_badge_colour("refunded")
        ('purple', 'grey')
    """
    return STATUS_BADGE_COLOURS.get(status, OTHER_COLOUR)


def status_label(status: str) -> str:
    """Return a status for display: ``"awaiting_payment"`` -> ``"Awaiting payment"``."""
    return status.replace("_", " ").capitalize()


def can_transition(current: str, target: str) -> bool:
    """Return whether an admin may move an order from ``current`` to ``target``.

    Unknown statuses and staying in the same status are not allowed.
    """
    try:
        return OrderStatus(target) in ADMIN_TRANSITIONS.get(OrderStatus(current), frozenset())
    except ValueError:
        return False
