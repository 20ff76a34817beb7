"""The shop's products in Square's catalogue, through the ``squareup`` SDK.

``SquareCatalog`` is the one place that writes the catalogue and its stock:

- ``create_item``: one UpsertCatalogObject of an ITEM with a single ITEM_VARIATION named
  "Regular" (FIXED_PRICING, price in cents, CAD: docs/spec/limits.md#back-office), then one
  BatchChangeInventory PHYSICAL_COUNT of IN_STOCK at the shop's location. The item exists as soon as the
  upsert succeeds, so a failed stock count still gives ``ok=True`` with ``inventory_set=False`` and the
  reason in ``error`` (the seed's "inventorySet, inventoryError"). The caller's idempotency key
  makes a repeated create return the same item; the stock count's key is derived from it, so a
  repeated create does not count twice either.
- ``create_items``: the same ITEMs for many products in one BatchUpsertCatalogObjects (one batch of
  at most ``ITEMS_PER_BATCH``: Square takes 1,000 objects per batch, and each item brings its
  variation), all or nothing; the answer maps the caller's reference of each item to its ids.
  ``count_stock`` then counts up to ``COUNTS_PER_REQUEST`` variations in one BatchChangeInventory.
  ``services.square.catalog_push`` drives them for a whole catalogue.
- ``update_item``: one UpsertCatalogObject of an existing ITEM with its one variation, by their
  ids and without ``version`` (the shop owns these fields: its values win), with
  ``is_archived`` for a product the shop deactivated or archived. The stock is not touched.
- ``delete_item``: DeleteCatalogObject (the item's variations go with it). An item Square no
  longer has (NOT_FOUND) counts as deleted: deleting is what the caller wanted.
- ``set_stock``: a PHYSICAL_COUNT of IN_STOCK for one variation.
- ``list_items``: every ITEM (ListCatalog, all pages) with its first variation's id, SKU and price.
- ``stock_counts``: the IN_STOCK counts of variations at the shop's location
  (BatchRetrieveInventoryCounts, all pages).

The writes never raise for Square's refusals or network trouble: they answer ``ok=False`` and a
message an admin can read (Square's ``detail``), because the admin flows must go on
(docs/spec/square.md#catalog: "if it fails an error shows but local deletion continues"). ``list_items`` has
no partial answer worth returning, so it raises ``CatalogError`` with that message. Arguments that no caller
should ever send (a negative quantity, a price that is not integer cents) raise ``ValueError``.

The SDK keeps its own retries (408/409/429/5xx, same body, so the same idempotency key): Square
serialises catalogue writes per seller and answers a concurrent one with 429, which is the retry
the shop wants here (docs/architecture.md#square).
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

import httpx
from square import Square
from square.core.api_error import ApiError

from shop_app.services.square.client import (
    SquareConfigError,
    local_client,
    local_location_id,
    remote_client,
    simulator_http_client,
)
from shop_app.settings import Settings, SquareEnvironment

logger = logging.getLogger(__name__)

CURRENCY = "CAD"
VARIATION_NAME = "Regular"
KEY_MAX = 128  # Square's limit for catalogue and inventory idempotency keys
TIMEOUT_S = 20.0
BATCH_OBJECTS_MAX = 1000  # Square: objects in one batch of BatchUpsertCatalogObjects
ITEMS_PER_BATCH = BATCH_OBJECTS_MAX // 2  # an item and its variation are two objects
COUNTS_PER_REQUEST = 100  # Square: changes in one BatchChangeInventory
COUNTS_READ_PER_REQUEST = 1000  # Square: catalog_object_ids in one BatchRetrieveInventoryCounts


class CatalogError(RuntimeError):
    """Square's catalogue could not be read; ``str(exc)`` is a message for the admin."""


@dataclass(frozen=True)
class CreatedItem:
    """The result of ``create_item``; ``error`` also explains ``inventory_set=False`` when ``ok``."""

    ok: bool
    item_id: str | None = None
    variation_id: str | None = None
    inventory_set: bool = False
    error: str = ""


