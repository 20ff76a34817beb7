"""SquareGateway on the simulator: outcomes, retries with the same key, reconciliation by lookup."""

from __future__ import annotations

import dataclasses
import logging

import pytest
from square import Square
from starlette.applications import Starlette

from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus, PaymentGateway
from shop_app.services.square import gateway as gateway_module
from shop_app.services.square.client import SquareConfigError, square_client_for_app
from shop_app.services.square.gateway import SquareGateway, square_gateway
from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.app import create_simulator, shared_simulator, simulator_ledger
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.unit.square.openapi import SpecChecker

PATH = "/v2/payments"


def order(
    source_id: str = "cnon:card-nonce-ok", key: str = "order-key-1", reference: str = "CE-1001"
) -> ChargeRequest:
    return ChargeRequest(
        idempotency_key=key,
        source_id=source_id,
        amount_cents=4250,
        currency="cad",
        reference=reference,
        buyer_email="ada@example.com",
        note="Web order CE-1001",
    )


@pytest.fixture
def gateway(sdk: Square) -> SquareGateway:
    """A gateway with a short timeout, two retries and no waiting between them."""
    return SquareGateway(sdk, location_id=DEFAULT_LOCATION_ID, timeout_s=0.5, retries=2, backoff_s=0)


def charges(ledger: SimulatorLedger) -> list[dict]:
    return [p for p in ledger.payments() if p["status"] == "COMPLETED"]


def test_the_gateway_is_a_payment_gateway(gateway: SquareGateway) -> None:
    assert isinstance(gateway, SquareGateway)
    typed: PaymentGateway = gateway
    assert callable(typed.charge)


