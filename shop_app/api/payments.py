"""POST /api/square/payments: the seed's payment contract, on our order flow.

Body: ``{"sourceId", "amount", "currency", "locationId", "orderItems", "orderId", "orderNumber"}``.
The order must exist (id and number together) and be awaiting payment; the amount charged is
always the order's total in the database: a different ``amount`` is refused, never used.
Answers ``{"payment": {"id": …}}``, or ``{"errors": [{"detail": …}]}`` with a 4xx status.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from shop_app.db import session_scope
from shop_app.domain.messages import PaymentMessage
from shop_app.models import Order, Payment
from shop_app.services import checkout
from shop_app.services.payments import ChargeStatus
from shop_app.services.square.gateway import square_gateway
from shop_app.settings import get_settings

MAX_BODY_BYTES = 64 * 1024
MAX_ID = 2**31 - 1  # ids and amounts are 32-bit columns: a larger number is a bad request, not a 500
MAX_TOKEN_CHARS = 256
MAX_CURRENCY_CHARS = 3
AMOUNT_MISMATCH = "The amount does not match the order total"
BAD_REQUEST = "Invalid payment request"
NOT_FOUND = "Order not found"


def _error(detail: str, status: int) -> JSONResponse:
    return JSONResponse({"errors": [{"detail": detail}]}, status_code=status)


def _parse(body: bytes) -> dict[str, Any] | None:
    if len(body) > MAX_BODY_BYTES:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def create_payment(request: Request) -> JSONResponse:
    """Charge an order awaiting payment with a card token."""
    data = _parse(await request.body())
    if data is None:
        return _error(BAD_REQUEST, 400)
    source_id, order_number = data.get("sourceId"), data.get("orderNumber")
    order_id, amount, currency = data.get("orderId"), data.get("amount"), data.get("currency", "CAD")
    if not (
        isinstance(source_id, str)
        and source_id
        and isinstance(order_number, str)
        and isinstance(order_id, int)
        and not isinstance(order_id, bool)
        and isinstance(amount, int)
        and not isinstance(amount, bool)
        and isinstance(currency, str)
        and 0 < order_id <= MAX_ID
        and 0 <= amount <= MAX_ID
        and len(source_id) <= MAX_TOKEN_CHARS
        and len(order_number) <= MAX_TOKEN_CHARS
        and len(currency) <= MAX_CURRENCY_CHARS
    ):
        return _error(BAD_REQUEST, 400)

    def run() -> JSONResponse:
        with session_scope() as session:
            order = session.exec(
                select(Order).where(Order.id == order_id, Order.order_number == order_number.strip().upper())
            ).first()
            if order is None:
                return _error(NOT_FOUND, 404)
            if amount != order.total_cents or currency.upper() != order.currency:
                return _error(AMOUNT_MISMATCH, 400)
        result = checkout.pay(order_id=order_id, source_id=source_id, gateway=square_gateway(get_settings()))
        if result.status == ChargeStatus.COMPLETED:
            with session_scope() as session:
                payment = session.exec(select(Payment).where(Payment.order_id == order_id)).first()
                return JSONResponse({"payment": {"id": payment.square_payment_id if payment else None}})
        if result.status == ChargeStatus.DECLINED:
            return _error(result.message or PaymentMessage.CARD_FAILED.value, 402)
        return _error(result.message or PaymentMessage.BEING_CONFIRMED.value, 202)

    try:
        return await run_in_threadpool(run)
    except checkout.CheckoutError as error:
        return _error(str(error), 400)