@dataclass(frozen=True)
class ItemDraft:
    """What Square holds of one product: an ITEM and its one "Regular" variation."""

    name: str
    description: str
    sku: str | None
    price_cents: int
    """What the item sells for, in cents (the sale price when it is a discount, else the base price)."""


@dataclass(frozen=True)
class CreatedItems:
    """The result of ``create_items``: each reference's ``(item id, variation id)`` when ``ok``."""

    ok: bool
    ids: dict[str, tuple[str, str]]
    error: str = ""


@dataclass(frozen=True)
class CatalogOutcome:
    """The result of a delete or a stock count."""

    ok: bool
    error: str = ""


@dataclass(frozen=True)
class SquareItem:
    """An ITEM of Square's catalogue with its first variation (the shop sells one per item)."""

    item_id: str
    variation_id: str | None
    name: str
    description: str
    sku: str | None
    price_cents: int | None
    archived: bool = False
    """Hidden from Square's point of sale (``is_archived``): the shop's product is not for sale."""


def _plain(value: Any) -> Any:
    """An SDK model as plain JSON data, with Square's field names."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_none=True)
    return value


def error_message(exc: Exception) -> str:
    """What went wrong, for an admin: Square's first error detail, or the network problem."""
    if isinstance(exc, ApiError):
        for raw in exc.errors or []:
            first = _plain(raw)
            if isinstance(first, dict) and (first.get("detail") or first.get("code")):
                return str(first.get("detail") or first.get("code"))
        return f"Square answered HTTP {exc.status_code}"
    if isinstance(exc, httpx.TimeoutException):
        return "Square did not answer in time"
    return f"Could not reach Square ({type(exc).__name__})"


def _now() -> str:
    return _rfc3339(datetime.now(UTC))


def _rfc3339(moment: datetime) -> str:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _check_count(value: int, name: str) -> None:
    """Cents and unit counts are non-negative integers (a float price is a classic bug)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    if value < 0:
        raise ValueError(f"{name} must not be negative")


def _check_key(idempotency_key: str) -> None:
    if not 1 <= len(idempotency_key) <= KEY_MAX:
        raise ValueError(f"idempotency_key must have 1 to {KEY_MAX} characters")


def item_object(
    draft: ItemDraft,
    *,
    item_id: str = "#item",
    variation_id: str = "#variation",
    archived: bool | None = None,
) -> dict[str, Any]:
    """An ITEM with its "Regular" FIXED_PRICING variation in CAD cents (``#`` ids: Square's
    temporary ids for a new item, answered in ``id_mappings``; real ids replace an existing one).
    ``archived`` sets ``is_archived`` when given."""
    _check_count(draft.price_cents, "price_cents")
    variation: dict[str, Any] = {
        "name": VARIATION_NAME,
        "pricing_type": "FIXED_PRICING",
        "price_money": {"amount": draft.price_cents, "currency": CURRENCY},
    }
    if draft.sku:
        variation["sku"] = draft.sku
    item_data: dict[str, Any] = {
        "name": draft.name,
        "description": draft.description,
        "variations": [{"type": "ITEM_VARIATION", "id": variation_id, "item_variation_data": variation}],
    }
    if archived is not None:
        item_data["is_archived"] = archived
    return {"type": "ITEM", "id": item_id, "item_data": item_data}


def _stock_key(idempotency_key: str) -> str:
    """The stock count's key for a create: derived, so a repeated create counts once."""
    return "stock-" + hashlib.sha256(idempotency_key.encode()).hexdigest()


