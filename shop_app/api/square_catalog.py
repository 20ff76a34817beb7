"""The seed's point-of-sale catalogue routes (docs/spec/square.md#catalog), admin only, backed by the SDK.

- ``POST /api/square/catalog``: body ``{object: {type: ITEM, item_data: {name, description,
  image_ids, variations: [{name, sku, pricing_type: FIXED_PRICING, price_money: {amount, currency:
  CAD}}]}}, idempotency_key, stock_quantity}`` → ``{success, catalog_object: {id, item_data:
  {variations: [{id}]}}, inventory_set}``, or ``{success: false, error, details}``. The item gets
  one "Regular" variation with the first variation's SKU and price (the shop sells one per item);
  ``image_ids`` are accepted and ignored, as the seed's image upload is disabled.
- ``DELETE /api/square/catalog?id=…``: the item and its variations.
- ``POST /api/square/inventory/{id}`` ``{quantity}``: the IN_STOCK count of variation ``id``.
- ``POST /api/square/sync`` → ``{success, synced, message}`` (Sync from Square);
  ``GET /api/square/sync`` → ``{success, products, count}`` (Square's items, read-only).
- ``POST /api/square/inventory-sync`` → ``{success, updated, total, message, refused: [{product_id,
  error}]}``; a count Square refuses (e.g. a variation deleted there) does not stop the others, but
  when Square takes none of them the sync failed.

Every route is for signed-in admins (401/403, ``api.admin_access``); writes must come from the
shop's own origin. Bad input is a 400 with a message naming the field. Square refusing or not
answering is a 502 ``{success: false, error, details}``: ``error`` is the route's fixed seed text
(``BackendMessage``: "Failed to create product in Square Catalog", "Sync failed" (plus the
Sync button's ``message``), "Failed to fetch products", "Inventory sync failed"), for scripts to
test; ``details`` is Square's reason. The delete and stock routes, which have no seed text, put
Square's reason in ``error``. The SDK is blocking, so each call runs in a worker thread.
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import asdict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from shop_app.api.admin_access import NO_STORE, admin_refusal, json_error
from shop_app.db import session_scope
from shop_app.domain.admin_messages import BackendMessage, ProductAdminMessage
from shop_app.services.admin.square_sync import (
    InventorySync,
    SquareSync,
    SquareSyncError,
    sync_from_square,
    sync_inventory,
)
from shop_app.services.square.catalog_sync import (
    CURRENCY,
    KEY_MAX,
    CatalogError,
    SquareCatalog,
    square_catalog,
)
from shop_app.services.square.client import SquareConfigError
from shop_app.settings import get_settings

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
NAME_MAX = 512  # Square's limits for an item
DESCRIPTION_MAX = 4096
SKU_MAX = 255
ID_MAX = 192  # Square's catalogue object ids
INVENTORY_SYNCED = "Updated stock of {updated} of {total} products in Square"


class BadInput(ValueError):
    """The request body is not what the route expects; the message says which field."""


def _ok(**body: Any) -> JSONResponse:
    return JSONResponse({"success": True, **body}, headers=NO_STORE)


def _cause(exc: Exception) -> str:
    return str(exc) or BackendMessage.UNKNOWN_ERROR.value


def _failed(error: BackendMessage, details: str, **extra: Any) -> JSONResponse:
    """Square refused or did not answer: 502, the route's seed text in ``error``, the cause in
    ``details`` (a script tests ``error``; ``details`` is for the person reading)."""
    return json_error(error.value, 502, details=str(details), **extra)


def _json_body(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_BODY_BYTES:
        raise BadInput(f"The request body is larger than {MAX_BODY_BYTES // 1024} KB")
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadInput("The request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadInput("The request body must be a JSON object")
    return data


def _object(data: Any, field: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadInput(f"{field} must be an object")
    return data


def _count(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"{field} must be a whole number of 0 or more")
    return value


def _text(value: Any, field: str, limit: int, *, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadInput(f"{field} must be text")
    value = value.strip()
    if required and not value:
        raise BadInput(f"{field} is required")
    if len(value) > limit:
        raise BadInput(f"{field} must be at most {limit} characters")
    return value


def parse_create(data: dict[str, Any]) -> dict[str, Any]:
    """The arguments of ``SquareCatalog.create_item`` from the seed's body (raises ``BadInput``)."""
    obj = _object(data.get("object"), "object")
    if obj.get("type") != "ITEM":
        raise BadInput("object.type must be ITEM")
    item = _object(obj.get("item_data"), "object.item_data")
    variations = item.get("variations")
    if not isinstance(variations, list) or not variations:
        raise BadInput("object.item_data.variations must list at least one variation")
    variation = _object(variations[0], "object.item_data.variations[0]")
    where = "object.item_data.variations[0]"
    if variation.get("pricing_type", "FIXED_PRICING") != "FIXED_PRICING":
        raise BadInput(f"{where}.pricing_type must be FIXED_PRICING")
    money = _object(variation.get("price_money"), f"{where}.price_money")
    if money.get("currency", CURRENCY) != CURRENCY:
        raise BadInput(f"{where}.price_money.currency must be {CURRENCY}")
    key = data.get("idempotency_key") or str(uuid.uuid4())
    if not isinstance(key, str) or len(key) > KEY_MAX:
        raise BadInput(f"idempotency_key must be text of at most {KEY_MAX} characters")
    return {
        "name": _text(item.get("name"), "object.item_data.name", NAME_MAX, required=True),
        "description": _text(item.get("description"), "object.item_data.description", DESCRIPTION_MAX),
        "sku": _text(variation.get("sku"), f"{where}.sku", SKU_MAX) or None,
        "price_cents": _count(money.get("amount"), f"{where}.price_money.amount (cents)"),
        "stock_quantity": _count(data.get("stock_quantity", 0), "stock_quantity"),
        "idempotency_key": key,
    }


