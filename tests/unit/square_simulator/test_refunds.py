"""RefundPayment and GetPaymentRefund of the simulator, through the real SDK."""

from __future__ import annotations

import httpx
import pytest
from square import Square
from square.core.api_error import ApiError

from shop_app.square_simulator.state import SimulatorLedger


def _payment_id(
    sdk: Square, amount: int = 2000, source_id: str = "cnon:card-nonce-ok", **extra: object
) -> str:
    return sdk.payments.create(
        source_id=source_id,
        idempotency_key=f"pay-{source_id}-{amount}",
        amount_money={"amount": amount, "currency": "CAD"},
        **extra,
    ).payment.id


def _refund(sdk: Square, payment_id: str, amount: int, key: str, currency: str = "CAD"):
    return sdk.refunds.refund_payment(
        idempotency_key=key,
        payment_id=payment_id,
        amount_money={"amount": amount, "currency": currency},
        reason="Customer request",
    )


def _refused(sdk: Square, payment_id: str, amount: int, key: str = "r-x", currency: str = "CAD") -> ApiError:
    with pytest.raises(ApiError) as caught:
        _refund(sdk, payment_id, amount, key, currency)
    return caught.value


def test_full_refund(sdk: Square, ledger: SimulatorLedger) -> None:
    payment_id = _payment_id(sdk)

    refund = _refund(sdk, payment_id, 2000, "r-1").refund

    assert refund.status == "PENDING"
    assert refund.payment_id == payment_id
    assert refund.id.startswith(f"{payment_id}_")
    assert (refund.amount_money.amount, refund.amount_money.currency) == (2000, "CAD")
    assert refund.reason == "Customer request"
    assert sdk.refunds.get(refund.id).refund.status == "COMPLETED"
    payment = sdk.payments.get(payment_id).payment
    assert payment.refunded_money.amount == 2000
    assert payment.refund_ids == [refund.id]
    assert [r["id"] for r in ledger.refunds()] == [refund.id]


def test_partial_refunds_up_to_the_amount_paid(sdk: Square, ledger: SimulatorLedger) -> None:
    payment_id = _payment_id(sdk)
    _refund(sdk, payment_id, 500, "r-1")
    _refund(sdk, payment_id, 1000, "r-2")

    error = _refused(sdk, payment_id, 501, "r-3")

    assert error.status_code == 400
    assert [(e.code, e.field) for e in error.errors] == [("REFUND_AMOUNT_INVALID", "amount_money.amount")]
    _refund(sdk, payment_id, 500, "r-4")
    assert _refused(sdk, payment_id, 1, "r-5").errors[0].code == "REFUND_AMOUNT_INVALID"
    assert sum(r["amount_money"]["amount"] for r in ledger.refunds()) == 2000


def test_refund_more_than_paid_at_once(sdk: Square) -> None:
    assert _refused(sdk, _payment_id(sdk), 2001).errors[0].code == "REFUND_AMOUNT_INVALID"


def test_refund_replay_and_key_reuse(sdk: Square, ledger: SimulatorLedger) -> None:
    payment_id = _payment_id(sdk)
    first = _refund(sdk, payment_id, 700, "r-1").refund

    assert _refund(sdk, payment_id, 700, "r-1").refund.id == first.id
    assert _refused(sdk, payment_id, 800, "r-1").errors[0].code == "IDEMPOTENCY_KEY_REUSED"
    assert len(ledger.refunds()) == 1


def test_failed_payment_is_not_refundable(sdk: Square) -> None:
    with pytest.raises(ApiError) as caught:
        _payment_id(sdk, source_id="cnon:card-nonce-declined")
    failed_id = caught.value.body["payment"]["id"]

    assert _refused(sdk, failed_id, 100).errors[0].code == "PAYMENT_NOT_REFUNDABLE"


def test_approved_payment_needs_completion(sdk: Square) -> None:
    payment_id = _payment_id(sdk, autocomplete=False)

    assert _refused(sdk, payment_id, 100).errors[0].code == "REFUND_ERROR_PAYMENT_NEEDS_COMPLETION"


def test_unknown_payment_and_currency_mismatch(sdk: Square) -> None:
    missing = _refused(sdk, "nope", 100)
    assert (missing.status_code, missing.errors[0].code) == (404, "NOT_FOUND")

    assert _refused(sdk, _payment_id(sdk), 100, currency="USD").errors[0].code == "CURRENCY_MISMATCH"


def test_refund_amount_must_be_positive(sdk: Square) -> None:
    error = _refused(sdk, _payment_id(sdk), 0)

    assert [(e.code, e.field) for e in error.errors] == [("VALUE_TOO_LOW", "amount_money.amount")]


def test_refund_needs_a_payment_id(raw: httpx.Client) -> None:
    response = raw.post(
        "/v2/refunds", json={"idempotency_key": "r", "amount_money": {"amount": 1, "currency": "CAD"}}
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "payment_id"


def test_unknown_refund(sdk: Square) -> None:
    with pytest.raises(ApiError) as caught:
        sdk.refunds.get("nope")
    assert caught.value.status_code == 404
