"""Printable invoices and packing slips (issue 19, acceptance 4): HTML pages with a print stylesheet.

- ``GET /orders/{order_id}/invoice``: an admin, the order's customer (signed in), or a guest with
  the signed order link's secret (``?token=…``, as ``/order-status`` takes it);
- ``GET /orders/{order_id}/packing-slip``: admins only;
- ``GET /admin/orders/print?ids=1,2,3&doc=invoice|packing-slip``: admins only, up to
  ``services.invoices.MAX_BATCH`` orders one after another, each on its own page.

Who may see an order's document is decided on the server on every request, from the HttpOnly
session cookie (the role read from the database, as ``api.admin_access`` does) and
``services.invoices.may_see``. Everyone else gets the same 404 as for an order that does not
exist, so a page never reveals that an order exists. Only an admin's batch says which of its ids
are malformed (400) or unknown (404).

Every answer is private and never stored (``Cache-Control: private, no-store``), kept out of
search engines (``X-Robots-Tag: noindex``) and sends no referrer (a guest's address holds the
link's secret); ``api.security.SecurityHeaders`` adds the shop's other headers, as to every page.
"""

from __future__ import annotations

from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from shop_app import routes
from shop_app.api import invoice_html
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.services import invoices, sessions
from shop_app.services.invoices import MAX_BATCH, DocumentKind

PRIVATE_HEADERS: Final = {
    "Cache-Control": "private, no-store",
    "X-Robots-Tag": "noindex",
    "Referrer-Policy": "no-referrer",
}
NOT_FOUND_TITLE: Final = "Not Found"
NOT_FOUND_TEXT: Final = "There is no such order to print."
BAD_REQUEST_TITLE: Final = "Cannot print these orders"
NO_IDS: Final = "Choose at least one order to print (ids=1,2,3)."
TOO_MANY: Final = f"Print at most {MAX_BATCH} orders at a time."
BAD_DOC: Final = "Choose what to print: doc=invoice or doc=packing-slip."


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=PRIVATE_HEADERS)


def _not_found(message: str = NOT_FOUND_TEXT) -> HTMLResponse:
    return _html(invoice_html.message_page(NOT_FOUND_TITLE, message), 404)


def _bad_request(message: str) -> HTMLResponse:
    return _html(invoice_html.message_page(BAD_REQUEST_TITLE, message), 400)


async def _one(request: Request, kind: DocumentKind) -> HTMLResponse:
    order_id = validation.parse_id(request.path_params.get("order_id", ""))
    secret = request.cookies.get(sessions.COOKIE_NAME, "")
    token = request.query_params.get("token", "")

    def build() -> HTMLResponse:
        if order_id is None:
            return _not_found()
        with session_scope() as session:
            user = sessions.resolve_cookie(session, secret) if secret else None
            allowed = invoices.may_see(session, order_id=order_id, kind=kind, user=user, token=token)
            document = invoices.order_document(session, order_id) if allowed else None
        if document is None:
            return _not_found()
        if kind == DocumentKind.INVOICE:
            return _html(
                invoice_html.page(invoice_html.invoice_title(document), [invoice_html.invoice(document)])
            )
        title = invoice_html.packing_slip_title(document)
        return _html(invoice_html.page(title, [invoice_html.packing_slip(document)]))

    return await run_in_threadpool(build)


async def invoice(request: Request) -> HTMLResponse:
    """An order's invoice."""
    return await _one(request, DocumentKind.INVOICE)


async def packing_slip(request: Request) -> HTMLResponse:
    """An order's packing slip (admins)."""
    return await _one(request, DocumentKind.PACKING_SLIP)


def parse_ids(text: str) -> list[int] | str:
    """The order ids of ``ids=1,2,3`` (repeats dropped, order kept), or why they are refused."""
    parts = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not parts:
        return NO_IDS
    if len(parts) > MAX_BATCH:  # counted once each: ids=1,1,… is one order
        return TOO_MANY
    ids: list[int] = []
    for part in parts:
        order_id = validation.parse_id(part)
        if order_id is None:
            return f"{part[:20]!r} is not an order id."
        if order_id not in ids:
            ids.append(order_id)
    return ids


async def batch(request: Request) -> HTMLResponse:
    """Several orders' invoices or packing slips on one page, each on a page of its own (admins)."""
    secret = request.cookies.get(sessions.COOKIE_NAME, "")
    wanted = parse_ids(request.query_params.get("ids", ""))
    doc = request.query_params.get("doc", DocumentKind.INVOICE.value)

    def build() -> HTMLResponse:
        with session_scope() as session:
            user = sessions.resolve_cookie(session, secret) if secret else None
            if user is None or not user.is_admin:
                return _not_found()
            if isinstance(wanted, str):
                return _bad_request(wanted)
            if doc not in {kind.value for kind in DocumentKind}:
                return _bad_request(BAD_DOC)
            placed = invoices.placed_ids(session, wanted)
            missing = [str(order_id) for order_id in wanted if order_id not in placed]
            if missing:
                return _not_found(f"No placed order has the id {', '.join(missing)}.")
            documents = invoices.order_documents(session, wanted)
        count = f"{len(documents)} order{'' if len(documents) == 1 else 's'}"
        if doc == DocumentKind.INVOICE:
            title, render = f"Invoices ({count})", invoice_html.invoice
        else:
            title, render = f"Packing slips ({count})", invoice_html.packing_slip
        return _html(invoice_html.page(title, [render(document) for document in documents]))

    return await run_in_threadpool(build)


def invoice_routes() -> list[Route]:
    """The routes above, for ``create_api`` (before Reflex's own ``/admin/orders/[order_id]``)."""
    return [
        Route(routes.ORDER_INVOICE, invoice, methods=["GET"]),
        Route(routes.ORDER_PACKING_SLIP, packing_slip, methods=["GET"]),
        Route(routes.ADMIN_ORDERS_PRINT, batch, methods=["GET"]),
        Route(f"{routes.ADMIN_ORDERS_PRINT}/", batch, methods=["GET"]),
    ]
