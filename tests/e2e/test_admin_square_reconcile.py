"""Square follows the shop, and Reconcile with Square, in the running shop (issue 17, acceptance 1):
a product saved in the shop reaches the local Square through the shop's own outbox pusher; a
price changed at Square's till shows on the Reconcile screen and is settled per row or in bulk,
either way, on a phone too; a row settled meanwhile is not applied again; Square down shows what
waits and "Send now" sends it once Square is back; Square unreadable says so. Square is the
shop's local simulator, reached over HTTP at /_square (with its fault switch).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import APIRequestContext, Page, expect
from sqlmodel import Session, col, select

from shop_app.db import create_db_engine
from shop_app.domain.admin_messages import ReconcileMessage as M
from shop_app.domain.grouping import group_key
from shop_app.models import Product, SquareChange
from tests.e2e.conftest import SQUARE_TOKEN
from tests.e2e.helpers import SignIn

WAIT_S = 60.0  # the pusher looks every 5 s; a busy machine is slow
SIMULATOR = {"Authorization": f"Bearer {SQUARE_TOKEN}"}


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


def _tries(database_url: str, product_id: int) -> int:
    """How many times the shop's outbox tried to send the product's waiting changes."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            pending = select(SquareChange.attempts).where(
                SquareChange.product_id == product_id, col(SquareChange.done_at).is_(None)
            )
            return max(session.exec(pending).all(), default=0)
    finally:
        engine.dispose()


def _linked(shop_url: str, database_url: str, product_id: int) -> Product:
    return _until(
        lambda: (p := _product(database_url, product_id)).square_item_id and p, "the product linked to Square"
    )


def _pattern(message: M) -> re.Pattern[str]:
    """A message with its placeholders as wildcards."""
    parts = re.split(r"\{[^{}]*\}", message.value)
    return re.compile("^" + ".+".join(re.escape(part) for part in parts) + "$")


@contextmanager
def _square_fails(page: Page, shop_url: str, path: str, method: str) -> Iterator[None]:
    """Square answers every ``method`` request to ``path`` with a server error until the block
    ends (the running shop's simulator's fault switch)."""
    faults = f"{shop_url}/_square/_simulator/faults"
    fault = {"path": path, "method": method, "kind": "http_500", "times": 100}
    assert page.request.post(faults, data=fault, headers=SIMULATOR).ok
    try:
        yield
    finally:
        assert page.request.delete(faults, headers=SIMULATOR).ok


def _till_price(page: Page, shop_url: str, product: Product, cents: int) -> None:
    """Square's price changed at its till: an upsert of the item with a new variation price."""
    item = _item(page.request, shop_url, product.square_item_id or "")
    variation = item["item_data"]["variations"][0]
    variation["item_variation_data"]["price_money"] = {"amount": cents, "currency": "CAD"}
    for stale in ("version", "updated_at", "created_at", "is_deleted", "present_at_all_locations"):
        item.pop(stale, None)
        variation.pop(stale, None)
    body = {"idempotency_key": uuid.uuid4().hex, "object": item}
    _square(page.request, shop_url, "POST", "/v2/catalog/object", body)


def _till_stock(page: Page, shop_url: str, product: Product, quantity: int) -> None:
    """Square's stock counted at its till."""
    location = str(_square(page.request, shop_url, "GET", "/v2/locations")["locations"][0]["id"])
    count = {
        "catalog_object_id": product.square_variation_id,
        "state": "IN_STOCK",
        "location_id": location,
        "quantity": str(quantity),
        "occurred_at": "2026-01-01T00:00:00Z",
    }
    body = {
        "idempotency_key": uuid.uuid4().hex,
        "changes": [{"type": "PHYSICAL_COUNT", "physical_count": count}],
    }
    _square(page.request, shop_url, "POST", "/v2/inventory/changes/batch-create", body)


def test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    name = f"{_tag()} Reconcile Candle"
    product = _linked(
        shop_url, shop_database_url, _product(shop_database_url, name=name, stock_quantity=7).id or 0
    )
    _product(shop_database_url, product.id, description="Edited in the shop.")
    _until(
        lambda: (
            _item(page.request, shop_url, product.square_item_id or "")["item_data"]["description"]
            == "Edited in the shop."
        ),
        "the shop's edit in Square",
    )
    _till_price(page, shop_url, product, 2600)

    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")

    expect(page.get_by_role("heading", name=M.TITLE.value)).to_be_visible()
    expect(page.get_by_text(M.INTRO.value)).to_be_visible()
    page.get_by_role("button", name=M.CHECK_AGAIN.value).click()
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Price")
    expect(row).to_contain_text("$24.00")
    expect(row).to_contain_text("$26.00")
    expect(row.get_by_role("button", name=f"{M.USE_SHOPS.value} price for {name}")).to_be_visible()
    row.get_by_role("button", name=f"{M.USE_SQUARES.value} price for {name}").click()

    expect(page.get_by_text(M.SETTLED.format(n=1))).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)
    taken = _product(shop_database_url, product.id)
    assert (taken.base_price_cents, taken.sale_price_cents) == (2600, None)


