"""Catalog API of the simulator: upsert, batch upsert, delete, batch delete, retrieve and list.

Rules (docs/architecture.md#square): a new object's id starts with ``#`` and the answer maps it
to a server id in ``id_mappings`` (nested item variations too; ``#`` references inside the same
request or batch are rewritten); ``version`` is epoch milliseconds and must match the stored one
on an update (400 CONFLICT: Square's VERSION_MISMATCH is not in the spec's ErrorCode enum, and a
409 would make the SDK retry); an item needs at least one variation; each batch of a batch
upsert is all-or-nothing; deleting an item deletes its variations; list never shows deleted
objects. Items are stored without their variations, which are separate ITEM_VARIATION objects,
and are presented with their current variations embedded in ``item_data.variations``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from shop_app.square_simulator.http import (
    SimError,
    SimRequest,
    SimResponse,
    idempotency_key,
    invalid,
    not_found,
    ok,
    optional_list,
    require_object,
    run_idempotent,
)
from shop_app.square_simulator.state import Json, SimulatorLedger, new_upper_id

CATALOG_KEY_MAX = 128
BATCH_OBJECTS_MAX = 1000
REQUEST_OBJECTS_MAX = 10_000
OBJECT_TYPES: tuple[str, ...] = (
    "ITEM",
    "IMAGE",
    "CATEGORY",
    "ITEM_VARIATION",
    "TAX",
    "DISCOUNT",
    "MODIFIER_LIST",
    "MODIFIER",
    "PRICING_RULE",
    "PRODUCT_SET",
    "TIME_PERIOD",
    "MEASUREMENT_UNIT",
    "SUBSCRIPTION_PLAN_VARIATION",
    "ITEM_OPTION",
    "ITEM_OPTION_VAL",
    "CUSTOM_ATTRIBUTE_DEFINITION",
    "QUICK_AMOUNTS_SETTINGS",
    "SUBSCRIPTION_PLAN",
    "AVAILABILITY_PERIOD",
)


def data_key(object_type: str) -> str:
    """The field holding an object's type-specific data (``item_data``, ``image_data`` …)."""
    return "item_option_value_data" if object_type == "ITEM_OPTION_VAL" else f"{object_type.lower()}_data"


def references(obj: Json) -> list[str]:
    """Ids of the objects ``obj`` points at (category, taxes, images, parent item …)."""
    data = obj.get(data_key(obj["type"])) or {}
    found: list[str] = []
    for key in ("category_id", "item_id"):
        if isinstance(data.get(key), str):
            found.append(data[key])
    for key in ("tax_ids", "image_ids"):
        found.extend(v for v in data.get(key) or [] if isinstance(v, str))
    for entry in data.get("categories") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            found.append(entry["id"])
    for entry in data.get("modifier_list_info") or []:
        if isinstance(entry, dict) and isinstance(entry.get("modifier_list_id"), str):
            found.append(entry["modifier_list_id"])
    parent = data.get("parent_category")
    if isinstance(parent, dict) and isinstance(parent.get("id"), str):
        found.append(parent["id"])
    return found


def variations_of(ledger: SimulatorLedger, item_id: str, *, deleted: bool = False) -> list[Json]:
    """The variations of an item, by ordinal."""
    found = [
        o
        for o in ledger.state.catalog.values()
        if o["type"] == "ITEM_VARIATION"
        and (o.get("item_variation_data") or {}).get("item_id") == item_id
        and bool(o.get("is_deleted")) == deleted
    ]
    return sorted(found, key=lambda o: o["item_variation_data"].get("ordinal", 0))


def present(ledger: SimulatorLedger, obj: Json) -> Json:
    """A stored object as the API shows it (an item with its variations embedded)."""
    shown = copy.deepcopy(obj)
    if obj["type"] == "ITEM":
        variations = variations_of(ledger, obj["id"], deleted=bool(obj.get("is_deleted")))
        shown.setdefault("item_data", {})["variations"] = [copy.deepcopy(v) for v in variations]
    return shown


