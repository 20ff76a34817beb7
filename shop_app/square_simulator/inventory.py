"""Inventory API of the simulator: BatchChangeInventory and BatchRetrieveInventoryCounts.

Counts are kept per (catalog_object_id, location_id, state); quantities are decimal strings with
at most 5 decimals. A PHYSICAL_COUNT sets a count; an ADJUSTMENT moves a positive quantity from
``from_state`` to ``to_state`` (NONE, SOLD and UNLINKED_RETURN are not counted: stock coming from
or going there appears or disappears). Adjustments may name the location as ``location_id``
(API 2025-08-20) or ``from_location_id``/``to_location_id`` (SDK 46); the answer uses
``location_id``. The object must be an existing ITEM_VARIATION. All changes of a request are
checked before any is applied. TRANSFER is not supported.
"""

from __future__ import annotations

import copy
import re
from datetime import datetime
from decimal import Decimal
from typing import Any

from shop_app.square_simulator.catalog import CATALOG_KEY_MAX
from shop_app.square_simulator.http import (
    SimRequest,
    SimResponse,
    decode_cursor,
    encode_cursor,
    idempotency_key,
    invalid,
    ok,
    optional_int,
    optional_list,
    optional_str,
    parse_time,
    require_object,
    require_str,
    run_idempotent,
)
from shop_app.square_simulator.state import CountEntry, Json, SimulatorLedger, count_json, new_upper_id

CHANGES_MAX = 100
COUNTS_MAX = 1000
STATES = frozenset(
    {
        "CUSTOM",
        "IN_STOCK",
        "SOLD",
        "RETURNED_BY_CUSTOMER",
        "RESERVED_FOR_SALE",
        "SOLD_ONLINE",
        "ORDERED_FROM_VENDOR",
        "RECEIVED_FROM_VENDOR",
        "IN_TRANSIT_TO",
        "NONE",
        "WASTE",
        "UNLINKED_RETURN",
        "COMPOSED",
        "DECOMPOSED",
        "SUPPORTED_BY_NEWER_VERSION",
        "IN_TRANSIT",
    }
)
UNCOUNTED = frozenset({"NONE", "SOLD", "UNLINKED_RETURN", "SUPPORTED_BY_NEWER_VERSION"})
_QUANTITY = re.compile(r"^-?\d{1,20}(\.\d{1,5})?$")
Key = tuple[str, str, str]


def _quantity(part: Json, where: str, *, positive: bool) -> Decimal:
    text = require_str(part, "quantity", max_length=26, prefix=where)
    if not _QUANTITY.match(text):
        raise invalid(
            "INVALID_VALUE", "Quantity must be a decimal with at most 5 decimals.", f"{where}.quantity"
        )
    value = Decimal(text)
    if value < 0 or (positive and value == 0):
        raise invalid("INVALID_VALUE", "Quantity must be positive.", f"{where}.quantity")
    return value


def _state(part: Json, name: str, where: str) -> str:
    value = require_str(part, name, prefix=where)
    if value not in STATES:
        raise invalid("INVALID_ENUM_VALUE", f"`{value}` is not a valid InventoryState.", f"{where}.{name}")
    return value


def _variation(ledger: SimulatorLedger, part: Json, where: str) -> str:
    object_id = require_str(part, "catalog_object_id", max_length=100, prefix=where)
    obj = ledger.state.catalog.get(object_id)
    if obj is None or obj.get("is_deleted") or obj["type"] != "ITEM_VARIATION":
        raise invalid("INVALID_VALUE", f"Item variation {object_id} not found.", f"{where}.catalog_object_id")
    return object_id


def _location(part: Json, where: str) -> str:
    plain = optional_str(part, "location_id", max_length=100, prefix=where)
    source = optional_str(part, "from_location_id", prefix=where)
    destination = optional_str(part, "to_location_id", prefix=where)
    if source and destination and source != destination:
        raise invalid(
            "BAD_REQUEST", "Transfers between locations are not supported.", f"{where}.to_location_id"
        )
    location = plain or source or destination
    if not location:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", f"{where}.location_id")
    return location


