"""``SquareGateway``: the shop's ``PaymentGateway`` on Square's Payments API, through the SDK.

``charge`` sends one CreatePayment (``autocomplete=True``) with the caller's idempotency key:

- COMPLETED → ``ChargeOutcome(COMPLETED, payment id, Square order id, card brand, last 4,
  receipt URL)``. The card brand is Square's value (``VISA``, ``MASTERCARD`` …).
- An answer with a card decline (category PAYMENT_METHOD_ERROR: GENERIC_DECLINE, CVV_FAILURE …)
  → DECLINED with Square's error code and its ``detail`` (logged at info). Any other 4xx (a spent
  card token, a bad amount, a wrong token …) also means nothing was charged → DECLINED with its
  code (a 4xx other than a decline is a bug or a configuration error, so it is logged as an
  error). The ``message`` of a DECLINED outcome is Square's own text, for the log only: what the
  shopper reads comes from the code (``domain.payment_errors.decline_message``), never from it.
- No answer (``httpx`` timeout, refused or dropped connection) or a 408/409/429/5xx → the *same*
  request (same key, same body) again, up to ``retries`` more times; Square answers a repeated
  key with the first result, so a charge that happened is returned, never repeated. Still no
  answer → UNKNOWN: the order flow must reconcile before telling the shopper anything. An
  IDEMPOTENCY_KEY_REUSED answer (the key was used with another body) is UNKNOWN too.

The SDK's own retries are switched off (``max_retries=0``): they sleep 1-2 s per attempt and do
not cover timeouts; this class retries every no-answer case itself, with ``backoff_s``.

``find`` (reconciliation) is read-only: Square cannot look a payment up by idempotency key, so it
lists the location's payments (``GET /v2/payments``, newest first, up to ``find_pages`` pages
of 100) and picks the one whose ``reference_id`` is our order number, preferring COMPLETED.
Replaying ``charge`` with the same key and body is the other documented reconciliation path; it is
left to the caller, who has the original request (``find`` does not have the amount or token, and
must never create a charge). A payment found → its outcome (APPROVED or PENDING → UNKNOWN,
FAILED or CANCELED → DECLINED); none → None; the lookup itself failing → UNKNOWN.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import httpx
from square import Square
from square.core.api_error import ApiError

from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.services.square.client import (
    local_client,
    local_location_id,
    remote_client,
    simulator_http_client,
)
from shop_app.settings import Settings, SquareEnvironment

logger = logging.getLogger(__name__)

DECLINE_CATEGORY = "PAYMENT_METHOD_ERROR"
RETRY_STATUSES = frozenset({408, 409, 429})
FIND_PAGE_SIZE = 100
_PREFERENCE = {"COMPLETED": 0, "APPROVED": 1, "PENDING": 2, "FAILED": 3, "CANCELED": 4}


def _plain(value: Any) -> Any:
    """An SDK model (or anything) as plain JSON data, with Square's field names."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_none=True)
    return value


