"""A wire-compatible subset of Square's API, as a Starlette app (``SQUARE_ENVIRONMENT=local``).

``create_simulator(ledger)`` serves, under any prefix (the shop mounts it at ``/_square``); the
operations marked * are those of Square's OpenAPI subset (tests/support/square_openapi):

- payments (``payments``): ``POST /v2/payments`` CreatePayment*, ``GET /v2/payments``
  ListPayments, ``GET /v2/payments/{id}``, ``POST /v2/payments/{id}/complete`` and ``/cancel``;
- refunds (``refunds``): ``POST /v2/refunds`` RefundPayment*, ``GET /v2/refunds/{id}``;
- catalogue (``catalog``, ``catalog_read``, ``images``): ``POST /v2/catalog/object``
  UpsertCatalogObject*, ``GET``/``DELETE /v2/catalog/object/{id}`` (DeleteCatalogObject*),
  ``POST /v2/catalog/batch-upsert``*, ``POST /v2/catalog/batch-delete``*,
  ``GET /v2/catalog/list``*, ``POST /v2/catalog/search``*, ``POST /v2/catalog/images``*
  (multipart);
- inventory (``inventory``): ``POST /v2/inventory/changes/batch-create``*,
  ``POST /v2/inventory/counts/batch-retrieve``*;
- ``GET /v2/locations`` (the simulator's one location), and without a token
  ``GET /receipt/preview/{id}`` (the page of ``payment.receipt_url``) and
  ``GET /files/{id}/{name}`` (an uploaded catalogue image);
- not Square's: ``POST /_simulator/faults`` ``{path, kind, times, method}`` injects a fault
  (``SimulatorLedger.fail_next``) for a client in another process, such as a browser test
  driving the running shop, and ``DELETE /_simulator/faults`` forgets them; both need the token.

Every ``/v2`` call needs ``Authorization: Bearer <token>`` (any non-empty token unless
``access_token`` is given), else 401 UNAUTHORIZED. Errors are ``{"errors": [{category, code,
detail, field}]}``; the simulator never answers 408/409/429/5xx (which the SDK retries) unless a
fault is injected through the ledger (``SimulatorLedger.fail_next``). The tests check every
request and answer against Square's OpenAPI subset (``tests/support/square_openapi``).

``shared_simulator()`` is the process-wide instance the shop mounts and its local payment
gateway calls in-process, so both see one ledger. The ledger lives in memory, so several backend
workers must not each have their own (a payment taken through one would be invisible to another's
reconciliation, and could be taken again there): with more than one worker the simulator runs as
one process of its own (``python -m shop_app square-simulator``, started by ``serve``) and every
worker reaches it over HTTP (``SQUARE_SIMULATOR_URL``).
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Callable
from functools import lru_cache

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from shop_app.settings import get_settings
from shop_app.square_simulator import (
    catalog,
    catalog_read,
    images,
    inventory,
    payments,
    refunds,
)
from shop_app.square_simulator.http import (
    SimError,
    SimRequest,
    SimResponse,
    UploadedFile,
    error,
    invalid,
    ok,
)
from shop_app.square_simulator.local_token import local_token
from shop_app.square_simulator.state import (
    AFTER_PROCESSING,
    DEFAULT_LOCATION_ID,
    FAULT_KINDS,
    PAYMENTS_PATH,
    WHILE_PROCESSING,
    Fault,
    FaultKind,
    Json,
    SimulatorLedger,
    is_fault_kind,
)

Handler = Callable[[SimRequest], SimResponse]
MAX_MULTIPART_BYTES = 16 * 1024 * 1024
FAULTS_PATH = "/_simulator/faults"
MAX_FAULT_TIMES = 100
FAULT_METHODS = ("GET", "POST", "PUT", "DELETE")


class SimulatedDisconnect(Exception):
    """Raised by the simulator after starting an answer, to drop the connection (a fault)."""


def list_locations(req: SimRequest) -> SimResponse:
    """GET /v2/locations: the simulator's single location."""
    ledger = req.ledger
    location = {
        "id": ledger.location_id,
        "name": "Local Square simulator",
        "status": "ACTIVE",
        "country": "CA",
        "currency": ledger.currency,
        "capabilities": ["CREDIT_CARD_PROCESSING"],
        "merchant_id": "MLOCALSIMULATOR",
        "created_at": "2026-01-01T00:00:00.000Z",
    }
    return ok({"locations": [location]})


