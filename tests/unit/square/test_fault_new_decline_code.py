"""The simulator's ``decline_new_code`` fault: Square declines a card with a code it adds after this
release (not in its ``ErrorCode`` enum today), in Square's wire format; the shop's gateway takes it
as a decline and the shopper reads the fallback sentence."""

from __future__ import annotations

import warnings

import pytest

from shop_app.domain.messages import PaymentMessage
from shop_app.domain.payment_errors import decline_message, is_known_code
from shop_app.services.payments import ChargeRequest, ChargeStatus
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.square_simulator.app import FAULTS_PATH, create_simulator
from shop_app.square_simulator.nonces import NEW_DECLINE_CODE
from shop_app.square_simulator.state import SimulatorLedger

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = {"Authorization": "Bearer the-secret"}


def _payment(key: str, source_id: str = "cnon:card-nonce-ok") -> dict:
    return {
        "idempotency_key": key,
        "source_id": source_id,
        "amount_money": {"amount": 3200, "currency": "CAD"},
    }


def test_the_next_payment_is_declined_with_a_code_square_does_not_document_today() -> None:
    client = TestClient(create_simulator(access_token="the-secret"))
    fault = {"path": "/v2/payments", "kind": "decline_new_code"}
    assert client.post(FAULTS_PATH, json=fault, headers=TOKEN).status_code == 200

    listed = client.get("/v2/payments", headers=TOKEN)  # ListPayments, same path: not the fault's
    declined = client.post("/v2/payments", json=_payment("k-1"), headers=TOKEN)
    paid = client.post("/v2/payments", json=_payment("k-2", "cnon:card-nonce-ok:second"), headers=TOKEN)

    assert listed.status_code == 200
    assert declined.status_code == 400
    body = declined.json()
    assert body["errors"] == [
        {
            "category": "PAYMENT_METHOD_ERROR",
            "code": NEW_DECLINE_CODE,
            "detail": f"Authorization error: '{NEW_DECLINE_CODE}'",
        }
    ]
    assert body["payment"]["status"] == "FAILED"
    assert body["payment"]["card_details"]["errors"] == body["errors"]
    assert paid.status_code == 200 and paid.json()["payment"]["status"] == "COMPLETED"


def test_the_code_is_not_squares_today_and_the_shopper_reads_the_fallback() -> None:
    ledger = SimulatorLedger()
    gateway = SquareGateway(
        square_client_for_app(create_simulator(ledger)), location_id=ledger.location_id, timeout_s=10
    )
    ledger.fail_next("/v2/payments", "decline_new_code")

    outcome = gateway.charge(
        ChargeRequest(
            idempotency_key="k-new-code",
            source_id="cnon:card-nonce-ok",
            amount_cents=3200,
            currency="CAD",
            reference="CE-TEST",
        )
    )

    assert (outcome.status, outcome.error_code) == (ChargeStatus.DECLINED, NEW_DECLINE_CODE)
    assert not is_known_code(NEW_DECLINE_CODE)
    assert decline_message(outcome.error_code) == PaymentMessage.CARD_FAILED


def test_the_fault_is_for_create_payment_only() -> None:
    client = TestClient(create_simulator(access_token="the-secret"))
    for wrong in (
        {"path": "/v2/catalog/object", "kind": "decline_new_code"},
        {"path": "/v2/payments", "kind": "decline_new_code", "method": "GET"},
    ):
        answer = client.post(FAULTS_PATH, json=wrong, headers=TOKEN)
        assert answer.status_code == 400, wrong
    with pytest.raises(ValueError, match="POST /v2/payments only"):
        SimulatorLedger().fail_next("/v2/refunds", "decline_new_code")
