"""The seed's /api/square/* catalogue routes on create_api(): admin only (401/403, same origin for
writes), clear 400s, and the work done on the simulator through the SDK (checked against Square's
OpenAPI subset) and the real database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select
from starlette.testclient import TestClient

from shop_app.api import create_api
from shop_app.api import square_catalog as routes
from shop_app.models import AdminRole, Product, User
from shop_app.services import sessions
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import checked_catalog

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")
SITE = "https://shop.example"


@pytest.fixture
def ledger(monkeypatch: pytest.MonkeyPatch) -> SimulatorLedger:
    """The routes' Square: a fresh simulator, every exchange checked against the subset."""
    ledger = SimulatorLedger()
    monkeypatch.setattr(routes, "square_catalog", lambda settings: checked_catalog(ledger))
    monkeypatch.setattr("square.core.http_client._retry_timeout", lambda response, retries: 0.0)
    return ledger


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    app_env(SITE_URL=SITE, SQUARE_ENVIRONMENT="local")
    with TestClient(create_api(), base_url=SITE) as test_client:
        yield test_client


@pytest.fixture
def cookies(client: TestClient, engine: Engine, session: Session) -> dict[str, str]:
    """Session cookie secrets of an admin and of a customer."""
    secrets: dict[str, str] = {}
    for who in ("admin", "customer"):
        user = User(email=f"{who}@example.com", password_hash="x", first_name=who, last_name="T")
        session.add(user)
        session.flush()
        if who == "admin":
            session.add(AdminRole(user_id=user.id))
        ticket = sessions.start(session, user=user, remember_me=False, browser_binding="b").ticket
        secret, _ = sessions.exchange_ticket(session, ticket, browser_binding="b") or ("", None)
        secrets[who] = secret
    session.commit()
    return secrets


def call(
    client: TestClient, method: str, url: str, *, secret: str | None, origin: str | None = SITE, **kwargs: Any
) -> httpx.Response:
    client.cookies.clear()
    if secret:
        client.cookies.set(sessions.COOKIE_NAME, secret)
    headers = {"Origin": origin} if origin else {}
    return client.request(method, url, headers=headers, **kwargs)


def seed_body(**overrides: Any) -> dict[str, Any]:
    variation = {
        "name": "Regular",
        "sku": "AJ-FIG",
        "pricing_type": "FIXED_PRICING",
        "price_money": {"amount": 2450, "currency": "CAD"},
    }
    body: dict[str, Any] = {
        "object": {
            "type": "ITEM",
            "id": "#new",
            "item_data": {
                "name": "Amber Jar - Fig",
                "description": "Soy candle",
                "image_ids": [],
                "variations": [variation],
            },
        },
        "idempotency_key": "api-create-1",
        "stock_quantity": 6,
    }
    body.update(overrides)
    return body


ROUTES = [
    ("POST", "/api/square/catalog", {"json": seed_body()}),
    ("DELETE", "/api/square/catalog?id=X", {}),
    ("POST", "/api/square/inventory/X", {"json": {"quantity": 1}}),
    ("POST", "/api/square/sync", {}),
    ("GET", "/api/square/sync", {}),
    ("POST", "/api/square/inventory-sync", {}),
]


@pytest.mark.parametrize(("method", "url", "kwargs"), ROUTES)
def test_anonymous_is_401_and_customers_403(
    *,
    client: TestClient,
    cookies: dict[str, str],
    ledger: SimulatorLedger,
    method: str,
    url: str,
    kwargs: dict[str, Any],
) -> None:
    anonymous = call(client, method, url, secret=None, **kwargs)
    stale = call(client, method, url, secret="not-a-session", **kwargs)
    customer = call(client, method, url, secret=cookies["customer"], **kwargs)

    assert anonymous.status_code == stale.status_code == 401
    assert anonymous.json() == {"success": False, "error": "Sign in as an administrator to do this"}
    assert customer.status_code == 403
    assert customer.json() == {"success": False, "error": "Access denied"}
    assert anonymous.headers["cache-control"] == "no-store"
    assert ledger.requests() == []


@pytest.mark.parametrize(("method", "url", "kwargs"), [r for r in ROUTES if r[0] != "GET"])
@pytest.mark.parametrize("origin", [None, "https://evil.example", "http://shop.example"])
def test_admin_writes_from_another_origin_are_refused(
    *,
    client: TestClient,
    cookies: dict[str, str],
    ledger: SimulatorLedger,
    method: str,
    url: str,
    kwargs: dict[str, Any],
    origin: str | None,
) -> None:
    response = call(client, method, url, secret=cookies["admin"], origin=origin, **kwargs)

    assert response.status_code == 403
    assert response.json() == {"success": False, "error": "Cross-site request refused"}
    assert ledger.requests() == []