ROUTES: tuple[tuple[str, str, Handler], ...] = (
    ("POST", "/v2/payments", payments.create_payment),
    ("GET", "/v2/payments", payments.list_payments),
    ("GET", "/v2/payments/{payment_id}", payments.get_payment),
    ("POST", "/v2/payments/{payment_id}/complete", payments.complete_payment),
    ("POST", "/v2/payments/{payment_id}/cancel", payments.cancel_payment),
    ("POST", "/v2/refunds", refunds.refund_payment),
    ("GET", "/v2/refunds/{refund_id}", refunds.get_refund),
    ("POST", "/v2/catalog/object", catalog.upsert_object),
    ("GET", "/v2/catalog/object/{object_id}", catalog_read.retrieve_object),
    ("DELETE", "/v2/catalog/object/{object_id}", catalog.delete_object),
    ("POST", "/v2/catalog/batch-upsert", catalog.batch_upsert),
    ("POST", "/v2/catalog/batch-delete", catalog.batch_delete),
    ("GET", "/v2/catalog/list", catalog_read.list_catalog),
    ("POST", "/v2/catalog/search", catalog_read.search_catalog),
    ("POST", "/v2/catalog/images", images.create_image),
    ("POST", "/v2/inventory/changes/batch-create", inventory.batch_change),
    ("POST", "/v2/inventory/counts/batch-retrieve", inventory.batch_counts),
    ("GET", "/v2/locations", list_locations),
)


def _json(status: int, body: Json) -> Response:
    return Response(json.dumps(body), status_code=status, media_type="application/json")


def _errors(status: int, *errors: Json) -> Response:
    return _json(status, {"errors": list(errors)})


def _server_error() -> Response:
    return _errors(500, error("API_ERROR", "INTERNAL_SERVER_ERROR", "An injected fault (simulator)."))


class _DroppedConnection(Response):
    """Starts an answer, then raises so the server closes the connection without finishing it."""

    def __init__(self) -> None:
        super().__init__(status_code=200)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"1024")],
            }
        )
        raise SimulatedDisconnect("connection dropped by an injected fault")


def _relative_path(scope: Scope) -> str:
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root + "/") else path


async def _read_body(request: Request) -> tuple[Json, dict[str, UploadedFile]]:
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        body: Json = {}
        files: dict[str, UploadedFile] = {}
        async with request.form(max_part_size=MAX_MULTIPART_BYTES) as form:
            for name, value in form.multi_items():
                if isinstance(value, str):
                    if name == "request":
                        body = _parse_json(value.encode())
                    continue
                data = await value.read()
                files[name] = UploadedFile(value.filename or "", value.content_type or "", data)
        return body, files
    raw = await request.body()
    return (_parse_json(raw) if raw.strip() else {}), {}


def _parse_json(raw: bytes) -> Json:
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise SimError(
            400, [error("INVALID_REQUEST_ERROR", "EXPECTED_JSON_BODY", "Expected a JSON object body.")]
        )
    return body


def _authorized(request: Request, access_token: str | None) -> bool:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return scheme.lower() == "bearer" and bool(token) and (access_token is None or token == access_token)


def _endpoint(
    handler: Handler, template: str, ledger: SimulatorLedger, public_url: str | None, access_token: str | None
) -> Callable[[Request], object]:
    async def endpoint(request: Request) -> Response:
        if not _authorized(request, access_token):
            return _errors(
                401, error("AUTHENTICATION_ERROR", "UNAUTHORIZED", "This request could not be authorized.")
            )
        path = _relative_path(request.scope)
        try:
            body, files = await _read_body(request)
        except SimError as exc:
            return _errors(exc.status, *exc.errors)
        key = body.get("idempotency_key")
        ledger.record_request(request.method, path, key if isinstance(key, str) else None)
        fault = ledger.take_fault(request.method, path, template)
        if fault is not None and fault.kind not in AFTER_PROCESSING | WHILE_PROCESSING:
            return await _misbehave(fault)
        sim_request = SimRequest(
            ledger=ledger,
            public_url=public_url or str(request.base_url).rstrip("/"),
            body=body,
            query=dict(request.query_params),
            path_params=dict(request.path_params),
            files=files,
            fault=fault.kind if fault is not None and fault.kind in WHILE_PROCESSING else None,
        )
        with ledger.lock:  # answer from a consistent state, serialised before anyone changes it
            try:
                answer = handler(sim_request)
                status, payload = answer.status, json.dumps(answer.body)
            except SimError as exc:
                status, payload = exc.status, json.dumps({"errors": exc.errors})
        if fault is not None and fault.kind in AFTER_PROCESSING:
            if fault.kind == "drop_after_charge":
                return _DroppedConnection()
            if fault.kind == "http_500_after_charge":
                return _server_error()
            await asyncio.sleep(fault.delay_s)  # timeout_after_charge
        return Response(payload, status_code=status, media_type="application/json")

    return endpoint


async def _misbehave(fault: Fault) -> Response:
    if fault.kind == "http_500":
        return _server_error()
    if fault.kind == "timeout":
        await asyncio.sleep(fault.delay_s)
    return _DroppedConnection()