def _replace_ids(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_replace_ids(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: _replace_ids(v, mapping) for k, v in value.items()}
    return value


def _check_shape(obj: Any, where: str) -> Json:
    if not isinstance(obj, dict):
        raise invalid("EXPECTED_OBJECT", "Expected an object value.", where)
    kind = obj.get("type")
    if kind is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", f"{where}.type")
    if kind not in OBJECT_TYPES:
        raise invalid("INVALID_ENUM_VALUE", f"`{kind}` is not a valid CatalogObjectType.", f"{where}.type")
    if not isinstance(obj.get("id"), str) or not obj["id"]:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", f"{where}.id")
    data = obj.get(data_key(kind))
    if data is not None and not isinstance(data, dict):
        raise invalid("EXPECTED_OBJECT", "Expected an object value.", f"{where}.{data_key(kind)}")
    return obj


Flat = list[tuple[Json, str, Json | None]]  # (object, where it is in the request, parent item)


def _flatten(objects: list[Any], where: Callable[[int], str]) -> Flat:
    """The objects of a batch with the variations nested in items, shape-checked."""
    flat: Flat = []
    for index, raw in enumerate(objects):
        obj = _check_shape(raw, where(index))
        flat.append((obj, where(index), None))
        if obj["type"] != "ITEM":
            continue
        item_data = require_object(obj, "item_data", where(index))
        variations = optional_list(item_data, "variations", f"{where(index)}.item_data") or []
        if not variations:
            name = item_data.get("name", "")
            raise invalid(
                "BAD_REQUEST",
                f"Item with name {name} and token {obj['id']} must have at least one variation.",
            )
        for v_index, variation in enumerate(variations):
            v_where = f"{where(index)}.item_data.variations[{v_index}]"
            checked = _check_shape(variation, v_where)
            if checked["type"] != "ITEM_VARIATION":
                raise invalid("INVALID_VALUE", "Item variations must have type ITEM_VARIATION.", v_where)
            flat.append((checked, v_where, obj))
    return flat


def _assign_ids(ledger: SimulatorLedger, flat: Flat) -> dict[str, str]:
    """Server ids for the ``#`` ids; existing ids must exist, keep their type and version."""
    mapping: dict[str, str] = {}
    seen: set[str] = set()
    for obj, obj_where, _parent in flat:
        client_id = obj["id"]
        if client_id in seen:
            raise invalid("INVALID_VALUE", f"Duplicate object id {client_id}.", f"{obj_where}.id")
        seen.add(client_id)
        if client_id.startswith("#"):
            mapping[client_id] = new_upper_id()
            continue
        stored = ledger.state.catalog.get(client_id)
        if stored is None or stored.get("is_deleted"):
            raise invalid("INVALID_VALUE", f"Object with id {client_id} not found.", f"{obj_where}.id")
        if stored["type"] != obj["type"]:
            raise invalid(
                "INVALID_VALUE", f"Object {client_id} is of type {stored['type']}.", f"{obj_where}.type"
            )
        version = obj.get("version")
        if version is not None and version != stored.get("version"):
            raise invalid(
                "CONFLICT", "Object version does not match latest database version.", f"{obj_where}.version"
            )
    return mapping


def _place_variation(
    ledger: SimulatorLedger, record: Json, where: str, parent_id: str | None, ordinals: dict[str, int]
) -> None:
    """Set a variation's ``item_id`` and ``ordinal`` (existing ones keep theirs)."""
    data = record.setdefault("item_variation_data", {})
    if parent_id is not None:
        data["item_id"] = parent_id
    item_id = data.get("item_id")
    if not isinstance(item_id, str):
        raise invalid(
            "MISSING_REQUIRED_PARAMETER",
            "Missing required parameter.",
            f"{where}.item_variation_data.item_id",
        )
    stored = ledger.state.catalog.get(record["id"])
    if parent_id is None and stored is not None:
        data["ordinal"] = stored["item_variation_data"].get("ordinal", 1)
        return
    if item_id not in ordinals:
        existing = [] if parent_id is not None else variations_of(ledger, item_id)
        ordinals[item_id] = max((v["item_variation_data"].get("ordinal", 0) for v in existing), default=0)
    ordinals[item_id] += 1
    data["ordinal"] = ordinals[item_id]


def _check_references(ledger: SimulatorLedger, staged: dict[str, Json]) -> None:
    for record in staged.values():
        for ref in references(record):
            target = staged.get(ref) or ledger.state.catalog.get(ref)
            if target is None or target.get("is_deleted"):
                raise invalid(
                    "INVALID_VALUE",
                    f"Object `{record['id']}` of type {record['type']} references unknown object `{ref}`.",
                )


def apply_objects(
    ledger: SimulatorLedger, objects: list[Any], where: Callable[[int], str]
) -> tuple[list[str], list[Json]]:
    """Write one batch of objects, all or nothing. Returns (top-level ids, id_mappings).

    ``where(index)`` names the object in error fields (``object``, ``batches[0].objects[3]``).
    """
    flat = _flatten(objects, where)
    mapping = _assign_ids(ledger, flat)
    version = ledger.next_catalog_version()
    now = ledger.timestamp()
    staged: dict[str, Json] = {}
    ordinals: dict[str, int] = {}
    for obj, obj_where, parent in flat:
        record = _replace_ids(copy.deepcopy(obj), mapping)
        record.update(version=version, updated_at=now, is_deleted=False)
        record.setdefault("present_at_all_locations", True)
        if record["type"] == "ITEM":
            record["item_data"].pop("variations", None)
        elif record["type"] == "ITEM_VARIATION":
            parent_id = mapping.get(parent["id"], parent["id"]) if parent is not None else None
            _place_variation(ledger, record, obj_where, parent_id, ordinals)
        staged[record["id"]] = record
    _check_references(ledger, staged)
    dropped = [
        v["id"]
        for obj, _where, parent in flat
        if parent is None and obj["type"] == "ITEM" and not obj["id"].startswith("#")
        for v in variations_of(ledger, obj["id"])
        if v["id"] not in staged
    ]
    ledger.state.catalog.update(staged)
    for variation_id in dropped:
        ledger.state.catalog[variation_id].update(is_deleted=True, version=version, updated_at=now)
    client_ids: list[str] = [obj["id"] for obj, _where, parent in flat if parent is None]
    top = [mapping.get(client_id, client_id) for client_id in client_ids]
    return top, [{"client_object_id": k, "object_id": v} for k, v in mapping.items()]


def upsert_object(req: SimRequest) -> SimResponse:
    """POST /v2/catalog/object."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, CATALOG_KEY_MAX)
    obj = require_object(body, "object")

    def upsert() -> SimResponse:
        top, id_mappings = apply_objects(ledger, [obj], lambda _index: "object")
        answer: Json = {"catalog_object": present(ledger, ledger.state.catalog[top[0]])}
        if id_mappings:
            answer["id_mappings"] = id_mappings
        return ok(answer)

    return run_idempotent(ledger, "UpsertCatalogObject", key, body, upsert)


def _batch_where(batch_index: int) -> Callable[[int], str]:
    """Names the objects of one batch in error fields: ``batches[0].objects[3]``."""
    return lambda index: f"batches[{batch_index}].objects[{index}]"


def batch_upsert(req: SimRequest) -> SimResponse:
    """POST /v2/catalog/batch-upsert: each batch all-or-nothing; failed batches reported in errors."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, CATALOG_KEY_MAX)
    batches = optional_list(body, "batches")
    if batches is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", "batches")
    total = 0
    for index, batch in enumerate(batches):
        if not isinstance(batch, dict):
            raise invalid("EXPECTED_OBJECT", "Expected an object value.", f"batches[{index}]")
        objects = optional_list(batch, "objects", f"batches[{index}]")
        if objects is None:
            raise invalid(
                "MISSING_REQUIRED_PARAMETER", "Missing required parameter.", f"batches[{index}].objects"
            )
        if len(objects) > BATCH_OBJECTS_MAX:
            raise invalid(
                "ARRAY_LENGTH_TOO_LONG", "At most 1000 objects per batch.", f"batches[{index}].objects"
            )
        total += len(objects)
    if total > REQUEST_OBJECTS_MAX:
        raise invalid("ARRAY_LENGTH_TOO_LONG", "At most 10000 objects per request.", "batches")

    def upsert() -> SimResponse:
        objects: list[Json] = []
        id_mappings: list[Json] = []
        errors: list[Json] = []
        for index, batch in enumerate(batches):
            try:
                top, mappings = apply_objects(ledger, batch["objects"], _batch_where(index))
            except SimError as exc:
                errors.extend(exc.errors)
                continue
            objects.extend(present(ledger, ledger.state.catalog[i]) for i in top)
            id_mappings.extend(mappings)
        if errors and not objects:
            raise SimError(400, errors)
        answer: Json = {"objects": objects, "updated_at": ledger.timestamp()}
        if id_mappings:
            answer["id_mappings"] = id_mappings
        if errors:
            answer["errors"] = errors
        return ok(answer)

    return run_idempotent(ledger, "BatchUpsertCatalogObjects", key, body, upsert)


def _delete(ledger: SimulatorLedger, object_id: str, version: int, now: str) -> list[str]:
    obj = ledger.state.catalog.get(object_id)
    if obj is None or obj.get("is_deleted"):
        return []
    doomed = [obj, *(variations_of(ledger, object_id) if obj["type"] == "ITEM" else [])]
    for target in doomed:
        target.update(is_deleted=True, version=version, updated_at=now)
    return [target["id"] for target in doomed]


def delete_object(req: SimRequest) -> SimResponse:
    """DELETE /v2/catalog/object/{object_id} (an item takes its variations with it)."""
    object_id = req.path_params["object_id"]
    ledger = req.ledger
    with ledger.lock:
        now = ledger.timestamp()
        deleted = _delete(ledger, object_id, ledger.next_catalog_version(), now)
        if not deleted:
            raise not_found(f"Object with id {object_id} not found.", "object_id")
        return ok({"deleted_object_ids": deleted, "deleted_at": now})


def batch_delete(req: SimRequest) -> SimResponse:
    """POST /v2/catalog/batch-delete: deletes what exists, reports only what it deleted."""
    ids = optional_list(req.body, "object_ids")
    if ids is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", "object_ids")
    if not all(isinstance(i, str) for i in ids):
        raise invalid("EXPECTED_STRING", "Expected a string value.", "object_ids")
    ledger = req.ledger
    with ledger.lock:
        now = ledger.timestamp()
        version = ledger.next_catalog_version()
        deleted: list[str] = []
        for object_id in ids:
            deleted.extend(_delete(ledger, object_id, version, now))
        return ok({"deleted_object_ids": deleted, "deleted_at": now})
