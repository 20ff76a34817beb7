"""Refunds API of the simulator: RefundPayment (``POST /v2/refunds``) and GetPaymentRefund.

A refund needs a COMPLETED payment, the payment's currency and an amount of at least 1 that does
not exceed what is left to refund (total minus earlier refunds; REFUND_AMOUNT_INVALID
otherwise). The answer says PENDING, as Square's does; the ledger then records it COMPLETED at
once (a real refund completes asynchronously), so ``GET /v2/refunds/{id}`` shows COMPLETED.
Unlinked refunds are not supported. The answer is built as the SDK's ``PaymentRefund``.
"""

from __future__ import annotations

import copy

from square.types.card import Card
from square.types.destination_details import DestinationDetails
from square.types.destination_details_card_refund_details import DestinationDetailsCardRefundDetails
from square.types.money import Money
from square.types.payment_refund import PaymentRefund

from shop_app.square_simulator.http import (
    SimRequest,
    SimResponse,
    idempotency_key,
    invalid,
    money,
    not_found,
    ok,
    optional_bool,
    optional_str,
    require_str,
    run_idempotent,
    sdk_json,
)
from shop_app.square_simulator.state import new_id

REFUND_KEY_MAX = 45  # the reference says "max of 45 characters" (the schema has no maxLength)


def refund_payment(req: SimRequest) -> SimResponse:
    """POST /v2/refunds."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, REFUND_KEY_MAX)
    amount = money(body, "amount_money")
    if optional_bool(body, "unlinked"):
        raise invalid("BAD_REQUEST", "Unlinked refunds are not supported by the simulator.", "unlinked")
    payment_id = require_str(body, "payment_id")
    reason = optional_str(body, "reason", max_length=192)
    optional_str(body, "location_id", max_length=50)

    def refund() -> SimResponse:
        payment = ledger.state.payments.get(payment_id)
        if payment is None:
            raise not_found(f"Could not find payment with id: {payment_id}", "payment_id")
        if payment["status"] == "APPROVED":
            raise invalid(
                "REFUND_ERROR_PAYMENT_NEEDS_COMPLETION",
                "The payment must be completed before it can be refunded.",
                "payment_id",
            )
        if payment["status"] != "COMPLETED":
            raise invalid(
                "PAYMENT_NOT_REFUNDABLE", f"Payment {payment_id} is {payment['status']}.", "payment_id"
            )
        total = payment["total_money"]
        if amount["currency"] != total["currency"]:
            raise invalid(
                "CURRENCY_MISMATCH",
                f"The refund currency must be {total['currency']}, the payment's currency.",
                "amount_money.currency",
            )
        refunded = payment.get("refunded_money", {}).get("amount", 0)
        if amount["amount"] > total["amount"] - refunded:
            raise invalid(
                "REFUND_AMOUNT_INVALID",
                "The requested refund amount exceeds the amount available to refund.",
                "amount_money.amount",
            )
        now = ledger.timestamp()
        refund_id = f"{payment_id}_{new_id(40)}"
        answer = sdk_json(
            PaymentRefund(
                id=refund_id,
                status="PENDING",
                location_id=payment["location_id"],
                unlinked=False,
                destination_type="CARD",
                destination_details=DestinationDetails(
                    card_details=DestinationDetailsCardRefundDetails(
                        card=Card.model_validate(payment["card_details"]["card"]),
                        entry_method="KEYED",
                        auth_result_code=new_id(6).upper(),
                    )
                ),
                amount_money=Money.model_validate(amount),
                payment_id=payment_id,
                order_id=payment["order_id"],
                reason=reason or None,
                created_at=now,
                updated_at=now,
            )
        )
        ledger.state.refunds[refund_id] = {**copy.deepcopy(answer), "status": "COMPLETED"}
        payment["refunded_money"] = {"amount": refunded + amount["amount"], "currency": total["currency"]}
        payment["refund_ids"] = [*payment.get("refund_ids", []), refund_id]
        payment["updated_at"] = now
        payment["version_token"] = new_id()
        return ok({"refund": answer})

    return run_idempotent(ledger, "RefundPayment", key, body, refund)


def get_refund(req: SimRequest) -> SimResponse:
    """GET /v2/refunds/{refund_id}."""
    refund_id = req.path_params["refund_id"]
    with req.ledger.lock:
        refund = req.ledger.state.refunds.get(refund_id)
        if refund is None:
            raise not_found(f"Could not find refund with id: {refund_id}")
        return ok({"refund": copy.deepcopy(refund)})
