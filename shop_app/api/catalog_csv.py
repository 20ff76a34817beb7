"""``GET /api/admin/products.csv``: the whole catalogue as a CSV download (admins only).

A plain GET that the admin's browser follows from the "Export CSV" link, so the session cookie
comes with it (401 without one, 403 for a non-admin, as ``api.admin_access`` says). Reading is
not a change, so no origin check; the file is never cached (it is private data).
"""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from shop_app import routes
from shop_app.api.admin_access import NO_STORE, admin_refusal
from shop_app.db import session_scope
from shop_app.services.admin.catalog_csv import export_catalog_csv, export_filename


async def export_products(request: Request) -> Response:
    """The catalogue as ``products-YYYY-MM-DD.csv``."""
    refusal = await admin_refusal(request, write=False)
    if refusal is not None:
        return refusal

    def build() -> str:
        with session_scope() as session:
            return export_catalog_csv(session)

    text = await run_in_threadpool(build)
    filename = export_filename(datetime.now(UTC).date())
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{filename}"'},
    )


def catalog_csv_routes() -> list[Route]:
    """The route above, for ``create_api``."""
    return [Route(routes.ADMIN_PRODUCTS_CSV, export_products, methods=["GET"])]
