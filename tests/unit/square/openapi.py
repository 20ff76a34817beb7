"""Checks every request to and every answer from the simulator against Square's OpenAPI subset.

The subset (``square-openapi-subset.json``) lives in the repository, in
``tests/support/square_openapi/`` (its source, licence and the script that made it are in the
README.md there). Schemas are validated with ``openapi-schema-validator`` (OpenAPI 3.0 dialect, ``$ref``
resolved through a ``referencing`` registry):

- requests: the path and method must be an operation of the subset (or one of the few extra
  read endpoints below), query parameters must match their schemas (no unknown ones), the JSON
  or multipart body must validate against the request schema (write rules: no readOnly fields);
- answers: JSON, validated against the operation's response schema *in strict mode* (every
  object schema closed with ``additionalProperties: false``, so a misspelt or invented field
  fails), for errors too (every Square response schema has ``errors[]``); a non-2xx answer must
  carry at least one error; every ``*_at`` timestamp must be RFC 3339.

``SpecChecker.hooks()`` gives httpx event hooks for ``Square(httpx_client=…)``; ``seen`` records
which operations were exercised.
"""

from __future__ import annotations

import copy
import email.parser
import email.policy
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from openapi_schema_validator import OAS30ReadValidator, OAS30WriteValidator, oas30_format_checker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4
from rfc3339_validator import validate_rfc3339

SPEC_PATH = Path(__file__).resolve().parents[2] / "support" / "square_openapi" / "square-openapi-subset.json"
LOOSE = "urn:square-subset"
STRICT = "urn:square-subset-strict"
TIMESTAMP_KEYS = re.compile(r"(_at|_time|delayed_until)$")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _envelope(**properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"errors": {"type": "array", "items": _ref("Error")}, **properties},
    }


# Read endpoints the simulator serves beyond the subset, described with the subset's own schemas.
EXTRA_OPERATIONS: dict[tuple[str, str], tuple[frozenset[str], dict[str, Any] | None, dict[str, Any]]] = {
    ("GET", "/v2/payments"): (
        frozenset(
            {
                "begin_time",
                "end_time",
                "sort_order",
                "cursor",
                "location_id",
                "total",
                "last_4",
                "card_brand",
                "limit",
            }
        ),
        None,
        _envelope(payments={"type": "array", "items": _ref("Payment")}, cursor={"type": "string"}),
    ),
    ("GET", "/v2/payments/{payment_id}"): (frozenset(), None, _envelope(payment=_ref("Payment"))),
    ("POST", "/v2/payments/{payment_id}/complete"): (
        frozenset(),
        {"type": "object", "properties": {"version_token": {"type": "string"}}},
        _envelope(payment=_ref("Payment")),
    ),
    ("POST", "/v2/payments/{payment_id}/cancel"): (
        frozenset(),
        {"type": "object"},
        _envelope(payment=_ref("Payment")),
    ),
    ("GET", "/v2/refunds/{refund_id}"): (frozenset(), None, _envelope(refund=_ref("PaymentRefund"))),
    ("GET", "/v2/catalog/object/{object_id}"): (
        frozenset({"include_related_objects", "catalog_version", "include_category_path_to_root"}),
        None,
        _envelope(
            object=_ref("CatalogObject"), related_objects={"type": "array", "items": _ref("CatalogObject")}
        ),
    ),
    # Location is not in the subset: only the envelope is checked.
    ("GET", "/v2/locations"): (
        frozenset(),
        None,
        _envelope(locations={"type": "array", "items": {"type": "object"}}),
    ),
}


def _close_objects(spec: dict[str, Any]) -> dict[str, Any]:
    """A copy of the spec where every object schema with properties forbids other properties."""
    strict = copy.deepcopy(spec)
    for schema in strict["components"]["schemas"].values():
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
    return strict


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    parameters: dict[str, dict[str, Any]]
    request_schema: dict[str, Any] | None
    multipart: bool
    response_schema: dict[str, Any]
    in_subset: bool