def _catalog() -> SquareCatalog:
    return square_catalog(get_settings())


async def _guarded(
    request: Request, *, write: bool, body: bool = False
) -> tuple[JSONResponse | None, dict[str, Any]]:
    """The refusal (auth, origin or, with ``body``, a bad JSON body) if any, else the body."""
    refusal = await admin_refusal(request, write=write)
    if refusal is not None or not body:
        return refusal, {}
    try:
        return None, _json_body(await request.body())
    except BadInput as exc:
        return json_error(str(exc), 400), {}


async def create_item(request: Request) -> JSONResponse:
    """POST /api/square/catalog."""
    refusal, data = await _guarded(request, write=True, body=True)
    if refusal is not None:
        return refusal
    try:
        arguments = parse_create(data)
    except BadInput as exc:
        return json_error(str(exc), 400)
    try:
        created = await run_in_threadpool(lambda: _catalog().create_item(**arguments))
    except SquareConfigError as exc:
        return _failed(BackendMessage.CATALOG_CREATE_FAILED, _cause(exc))
    if not created.ok:
        return _failed(BackendMessage.CATALOG_CREATE_FAILED, created.error or BackendMessage.UNKNOWN_ERROR)
    return _ok(
        catalog_object={"id": created.item_id, "item_data": {"variations": [{"id": created.variation_id}]}},
        inventory_set=created.inventory_set,
        inventory_error=created.error or None,
    )


async def delete_item(request: Request) -> JSONResponse:
    """DELETE /api/square/catalog?id=…."""
    refusal, _ = await _guarded(request, write=True)
    if refusal is not None:
        return refusal
    item_id = request.query_params.get("id", "").strip()
    if not item_id or len(item_id) > ID_MAX:
        return json_error("id is required (the Square item id)", 400)
    try:
        outcome = await run_in_threadpool(lambda: _catalog().delete_item(item_id))
    except SquareConfigError as exc:
        return json_error(str(exc), 502)
    return _ok() if outcome.ok else json_error(outcome.error or BackendMessage.UNKNOWN_ERROR.value, 502)


async def set_stock(request: Request) -> JSONResponse:
    """POST /api/square/inventory/{id} ``{quantity}``."""
    refusal, data = await _guarded(request, write=True, body=True)
    if refusal is not None:
        return refusal
    variation_id = request.path_params["id"]
    try:
        quantity = _count(data.get("quantity"), "quantity")
        _text(variation_id, "id", ID_MAX, required=True)
    except BadInput as exc:
        return json_error(str(exc), 400)
    try:
        outcome = await run_in_threadpool(lambda: _catalog().set_stock(variation_id, quantity))
    except SquareConfigError as exc:
        return json_error(str(exc), 502)
    return _ok() if outcome.ok else json_error(outcome.error or BackendMessage.UNKNOWN_ERROR.value, 502)


async def sync(request: Request) -> JSONResponse:
    """POST /api/square/sync: Sync from Square (``services.admin.square_sync``)."""
    refusal, _ = await _guarded(request, write=True)
    if refusal is not None:
        return refusal

    def run() -> SquareSync:
        with session_scope() as session:
            return sync_from_square(session, _catalog())

    try:
        synced = await run_in_threadpool(run)
    except (SquareSyncError, SquareConfigError) as exc:
        cause = _cause(exc)
        return _failed(
            BackendMessage.SYNC_FAILED, cause, message=ProductAdminMessage.SYNC_FAILED.format(message=cause)
        )
    return _ok(
        synced=synced.synced,
        kept=list(synced.kept),
        message=ProductAdminMessage.SYNC_DONE.format(n=synced.synced),
    )


async def list_items(request: Request) -> JSONResponse:
    """GET /api/square/sync: the items of Square's catalogue, read-only."""
    refusal, _ = await _guarded(request, write=False)
    if refusal is not None:
        return refusal
    try:
        items = await run_in_threadpool(lambda: _catalog().list_items())
    except (CatalogError, SquareConfigError) as exc:
        return _failed(BackendMessage.FETCH_PRODUCTS_FAILED, _cause(exc))
    return _ok(products=[asdict(item) for item in items], count=len(items))


async def inventory_sync(request: Request) -> JSONResponse:
    """POST /api/square/inventory-sync: push every linked product's stock to Square."""
    refusal, _ = await _guarded(request, write=True)
    if refusal is not None:
        return refusal

    def run() -> InventorySync:
        with session_scope() as session:
            return sync_inventory(session, _catalog())

    try:
        result = await run_in_threadpool(run)
    except SquareConfigError as exc:
        return _failed(BackendMessage.INVENTORY_SYNC_FAILED, _cause(exc))
    if result.failed:  # Square took none of the counts: a failure, with its first reason
        return _failed(BackendMessage.INVENTORY_SYNC_FAILED, result.refused[0][1])
    return _ok(
        updated=result.updated,
        total=result.total,
        message=INVENTORY_SYNCED.format(updated=result.updated, total=result.total),
        refused=[{"product_id": product_id, "error": error} for product_id, error in result.refused],
    )


def square_catalog_routes() -> list[Route]:
    """The routes above, for ``create_api``."""
    return [
        Route("/api/square/catalog", create_item, methods=["POST"]),
        Route("/api/square/catalog", delete_item, methods=["DELETE"]),
        Route("/api/square/inventory/{id}", set_stock, methods=["POST"]),
        Route("/api/square/sync", sync, methods=["POST"]),
        Route("/api/square/sync", list_items, methods=["GET"]),
        Route("/api/square/inventory-sync", inventory_sync, methods=["POST"]),
    ]