def test_create_answers_the_seeds_shape_and_the_item_is_on_square(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger
) -> None:
    response = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=seed_body())

    assert response.status_code == 200
    body = response.json()
    item_id = body["catalog_object"]["id"]
    variation_id = body["catalog_object"]["item_data"]["variations"][0]["id"]
    assert body == {
        "success": True,
        "catalog_object": {"id": item_id, "item_data": {"variations": [{"id": variation_id}]}},
        "inventory_set": True,
        "inventory_error": None,
    }
    stored = {o["id"]: o for o in ledger.catalog_objects()}
    assert stored[item_id]["item_data"]["name"] == "Amber Jar - Fig"
    assert stored[variation_id]["item_variation_data"]["price_money"] == {"amount": 2450, "currency": "CAD"}
    assert stored[variation_id]["item_variation_data"]["sku"] == "AJ-FIG"
    (count,) = ledger.inventory_counts()
    assert (count["catalog_object_id"], count["quantity"]) == (variation_id, "6")


def _item(**changes: Any) -> dict[str, Any]:
    body = seed_body()
    body["object"]["item_data"].update(changes)
    return body


def _variation(**changes: Any) -> dict[str, Any]:
    body = seed_body()
    body["object"]["item_data"]["variations"][0].update(changes)
    return body


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (seed_body(object={"type": "CATEGORY"}), "object.type must be ITEM"),
        (
            seed_body(object={"type": "ITEM", "item_data": {"name": "x", "variations": []}}),
            "at least one variation",
        ),
        (_item(name=" "), "object.item_data.name is required"),
        (_item(description=7), "object.item_data.description must be text"),
        (
            _variation(price_money={"amount": 24.5, "currency": "CAD"}),
            "amount (cents) must be a whole number",
        ),
        (_variation(price_money={"amount": -1, "currency": "CAD"}), "amount (cents) must be a whole number"),
        (_variation(price_money={"amount": 100, "currency": "USD"}), "currency must be CAD"),
        (_variation(pricing_type="VARIABLE_PRICING"), "pricing_type must be FIXED_PRICING"),
        (seed_body(stock_quantity="6"), "stock_quantity must be a whole number"),
        (seed_body(idempotency_key="k" * 129), "idempotency_key must be text of at most 128"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_create_bodies_are_400_with_a_clear_message(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger, body: Any, message: str
) -> None:
    response = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=body)

    assert response.status_code == 400
    assert message in response.json()["error"]
    assert ledger.catalog_objects() == []


def test_invalid_json_and_huge_bodies_are_400(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger
) -> None:
    broken = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], content=b"{nope")
    huge = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], content=b" " * (65 * 1024))

    assert broken.status_code == huge.status_code == 400
    assert broken.json()["error"] == "The request body is not valid JSON"
    assert "larger than 64 KB" in huge.json()["error"]


def test_square_refusing_a_create_is_502_with_the_seeds_error_and_squares_details(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger
) -> None:
    call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=seed_body())
    other = _variation(sku="OTHER")

    response = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=other)

    assert response.status_code == 502
    assert response.json() == {
        "success": False,
        "error": "Failed to create product in Square Catalog",
        "details": "The idempotency key can only be retried with the same request data.",
    }


def test_delete_and_stock_routes(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger
) -> None:
    created = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=seed_body()).json()
    item_id = created["catalog_object"]["id"]
    variation_id = created["catalog_object"]["item_data"]["variations"][0]["id"]

    stock = call(
        client, "POST", f"/api/square/inventory/{variation_id}", secret=cookies["admin"], json={"quantity": 2}
    )
    bad_stock = call(
        client,
        "POST",
        f"/api/square/inventory/{variation_id}",
        secret=cookies["admin"],
        json={"quantity": -2},
    )
    unknown = call(
        client, "POST", "/api/square/inventory/NOPE", secret=cookies["admin"], json={"quantity": 2}
    )
    deleted = call(client, "DELETE", f"/api/square/catalog?id={item_id}", secret=cookies["admin"])
    no_id = call(client, "DELETE", "/api/square/catalog", secret=cookies["admin"])

    assert stock.json() == {"success": True}
    assert bad_stock.status_code == 400 and "quantity must be a whole number" in bad_stock.json()["error"]
    assert unknown.status_code == 502 and unknown.json()["error"] == "Item variation NOPE not found."
    assert deleted.json() == {"success": True}
    assert no_id.status_code == 400 and no_id.json()["error"] == "id is required (the Square item id)"
    assert ledger.catalog_objects() == []
    assert [c["quantity"] for c in ledger.inventory_counts()] == ["2"]


