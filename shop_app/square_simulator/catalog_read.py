"""Reading the simulator's catalogue: ListCatalog, SearchCatalogObjects and RetrieveCatalogObject.

SearchCatalogObjects supports ``object_types``, ``include_deleted_objects``,
``include_related_objects``, ``begin_time``, ``limit``/``cursor`` and these queries (all given
ones must match): ``exact_query``, ``set_query``, ``prefix_query``, ``range_query`` and
``text_query`` (case-insensitive; text keywords match word prefixes of name, description,
abbreviation, SKU and UPC), ``sorted_attribute_query`` and ``items_for_tax_query``. An attribute
name is looked up on the object (``id``, ``version`` …) and then in its ``*_data``. Other query
kinds answer 400 BAD_REQUEST.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from shop_app.square_simulator.catalog import OBJECT_TYPES, data_key, present, references
from shop_app.square_simulator.http import (
    SimError,
    SimRequest,
    SimResponse,
    decode_cursor,
    encode_cursor,
    error,
    invalid,
    not_found,
    ok,
    optional_bool,
    optional_int,
    optional_list,
    optional_object,
    optional_str,
    parse_time,
)
from shop_app.square_simulator.state import Json, SimulatorLedger

LIST_PAGE = 100
SEARCH_DEFAULT_LIMIT = 100
SEARCH_MAX_LIMIT = 1000
# ListCatalog's default: the top-level types (no variations, modifiers or images).
LIST_DEFAULT_TYPES = frozenset(OBJECT_TYPES) - {"ITEM_VARIATION", "MODIFIER", "IMAGE", "ITEM_OPTION_VAL"}
TEXT_FIELDS = ("name", "description", "abbreviation", "sku", "upc")
SUPPORTED_QUERIES = frozenset(
    {
        "exact_query",
        "set_query",
        "prefix_query",
        "range_query",
        "text_query",
        "sorted_attribute_query",
        "items_for_tax_query",
    }
)


def related_objects(ledger: SimulatorLedger, objects: list[Json]) -> list[Json]:
    """Objects referenced by ``objects`` (categories, taxes, images, parent items), once each."""
    shown = {o["id"] for o in objects}
    related: dict[str, Json] = {}
    for obj in objects:
        for ref in references(obj):
            target = ledger.state.catalog.get(ref)
            if ref not in shown and ref not in related and target and not target.get("is_deleted"):
                related[ref] = present(ledger, target)
    return list(related.values())


def retrieve_object(req: SimRequest) -> SimResponse:
    """GET /v2/catalog/object/{object_id}?include_related_objects=true."""
    object_id = req.path_params["object_id"]
    ledger = req.ledger
    with ledger.lock:
        obj = ledger.state.catalog.get(object_id)
        if obj is None or obj.get("is_deleted"):
            raise not_found(f"Object with id {object_id} not found.", "object_id")
        answer: Json = {"object": present(ledger, obj)}
        if (req.query.get("include_related_objects") or "").lower() == "true":
            related = related_objects(ledger, [answer["object"]])
            if related:
                answer["related_objects"] = related
        return ok(answer)


def parse_types(text: str | None, field: str) -> frozenset[str] | None:
    """A comma-separated, case-insensitive list of CatalogObjectType values."""
    if not text:
        return None
    types = frozenset(t.strip().upper() for t in text.split(",") if t.strip())
    unknown = sorted(types - set(OBJECT_TYPES))
    if unknown:
        raise SimError(
            400,
            [
                error(
                    "INVALID_REQUEST_ERROR",
                    "INVALID_ENUM_VALUE",
                    f"`{t}` is not a valid CatalogObjectType.",
                    field,
                )
                for t in unknown
            ],
        )
    return types


def list_catalog(req: SimRequest) -> SimResponse:
    """GET /v2/catalog/list?types=ITEM,CATEGORY&cursor=…: pages of 100, never deleted objects."""
    types = parse_types(req.query.get("types"), "types") or LIST_DEFAULT_TYPES
    offset = decode_cursor(req.query.get("cursor"))
    ledger = req.ledger
    with ledger.lock:
        found = [o for o in ledger.state.catalog.values() if o["type"] in types and not o.get("is_deleted")]
        page = [present(ledger, o) for o in found[offset : offset + LIST_PAGE]]
        answer: Json = {"objects": page} if page else {}
        if offset + LIST_PAGE < len(found):
            answer["cursor"] = encode_cursor(offset + LIST_PAGE)
        return ok(answer)


def _attribute(obj: Json, name: str | None) -> Any:
    if name is not None and name in obj and not name.endswith("_data"):
        return obj[name]
    return (obj.get(data_key(obj["type"])) or {}).get(name)


def _text(value: Any) -> str:
    return str(value).casefold() if value is not None else ""


def _words(obj: Json) -> list[str]:
    data = obj.get(data_key(obj["type"])) or {}
    return " ".join(_text(data.get(f)) for f in TEXT_FIELDS).split()


def _query_filter(query: Json) -> tuple[list[Any], Json | None]:
    """Predicates for the query's parts, and its sorted_attribute_query (applied last)."""
    unsupported = sorted(k for k, v in query.items() if v is not None and k not in SUPPORTED_QUERIES)
    if unsupported:
        raise invalid("BAD_REQUEST", f"The simulator does not support {', '.join(unsupported)}.", "query")
    checks: list[Any] = []
    exact = optional_object(query, "exact_query", "query")
    if exact is not None:
        exact_name, value = exact.get("attribute_name"), _text(exact.get("attribute_value"))
        checks.append(lambda o: _text(_attribute(o, exact_name)) == value)
    set_query = optional_object(query, "set_query", "query")
    if set_query is not None:
        set_name = set_query.get("attribute_name")
        values = {_text(v) for v in set_query.get("attribute_values") or []}
        checks.append(lambda o: _text(_attribute(o, set_name)) in values)
    prefix = optional_object(query, "prefix_query", "query")
    if prefix is not None:
        prefix_name, start = prefix.get("attribute_name"), _text(prefix.get("attribute_prefix"))
        checks.append(
            lambda o: (
                _attribute(o, prefix_name) is not None and _text(_attribute(o, prefix_name)).startswith(start)
            )
        )
    ranged = optional_object(query, "range_query", "query")
    if ranged is not None:
        range_name = ranged.get("attribute_name")
        low = optional_int(ranged, "attribute_min_value", prefix="query.range_query")
        high = optional_int(ranged, "attribute_max_value", prefix="query.range_query")
        checks.append(
            lambda o: (
                isinstance(_attribute(o, range_name), int)
                and (low is None or _attribute(o, range_name) >= low)
                and (high is None or _attribute(o, range_name) <= high)
            )
        )
    text = optional_object(query, "text_query", "query")
    if text is not None:
        keywords = [_text(k) for k in optional_list(text, "keywords", "query.text_query") or []]
        if not 1 <= len(keywords) <= 3:
            raise invalid("INVALID_VALUE", "text_query needs 1 to 3 keywords.", "query.text_query.keywords")
        checks.append(lambda o: all(any(w.startswith(k) for w in _words(o)) for k in keywords))
    for_tax = optional_object(query, "items_for_tax_query", "query")
    if for_tax is not None:
        tax_ids = set(for_tax.get("tax_ids") or [])
        checks.append(lambda o: o["type"] == "ITEM" and bool(tax_ids & set(_attribute(o, "tax_ids") or [])))
    return checks, optional_object(query, "sorted_attribute_query", "query")


