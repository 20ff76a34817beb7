"""``GET /api/admin/orders.csv?search=…&status=…``: the orders for the owner's accountant (admins only).

The Orders screen's "Export CSV" link carries its search and status filter, so the file holds the
orders the list shows, every page of them (``services.admin.orders_export``, at most
``MAX_ORDERS``; more is refused with a 400 that says to narrow the filter). Who may download is
decided as for the catalogue export (``api.catalog_csv``): a plain GET the admin's browser follows
with its session cookie, 401 without one, 403 for a non-admin (``api.admin_access``); reading is
not a change, so no origin check. The file is private data and never cached. The database work and
the CSV run in a worker thread, off the event loop.
"""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from shop_app import routes
from shop_app.api.admin_access import NO_STORE, admin_refusal, json_error
from shop_app.db import session_scope
from shop_app.services.admin.orders import ALL_STATUSES
from shop_app.services.admin.orders_export import TooManyOrders, export_filename, export_orders_csv


async def export_orders(request: Request) -> Response:
    """The orders of the list's search and status as ``orders-YYYY-MM-DD.csv``."""
    refusal = await admin_refusal(request, write=False)
    if refusal is not None:
        return refusal
    search = request.query_params.get("search", "")
    status = request.query_params.get("status", ALL_STATUSES)

    def build() -> str:
        with session_scope() as session:
            return export_orders_csv(session, search=search, status=status)

    try:
        text = await run_in_threadpool(build)
    except TooManyOrders as too_many:
        return json_error(str(too_many), 400)
    filename = export_filename(datetime.now(UTC).date())
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{filename}"'},
    )


def orders_csv_routes() -> list[Route]:
    """The route above, for ``create_api``."""
    return [Route(routes.ADMIN_ORDERS_CSV, export_orders, methods=["GET"])]
