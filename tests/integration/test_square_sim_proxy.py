"""Several workers share one Square simulator (``SQUARE_SIMULATOR_URL``): the payment gateway and
the catalogue talk to it over HTTP, and ``/_square`` on the shop forwards to it (receipt pages and
image files open from any worker, scripts see the one ledger)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from shop_app.services.payments import ChargeRequest, ChargeStatus
from shop_app.services.square.catalog_sync import square_catalog
from shop_app.services.square.gateway import square_gateway
from shop_app.settings import Settings, SquareEnvironment
from tests.support.servers import SquareServer

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")
SITE = "https://candles.example"
TOKEN = {"Authorization": "Bearer local"}
PAYMENT = {
    "source_id": "cnon:card-nonce-ok",
    "idempotency_key": "proxy-1",
    "amount_money": {"amount": 2500, "currency": "CAD"},
    "reference_id": "CE-PROXY-1",
}


@pytest.fixture
def simulator() -> Iterator[SquareServer]:
    """A simulator served over HTTP, as ``serve`` starts one for the workers."""
    server = SquareServer(public_url=f"{SITE}/_square")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def api(app_env: Callable[..., None], simulator: SquareServer) -> TestClient:
    """The shop's API in local mode, pointed at the shared simulator."""
    app_env(SITE_URL=SITE, SQUARE_ENVIRONMENT="local", SQUARE_SIMULATOR_URL=simulator.url)
    return TestClient(create_api(), base_url=SITE)


def test_square_on_the_shop_forwards_to_the_shared_simulator(
    api: TestClient, simulator: SquareServer
) -> None:
    paid = api.post("/_square/v2/payments", json=PAYMENT, headers=TOKEN)

    assert paid.status_code == 200
    payment = paid.json()["payment"]
    assert [p["id"] for p in simulator.ledger.payments()] == [payment["id"]]
    receipt = api.get(f"/_square/receipt/preview/{payment['id']}")
    assert receipt.status_code == 200 and "Receipt" in receipt.text
    listed = api.get("/_square/v2/payments", params={"limit": 1}, headers=TOKEN).json()["payments"]
    assert [p["id"] for p in listed] == [payment["id"]]
    assert api.post("/_square/v2/payments", json=PAYMENT).status_code == 401  # the simulator's own answer


def test_an_unreachable_simulator_is_a_clear_502(api: TestClient, simulator: SquareServer) -> None:
    simulator.stop()

    answer = api.post("/_square/v2/payments", json=PAYMENT, headers=TOKEN)

    assert answer.status_code == 502
    assert answer.json()["errors"][0]["code"] == "SERVICE_UNAVAILABLE"


def test_the_gateway_and_the_catalogue_use_the_shared_simulator(simulator: SquareServer) -> None:
    settings = Settings(square_environment=SquareEnvironment.LOCAL, square_simulator_url=simulator.url)
    request = ChargeRequest(
        idempotency_key="gw-1",
        source_id="cnon:card-nonce-ok",
        amount_cents=1200,
        currency="CAD",
        reference="CE-GW-1",
    )

    outcome = square_gateway(settings, timeout_s=5).charge(request)
    created = square_catalog(settings).create_item(
        name="Shared", description="", sku=None, price_cents=100, stock_quantity=1, idempotency_key="cat-1"
    )

    assert outcome.status == ChargeStatus.COMPLETED
    assert [p["id"] for p in simulator.ledger.payments()] == [outcome.payment_id]
    assert created.item_id in {o["id"] for o in simulator.ledger.catalog_objects()}
