"""GET /api/health: whether this worker can serve shoppers, as JSON (for monitors and load balancers).

200 ``{"status": "ok", "database": "ok", "redis": "ok"}`` when the database answers and, when
``REFLEX_REDIS_URL`` is set, Redis answers too (``"redis": "not used"`` without it); otherwise 503
with ``"unreachable"`` for what failed. The checks run off the event loop with short timeouts, so
a database that hangs never stalls the worker's other requests.
"""

from __future__ import annotations

from functools import lru_cache

import redis
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from shop_app.db import ping
from shop_app.settings import get_settings

REDIS_TIMEOUT_S = 2.0
OK, UNREACHABLE = "ok", "unreachable"


@lru_cache(maxsize=2)
def _redis(url: str) -> redis.Redis:
    """One client (one small connection pool) per process and URL."""
    return redis.Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT_S, socket_timeout=REDIS_TIMEOUT_S)


def _redis_status(url: str) -> str:
    if not url:
        return "not used"
    try:
        _redis(url).ping()
    except redis.RedisError:
        return UNREACHABLE
    return OK


async def health(_request: Request) -> JSONResponse:
    """Answer 200 when the database (and Redis, if used) answer, 503 otherwise."""
    database = OK if await run_in_threadpool(ping) else UNREACHABLE
    redis_status = await run_in_threadpool(_redis_status, get_settings().redis_url)
    healthy = database == OK and redis_status != UNREACHABLE
    body = {"status": "ok" if healthy else "error", "database": database, "redis": redis_status}
    return JSONResponse(body, status_code=200 if healthy else 503, headers={"Cache-Control": "no-store"})
