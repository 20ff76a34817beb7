"""Shared pieces of the simulator's handlers: Square-style errors, field checks, idempotency.

A handler gets a ``SimRequest`` and returns a ``SimResponse``; a request it refuses raises
``SimError`` (status + ``errors[]`` in Square's shape). Status codes follow Square where known
and never use 408/409/429/5xx, which the SDK retries: validation problems and declines are 400,
unknown ids 404, a missing token 401.

``errors[]`` entries and Money values are built with the SDK's own models (``square.types``:
``Error``, ``Money``) and written out with ``sdk_json``, as are the payments and refunds.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from square.types.error import Error
from square.types.money import Money

from shop_app.square_simulator.state import IdempotencyEntry, Json, SimulatorLedger, StoredResponse

INVALID_REQUEST = "INVALID_REQUEST_ERROR"
MAX_INT64 = 2**63 - 1
_CURRENCY = re.compile(r"^[A-Z]{3}$")


def sdk_json(model: BaseModel) -> Json:
    """An SDK model (``square.types``) as Square's JSON: wire names, unset fields left out."""
    # Python mode: the SDK's JSON-mode serializer keeps fields explicitly set to None.
    return model.model_dump(by_alias=True, exclude_none=True)


def error(category: str, code: str, detail: str, field: str | None = None) -> Json:
    """One entry of ``errors[]``."""
    return sdk_json(Error(category=category, code=code, detail=detail, field=field or None))


class SimError(Exception):
    """A refused request: answered with ``status`` and ``{"errors": [...]}``."""

    def __init__(self, status: int, errors: list[Json]) -> None:
        super().__init__(errors[0]["detail"] if errors else str(status))
        self.status = status
        self.errors = errors


def invalid(code: str, detail: str, field: str | None = None, *, status: int = 400) -> SimError:
    """An INVALID_REQUEST_ERROR."""
    return SimError(status, [error(INVALID_REQUEST, code, detail, field)])


def not_found(detail: str, field: str | None = None) -> SimError:
    """404 NOT_FOUND."""
    return invalid("NOT_FOUND", detail, field, status=404)


@dataclass(frozen=True, slots=True)
class SimResponse:
    """A handler's answer."""

    status: int
    body: Json


def ok(body: Json) -> SimResponse:
    """A 200 answer."""
    return SimResponse(200, body)


@dataclass
class SimRequest:
    """What a handler sees of a request."""

    ledger: SimulatorLedger
    public_url: str
    body: Json = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    path_params: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, UploadedFile] = field(default_factory=dict)
    fault: str | None = None  # an injected fault that changes the processing (state.WHILE_PROCESSING)


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


# -- field checks --------------------------------------------------------------------------------


def _name(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def require_object(body: Mapping[str, Any], key: str, prefix: str = "") -> Json:
    """A required JSON object field."""
    value = body.get(key)
    if value is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", _name(prefix, key))
    if not isinstance(value, dict):
        raise invalid("EXPECTED_OBJECT", "Expected an object value.", _name(prefix, key))
    return value


def optional_object(body: Mapping[str, Any], key: str, prefix: str = "") -> Json | None:
    """An optional JSON object field."""
    if body.get(key) is None:
        return None
    return require_object(body, key, prefix)


def optional_list(body: Mapping[str, Any], key: str, prefix: str = "") -> list[Any] | None:
    """An optional JSON array field."""
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, list):
        raise invalid("EXPECTED_ARRAY", "Expected an array value.", _name(prefix, key))
    return value


def optional_str(
    body: Mapping[str, Any], key: str, *, max_length: int | None = None, prefix: str = ""
) -> str | None:
    """An optional string field, at most ``max_length`` characters."""
    value = body.get(key)
    if value is None:
        return None
    name = _name(prefix, key)
    if not isinstance(value, str):
        raise invalid("EXPECTED_STRING", "Expected a string value.", name)
    if max_length is not None and len(value) > max_length:
        raise invalid("VALUE_TOO_LONG", f"Field must not be greater than {max_length} length.", name)
    return value


