"""Order and payment statuses (docs/architecture.md#orders-and-payment) and their display rules."""

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
"""Badge colour per displayed status (docs/spec/orders.md#statuses); any other status is
:data:`OTHER_COLOUR`."""

OTHER_COLOUR: Final = "grey"


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