def test_completed_charge(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    outcome = gateway.charge(order())

    (payment,) = ledger.payments()
    assert outcome == ChargeOutcome(
        ChargeStatus.COMPLETED,
        payment_id=payment["id"],
        provider_order_id=payment["order_id"],
        card_brand="VISA",
        card_last4="1111",
        receipt_url=payment["receipt_url"],
    )
    assert payment["amount_money"] == {"amount": 4250, "currency": "CAD"}
    assert payment["reference_id"] == "CE-1001"
    assert payment["buyer_email_address"] == "ada@example.com"
    assert payment["note"] == "Web order CE-1001"
    assert payment["location_id"] == DEFAULT_LOCATION_ID


@pytest.mark.parametrize(
    ("source_id", "code"),
    [
        ("cnon:card-nonce-declined", "GENERIC_DECLINE"),
        ("cnon:card-nonce-rejected-cvv", "CVV_FAILURE"),
        ("cnon:card-nonce-rejected-postalcode", "ADDRESS_VERIFICATION_FAILURE"),
        ("cnon:card-nonce-rejected-expiration", "INVALID_EXPIRATION"),
    ],
)
def test_declined_with_the_providers_code_and_text_for_the_log(
    *,
    gateway: SquareGateway,
    ledger: SimulatorLedger,
    source_id: str,
    code: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="shop_app.services.square.gateway"):
        outcome = gateway.charge(order(source_id))

    assert outcome.status == ChargeStatus.DECLINED
    assert outcome.error_code == code
    assert outcome.message == f"Authorization error: '{code}'"  # Square's text, never shown to the shopper
    assert code in caplog.text and "CE-1001" in caplog.text
    assert outcome.payment_id == ledger.payments()[0]["id"]
    assert (outcome.card_brand, outcome.card_last4) == ("VISA", "1111")
    assert charges(ledger) == []


def test_a_spent_token_is_declined_with_its_code(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    outcome = gateway.charge(order("cnon:card-nonce-already-used"))

    assert (outcome.status, outcome.error_code) == (ChargeStatus.DECLINED, "CARD_TOKEN_USED")
    assert outcome.payment_id is None
    assert ledger.payments() == []


def test_a_refused_token_is_declined_not_unknown(spec: SpecChecker) -> None:
    app = create_simulator(SimulatorLedger(), access_token="right")
    client = square_client_for_app(app, token="wrong", event_hooks=spec.hooks())
    gateway = SquareGateway(client, location_id=DEFAULT_LOCATION_ID, retries=2, backoff_s=0)

    outcome = gateway.charge(order())

    assert (outcome.status, outcome.error_code) == (ChargeStatus.DECLINED, "UNAUTHORIZED")


def test_repeating_a_charge_returns_the_first_result(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    first = gateway.charge(order())

    assert gateway.charge(order()) == first
    assert len(ledger.payments()) == 1


def test_the_same_key_with_another_amount_is_unknown(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    gateway.charge(order())

    outcome = gateway.charge(dataclasses.replace(order(), amount_cents=999))

    assert (outcome.status, outcome.error_code) == (ChargeStatus.UNKNOWN, "IDEMPOTENCY_KEY_REUSED")
    assert len(ledger.payments()) == 1


def test_timeout_after_charge_is_retried_with_the_same_key_and_charges_once(
    gateway: SquareGateway, ledger: SimulatorLedger
) -> None:
    ledger.fail_next(PATH, "timeout_after_charge", delay_s=1.5)

    outcome = gateway.charge(order())

    assert outcome.status == ChargeStatus.COMPLETED
    assert [p["id"] for p in ledger.payments()] == [outcome.payment_id]
    assert [(r.method, r.path, r.idempotency_key) for r in ledger.requests()] == [
        ("POST", PATH, "order-key-1")
    ] * 2


@pytest.mark.parametrize(
    ("kind", "charged"),
    [
        ("timeout_after_charge", 1),
        ("drop_after_charge", 1),
        ("http_500_after_charge", 1),
        ("drop_connection", 0),
        ("timeout", 0),
        ("http_500", 0),
    ],
)
def test_no_answer_at_all_is_unknown_with_at_most_one_charge(
    gateway: SquareGateway, ledger: SimulatorLedger, kind: str, charged: int
) -> None:
    ledger.fail_next(PATH, kind, times=3, delay_s=1.0)  # type: ignore[arg-type]

    outcome = gateway.charge(order())

    assert (outcome.status, outcome.error_code) == (ChargeStatus.UNKNOWN, "NO_ANSWER")
    assert len(charges(ledger)) == charged
    assert len(ledger.requests()) == 3
    assert {r.idempotency_key for r in ledger.requests()} == {"order-key-1"}


@pytest.mark.parametrize("kind", ["drop_connection", "http_500", "drop_after_charge"])
def test_one_lost_answer_then_success(gateway: SquareGateway, ledger: SimulatorLedger, kind: str) -> None:
    ledger.fail_next(PATH, kind)  # type: ignore[arg-type]

    assert gateway.charge(order()).status == ChargeStatus.COMPLETED
    assert len(ledger.payments()) == 1


def test_retries_wait_with_backoff(sdk: Square, ledger: SimulatorLedger) -> None:
    waits: list[float] = []
    gateway = SquareGateway(
        sdk, location_id=DEFAULT_LOCATION_ID, retries=2, backoff_s=0.25, sleep=waits.append
    )
    ledger.fail_next(PATH, "http_500", times=2)

    assert gateway.charge(order()).status == ChargeStatus.COMPLETED
    assert waits == [0.25, 0.5]


def test_amounts_are_checked_before_calling_square(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        gateway.charge(dataclasses.replace(order(), amount_cents=0))
    with pytest.raises(TypeError):
        gateway.charge(dataclasses.replace(order(), amount_cents=42.5))  # type: ignore[arg-type]
    assert ledger.requests() == []


def test_find_after_a_lost_answer_reports_the_charge(sdk: Square, ledger: SimulatorLedger) -> None:
    impatient = SquareGateway(sdk, location_id=DEFAULT_LOCATION_ID, timeout_s=0.5, retries=0, backoff_s=0)
    ledger.fail_next(PATH, "timeout_after_charge", delay_s=1.5)
    assert impatient.charge(order()).status == ChargeStatus.UNKNOWN

    found = SquareGateway(sdk, location_id=DEFAULT_LOCATION_ID).find("order-key-1", reference="CE-1001")

    assert found is not None
    assert found.status == ChargeStatus.COMPLETED
    assert found.payment_id == ledger.payments()[0]["id"]
    assert found.receipt_url == ledger.payments()[0]["receipt_url"]


def test_find_returns_none_when_nothing_was_charged(gateway: SquareGateway) -> None:
    gateway.charge(order(reference="CE-1"))

    assert gateway.find("other-key", reference="CE-2") is None


def test_find_prefers_the_completed_payment(gateway: SquareGateway) -> None:
    gateway.charge(order("cnon:card-nonce-declined", key="k-1"))
    declined = gateway.find("k-1", reference="CE-1001")
    assert declined is not None
    assert (declined.status, declined.error_code) == (ChargeStatus.DECLINED, "GENERIC_DECLINE")

    completed = gateway.charge(order(key="k-2"))

    assert gateway.find("k-2", reference="CE-1001") == completed


def test_find_pages_through_the_payments(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    target = gateway.charge(order(key="first", reference="CE-FIRST"))
    for i in range(105):
        gateway.charge(order(f"cnon:card-nonce-ok:{i}", key=f"k{i}", reference=f"CE-{i}"))

    assert gateway.find("first", reference="CE-FIRST") == target
    assert [r.path for r in ledger.requests()].count("/v2/payments") == 106 + 2  # two pages of 100


def test_find_that_cannot_reach_square_is_unknown(gateway: SquareGateway, ledger: SimulatorLedger) -> None:
    ledger.fail_next(PATH, "drop_connection", times=3, method="GET")

    found = gateway.find("order-key-1", reference="CE-1001")

    assert found is not None
    assert (found.status, found.error_code) == (ChargeStatus.UNKNOWN, "LOOKUP_FAILED")


def test_local_settings_use_the_shared_simulator_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        gateway_module, "_shared_local_client", gateway_module._shared_local_client.__wrapped__
    )
    shared_simulator.cache_clear()
    try:
        gateway = square_gateway(Settings(square_environment=SquareEnvironment.LOCAL), timeout_s=5)
        app: Starlette = shared_simulator()
        outcome = gateway.charge(order())
        assert outcome.status == ChargeStatus.COMPLETED
        assert [p["id"] for p in simulator_ledger(app).payments()] == [outcome.payment_id]
    finally:
        shared_simulator.cache_clear()


def test_remote_settings_need_a_location() -> None:
    with pytest.raises(ValueError, match="SQUARE_LOCATION_ID"):
        square_gateway(Settings(square_environment=SquareEnvironment.SANDBOX, square_access_token="t"))


def test_remote_settings_build_one_client_per_configuration() -> None:
    settings = Settings(
        square_environment=SquareEnvironment.SANDBOX, square_access_token="EAAA-t", square_location_id="L1"
    )

    first, second = square_gateway(settings), square_gateway(settings)

    assert first._client is second._client  # one connection pool, not one per checkout
    assert first._client._client_wrapper.get_base_url() == "https://connect.squareupsandbox.com"
    with pytest.raises(SquareConfigError):
        square_gateway(settings.model_copy(update={"square_access_token": " "}))
