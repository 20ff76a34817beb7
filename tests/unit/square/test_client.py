"""Building SDK clients: one per Square mode, and in-process clients for the simulator."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from square import AsyncSquare, Square
from starlette.applications import Starlette

from shop_app.services.square.client import (
    DEFAULT_TIMEOUT_S,
    SquareConfigError,
    async_square_client_for_app,
    square_client,
    square_client_for_app,
)
from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.local_token import local_token
from shop_app.square_simulator.state import SimulatorLedger
from tests.unit.square.openapi import SpecChecker


def _wrapper(client: Square | AsyncSquare):
    return client._client_wrapper  # the SDK keeps base URL, headers and timeout here


def test_local_mode_talks_http_to_the_mounted_simulator() -> None:
    settings = Settings(square_environment=SquareEnvironment.LOCAL, site_url="https://shop.example/")

    client = square_client(settings)

    assert _wrapper(client).get_base_url() == "https://shop.example/_square"
    assert _wrapper(client).get_headers()["Authorization"] == f"Bearer {local_token()}"
    assert len(local_token()) >= 43  # a secret of the installation, not a constant of the code
    assert _wrapper(client).get_timeout() == DEFAULT_TIMEOUT_S


@pytest.mark.parametrize(
    ("environment", "base_url"),
    [
        (SquareEnvironment.SANDBOX, "https://connect.squareupsandbox.com"),
        (SquareEnvironment.PRODUCTION, "https://connect.squareup.com"),
    ],
)
def test_sandbox_and_production_use_the_configured_token(
    monkeypatch: pytest.MonkeyPatch, environment: SquareEnvironment, base_url: str
) -> None:
    monkeypatch.setenv("SQUARE_TOKEN", "from-the-environment")  # the SDK's own default, never used
    settings = Settings(square_environment=environment, square_access_token="EAAA-configured")

    client = square_client(settings, timeout_s=7)

    assert _wrapper(client).get_base_url() == base_url
    assert _wrapper(client).get_headers()["Authorization"] == "Bearer EAAA-configured"
    assert _wrapper(client).get_timeout() == 7


@pytest.mark.parametrize("environment", [SquareEnvironment.SANDBOX, SquareEnvironment.PRODUCTION])
@pytest.mark.parametrize("token", ["", "   "])
def test_no_client_without_a_token(environment: SquareEnvironment, token: str) -> None:
    with pytest.raises(SquareConfigError, match="SQUARE_ACCESS_TOKEN"):
        square_client(Settings(square_environment=environment, square_access_token=token))


def test_a_blocking_call_from_inside_an_event_loop_does_not_deadlock(
    app: Starlette, spec: SpecChecker
) -> None:
    client = square_client_for_app(app, timeout_s=5, event_hooks=spec.hooks())

    async def handler() -> str:  # as a Reflex event handler would, without a worker thread
        payment = client.payments.create(
            source_id="cnon:card-nonce-ok",
            idempotency_key="k",
            amount_money={"amount": 100, "currency": "CAD"},
        ).payment
        return payment.status

    assert asyncio.run(asyncio.wait_for(handler(), timeout=10)) == "COMPLETED"


async def test_async_client_in_process(app: Starlette, spec: SpecChecker, ledger: SimulatorLedger) -> None:
    client = async_square_client_for_app(app, timeout_s=5, event_hooks=spec.async_hooks())

    response = await client.payments.create(
        source_id="cnon:card-nonce-ok", idempotency_key="k", amount_money={"amount": 100, "currency": "CAD"}
    )

    assert response.payment.status == "COMPLETED"
    assert len(ledger.payments()) == 1


async def test_async_client_sees_timeouts_and_dropped_connections(
    app: Starlette, ledger: SimulatorLedger
) -> None:
    client = async_square_client_for_app(app, timeout_s=5)
    arguments = {"amount_money": {"amount": 100, "currency": "CAD"}, "request_options": {"max_retries": 0}}
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=1.5)

    with pytest.raises(httpx.ReadTimeout):
        await client.payments.create(
            source_id="cnon:card-nonce-ok:1",
            idempotency_key="a",
            amount_money={"amount": 100, "currency": "CAD"},
            request_options={"max_retries": 0, "timeout_in_seconds": 0.4},
        )
    ledger.fail_next("/v2/payments", "drop_connection")
    with pytest.raises(httpx.RemoteProtocolError):
        await client.payments.create(source_id="cnon:card-nonce-ok:2", idempotency_key="b", **arguments)
    assert len(ledger.payments()) == 1
