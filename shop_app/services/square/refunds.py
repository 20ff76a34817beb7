"""Refunding a Square payment through the SDK (``client.refunds.refund_payment``).

``SquareRefunds.refund`` sends one RefundPayment for the payment's id and an amount (the whole
payment or part of it) with the caller's idempotency key (one per refund, so a refund can never
happen twice; see ``services.admin.order_changes``):

- an answer with a refund (Square says PENDING or COMPLETED; a real refund completes later,
  the simulator's ledger records it COMPLETED at once) → ``DONE`` with the refund id;
- a 4xx (the payment is not refundable, already refunded, a wrong amount …) → ``REFUSED`` with
  Square's ``detail``: nothing was refunded;
- no answer (timeout, dropped connection) or 408/409/429/5xx → the *same* request again, up
  to ``retries`` more times (Square answers a repeated key with the first result, so a refund that
  happened is returned, never repeated); still no answer → ``UNKNOWN``. The caller must not
  record anything then; trying again later with the same key is safe.

The SDK's own retries are off (``max_retries=0``), as in ``gateway.SquareGateway``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Protocol

import httpx
from square import Square
from square.core.api_error import ApiError

from shop_app.services.square.client import local_client, remote_client
from shop_app.settings import Settings, SquareEnvironment

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({408, 409, 429})
REFUND_KEY_MAX = 45
REFUND_DONE = frozenset({"PENDING", "COMPLETED"})


class RefundStatus(StrEnum):
    """What became of a refund request."""

    DONE = "done"  # Square accepted the refund (it may still be completing on its side)
    REFUSED = "refused"  # nothing was refunded; ``message`` says why
    UNKNOWN = "unknown"  # no answer: nothing may be recorded; retrying with the same key is safe


@dataclass(frozen=True, slots=True)
class RefundRequest:
    """A full or partial refund of one payment."""

    idempotency_key: str  # ≤ 45 characters
    payment_id: str  # Square's payment id
    amount_cents: int
    currency: str
    reason: str = ""  # ≤ 192 characters; keep it the same on retries (the key is tied to the body)


@dataclass(frozen=True, slots=True)
class RefundOutcome:
    """Square's answer."""

    status: RefundStatus
    refund_id: str | None = None
    error_code: str | None = None
    message: str | None = None
    square_status: str = ""  # Square's status of the refund when ``DONE``: PENDING or COMPLETED


class Refunder(Protocol):
    """Gives money back for a payment."""

    def refund(self, request: RefundRequest) -> RefundOutcome:
        """Refund once per idempotency key: repeating a request returns the first result."""
        ...


def _plain(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True) if hasattr(value, "model_dump") else value


class SquareRefunds:
    """Refunds through Square's Refunds API (see the module docstring)."""

    def __init__(
        self,
        client: Square,
        *,
        timeout_s: float = 15.0,
        retries: int = 2,
        backoff_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must not be negative")
        self._client = client
        self._timeout_s = timeout_s
        self._retries = retries
        self._backoff_s = backoff_s
        self._sleep = sleep

    def refund(self, request: RefundRequest) -> RefundOutcome:
        """Refund ``request.amount_cents`` of the payment (retrying the same request on no answer)."""
        if isinstance(request.amount_cents, bool) or not isinstance(request.amount_cents, int):
            raise TypeError("amount_cents must be an integer number of cents")
        if request.amount_cents < 1:
            raise ValueError("amount_cents must be at least 1")
        if not 1 <= len(request.idempotency_key) <= REFUND_KEY_MAX:
            raise ValueError(f"the idempotency key must have 1 to {REFUND_KEY_MAX} characters")
        arguments: dict[str, Any] = {
            "idempotency_key": request.idempotency_key,
            "payment_id": request.payment_id,
            "amount_money": {"amount": request.amount_cents, "currency": request.currency.upper()},
        }
        if request.reason:
            arguments["reason"] = request.reason[:192]
        options = {"timeout_in_seconds": self._timeout_s, "max_retries": 0}
        for attempt in range(self._retries + 1):
            if attempt:
                self._sleep(self._backoff_s * attempt)
            try:
                response = self._client.refunds.refund_payment(**arguments, request_options=options)
            except ApiError as exc:
                if exc.status_code is None or exc.status_code >= 500 or exc.status_code in RETRY_STATUSES:
                    log.warning(
                        "Square answered %s to a refund of %s; retrying", exc.status_code, request.payment_id
                    )
                    continue
                return self._refused(exc, request)
            except httpx.TransportError as exc:
                log.warning("No answer from Square to a refund of %s (%r); retrying", request.payment_id, exc)
                continue
            refund = _plain(response.refund) or {}
            if refund.get("id") and refund.get("status") in REFUND_DONE:
                return RefundOutcome(
                    RefundStatus.DONE, refund_id=refund["id"], square_status=refund["status"]
                )
            log.error(
                "Square answered a refund of %s without an accepted refund: %s", request.payment_id, refund
            )
            return RefundOutcome(RefundStatus.REFUSED, error_code=refund.get("status"), message="")
        log.error(
            "No answer from Square to a refund of %s after %d attempts", request.payment_id, attempt + 1
        )
        return RefundOutcome(RefundStatus.UNKNOWN, error_code="NO_ANSWER")

    @staticmethod
    def _refused(exc: ApiError, request: RefundRequest) -> RefundOutcome:
        errors = exc.errors or []
        first = _plain(errors[0]) if errors else {}
        first = first if isinstance(first, dict) else {}
        code = first.get("code") or "UNKNOWN"
        if code == "IDEMPOTENCY_KEY_REUSED":  # the key was used with another body: a bug, not a "no"
            log.error(
                "Refund key %s of %s was used with another request",
                request.idempotency_key,
                request.payment_id,
            )
            return RefundOutcome(RefundStatus.UNKNOWN, error_code=code)
        log.warning("Square refused a refund of %s: %s %s", request.payment_id, exc.status_code, first)
        return RefundOutcome(RefundStatus.REFUSED, error_code=code, message=first.get("detail") or code)


@lru_cache(maxsize=2)
def _local_client(timeout_s: float) -> Square:
    return local_client(timeout_s)


@lru_cache(maxsize=2)
def _remote_client(environment: SquareEnvironment, token: str, timeout_s: float) -> Square:
    return remote_client(environment, token, timeout_s=timeout_s)


def square_refunds(settings: Settings, *, timeout_s: float = 15.0) -> SquareRefunds:
    """The shop's refunds for its settings: in local mode the process-wide simulator, in-process
    (safe from the event loop, the same ledger as ``/_square``); else Square itself."""
    if settings.square_environment == SquareEnvironment.LOCAL:
        return SquareRefunds(_local_client(timeout_s), timeout_s=timeout_s)
    client = _remote_client(settings.square_environment, settings.square_access_token, timeout_s)
    return SquareRefunds(client, timeout_s=timeout_s)