def _plan(
    ledger: SimulatorLedger, change: Any, index: int, now: str
) -> tuple[Json, list[tuple[Key, Decimal, bool]]]:
    """Check one change; return its stored form and the count updates (key, amount, absolute)."""
    where = f"changes[{index}]"
    if not isinstance(change, dict):
        raise invalid("EXPECTED_OBJECT", "Expected an object value.", where)
    kind = require_str(change, "type", prefix=where)
    if kind == "PHYSICAL_COUNT":
        part_where = f"{where}.physical_count"
        part = require_object(change, "physical_count", where)
        object_id = _variation(ledger, part, part_where)
        state = _state(part, "state", part_where)
        if state in UNCOUNTED:
            raise invalid(
                "INVALID_VALUE", f"A physical count cannot be in state {state}.", f"{part_where}.state"
            )
        location = _location(part, part_where)
        quantity = _quantity(part, part_where, positive=False)
        updates = [((object_id, location, state), quantity, True)]
    elif kind == "ADJUSTMENT":
        part_where = f"{where}.adjustment"
        part = require_object(change, "adjustment", where)
        object_id = _variation(ledger, part, part_where)
        source, target = _state(part, "from_state", part_where), _state(part, "to_state", part_where)
        location = _location(part, part_where)
        quantity = _quantity(part, part_where, positive=True)
        updates = []
        if source not in UNCOUNTED:
            updates.append(((object_id, location, source), -quantity, False))
        if target not in UNCOUNTED:
            updates.append(((object_id, location, target), quantity, False))
    elif kind == "TRANSFER":
        raise invalid("BAD_REQUEST", "The simulator does not support TRANSFER changes.", f"{where}.type")
    else:
        raise invalid("INVALID_ENUM_VALUE", f"`{kind}` is not a valid InventoryChangeType.", f"{where}.type")
    stored = copy.deepcopy(part)
    for name in ("from_location_id", "to_location_id"):
        stored.pop(name, None)
    stored.update(
        id=new_upper_id(26),
        catalog_object_type="ITEM_VARIATION",
        location_id=location,
        created_at=now,
    )
    stored.setdefault("occurred_at", now)
    return {"type": kind, part_where.rsplit(".", 1)[1]: stored}, updates


def batch_change(req: SimRequest) -> SimResponse:
    """POST /v2/inventory/changes/batch-create."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, CATALOG_KEY_MAX)
    changes = optional_list(body, "changes") or []
    if len(changes) > CHANGES_MAX:
        raise invalid("ARRAY_LENGTH_TOO_LONG", f"At most {CHANGES_MAX} changes per request.", "changes")

    def apply() -> SimResponse:
        now = ledger.timestamp()
        planned = [_plan(ledger, change, index, now) for index, change in enumerate(changes)]
        touched: list[Key] = []
        for stored, updates in planned:
            for count_key, amount, absolute in updates:
                entry = ledger.state.counts.get(count_key)
                base = Decimal(0) if entry is None or absolute else entry.quantity
                ledger.state.counts[count_key] = CountEntry(base + amount, now)
                if count_key not in touched:
                    touched.append(count_key)
            ledger.state.changes.append(stored)
        counts = [count_json(k, ledger.state.counts[k]) for k in touched]
        return ok({"counts": counts, "changes": [copy.deepcopy(s) for s, _ in planned]})

    return run_idempotent(ledger, "BatchChangeInventory", key, body, apply)


def batch_counts(req: SimRequest) -> SimResponse:
    """POST /v2/inventory/counts/batch-retrieve: filters objects, locations, states, updated_after."""
    body, ledger = req.body, req.ledger
    object_ids = optional_list(body, "catalog_object_ids")
    location_ids = optional_list(body, "location_ids")
    states = optional_list(body, "states")
    for index, state in enumerate(states or []):
        if state not in STATES:
            raise invalid(
                "INVALID_ENUM_VALUE", f"`{state}` is not a valid InventoryState.", f"states[{index}]"
            )
    updated_text = optional_str(body, "updated_after")
    updated_after = parse_time(updated_text, "updated_after") if updated_text else None
    limit = optional_int(body, "limit", minimum=1) or COUNTS_MAX
    if limit > COUNTS_MAX:
        raise invalid("VALUE_TOO_HIGH", f"limit must not be greater than {COUNTS_MAX}.", "limit")
    offset = decode_cursor(optional_str(body, "cursor"))
    with ledger.lock:
        found = [
            count_json(k, entry)
            for k, entry in ledger.state.counts.items()
            if (not object_ids or k[0] in object_ids)
            and (not location_ids or k[1] in location_ids)
            and (not states or k[2] in states)
            and (updated_after is None or datetime.fromisoformat(entry.calculated_at) > updated_after)
        ]
    page = found[offset : offset + limit]
    answer: Json = {"counts": page} if page else {}
    if offset + limit < len(found):
        answer["cursor"] = encode_cursor(offset + limit)
    return ok(answer)
