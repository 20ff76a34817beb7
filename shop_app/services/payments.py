"""The payment gateway seen by the order flow: one call to charge, one to look up an attempt.

The Square implementation lives in ``services/square``; tests may use any object with the same
shape. Amounts are integer cents. The idempotency key is made (and stored with the order) by the
caller before the first attempt, and reused on every retry of that attempt.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class ChargeStatus(StrEnum):
    """What became of a charge attempt."""

    COMPLETED = "completed"
    DECLINED = "declined"  # the card was refused: nothing was charged
    UNKNOWN = "unknown"  # no answer (timeout, dropped connection): reconcile before deciding


@dataclass(frozen=True, slots=True)
class ChargeRequest:
    """One charge attempt."""

    idempotency_key: str  # ≤ 45 characters, made once per order and reused on retry
    source_id: str  # the card token from the payment form (never card data)
    amount_cents: int
    currency: str
    reference: str  # our order number
    buyer_email: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class ChargeOutcome:
    """The provider's answer."""

    status: ChargeStatus
    payment_id: str | None = None
    provider_order_id: str | None = None
    card_brand: str | None = None
    card_last4: str | None = None
    receipt_url: str | None = None
    error_code: str | None = None  # the provider's code (Square's GENERIC_DECLINE …), kept with the payment
    # The provider's own text about a refusal, for the log only: the shopper is told
    # ``domain.payment_errors.decline_message(error_code)``, never this.
    message: str | None = None


class PaymentGateway(Protocol):
    """Takes card payments."""

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        """Charge once per idempotency key: repeating a request returns the first result."""
        ...

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        """The result of an earlier attempt with this key, if the provider has one."""
        ...
