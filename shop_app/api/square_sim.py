"""The local Square simulator on the shop's own origin, at ``/_square`` (local mode only).

With ``SQUARE_ENVIRONMENT=local`` (the default) ``Square(token=…, base_url=f"{SITE_URL}/_square")``
reaches the simulator over HTTP; in ``sandbox`` and ``production`` nothing is mounted and
``/_square`` is an ordinary 404. The mounted app is ``shared_simulator()``, the same instance
(and ledger) the local payment gateway calls in-process.

With ``SQUARE_SIMULATOR_URL`` (several workers: one simulator process they all share) the mount
forwards each request to that simulator instead, so the receipt pages and catalogue image files
the browser opens, and scripts using ``{SITE_URL}/_square``, see the one ledger whichever worker
answers.

The simulator starts empty with every start of the shop: the shop's lifespan task fills it
(``api.square_outbox.keep_square_in_step``, docs/architecture.md#square-catalogue-push).
"""

from __future__ import annotations

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.types import Receive, Scope, Send

from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.app import shared_simulator

SIMULATOR_PATH = "/_square"
FORWARDED_HEADERS = ("authorization", "content-type", "accept", "square-version", "user-agent")
PROXY_TIMEOUT_S = 30.0
MAX_BODY_BYTES = 16 * 1024 * 1024  # the simulator's own multipart limit


def _unavailable(detail: str, status: int) -> Response:
    error = {"category": "API_ERROR", "code": "SERVICE_UNAVAILABLE", "detail": detail}
    return JSONResponse({"errors": [error]}, status_code=status)


class SimulatorProxy:
    """Forwards requests under the mount to the simulator at ``base_url`` (another process)."""

    def __init__(self, base_url: str) -> None:
        self._base_url = base_url.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one HTTP request with the simulator's answer (502 when it cannot be reached)."""
        request = Request(scope, receive)
        root = scope.get("root_path", "")
        path = scope["path"][len(root) :] if root and scope["path"].startswith(root) else scope["path"]
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            response = _unavailable("The request is too large for the simulator.", 413)
        else:
            response = await self._forward(request, path or "/", body)
        await response(scope, receive, send)

    async def _forward(self, request: Request, path: str, body: bytes) -> Response:
        headers = {name: request.headers[name] for name in FORWARDED_HEADERS if name in request.headers}
        try:
            # A client per request: loopback connections are cheap, and a kept client would be
            # tied to the event loop it was made on.
            async with httpx.AsyncClient(timeout=PROXY_TIMEOUT_S) as client:
                answer = await client.request(
                    request.method,
                    f"{self._base_url}{path}",
                    params=request.url.query,
                    content=body,
                    headers=headers,
                )
        except httpx.HTTPError:
            return _unavailable("The local Square simulator cannot be reached.", 502)
        media_type = answer.headers.get("content-type")
        return Response(answer.content, status_code=answer.status_code, media_type=media_type)


def square_simulator_routes(settings: Settings) -> list[BaseRoute]:
    """The simulator's mount in local mode (or the proxy to the shared one), nothing otherwise."""
    if settings.square_environment != SquareEnvironment.LOCAL:
        return []
    if settings.square_simulator_url:
        app = SimulatorProxy(settings.square_simulator_url)
        return [Mount(SIMULATOR_PATH, app=app, name="square-simulator")]
    return [Mount(SIMULATOR_PATH, app=shared_simulator(), name="square-simulator")]