def test_sync_routes(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger, session: Session
) -> None:
    created = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=seed_body()).json()
    item_id = created["catalog_object"]["id"]
    variation_id = created["catalog_object"]["item_data"]["variations"][0]["id"]

    listed = call(client, "GET", "/api/square/sync", secret=cookies["admin"], origin=None)
    synced = call(client, "POST", "/api/square/sync", secret=cookies["admin"])
    product = session.exec(select(Product)).one()
    product.stock_quantity = 11
    session.add(product)
    session.commit()
    pushed = call(client, "POST", "/api/square/inventory-sync", secret=cookies["admin"])

    assert listed.json() == {
        "success": True,
        "products": [
            {
                "item_id": item_id,
                "variation_id": variation_id,
                "name": "Amber Jar - Fig",
                "description": "Soy candle",
                "sku": "AJ-FIG",
                "price_cents": 2450,
                "archived": False,
            }
        ],
        "count": 1,
    }
    assert synced.json() == {
        "success": True,
        "synced": 1,
        "kept": [],
        "message": "Successfully synced 1 products from Square!",
    }
    assert (product.square_item_id, product.is_active) == (item_id, False)
    assert pushed.json() == {
        "success": True,
        "updated": 1,
        "total": 1,
        "message": "Updated stock of 1 of 1 products in Square",
        "refused": [],
    }
    assert [c["quantity"] for c in ledger.inventory_counts()] == ["11"]


def test_sync_failures_say_why(client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/catalog/list", kind="http_500", times=6)

    synced = call(client, "POST", "/api/square/sync", secret=cookies["admin"])
    listed = call(client, "GET", "/api/square/sync", secret=cookies["admin"])

    assert synced.status_code == listed.status_code == 502
    assert synced.json() == {
        "success": False,
        "error": "Sync failed",
        "details": "An injected fault (simulator).",
        "message": "Sync failed: An injected fault (simulator).",
    }
    assert listed.json() == {
        "success": False,
        "error": "Failed to fetch products",
        "details": "An injected fault (simulator).",
    }


def test_an_inventory_sync_square_takes_none_of_is_502_and_a_partial_one_lists_the_refusals(
    client: TestClient, cookies: dict[str, str], ledger: SimulatorLedger, session: Session
) -> None:
    created = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=seed_body()).json()
    variation_id = created["catalog_object"]["item_data"]["variations"][0]["id"]
    linked = Product(name="Linked", stock_quantity=3, square_item_id="I1", square_variation_id=variation_id)
    gone = Product(name="Gone", stock_quantity=2, square_item_id="I2", square_variation_id="DELETEDVAR")
    session.add_all([linked, gone])
    session.commit()

    partial = call(client, "POST", "/api/square/inventory-sync", secret=cookies["admin"])
    ledger.fail_next("/v2/inventory/changes/batch-create", kind="http_500", times=6)
    down = call(client, "POST", "/api/square/inventory-sync", secret=cookies["admin"])

    assert partial.status_code == 200
    assert partial.json() == {
        "success": True,
        "updated": 1,
        "total": 2,
        "message": "Updated stock of 1 of 2 products in Square",
        "refused": [{"product_id": gone.id, "error": "Item variation DELETEDVAR not found."}],
    }
    assert down.status_code == 502
    assert down.json() == {
        "success": False,
        "error": "Inventory sync failed",
        "details": "An injected fault (simulator).",
    }


def test_local_mode_uses_the_shops_own_simulator(client: TestClient, cookies: dict[str, str]) -> None:
    shared = simulator_ledger(shared_simulator())
    body = seed_body(idempotency_key="api-local-mode-test")

    response = call(client, "POST", "/api/square/catalog", secret=cookies["admin"], json=body)

    item_id = response.json()["catalog_object"]["id"]
    assert item_id in {o["id"] for o in shared.catalog_objects()}
    assert call(client, "DELETE", f"/api/square/catalog?id={item_id}", secret=cookies["admin"]).json() == {
        "success": True
    }