def test_the_bulk_actions_on_a_phone(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    name = f"{_tag()} Phone Candle"
    product = _linked(shop_url, shop_database_url, _product(shop_database_url, name=name).id or 0)
    _till_stock(page, shop_url, product, 3)
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")
    card = page.get_by_role("list", name="Differences").get_by_role("listitem").filter(has_text=name)
    expect(card).to_contain_text("Stock")
    expect(card.get_by_role("button", name=f"{M.USE_SHOPS.value} stock for {name}")).to_be_visible()

    page.get_by_role("button", name=M.ALL_SHOPS.value).click()  # Square becomes the shop's copy

    expect(page.get_by_text(_pattern(M.SETTLED))).to_be_visible()
    expect(page.get_by_text(M.AGREE.value)).to_be_visible()
    _till_price(page, shop_url, product, 2800)  # then Square changes one price
    page.get_by_role("button", name=M.CHECK_AGAIN.value).click()
    expect(card).to_contain_text("$28.00")

    page.get_by_role("button", name=M.ALL_SQUARES.value).click()

    expect(page.get_by_text(M.SETTLED.format(n=1))).to_be_visible()
    expect(page.get_by_text(M.AGREE.value)).to_be_visible()
    assert _product(shop_database_url, product.id).base_price_cents == 2800


def test_a_row_settled_meanwhile_is_not_applied_again(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    name = f"{_tag()} Meanwhile Candle"
    product = _linked(shop_url, shop_database_url, _product(shop_database_url, name=name).id or 0)
    _till_price(page, shop_url, product, 2600)
    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("$26.00")

    _product(shop_database_url, product.id, base_price_cents=2600)  # fixed in another tab meanwhile
    row.get_by_role("button", name=f"{M.USE_SQUARES.value} price for {name}").click()

    expect(page.get_by_text(M.CHANGED.format(n=1))).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)


def test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    name = f"{_tag()} Outage Candle"
    product = _linked(shop_url, shop_database_url, _product(shop_database_url, name=name).id or 0)
    sign_in(page)
    with _square_fails(page, shop_url, "/v2/catalog/object", "POST"):
        _product(shop_database_url, product.id, description="Edited while Square was down.")
        _until(lambda: _tries(shop_database_url, product.id or 0), "the shop's own try, refused by Square")
        page.goto(f"{shop_url}/admin/square-reconcile")

        expect(page.get_by_text(_pattern(M.WAITING))).to_be_visible()
        expect(page.get_by_text(_pattern(M.FAILING))).to_be_visible()
        row = page.get_by_role("row").filter(has_text=name)
        expect(row).to_contain_text(M.WAITING_ROW.value)  # the edit is on its way: not Square's
        expect(row.get_by_role("button", name=f"{M.USE_SQUARES.value} description for {name}")).to_have_count(
            0
        )
        page.get_by_role("button", name=M.SEND_NOW.value).click()
        expect(page.get_by_text(_pattern(M.STILL_WAITING))).to_be_visible()
        assert _product(shop_database_url, product.id).description == "Edited while Square was down."

    page.get_by_role("button", name=M.SEND_NOW.value).click()

    expect(page.get_by_text(_pattern(M.SENT))).to_be_visible()
    sent = _item(page.request, shop_url, product.square_item_id or "")["item_data"]["description"]
    assert sent == "Edited while Square was down."


def test_square_unreadable_says_so(shop_url: str, page: Page, sign_in: SignIn) -> None:
    sign_in(page)
    with _square_fails(page, shop_url, "/v2/catalog/list", "GET"):
        page.goto(f"{shop_url}/admin/square-reconcile")

        expect(page.get_by_role("alert").filter(has_text=_pattern(M.READ_FAILED))).to_be_visible()


def test_squares_values_never_put_on_sale_what_the_editors_refuse(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    name = f"{_tag()} Till Tin"
    item = {
        "type": "ITEM",
        "id": "#item",
        "item_data": {
            "name": name,
            "variations": [
                {
                    "type": "ITEM_VARIATION",
                    "id": "#variation",
                    "item_variation_data": {
                        "name": "Regular",
                        "pricing_type": "FIXED_PRICING",
                        "price_money": {"amount": 1200, "currency": "CAD"},
                    },
                }
            ],
        },
    }
    _square(
        page.request,
        shop_url,
        "POST",
        "/v2/catalog/object",
        {"idempotency_key": uuid.uuid4().hex, "object": item},
    )
    sign_in(page)
    page.goto(f"{shop_url}/admin/square-reconcile")
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("Not in the shop")
    row.get_by_role("button", name=f"{M.USE_SQUARES.value} not in the shop for {name}").click()  # review it
    expect(page.get_by_text(M.SETTLED.format(n=1))).to_be_visible()

    for_sale = page.get_by_role("row").filter(has_text=name).filter(has_text="For sale")
    for_sale.get_by_role("button", name=f"{M.USE_SQUARES.value} for sale for {name}").click()

    expect(page.get_by_text(M.FAILED.format(n=1, message=f"{name}: Category is required"))).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name).filter(has_text="For sale")).to_have_count(1)