@dataclass
class SpecChecker:
    """Validates exchanges with the simulator; raises AssertionError on the first problem."""

    path: Path = SPEC_PATH
    seen: set[tuple[str, str]] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.path.is_file():
            raise AssertionError(
                f"Square OpenAPI subset not found at {self.path} (see tests/support/square_openapi)"
            )
        spec = json.loads(self.path.read_text(encoding="utf-8"))
        self.spec = spec
        self.registry: Registry = Registry().with_resources(
            [
                (LOOSE, Resource.from_contents(spec, default_specification=DRAFT4)),
                (STRICT, Resource.from_contents(_close_objects(spec), default_specification=DRAFT4)),
            ]
        )
        self.operations = self._operations()

    # -- the operations -------------------------------------------------------------------------

    def _operations(self) -> list[Operation]:
        found: list[Operation] = []
        for template, item in self.spec["paths"].items():
            for method, op in item.items():
                params = {p["name"]: p for p in op.get("parameters", []) if p["in"] == "query"}
                content = op.get("requestBody", {}).get("content", {})
                multipart = "multipart/form-data" in content
                body = content.get("application/json") or content.get("multipart/form-data")
                response = op["responses"]["200"]["content"]["application/json"]["schema"]
                found.append(
                    Operation(
                        method.upper(),
                        template,
                        _pattern(template),
                        params,
                        body["schema"] if body else None,
                        multipart,
                        response,
                        True,
                    )
                )
        for (method, template), (query, request, response) in EXTRA_OPERATIONS.items():
            params = {name: {"name": name, "schema": {"type": "string"}} for name in query}
            found.append(
                Operation(method, template, _pattern(template), params, request, False, response, False)
            )
        return found

    def operation(self, method: str, path: str) -> Operation:
        for op in self.operations:
            if op.method == method and op.pattern.fullmatch(path):
                return op
        raise AssertionError(f"{method} {path} is not an operation of the Square subset")

    def subset_operations(self) -> set[tuple[str, str]]:
        return {(op.method, op.template) for op in self.operations if op.in_subset}

    # -- validation -----------------------------------------------------------------------------

    def errors(self, schema: dict[str, Any], instance: Any, *, write: bool, strict: bool) -> list[str]:
        """Problems of ``instance`` against a schema from the subset (``#/components/...`` refs)."""
        base = STRICT if strict else LOOSE
        rooted = json.loads(json.dumps(schema).replace('"#/components/', f'"{base}#/components/'))
        cls = OAS30WriteValidator if write else OAS30ReadValidator
        validator = cls(rooted, registry=self.registry, format_checker=oas30_format_checker)
        return [
            f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator.iter_errors(instance)
        ]

    def request_errors(self, request: httpx.Request, *, prefix: str = "") -> list[str]:
        """Problems of a request (empty when it is valid)."""
        path = request.url.path[len(prefix) :] if prefix else request.url.path
        op = self.operation(request.method, path)
        problems: list[str] = []
        for name, value in request.url.params.multi_items():
            param = op.parameters.get(name)
            if param is None:
                problems.append(f"unknown query parameter {name!r}")
                continue
            schema = param.get("schema", {})
            instance: Any = (
                int(value) if schema.get("type") == "integer" and value.lstrip("-").isdigit() else value
            )
            problems += self.errors(schema, instance, write=True, strict=False)
        if not request.headers.get("authorization", "").startswith("Bearer "):
            problems.append("no bearer token")
        if op.request_schema is None:
            return problems
        if op.multipart:
            return problems + self._multipart_errors(op, request)
        try:
            body = json.loads(request.content or b"{}")
        except ValueError:
            return [*problems, "body is not JSON"]
        return problems + self.errors(op.request_schema, body, write=True, strict=False)

    def _multipart_errors(self, op: Operation, request: httpx.Request) -> list[str]:
        header = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(header + request.content)
        parts = {part.get_param("name", header="content-disposition"): part for part in message.iter_parts()}
        problems: list[str] = []
        request_part = parts.get("request")
        if request_part is not None:
            payload = json.loads(request_part.get_payload(decode=True))
            schema = op.request_schema["properties"]["request"]
            problems += self.errors(schema, payload, write=True, strict=False)
        image = parts.get("image_file")
        if image is not None and not image.get_content_type().startswith("image/"):
            problems.append(f"image_file has content type {image.get_content_type()}")
        unknown = set(parts) - set(op.request_schema["properties"])
        if unknown:
            problems.append(f"unknown multipart parts {sorted(unknown)}")
        return problems

    def response_errors(self, response: httpx.Response, *, prefix: str = "") -> list[str]:
        """Problems of an answer (empty when it is valid)."""
        request = response.request
        path = request.url.path[len(prefix) :] if prefix else request.url.path
        op = self.operation(request.method, path)
        if not response.headers.get("content-type", "").startswith("application/json"):
            return [f"answer is not JSON: {response.headers.get('content-type')}"]
        body = response.json()
        problems = self.errors(op.response_schema, body, write=False, strict=True)
        if response.status_code >= 300 and not body.get("errors"):
            problems.append(f"HTTP {response.status_code} without errors[]")
        problems += [
            f"{key}: {value!r} is not RFC 3339"
            for key, value in _timestamps(body)
            if not validate_rfc3339(value)
        ]
        return problems

    # -- httpx hooks ----------------------------------------------------------------------------

    def check_request(self, request: httpx.Request, prefix: str = "") -> None:
        request.read()  # a multipart body is streamed until read
        problems = self.request_errors(request, prefix=prefix)
        assert not problems, f"{request.method} {request.url.path} request: {problems}"

    def check_response(self, response: httpx.Response, prefix: str = "") -> None:
        problems = self.response_errors(response, prefix=prefix)
        op = self.operation(response.request.method, response.request.url.path[len(prefix) :])
        self.seen.add((op.method, op.template))
        assert not problems, f"{response.request.method} {response.request.url.path} answer: {problems}"

    def hooks(self, prefix: str = "") -> dict[str, list[Callable[..., Any]]]:
        """Event hooks for a blocking ``httpx.Client``."""

        def on_response(response: httpx.Response) -> None:
            response.read()
            self.check_response(response, prefix)

        return {"request": [lambda r: self.check_request(r, prefix)], "response": [on_response]}

    def async_hooks(self, prefix: str = "") -> dict[str, list[Callable[..., Any]]]:
        """Event hooks for an ``httpx.AsyncClient``."""

        async def on_request(request: httpx.Request) -> None:
            await request.aread()
            self.check_request(request, prefix)

        async def on_response(response: httpx.Response) -> None:
            await response.aread()
            self.check_response(response, prefix)

        return {"request": [on_request], "response": [on_response]}


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template)))


def _timestamps(value: Any, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in _timestamps(v, k)]
    if isinstance(value, list):
        return [pair for v in value for pair in _timestamps(v, key)]
    if isinstance(value, str) and TIMESTAMP_KEYS.search(key):
        return [(key, value)]
    return []
