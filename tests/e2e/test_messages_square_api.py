"""The answers of the shop's admin JSON API for Square when Square fails (issue 15, acceptance 4).

The seed's ``/api/square/*`` routes are for the owner's scripts: a signed-in admin's browser asks
them, with the session cookie, while the running shop's Square (its local simulator) answers with
server errors through its fault switch (``POST /_simulator/faults``; the SDK's retries included).
Each route then answers 502 with its seed text in ``error`` and Square's reason in ``details``:
the read in the browser's own tab (Chromium shows the JSON), the writes as a script on the admin's
page sends them (``page.request``: the browser's cookies, and the shop's own ``Origin``, which the
routes require of a write).

Square's catalogue and the shop's products are left as found: a faulted write reaches no Square
handler, and the one item and product the inventory test needs are removed again.

The inventory push sends one count per linked product, and the demo catalogue is linked from the
shop's start (docs/architecture.md#square-catalogue-push): with a server error the SDK would retry
each of them with back-off, minutes in all, so that test makes Square unreachable instead (the
connection dropped, which the SDK does not retry), for every count the push sends, and for as
many again: the shop is shared with the tests of the other worker, whose stock movements reach
Square through the outbox (docs/architecture.md#square-outbox) and may take a fault meant for the
push (their pushes only wait for the outbox's next retry).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Page, expect
from sqlalchemy import func
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.admin_messages import BackendMessage, ProductAdminMessage
from shop_app.models import Product
from tests.e2e.conftest import EXPECT_TIMEOUT_MS
from tests.e2e.helpers import SignIn
from tests.e2e.test_messages_admin_products import SIMULATOR, _add, _remove, _square_fails, _square_item

WS = EXPECT_TIMEOUT_MS  # anything that crosses the websocket, on a busy machine
SYNC = "/api/square/sync"
FAULT_MESSAGE = "An injected fault (simulator)."  # the simulator's reason for its server errors
UNREACHABLE = "Could not reach Square (RemoteProtocolError)"  # a connection Square dropped
MAX_FAULT_TIMES = 100  # the simulator's limit per fault switch request


@pytest.fixture
def admin(shop_url: str, page: Page, sign_in: SignIn) -> Page:
    """The demo admin's page, signed in, with the session cookie the API routes read."""
    page.set_default_timeout(WS)
    sign_in(page)
    page.goto(f"{shop_url}/")
    expect(page.get_by_role("button", name=re.compile("^Account menu for"))).to_be_visible(timeout=WS)
    return page


def _square_items(page: Page, shop_url: str) -> list[dict[str, Any]]:
    """Square's items as the admin API lists them (Square working)."""
    listed = page.request.get(shop_url + SYNC)
    assert listed.status == 200, listed.text()
    return listed.json()["products"]


def _post(page: Page, shop_url: str, path: str, body: dict[str, Any] | None = None) -> APIResponse:
    """A write as a script on the shop's own page sends it: same origin, JSON body."""
    headers = {"Origin": shop_url, "Content-Type": "application/json"}
    return page.request.post(shop_url + path, headers=headers, data=json.dumps(body or {}))


def _failed(response: APIResponse, error: str, details: str = FAULT_MESSAGE) -> dict[str, Any]:
    """The route's answer to Square failing: 502, its seed text, Square's reason."""
    assert response.status == 502, response.text()
    answer = response.json()
    assert (answer["success"], answer["error"], answer["details"]) == (False, error, details)
    return answer


def _product_count(database_url: str, *where: Any) -> int:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return session.exec(select(func.count()).select_from(Product).where(*where)).one()
    finally:
        engine.dispose()


@contextmanager
def _square_unreachable(page: Page, shop_url: str, path: str, method: str, times: int) -> Iterator[None]:
    """The next ``times`` ``method`` requests to ``path`` lose their connection (nothing done)."""
    faults = f"{shop_url}/_square/_simulator/faults"
    for start in range(0, times, MAX_FAULT_TIMES):
        fault = {
            "path": path,
            "method": method,
            "kind": "drop_connection",
            "times": min(MAX_FAULT_TIMES, times - start),
        }
        assert page.request.post(faults, data=fault, headers=SIMULATOR).ok
    try:
        yield
    finally:
        assert page.request.delete(faults, headers=SIMULATOR).ok


def test_reading_and_syncing_squares_catalogue_while_square_is_down(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page = admin
    before, products = _square_items(page, shop_url), _product_count(shop_database_url)

    with _square_fails(page, shop_url, "/v2/catalog/list", "GET"):
        shown = page.goto(shop_url + SYNC)  # the admin opens the route in the browser
        assert shown is not None and shown.status == 502
        expect(page.locator("pre")).to_contain_text(f'"error":"{BackendMessage.FETCH_PRODUCTS_FAILED}"')
        assert json.loads(page.locator("pre").inner_text())["details"] == FAULT_MESSAGE

        synced = _failed(_post(page, shop_url, SYNC), BackendMessage.SYNC_FAILED)
        assert synced["message"] == ProductAdminMessage.SYNC_FAILED.format(message=FAULT_MESSAGE)

    assert _product_count(shop_database_url) == products  # nothing synced
    assert _square_items(page, shop_url) == before


def test_creating_an_item_in_square_while_square_refuses(shop_url: str, admin: Page) -> None:
    page = admin
    before = _square_items(page, shop_url)
    name = f"Api {uuid.uuid4().hex[:8]} Tealight"
    variation = {"name": "Regular", "pricing_type": "FIXED_PRICING", "price_money": {"amount": 500}}
    body = {
        "object": {"type": "ITEM", "item_data": {"name": name, "variations": [variation]}},
        "idempotency_key": uuid.uuid4().hex,
        "stock_quantity": 2,
    }

    with _square_fails(page, shop_url, "/v2/catalog/object", "POST"):
        _failed(_post(page, shop_url, "/api/square/catalog", body), BackendMessage.CATALOG_CREATE_FAILED)

    assert _square_items(page, shop_url) == before  # Square never made the item


def test_pushing_the_stock_to_square_while_square_is_down(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page = admin
    name = f"Api {uuid.uuid4().hex[:8]} Pillar"
    item_id, variation_id = _square_item(page, shop_url, name)
    product_id = _add(shop_database_url, name, square_item_id=item_id, square_variation_id=variation_id)
    counts = _product_count(shop_database_url, Product.square_variation_id.is_not(None))  # one per product
    counts += MAX_FAULT_TIMES  # room for the other worker's outbox pushes meanwhile
    try:
        with _square_unreachable(page, shop_url, "/v2/inventory/changes/batch-create", "POST", counts):
            answer = _post(page, shop_url, "/api/square/inventory-sync")
            _failed(answer, BackendMessage.INVENTORY_SYNC_FAILED, UNREACHABLE)
    finally:
        _remove(shop_database_url, product_id)
        # Removing the product queues its deletion in the shop's Square outbox too: on a busy
        # machine the outbox may have deleted the item already (404), which is what it is for.
        gone = page.request.delete(f"{shop_url}/_square/v2/catalog/object/{item_id}", headers=SIMULATOR)
        assert gone.ok or gone.status == 404, gone.text()