def _fault_request(body: Json) -> tuple[str, FaultKind, int, str | None]:
    """``(path, kind, times, method)`` of a fault switch request; SimError when one is wrong."""
    path, kind, times, method = (body.get(k) for k in ("path", "kind", "times", "method"))
    kind = "http_500" if kind is None else kind
    times = 1 if times is None else times
    if not (isinstance(path, str) and path.startswith("/v2/")):
        raise invalid("INVALID_VALUE", "path must be a /v2/ path of the simulator.", "path")
    if not is_fault_kind(kind):
        raise invalid("INVALID_VALUE", f"kind must be one of {sorted(FAULT_KINDS)}.", "kind")
    if kind in WHILE_PROCESSING and (path, method) not in ((PAYMENTS_PATH, None), (PAYMENTS_PATH, "POST")):
        raise invalid("INVALID_VALUE", f"kind {kind} is for POST {PAYMENTS_PATH} only.", "kind")
    if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= MAX_FAULT_TIMES:
        raise invalid("INVALID_VALUE", f"times must be a whole number from 1 to {MAX_FAULT_TIMES}.", "times")
    if method is not None and method not in FAULT_METHODS:
        raise invalid("INVALID_VALUE", f"method must be one of {list(FAULT_METHODS)}.", "method")
    return path, kind, times, method


def _fault_switch(ledger: SimulatorLedger, access_token: str | None) -> Callable[[Request], object]:
    async def endpoint(request: Request) -> Response:
        if not _authorized(request, access_token):
            return _errors(
                401, error("AUTHENTICATION_ERROR", "UNAUTHORIZED", "This request could not be authorized.")
            )
        try:
            if request.method == "DELETE":
                ledger.clear_faults()
            else:
                path, kind, times, method = _fault_request((await _read_body(request))[0])
                ledger.fail_next(path, kind, times=times, method=method)
        except SimError as exc:
            return _errors(exc.status, *exc.errors)
        return _json(200, {})

    return endpoint


def _receipt(ledger: SimulatorLedger) -> Callable[[Request], object]:
    async def receipt(request: Request) -> Response:
        payment = ledger.payment(request.path_params["payment_id"])
        if payment is None:
            return HTMLResponse("<h1>Receipt not found</h1>", status_code=404)
        money = payment["total_money"]
        card = payment["card_details"]["card"]
        rows = [
            ("Payment", payment["id"]),
            ("Status", payment["status"]),
            ("Amount", f"{money['amount'] / 100:.2f} {money['currency']}"),
            ("Card", f"{card['card_brand']} •••• {card['last_4']}"),
            ("Date", payment["created_at"]),
        ]
        cells = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>" for k, v in rows)
        page = (
            "<!doctype html><html lang=en><meta charset=utf-8><title>Receipt (simulator)</title>"
            f"<h1>Receipt</h1><p>Local Square simulator: no money moved.</p><table>{cells}</table></html>"
        )
        return HTMLResponse(page)

    return receipt


def _image_file(ledger: SimulatorLedger) -> Callable[[Request], object]:
    async def image_file(request: Request) -> Response:
        stored = ledger.image_file(request.path_params["image_id"])
        if stored is None:
            return _errors(404, error("INVALID_REQUEST_ERROR", "NOT_FOUND", "Image not found."))
        return Response(stored.data, media_type=stored.content_type)

    return image_file


async def _http_error(_request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(status, "BAD_REQUEST")
    return _errors(
        status, error("INVALID_REQUEST_ERROR", code, "No such Square API endpoint in the simulator.")
    )


def create_simulator(
    ledger: SimulatorLedger | None = None,
    *,
    public_url: str | None = None,
    access_token: str | None = None,
) -> Starlette:
    """The simulator app. ``app.state.ledger`` is its ledger (a new one unless given).

    ``public_url`` is the simulator's address as browsers see it (for ``receipt_url`` and image
    URLs); by default the address of each request. ``access_token`` makes one token the only
    valid one; by default any non-empty bearer token is accepted.
    """
    if ledger is None:
        ledger = SimulatorLedger()
    base = public_url.rstrip("/") if public_url else None
    routes = [
        Route(path, _endpoint(handler, path, ledger, base, access_token), methods=[method])
        for method, path, handler in ROUTES
    ]
    routes.append(Route("/receipt/preview/{payment_id}", _receipt(ledger), methods=["GET"]))
    routes.append(Route("/files/{image_id}/{filename}", _image_file(ledger), methods=["GET"]))
    routes.append(Route(FAULTS_PATH, _fault_switch(ledger, access_token), methods=["POST", "DELETE"]))
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    app.state.ledger = ledger
    return app


@lru_cache(maxsize=1)
def shared_simulator() -> Starlette:
    """The process-wide simulator: mounted at ``/_square`` and called by the local gateway.

    The shop's local card form sends the bare sandbox values (``cnon:card-nonce-ok`` …) for every
    order, as Square's sandbox allows, so those may be reused here; any other nonce (including a
    suffixed ``cnon:card-nonce-ok:<unique>``) still pays only once.
    """
    settings = get_settings()
    ledger = SimulatorLedger(
        location_id=settings.square_location_id or DEFAULT_LOCATION_ID, reusable_test_values=True
    )
    # Mounted at /_square on the shop's own origin: only the shop's secret opens its API (its
    # payments list names every buyer and order); receipts and image files stay public links.
    return create_simulator(ledger, public_url=f"{settings.site_url}/_square", access_token=local_token())


def simulator_ledger(app: Starlette) -> SimulatorLedger:
    """The ledger of a simulator app."""
    ledger: SimulatorLedger = app.state.ledger
    return ledger