def require_str(body: Mapping[str, Any], key: str, *, max_length: int | None = None, prefix: str = "") -> str:
    """A required, non-empty string field."""
    value = optional_str(body, key, max_length=max_length, prefix=prefix)
    if value is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", _name(prefix, key))
    if not value:
        raise invalid("VALUE_TOO_SHORT", "Field must not be less than 1 length.", _name(prefix, key))
    return value


def optional_bool(body: Mapping[str, Any], key: str, prefix: str = "") -> bool | None:
    """An optional boolean field."""
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise invalid("EXPECTED_BOOLEAN", "Expected a boolean value.", _name(prefix, key))
    return value


def optional_int(
    body: Mapping[str, Any], key: str, *, minimum: int | None = None, prefix: str = ""
) -> int | None:
    """An optional integer field (booleans and floats are refused)."""
    value = body.get(key)
    if value is None:
        return None
    name = _name(prefix, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid("EXPECTED_INTEGER", "Expected an integer value.", name)
    if minimum is not None and value < minimum:
        raise invalid("VALUE_TOO_LOW", f"Field must not be less than {minimum}.", name)
    if value > MAX_INT64:
        raise invalid("VALUE_TOO_HIGH", f"Field must not be greater than {MAX_INT64}.", name)
    return value


def money(body: Mapping[str, Any], key: str, *, minimum: int = 1) -> Json:
    """A required Money field: integer ``amount`` ≥ ``minimum`` (smallest unit), ISO ``currency``."""
    value = require_object(body, key)
    amount = optional_int(value, "amount", minimum=minimum, prefix=key)
    if amount is None:
        raise invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", f"{key}.amount")
    currency = require_str(value, "currency", prefix=key)
    if not _CURRENCY.match(currency):
        raise invalid("INVALID_ENUM_VALUE", f"`{currency}` is not a valid currency.", f"{key}.currency")
    return sdk_json(Money(amount=amount, currency=currency))


def parse_time(text: str, field: str) -> datetime:
    """An RFC 3339 timestamp with a time zone (INVALID_TIME otherwise)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise invalid("INVALID_TIME", f"`{field}` is not a valid RFC 3339 timestamp.", field)
    return moment


def idempotency_key(body: Mapping[str, Any], max_length: int) -> str:
    """The request's ``idempotency_key``: required, 1..``max_length`` characters."""
    return require_str(body, "idempotency_key", max_length=max_length)


# -- idempotency ---------------------------------------------------------------------------------


def canonical(body: Any) -> str:
    """A request body as canonical JSON (key order and spacing do not matter)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def run_idempotent(
    ledger: SimulatorLedger, endpoint: str, key: str, body: Any, work: Callable[[], SimResponse]
) -> SimResponse:
    """Do ``work`` once per (endpoint, key); replay its answer for the same body.

    A different body with a used key is refused with IDEMPOTENCY_KEY_REUSED. A ``SimError`` from
    ``work`` (nothing happened) is not remembered, so the caller may fix the request.
    """
    request = canonical(body)
    with ledger.lock:
        entry = ledger.state.idempotency.get((endpoint, key))
        if entry is not None:
            if entry.canonical_request != request:
                raise invalid(
                    "IDEMPOTENCY_KEY_REUSED",
                    "The idempotency key can only be retried with the same request data.",
                    "idempotency_key",
                )
            return SimResponse(entry.response.status, copy.deepcopy(entry.response.body))
        response = work()
        stored = StoredResponse(response.status, copy.deepcopy(response.body))
        ledger.state.idempotency[(endpoint, key)] = IdempotencyEntry(request, stored)
        return response


# -- pagination ----------------------------------------------------------------------------------


def decode_cursor(cursor: str | None, field: str = "cursor") -> int:
    """The offset an opaque cursor stands for."""
    if not cursor:
        return 0
    try:
        offset = int(base64.urlsafe_b64decode(cursor.encode()).decode())
    except (ValueError, binascii.Error, UnicodeDecodeError):
        offset = -1
    if offset < 0:
        raise invalid("INVALID_CURSOR", "The pagination cursor is not valid.", field)
    return offset


def encode_cursor(offset: int) -> str:
    """An opaque cursor for the next page."""
    return base64.urlsafe_b64encode(str(offset).encode()).decode()
