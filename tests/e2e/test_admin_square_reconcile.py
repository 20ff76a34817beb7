"""Square follows the shop, and Reconcile with Square, in the running shop (issue 17, acceptance 1):
a product saved in the shop reaches the local Square through the shop's own outbox pusher; a
price changed at Square's till shows on the Reconcile screen, and "Use Square's" brings it into
the shop; on a phone too. Square is the shop's local simulator, reached over HTTP at /_square.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIRequestContext, Page, expect
from sqlmodel import Session

from shop_app.db import create_db_engine
from shop_app.domain.grouping import group_key
from shop_app.models import Product
from tests.e2e.conftest import SQUARE_TOKEN
from tests.e2e.helpers import SignIn

WAIT_S = 60.0  # the pusher looks every 5 s; a busy machine is slow


def _tag() -> str:
    return "".join(chr(ord("a") + int(c, 16) % 26) for c in uuid.uuid4().hex[:8]).capitalize()


def _product(database_url: str, product_id: int | None = None, **changes: Any) -> Product:
    """Add a product (no id) or change one, as a back-office save would, in the shop's database."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as session:
            product = session.get(Product, product_id) if product_id else None
            if product is None:
                name = changes.pop("name")
                product = Product(
                    name=name, group_key=group_key(name), description="Poured by hand.", base_price_cents=2400
                )
            for field, value in changes.items():
                setattr(product, field, value)
            session.add(product)
            session.commit()
            return product
    finally:
        engine.dispose()


def _until(check: Callable[[], Any], what: str) -> Any:
    """Poll visible state until ``check`` answers something truthy (never a fixed wait)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not seen within {WAIT_S:.0f} s: {what}")


def _square(request: APIRequestContext, shop_url: str, method: str, path: str, data: Any = None) -> Any:
    answer = request.fetch(
        f"{shop_url}/_square{path}",
        method=method,
        data=data,
        headers={"Authorization": f"Bearer {SQUARE_TOKEN}"},
    )
    assert answer.ok, answer.text()
    return answer.json()


def _item(request: APIRequestContext, shop_url: str, item_id: str) -> dict[str, Any]:
    return _square(request, shop_url, "GET", f"/v2/catalog/object/{item_id}")["object"]


def _linked(shop_url: str, database_url: str, product_id: int) -> Product:
    return _until(
        lambda: (p := _product(database_url, product_id)).square_item_id and p, "the product linked to Square"
    )


def test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    tag = _tag()
    name = f"{tag} Reconcile Candle"
    product = _linked(shop_url, shop_database_url, _product(shop_database_url, name=name, stock_quantity=7).id or 0)
    _product(shop_database_url, product.id, description="Edited in the shop.")
    _until(
        lambda: _item(page.request, shop_url, product.square_item_id or "")["item_data"]["description"]
        == "Edited in the shop.",
        "the shop's edit in Square",
    )
    item = _item(page.request, shop_url, product.square_item_id or "")
    variation = item["item_data"]["variations"][0]
    variation["item_variation_data"]["price_money"] = {"amount": 2600, "currency": "CAD"}
    for stale in ("version", "updated_at", "created_at", "is_deleted", "present_at_all_locations"):
        item.pop(stale, None)
        variation.pop(stale, None)
    _square(page.request, shop_url, "POST", "/v2/catalog/object", {"idempotency_key": tag, "object": item})

    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")

    expect(page.get_by_role("heading", name="Reconcile with Square")).to_be_visible()
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Price")
    expect(row).to_contain_text("$24.00")
    expect(row).to_contain_text("$26.00")
    row.get_by_role("button", name=f"Use Square's price for {name}").click()

    expect(page.get_by_text("Settled 1 differences.")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)
    taken = _product(shop_database_url, product.id)
    assert (taken.base_price_cents, taken.sale_price_cents) == (2600, None)


def test_the_reconcile_screen_on_a_phone(shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn) -> None:
    name = f"{_tag()} Phone Candle"
    product = _linked(shop_url, shop_database_url, _product(shop_database_url, name=name).id or 0)
    _square(
        page.request,
        shop_url,
        "POST",
        "/v2/inventory/changes/batch-create",
        {
            "idempotency_key": uuid.uuid4().hex,
            "changes": [
                {
                    "type": "PHYSICAL_COUNT",
                    "physical_count": {
                        "catalog_object_id": product.square_variation_id,
                        "state": "IN_STOCK",
                        "location_id": _location(page.request, shop_url),
                        "quantity": "3",
                        "occurred_at": "2026-01-01T00:00:00Z",
                    },
                }
            ],
        },
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")

    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("Stock")
    row.get_by_role("button", name=f"Use the shop's stock for {name}").click()

    expect(page.get_by_text("Settled 1 differences.")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)


def _location(request: APIRequestContext, shop_url: str) -> str:
    return str(_square(request, shop_url, "GET", "/v2/locations")["locations"][0]["id"])