class SquareCatalog:
    """The shop's catalogue writes and reads on Square (see the module docstring)."""

    def __init__(self, client: Square, *, location_id: str, timeout_s: float = TIMEOUT_S) -> None:
        self._client = client
        self._location_id = location_id
        self._options: Any = {"timeout_in_seconds": timeout_s}

    @property
    def location_id(self) -> str:
        """The location whose stock this catalogue counts."""
        return self._location_id

    def create_item(
        self,
        *,
        name: str,
        description: str,
        sku: str | None,
        price_cents: int,
        stock_quantity: int,
        idempotency_key: str,
    ) -> CreatedItem:
        """Create the item and its "Regular" variation, then count its stock (never raises)."""
        _check_count(price_cents, "price_cents")
        _check_count(stock_quantity, "stock_quantity")
        _check_key(idempotency_key)
        item = item_object(ItemDraft(name=name, description=description, sku=sku, price_cents=price_cents))
        try:
            response = self._client.catalog.object.upsert(
                idempotency_key=idempotency_key, object=item, request_options=self._options
            )
        except (ApiError, httpx.HTTPError) as exc:
            logger.warning("Square refused to create item %r: %r", name, exc)
            return CreatedItem(ok=False, error=error_message(exc))
        created = _plain(response.catalog_object) or {}
        variations = (created.get("item_data") or {}).get("variations") or [{}]
        item_id, variation_id = created.get("id"), variations[0].get("id")
        if not item_id or not variation_id:
            logger.error("Square created item %r without ids: %r", name, created)
            return CreatedItem(ok=False, error="Square did not return the new item's ids")
        # Counted "when the item was written": a replayed create then repeats the count's body too.
        counted_at = created.get("updated_at") or _now()
        stock = self._count(variation_id, stock_quantity, _stock_key(idempotency_key), counted_at)
        return CreatedItem(
            ok=True,
            item_id=item_id,
            variation_id=variation_id,
            inventory_set=stock.ok,
            error=stock.error,
        )

    def create_items(self, drafts: Mapping[str, ItemDraft], *, idempotency_key: str) -> CreatedItems:
        """Create an item per draft in one batch, all or nothing (never raises).

        ``drafts`` maps the caller's reference of each product (letters, digits, ``-``) to what
        Square should hold; at most ``ITEMS_PER_BATCH``. The same key with the same drafts
        returns the same items (Square replays the first answer), so a caller that derives the key
        from the drafts can send them again, from another process too, without duplicates.
        """
        if not 1 <= len(drafts) <= ITEMS_PER_BATCH:
            raise ValueError(f"create_items takes 1 to {ITEMS_PER_BATCH} drafts")
        _check_key(idempotency_key)
        objects = [
            item_object(draft, item_id=f"#item-{ref}", variation_id=f"#variation-{ref}")
            for ref, draft in drafts.items()
        ]
        batches: list[Any] = [{"objects": objects}]
        try:
            response = self._client.catalog.batch_upsert(
                idempotency_key=idempotency_key, batches=batches, request_options=self._options
            )
        except (ApiError, httpx.HTTPError) as exc:
            logger.warning("Square refused to create %d items: %r", len(drafts), exc)
            return CreatedItems(ok=False, ids={}, error=error_message(exc))
        if response.errors:  # the one batch failed inside a 200: nothing was written
            first = _plain(response.errors[0])
            return CreatedItems(ok=False, ids={}, error=str(first.get("detail") or first.get("code")))
        mapped = {m.client_object_id: m.object_id for m in response.id_mappings or []}
        ids: dict[str, tuple[str, str]] = {}
        for ref in drafts:
            item_id, variation_id = mapped.get(f"#item-{ref}"), mapped.get(f"#variation-{ref}")
            if not item_id or not variation_id:
                logger.error("Square created items without the ids of %r: %r", ref, mapped)
                return CreatedItems(ok=False, ids={}, error="Square did not return the new items' ids")
            ids[ref] = (item_id, variation_id)
        return CreatedItems(ok=True, ids=ids)

    def count_stock(self, counts: Sequence[tuple[str, int]]) -> CatalogOutcome:
        """Set the IN_STOCK count of up to ``COUNTS_PER_REQUEST`` variations, ``(variation id,
        quantity)`` each, in one request: all or nothing (never raises)."""
        if not 1 <= len(counts) <= COUNTS_PER_REQUEST:
            raise ValueError(f"count_stock takes 1 to {COUNTS_PER_REQUEST} counts")
        for _variation_id, quantity in counts:
            _check_count(quantity, "quantity")
        return self._counts(counts, str(uuid.uuid4()), _now())

    def update_item(
        self, item_id: str, variation_id: str, draft: ItemDraft, *, archived: bool, idempotency_key: str
    ) -> CatalogOutcome:
        """Give the existing item and its variation the shop's values (never raises).

        No ``version`` is sent: the shop owns these fields, so its write wins over whatever Square
        holds (Square applies an unversioned upsert as the latest). An item Square no longer has
        fails with Square's reason; the caller decides whether to create it again.
        """
        _check_key(idempotency_key)
        item = item_object(draft, item_id=item_id, variation_id=variation_id, archived=archived)
        variation = item["item_data"]["variations"][0]
        variation["item_variation_data"]["item_id"] = item_id
        try:
            self._client.catalog.object.upsert(
                idempotency_key=idempotency_key, object=item, request_options=self._options
            )
        except (ApiError, httpx.HTTPError) as exc:
            logger.warning("Square refused to update item %s: %r", item_id, exc)
            return CatalogOutcome(ok=False, error=error_message(exc))
        return CatalogOutcome(ok=True)

    def delete_item(self, item_id: str) -> CatalogOutcome:
        """Delete the item and its variations; an item Square does not have counts as deleted."""
        try:
            self._client.catalog.object.delete(item_id, request_options=self._options)
        except ApiError as exc:
            codes = {getattr(e, "code", None) for e in exc.errors or []}
            if exc.status_code == 404 or "NOT_FOUND" in codes:
                logger.info("Square item %s was already gone", item_id)
                return CatalogOutcome(ok=True)
            logger.warning("Square refused to delete item %s: %r", item_id, exc)
            return CatalogOutcome(ok=False, error=error_message(exc))
        except httpx.HTTPError as exc:
            logger.warning("Could not delete Square item %s: %r", item_id, exc)
            return CatalogOutcome(ok=False, error=error_message(exc))
        return CatalogOutcome(ok=True)

    def set_stock(
        self, variation_id: str, quantity: int, *, counted_at: datetime | None = None
    ) -> CatalogOutcome:
        """Set the IN_STOCK count of a variation at the shop's location (never raises).

        ``counted_at`` is when the shop read the quantity (default: now). Square orders counts by
        this time, so of two pushes that cross on the way the later reading wins.
        """
        _check_count(quantity, "quantity")
        when = _now() if counted_at is None else _rfc3339(counted_at)
        return self._count(variation_id, quantity, str(uuid.uuid4()), when)

    def _count(self, variation_id: str, quantity: int, key: str, occurred_at: str) -> CatalogOutcome:
        return self._counts([(variation_id, quantity)], key, occurred_at)

    def _counts(self, counts: Sequence[tuple[str, int]], key: str, occurred_at: str) -> CatalogOutcome:
        changes: list[Any] = [
            {
                "type": "PHYSICAL_COUNT",
                "physical_count": {
                    "catalog_object_id": variation_id,
                    "state": "IN_STOCK",
                    "location_id": self._location_id,
                    "quantity": str(quantity),
                    "occurred_at": occurred_at,
                },
            }
            for variation_id, quantity in counts
        ]
        try:
            response = self._client.inventory.batch_create_changes(
                idempotency_key=key, changes=changes, request_options=self._options
            )
        except (ApiError, httpx.HTTPError) as exc:
            which = counts[0][0] if len(counts) == 1 else f"{len(counts)} variations"
            logger.warning("Square refused the stock count of %s: %r", which, exc)
            return CatalogOutcome(ok=False, error=error_message(exc))
        if response.errors:  # a bulk endpoint may report failures inside a 200
            first = _plain(response.errors[0])
            return CatalogOutcome(ok=False, error=str(first.get("detail") or first.get("code")))
        return CatalogOutcome(ok=True)

    def list_items(self) -> list[SquareItem]:
        """Every item of the catalogue, all pages; raises ``CatalogError`` if Square cannot say."""
        try:
            objects = [
                _plain(o) for o in self._client.catalog.list(types="ITEM", request_options=self._options)
            ]
        except (ApiError, httpx.HTTPError) as exc:
            logger.warning("Cannot list Square's catalogue: %r", exc)
            raise CatalogError(error_message(exc)) from exc
        return [_square_item(o) for o in objects if o.get("type") == "ITEM" and not o.get("is_deleted")]

    def stock_counts(self, variation_ids: Sequence[str]) -> dict[str, int]:
        """The IN_STOCK count of each variation at the shop's location (whole units; a variation
        Square counts nothing for is left out); raises ``CatalogError`` if Square cannot say."""
        counts: dict[str, int] = {}
        for start in range(0, len(variation_ids), COUNTS_READ_PER_REQUEST):
            chunk = list(variation_ids[start : start + COUNTS_READ_PER_REQUEST])
            try:
                pager = self._client.inventory.batch_get_counts(
                    catalog_object_ids=chunk,
                    location_ids=[self._location_id],
                    states=["IN_STOCK"],
                    request_options=self._options,
                )
                for count in pager:
                    if count.catalog_object_id and count.quantity is not None:
                        counts[count.catalog_object_id] = int(Decimal(count.quantity))
            except (ApiError, httpx.HTTPError) as exc:
                logger.warning("Cannot read Square's stock counts: %r", exc)
                raise CatalogError(error_message(exc)) from exc
        return counts


