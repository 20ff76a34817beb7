"""httpx transports that carry SDK calls to the simulator app in the same process.

``SimulatorAsyncTransport`` wraps ``httpx.ASGITransport`` for ``AsyncSquare``.
``SimulatorTransport`` is its blocking twin for ``Square``: it runs the app on a private event
loop in a daemon thread (one per process), so a blocking SDK call works from any thread
*including* the server's own event loop (it blocks that loop for the call, but never waits on
it, so it cannot deadlock, unlike an HTTP call from the loop to its own server).

Both behave like a network for the SDK: the request's read timeout is enforced
(``httpx.ReadTimeout``), and a connection dropped by an injected fault becomes
``httpx.RemoteProtocolError``, exactly what a real socket would raise.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any

import httpx

from shop_app.square_simulator.app import SimulatedDisconnect


def _read_timeout(request: httpx.Request) -> float | None:
    timeout: Any = request.extensions.get("timeout") or {}
    value = timeout.get("read") if isinstance(timeout, dict) else None
    return float(value) if value is not None else None


class SimulatorAsyncTransport(httpx.AsyncBaseTransport):
    """An ASGI transport to the simulator that honours timeouts and dropped connections."""

    def __init__(self, app: Any) -> None:
        self._asgi = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        try:
            return await asyncio.wait_for(self._exchange(request), timeout=_read_timeout(request))
        except TimeoutError:
            raise httpx.ReadTimeout("The simulator did not answer in time.", request=request) from None
        except SimulatedDisconnect:
            raise httpx.RemoteProtocolError(
                "Server disconnected without sending a complete response.", request=request
            ) from None

    async def _exchange(self, request: httpx.Request) -> httpx.Response:
        response = await self._asgi.handle_async_request(request)
        content = await response.aread()
        return httpx.Response(
            response.status_code, headers=response.headers.raw, content=content, request=request
        )


_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _simulator_loop() -> asyncio.AbstractEventLoop:
    """The process's event loop for in-process simulator calls (one daemon thread, started lazily)."""
    global _loop  # noqa: PLW0603 - one loop per process
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="square-simulator-loop", daemon=True).start()
            _loop = loop
        return _loop


class SimulatorTransport(httpx.BaseTransport):
    """A blocking transport to the simulator: the app runs on a private loop in a daemon thread."""

    def __init__(self, app: Any) -> None:
        self._async = SimulatorAsyncTransport(app)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        future = asyncio.run_coroutine_threadsafe(
            self._async.handle_async_request(request), _simulator_loop()
        )
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise httpx.ReadTimeout("The simulator call was cancelled.", request=request) from None
