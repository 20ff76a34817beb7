"""GET /api/health: liveness and database status as JSON (for monitors and load balancers)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from shop_app.db import ping


async def health(_request: Request) -> JSONResponse:
    """Answer 200 when the database answers, 503 otherwise."""
    database_ok = ping()
    body = {"status": "ok" if database_ok else "error", "database": "ok" if database_ok else "unreachable"}
    return JSONResponse(body, status_code=200 if database_ok else 503)