def _square_item(obj: dict[str, Any]) -> SquareItem:
    data = obj.get("item_data") or {}
    variations = data.get("variations") or []
    first = variations[0] if variations else {}
    variation = first.get("item_variation_data") or {}
    amount = (variation.get("price_money") or {}).get("amount")
    return SquareItem(
        item_id=obj["id"],
        variation_id=first.get("id"),
        name=data.get("name") or "",
        description=data.get("description") or data.get("description_plaintext") or "",
        sku=variation.get("sku") or None,
        price_cents=amount if isinstance(amount, int) else None,
        archived=bool(data.get("is_archived")),
    )


@lru_cache(maxsize=4)
def _simulator_http_client(url: str) -> Square:
    """One HTTP client per simulator address (kept: it holds a connection pool)."""
    return simulator_http_client(url, timeout_s=TIMEOUT_S)


@lru_cache(maxsize=4)
def _remote_client(environment: SquareEnvironment, token: str) -> Square:
    """One client per configuration, built once and kept."""
    return remote_client(environment, token, timeout_s=TIMEOUT_S)


def square_catalog(settings: Settings) -> SquareCatalog:
    """The shop's catalogue for its settings.

    Local mode: the simulator at ``SQUARE_SIMULATOR_URL`` when set, else the process-wide one,
    called in-process (same ledger as ``/_square`` and the local payment gateway); the location
    is ``SQUARE_LOCATION_ID`` or the simulator's own.
    Sandbox/production: Square itself; raises ``SquareConfigError`` without
    ``SQUARE_ACCESS_TOKEN`` or ``SQUARE_LOCATION_ID``.
    """
    if settings.square_environment == SquareEnvironment.LOCAL:
        location = local_location_id(settings)
        if settings.square_simulator_url:
            return SquareCatalog(_simulator_http_client(settings.square_simulator_url), location_id=location)
        return SquareCatalog(local_client(TIMEOUT_S), location_id=location)
    if not settings.square_location_id:
        raise SquareConfigError("SQUARE_LOCATION_ID is empty")
    client = _remote_client(settings.square_environment, settings.square_access_token)
    return SquareCatalog(client, location_id=settings.square_location_id)
