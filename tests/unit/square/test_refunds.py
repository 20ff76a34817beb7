"""``SquareRefunds``: a refund through the SDK, refused or lost answers, never twice per key."""

from __future__ import annotations

import dataclasses

import pytest
from square import Square

from shop_app.services.square.refunds import RefundRequest, RefundStatus, SquareRefunds, square_refunds
from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.state import SimulatorLedger

PATH = "/v2/refunds"


def _paid(sdk: Square, amount: int = 2500) -> str:
    return sdk.payments.create(
        source_id="cnon:card-nonce-ok",
        idempotency_key=f"pay-{amount}",
        amount_money={"amount": amount, "currency": "CAD"},
        autocomplete=True,
    ).payment.id


def _request(payment_id: str, amount: int = 2500) -> RefundRequest:
    return RefundRequest(
        idempotency_key="refund-key-1",
        payment_id=payment_id,
        amount_cents=amount,
        currency="cad",
        reason="Order 1",
    )


@pytest.fixture
def refunds(sdk: Square) -> SquareRefunds:
    return SquareRefunds(sdk, backoff_s=0)


def test_a_full_refund(sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger) -> None:
    payment_id = _paid(sdk)

    outcome = refunds.refund(_request(payment_id))

    assert (outcome.status, outcome.square_status) == (RefundStatus.DONE, "PENDING")  # Square's first answer
    (refund,) = ledger.refunds()
    assert (refund["id"], refund["amount_money"], refund["reason"]) == (
        outcome.refund_id,
        {"amount": 2500, "currency": "CAD"},
        "Order 1",
    )
    assert ledger.payment(payment_id)["refunded_money"]["amount"] == 2500


def test_partial_refunds_of_one_payment_each_of_exactly_its_amount(
    sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger
) -> None:
    payment_id = _paid(sdk)

    first = refunds.refund(dataclasses.replace(_request(payment_id, 1000), idempotency_key="part-1"))
    second = refunds.refund(dataclasses.replace(_request(payment_id, 1500), idempotency_key="part-2"))
    more = refunds.refund(dataclasses.replace(_request(payment_id, 1), idempotency_key="part-3"))

    assert (first.status, second.status, more.status) == (
        RefundStatus.DONE,
        RefundStatus.DONE,
        RefundStatus.REFUSED,
    )
    assert [r["amount_money"]["amount"] for r in ledger.refunds()] == [1000, 1500]
    assert more.error_code == "REFUND_AMOUNT_INVALID"


def test_repeating_a_refund_returns_the_first_one(
    sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger
) -> None:
    request = _request(_paid(sdk))

    first, second = refunds.refund(request), refunds.refund(request)

    assert first == second and len(ledger.refunds()) == 1


def test_the_same_key_with_another_body_is_unknown_not_refused(
    sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger
) -> None:
    request = _request(_paid(sdk))
    refunds.refund(request)

    outcome = refunds.refund(dataclasses.replace(request, amount_cents=100))

    assert (outcome.status, outcome.error_code) == (RefundStatus.UNKNOWN, "IDEMPOTENCY_KEY_REUSED")
    assert len(ledger.refunds()) == 1


def test_a_refusal_carries_squares_detail(sdk: Square, refunds: SquareRefunds) -> None:
    outcome = refunds.refund(_request(_paid(sdk), amount=9999))

    assert (outcome.status, outcome.error_code) == (RefundStatus.REFUSED, "REFUND_AMOUNT_INVALID")
    assert outcome.message == "The requested refund amount exceeds the amount available to refund."


@pytest.mark.parametrize(("kind", "refunded"), [("http_500_after_charge", 1), ("drop_connection", 0)])
def test_no_answer_is_unknown_after_the_same_request_was_retried(
    sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger, kind: str, refunded: int
) -> None:
    payment_id = _paid(sdk)
    ledger.fail_next(PATH, kind, times=3)  # type: ignore[arg-type]

    outcome = refunds.refund(_request(payment_id))

    assert (outcome.status, outcome.error_code) == (RefundStatus.UNKNOWN, "NO_ANSWER")
    assert len(ledger.refunds()) == refunded
    assert {r.idempotency_key for r in ledger.requests() if r.path == PATH} == {"refund-key-1"}


def test_one_lost_answer_then_the_refund(
    sdk: Square, refunds: SquareRefunds, ledger: SimulatorLedger
) -> None:
    payment_id = _paid(sdk)
    ledger.fail_next(PATH, "http_500_after_charge")

    assert refunds.refund(_request(payment_id)).status == RefundStatus.DONE
    assert len(ledger.refunds()) == 1


def test_bad_requests_never_reach_square(refunds: SquareRefunds, ledger: SimulatorLedger) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        refunds.refund(_request("p", amount=0))
    with pytest.raises(TypeError):
        refunds.refund(_request("p", amount=1.5))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="45"):
        refunds.refund(dataclasses.replace(_request("p"), idempotency_key="k" * 46))
    assert ledger.requests() == []


def test_remote_settings_use_square_itself() -> None:
    settings = Settings(square_environment=SquareEnvironment.SANDBOX, square_access_token="EAAA-t")

    client = square_refunds(settings)._client

    assert client._client_wrapper.get_base_url() == "https://connect.squareupsandbox.com"