def _dig(data: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _first_error(errors: list[Any]) -> dict[str, Any]:
    first = _plain(errors[0]) if errors else {}
    return first if isinstance(first, dict) else {}


class SquareGateway:
    """Card payments through Square's Payments API (see the module docstring)."""

    def __init__(
        self,
        client: Square,
        *,
        location_id: str,
        timeout_s: float = 15.0,
        retries: int = 2,
        backoff_s: float = 0.5,
        find_pages: int = 10,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must not be negative")
        self._client = client
        self._location_id = location_id
        self._timeout_s = timeout_s
        self._retries = retries
        self._backoff_s = backoff_s
        self._find_pages = find_pages
        self._sleep = sleep

    @property
    def _options(self) -> dict[str, Any]:
        return {"timeout_in_seconds": self._timeout_s, "max_retries": 0}

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        """Charge once per idempotency key (retrying the same request when there is no answer)."""
        if isinstance(request.amount_cents, bool) or not isinstance(request.amount_cents, int):
            raise TypeError("amount_cents must be an integer number of cents")
        if request.amount_cents < 1:
            raise ValueError("amount_cents must be at least 1")
        arguments: dict[str, Any] = {
            "source_id": request.source_id,
            "idempotency_key": request.idempotency_key,
            "amount_money": {"amount": request.amount_cents, "currency": request.currency.upper()},
            "location_id": self._location_id,
            "reference_id": request.reference,
            "autocomplete": True,
        }
        if request.buyer_email:
            arguments["buyer_email_address"] = request.buyer_email
        if request.note:
            arguments["note"] = request.note
        for attempt in range(self._retries + 1):
            if attempt:
                self._sleep(self._backoff_s * attempt)
            try:
                response = self._client.payments.create(**arguments, request_options=self._options)
            except ApiError as exc:
                if exc.status_code is None or exc.status_code >= 500 or exc.status_code in RETRY_STATUSES:
                    logger.warning("Square answered %s for %s; retrying", exc.status_code, request.reference)
                    continue
                return self._refused(exc, request)
            except httpx.TransportError as exc:
                logger.warning("No answer from Square for %s (%r); retrying", request.reference, exc)
                continue
            return self._outcome(_plain(response.payment), unknown_if_missing=True)
        logger.error("No answer from Square for %s after %d attempts", request.reference, self._retries + 1)
        return ChargeOutcome(ChargeStatus.UNKNOWN, error_code="NO_ANSWER")

    def _refused(self, exc: ApiError, request: ChargeRequest) -> ChargeOutcome:
        first = _first_error(exc.errors)
        code = first.get("code") or "UNKNOWN"
        body = exc.body if isinstance(exc.body, dict) else {}
        if code == "IDEMPOTENCY_KEY_REUSED":
            logger.error("Idempotency key of %s was used with another request", request.reference)
            return ChargeOutcome(ChargeStatus.UNKNOWN, error_code=code)
        detail = first.get("detail") or ""
        if first.get("category") == DECLINE_CATEGORY:
            logger.info("Square declined the card for %s: %s (%s)", request.reference, code, detail)
        else:
            logger.error("Square refused the charge for %s: %s %s", request.reference, exc.status_code, first)
        raw_payment = body.get("payment")
        payment: dict[str, Any] = raw_payment if isinstance(raw_payment, dict) else {}
        return ChargeOutcome(
            ChargeStatus.DECLINED,
            payment_id=payment.get("id"),
            provider_order_id=payment.get("order_id"),
            card_brand=_dig(payment, "card_details", "card", "card_brand"),
            card_last4=_dig(payment, "card_details", "card", "last_4"),
            error_code=code,
            message=detail or None,
        )

    @staticmethod
    def _outcome(payment: Any, *, unknown_if_missing: bool = False) -> ChargeOutcome:
        if not isinstance(payment, dict) or not payment.get("id"):
            return ChargeOutcome(ChargeStatus.UNKNOWN if unknown_if_missing else ChargeStatus.DECLINED)
        status = payment.get("status")
        common: dict[str, Any] = {
            "payment_id": payment["id"],
            "provider_order_id": payment.get("order_id"),
            "card_brand": _dig(payment, "card_details", "card", "card_brand"),
            "card_last4": _dig(payment, "card_details", "card", "last_4"),
        }
        if status == "COMPLETED":
            return ChargeOutcome(ChargeStatus.COMPLETED, receipt_url=payment.get("receipt_url"), **common)
        if status in ("FAILED", "CANCELED"):
            first = _first_error(_dig(payment, "card_details", "errors") or [])
            return ChargeOutcome(
                ChargeStatus.DECLINED,
                error_code=first.get("code") or status,
                message=first.get("detail") or None,
                **common,
            )
        return ChargeOutcome(ChargeStatus.UNKNOWN, error_code=status or None, **common)

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        """The outcome of an earlier attempt for this order (by ``reference``), read-only."""
        for attempt in range(self._retries + 1):
            if attempt:
                self._sleep(self._backoff_s * attempt)
            try:
                best = self._find_payment(reference)
            except (ApiError, httpx.TransportError) as exc:
                logger.warning("Square payment lookup for %s failed (%r)", reference, exc)
                continue
            return None if best is None else self._outcome(best)
        logger.error("Cannot look up the Square payment of %s (key %s)", reference, idempotency_key)
        return ChargeOutcome(ChargeStatus.UNKNOWN, error_code="LOOKUP_FAILED")

    def _find_payment(self, reference: str) -> dict[str, Any] | None:
        pager = self._client.payments.list(
            location_id=self._location_id,
            sort_order="DESC",
            limit=FIND_PAGE_SIZE,
            request_options=self._options,
        )
        best: dict[str, Any] | None = None
        for index, page in enumerate(pager.iter_pages()):
            for item in page.items or []:
                payment = _plain(item)
                if payment.get("reference_id") != reference:
                    continue
                rank = _PREFERENCE.get(payment.get("status", ""), 9)
                if best is None or rank < _PREFERENCE.get(best.get("status", ""), 9):
                    best = payment
            if (best is not None and best.get("status") == "COMPLETED") or index + 1 >= self._find_pages:
                break
        return best


@lru_cache(maxsize=4)
def _shared_local_client(timeout_s: float) -> Square:
    """One in-process client per timeout, built once and kept."""
    return local_client(timeout_s)


@lru_cache(maxsize=4)
def _shared_simulator_http_client(url: str, timeout_s: float) -> Square:
    """One HTTP client per simulator address and timeout (one connection pool)."""
    return simulator_http_client(url, timeout_s=timeout_s)


@lru_cache(maxsize=4)
def _shared_remote_client(environment: SquareEnvironment, token: str, timeout_s: float) -> Square:
    """One client (one connection pool) per configuration, built once and kept."""
    return remote_client(environment, token, timeout_s=timeout_s)


def square_gateway(settings: Settings, *, timeout_s: float = 15.0, retries: int = 2) -> SquareGateway:
    """The shop's gateway for its settings.

    Local mode: the simulator at ``SQUARE_SIMULATOR_URL`` when set (the one every worker
    shares), else the process-wide simulator called in-process (safe from the event loop, same
    ledger as ``/_square``); the location is ``SQUARE_LOCATION_ID`` or the simulator's own.
    Sandbox/production: Square itself (``SQUARE_ACCESS_TOKEN`` and ``SQUARE_LOCATION_ID`` needed).
    """
    if settings.square_environment == SquareEnvironment.LOCAL:
        location = local_location_id(settings)
        if settings.square_simulator_url:
            client = _shared_simulator_http_client(settings.square_simulator_url, timeout_s)
        else:
            client = _shared_local_client(timeout_s)
        return SquareGateway(client, location_id=location, timeout_s=timeout_s, retries=retries)
    if not settings.square_location_id:
        raise ValueError("SQUARE_LOCATION_ID is empty")
    client = _shared_remote_client(settings.square_environment, settings.square_access_token, timeout_s)
    return SquareGateway(
        client, location_id=settings.square_location_id, timeout_s=timeout_s, retries=retries
    )
