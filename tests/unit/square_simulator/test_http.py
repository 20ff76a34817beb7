"""The simulator's HTTP surface: authentication, unknown routes, injected faults, the ledger."""

from __future__ import annotations

import httpx
import pytest
from square import Square
from square.core.api_error import ApiError
from starlette.applications import Starlette

from shop_app.services.square.client import IN_PROCESS_BASE_URL, square_client_for_app
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from shop_app.square_simulator.transport import SimulatorTransport
from tests.unit.square.openapi import SpecChecker

BODY = {
    "source_id": "cnon:card-nonce-ok",
    "idempotency_key": "k-1",
    "amount_money": {"amount": 1500, "currency": "CAD"},
}


def charge(sdk: Square, key: str = "k-1", timeout: float = 5, retries: int = 0):
    return sdk.payments.create(
        source_id=f"cnon:card-nonce-ok:{key}",
        idempotency_key=key,
        amount_money={"amount": 1500, "currency": "CAD"},
        request_options={"max_retries": retries, "timeout_in_seconds": timeout},
    )


@pytest.mark.parametrize(
    "authorization", [None, "", "Bearer", "Bearer   ", "Basic dXNlcjpwYXNz", "Token abc"]
)
def test_a_bearer_token_is_required(
    app: Starlette, spec: SpecChecker, ledger: SimulatorLedger, authorization: str | None
) -> None:
    headers = {"Authorization": authorization} if authorization is not None else {}
    with httpx.Client(transport=SimulatorTransport(app), base_url=IN_PROCESS_BASE_URL) as client:
        response = client.post("/v2/payments", json=BODY, headers=headers)

    assert response.status_code == 401
    assert response.json()["errors"] == [
        {
            "category": "AUTHENTICATION_ERROR",
            "code": "UNAUTHORIZED",
            "detail": "This request could not be authorized.",
        }
    ]
    assert spec.response_errors(response) == []
    assert ledger.payments() == []
    assert ledger.requests() == []


def test_any_token_is_accepted_unless_one_is_configured(spec: SpecChecker) -> None:
    ledger = SimulatorLedger()
    app = create_simulator(ledger, access_token="secret")

    with pytest.raises(ApiError) as caught:
        charge(square_client_for_app(app, token="wrong", event_hooks=spec.hooks()))
    assert caught.value.status_code == 401
    assert (
        charge(square_client_for_app(app, token="secret", event_hooks=spec.hooks())).payment.status
        == "COMPLETED"
    )


def test_unknown_routes_and_methods_answer_in_squares_error_shape(app: Starlette) -> None:
    with httpx.Client(transport=SimulatorTransport(app), base_url=IN_PROCESS_BASE_URL) as plain:
        missing = plain.get("/v2/nothing-here", headers={"Authorization": "Bearer t"})
        wrong_method = plain.put("/v2/payments", headers={"Authorization": "Bearer t"})

    assert missing.status_code == 404
    assert missing.json()["errors"][0]["code"] == "NOT_FOUND"
    assert wrong_method.status_code == 405
    assert wrong_method.json()["errors"][0]["code"] == "METHOD_NOT_ALLOWED"


def test_http_500_fault_does_nothing_and_the_sdk_retries_it(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "http_500")
    with pytest.raises(ApiError) as caught:
        charge(sdk, "a")
    assert caught.value.status_code == 500
    assert ledger.payments() == []

    ledger.fail_next("/v2/payments", "http_500")
    assert charge(sdk, "b", retries=2).payment.status == "COMPLETED"  # the SDK's own retry
    assert len(ledger.payments()) == 1
    assert [r.idempotency_key for r in ledger.requests()] == ["a", "b", "b"]


def test_http_500_after_charge_keeps_the_charge(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "http_500_after_charge")

    with pytest.raises(ApiError):
        charge(sdk)
    assert charge(sdk).payment.id == ledger.payments()[0]["id"]
    assert len(ledger.payments()) == 1


def test_drop_connection_faults(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "drop_connection")
    with pytest.raises(httpx.RemoteProtocolError):
        charge(sdk, "a")
    assert ledger.payments() == []

    ledger.fail_next("/v2/payments", "drop_after_charge")
    with pytest.raises(httpx.RemoteProtocolError):
        charge(sdk, "b")
    assert len(ledger.payments()) == 1


def test_timeout_after_charge_records_the_charge_and_answers_late(
    sdk: Square, ledger: SimulatorLedger
) -> None:
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=5.0)
    with pytest.raises(httpx.ReadTimeout):  # the client gave up: it did not wait for the late answer
        charge(sdk, timeout=0.4)

    assert len(ledger.payments()) == 1
    assert charge(sdk).payment.id == ledger.payments()[0]["id"]  # the retry with the same key
    assert len(ledger.payments()) == 1


def test_timeout_before_charge_does_nothing(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "timeout", delay_s=1.5)

    with pytest.raises(httpx.ReadTimeout):
        charge(sdk, timeout=0.4)
    assert ledger.payments() == []


def test_timeout_after_charge_with_a_patient_client_answers_normally(
    sdk: Square, ledger: SimulatorLedger
) -> None:
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=0.1)

    assert charge(sdk, timeout=5).payment.status == "COMPLETED"


def test_faults_match_templates_methods_and_count_down(sdk: Square, ledger: SimulatorLedger) -> None:
    payment_id = charge(sdk).payment.id
    ledger.fail_next("/v2/payments/{payment_id}", "http_500", times=2, method="GET")

    for _ in range(2):
        with pytest.raises(ApiError):
            sdk.payments.get(payment_id, request_options={"max_retries": 0})
    assert sdk.payments.get(payment_id).payment.id == payment_id


def test_fault_arguments_are_checked(ledger: SimulatorLedger) -> None:
    with pytest.raises(ValueError, match="unknown fault kind"):
        ledger.fail_next("/v2/payments", "explode")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="times"):
        ledger.fail_next("/v2/payments", times=0)
    ledger.fail_next("/v2/payments")
    ledger.clear_faults()
    assert ledger.take_fault("POST", "/v2/payments", "/v2/payments") is None


def test_ledger_views_are_copies_and_reset_forgets(sdk: Square, ledger: SimulatorLedger) -> None:
    charge(sdk)
    ledger.payments()[0]["status"] = "CHANGED"

    assert ledger.payments()[0]["status"] == "COMPLETED"
    assert ledger.payment(ledger.payments()[0]["id"])["status"] == "COMPLETED"
    ledger.reset()
    assert (ledger.payments(), ledger.refunds(), ledger.catalog_objects(), ledger.requests()) == (
        [],
        [],
        [],
        [],
    )


def test_receipt_page_and_locations(sdk: Square, app: Starlette, raw: httpx.Client) -> None:
    payment = charge(sdk).payment
    with httpx.Client(transport=SimulatorTransport(app), base_url=IN_PROCESS_BASE_URL) as plain:
        page = plain.get(f"/receipt/preview/{payment.id}")
        missing = plain.get("/receipt/preview/nope")

    assert page.status_code == 200
    assert "15.00 CAD" in page.text
    assert "VISA •••• 1111" in page.text
    assert missing.status_code == 404
    locations = raw.get("/v2/locations").json()["locations"]
    assert [(loc["id"], loc["currency"]) for loc in locations] == [("LSIMULATOR0CA", "CAD")]
