"""The Square simulator over real HTTP: the shop's API app (local mode) served by uvicorn on a
free loopback port, driven by the real ``squareup`` SDK with ``Square(token=…, base_url=…)``.

Every request the SDK sends and every answer is checked against Square's OpenAPI subset
(tests/support/square_openapi/square-openapi-subset.json). Faults are exercised on a real socket: a dropped
connection is ``httpx.RemoteProtocolError``, a late answer ``httpx.ReadTimeout``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from square import Square
from square.core.api_error import ApiError

from shop_app.api import create_api
from shop_app.services.payments import ChargeRequest, ChargeStatus
from shop_app.services.square.client import square_client
from shop_app.services.square.gateway import SquareGateway
from shop_app.settings import get_settings
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.square_simulator.local_token import local_token
from shop_app.square_simulator.state import SimulatorLedger
from tests.unit.square.builders import run_every_operation
from tests.unit.square.openapi import SpecChecker

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")
PREFIX = "/_square"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The shop's API app in local mode, served over HTTP on 127.0.0.1; yields its origin."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    origin = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SQUARE_ENVIRONMENT", "local")
        patch.setenv("SITE_URL", origin)
        patch.setenv("MEDIA_DIR", str(tmp_path_factory.mktemp("media")))
        get_settings.cache_clear()
        shared_simulator.cache_clear()
        config = uvicorn.Config(
            create_api(), log_level="warning", lifespan="off", timeout_graceful_shutdown=3
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        try:
            yield origin
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            sock.close()
            get_settings.cache_clear()
            shared_simulator.cache_clear()


@pytest.fixture
def ledger(site: str) -> SimulatorLedger:
    """The served simulator's ledger, emptied for each test."""
    ledger = simulator_ledger(shared_simulator())
    ledger.reset()
    return ledger


@pytest.fixture(scope="module")
def spec() -> SpecChecker:
    return SpecChecker()


@pytest.fixture
def sdk(site: str, spec: SpecChecker) -> Iterator[Square]:
    """The real SDK over HTTP, every exchange checked against the subset."""
    http = httpx.Client(timeout=5, event_hooks=spec.hooks(prefix=PREFIX))
    yield Square(token=local_token(), base_url=f"{site}{PREFIX}", httpx_client=http)  # the shop's secret
    http.close()


def _pay(sdk: Square, source_id: str = "cnon:card-nonce-ok", key: str = "k-1", timeout: float = 5):
    return sdk.payments.create(
        source_id=source_id,
        idempotency_key=key,
        amount_money={"amount": 1500, "currency": "CAD"},
        request_options={"max_retries": 0, "timeout_in_seconds": timeout},
    )


def test_every_operation_of_the_subset_over_http(
    sdk: Square, spec: SpecChecker, ledger: SimulatorLedger
) -> None:
    spec.seen.clear()

    run_every_operation(sdk)

    assert spec.subset_operations() <= spec.seen
    assert len(ledger.payments()) == 1
    assert len(ledger.refunds()) == 1


def test_the_shops_own_client_builder_reaches_it(site: str, ledger: SimulatorLedger) -> None:
    client = square_client(get_settings(), timeout_s=5)

    payment = _pay(client).payment

    assert payment.status == "COMPLETED"
    assert payment.receipt_url == f"{site}{PREFIX}/receipt/preview/{payment.id}"
    assert httpx.get(payment.receipt_url).status_code == 200
    assert [p["id"] for p in ledger.payments()] == [payment.id]


def test_declines_idempotency_and_spent_tokens_over_http(sdk: Square, ledger: SimulatorLedger) -> None:
    with pytest.raises(ApiError) as caught:
        _pay(sdk, "cnon:card-nonce-rejected-cvv", key="d-1")
    assert (caught.value.status_code, caught.value.errors[0].code) == (400, "CVV_FAILURE")
    assert caught.value.body["payment"]["status"] == "FAILED"

    first = _pay(sdk, "cnon:card-nonce-ok:http", key="k-1").payment
    assert _pay(sdk, "cnon:card-nonce-ok:http", key="k-1").payment.id == first.id
    with pytest.raises(ApiError) as caught:
        _pay(sdk, "cnon:card-nonce-ok:http", key="k-2")
    assert caught.value.errors[0].code == "CARD_TOKEN_USED"
    assert len(ledger.payments()) == 2


def test_no_token_is_401_over_http(site: str, ledger: SimulatorLedger, spec: SpecChecker) -> None:
    response = httpx.post(
        f"{site}{PREFIX}/v2/payments",
        json={
            "source_id": "cnon:card-nonce-ok",
            "idempotency_key": "k",
            "amount_money": {"amount": 1, "currency": "CAD"},
        },
    )

    assert response.status_code == 401
    assert spec.response_errors(response, prefix=PREFIX) == []
    assert ledger.payments() == []


def test_a_dropped_connection_is_a_protocol_error(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "drop_after_charge")

    with pytest.raises(httpx.RemoteProtocolError):
        _pay(sdk)
    assert len(ledger.payments()) == 1


def test_a_late_answer_is_a_read_timeout(sdk: Square, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=1.5)

    with pytest.raises(httpx.ReadTimeout):
        _pay(sdk, timeout=0.4)
    assert len(ledger.payments()) == 1


def test_gateway_over_http_charges_once_after_a_timeout(sdk: Square, ledger: SimulatorLedger) -> None:
    gateway = SquareGateway(sdk, location_id=ledger.location_id, timeout_s=0.5, retries=2, backoff_s=0)
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=1.5)

    outcome = gateway.charge(
        ChargeRequest(
            idempotency_key="order-77",
            source_id="cnon:card-nonce-ok",
            amount_cents=4250,
            currency="CAD",
            reference="CE-77",
        )
    )

    assert outcome.status == ChargeStatus.COMPLETED
    assert [p["id"] for p in ledger.payments()] == [outcome.payment_id]
    assert gateway.find("order-77", reference="CE-77") == outcome