def _sort(objects: list[Json], sorted_query: Json) -> list[Json]:
    name = sorted_query.get("attribute_name")
    descending = (sorted_query.get("sort_order") or "ASC") == "DESC"
    start = sorted_query.get("initial_attribute_value")
    if start is not None:
        start_text = _text(start)
        objects = [
            o
            for o in objects
            if _attribute(o, name) is not None
            and (
                _text(_attribute(o, name)) <= start_text
                if descending
                else _text(_attribute(o, name)) >= start_text
            )
        ]
    present_first = sorted(
        (o for o in objects if _attribute(o, name) is not None),
        key=lambda o: _text(_attribute(o, name)),
        reverse=descending,
    )
    return present_first + [o for o in objects if _attribute(o, name) is None]


def search_catalog(req: SimRequest) -> SimResponse:
    """POST /v2/catalog/search."""
    body, ledger = req.body, req.ledger
    types = optional_list(body, "object_types")
    for index, kind in enumerate(types or []):
        if kind not in OBJECT_TYPES:
            raise invalid(
                "INVALID_ENUM_VALUE", f"`{kind}` is not a valid CatalogObjectType.", f"object_types[{index}]"
            )
    include_deleted = optional_bool(body, "include_deleted_objects") or False
    include_related = optional_bool(body, "include_related_objects") or False
    begin_text = optional_str(body, "begin_time")
    begin = parse_time(begin_text, "begin_time") if begin_text else None
    limit = min(optional_int(body, "limit", minimum=1) or SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT)
    offset = decode_cursor(optional_str(body, "cursor"))
    checks, sorted_query = _query_filter(optional_object(body, "query") or {})
    with ledger.lock:
        found = [
            o
            for o in ledger.state.catalog.values()
            if (include_deleted or not o.get("is_deleted"))
            and (not types or o["type"] in types)
            and (begin is None or datetime.fromisoformat(o["updated_at"]) >= begin)
        ]
        found = [present(ledger, o) for o in found]
        found = [o for o in found if all(check(o) for check in checks)]
        if sorted_query is not None:
            found = _sort(found, sorted_query)
        page = found[offset : offset + limit]
        answer: Json = {"objects": page} if page else {}
        if offset + limit < len(found):
            answer["cursor"] = encode_cursor(offset + limit)
        if include_related and page:
            related = related_objects(ledger, page)
            if related:
                answer["related_objects"] = related
        answer["latest_time"] = ledger.timestamp()
        return ok(answer)
