"""Building the real ``squareup`` SDK client for each Square mode.

Which one to use where:

- ``square_client(settings)``: the client for the configured mode. In ``sandbox`` and
  ``production`` it talks to Square. In ``local`` it talks **over HTTP** to the simulator
  mounted at ``{SITE_URL}/_square``: use it from scripts, other processes and worker threads, never
  with a blocking call from the shop server's own event loop (the call would wait on the loop
  that must answer it, docs/architecture.md#orders-and-payment).
- ``square_client_for_app(app)``: a blocking ``Square`` that reaches a simulator app *in this
  process* through ``SimulatorTransport`` (no socket, no deadlock, same ledger as the mounted
  ``/_square``). The shop's local payment gateway uses it with ``shared_simulator()``.
- ``async_square_client_for_app(app)``: the same for ``AsyncSquare`` in async code.
- ``local_client(timeout_s)``: ``square_client_for_app`` on ``shared_simulator()``, the
  process-wide simulator, and ``local_location_id(settings)``: what the gateway, refunds and
  catalogue use in local mode without ``SQUARE_SIMULATOR_URL``.
- ``simulator_http_client(url)``: a blocking ``Square`` to a simulator served by another process
  (``SQUARE_SIMULATOR_URL``, ``python -m shop_app square-simulator``). With several backend
  workers each process would otherwise hold its own ledger: a payment made through one worker
  would be invisible to another's reconciliation, and could be charged again there.

The token is always passed explicitly (the SDK's default is read from ``SQUARE_TOKEN`` at import
time), the environment is always explicit (the SDK's default is production), and a sandbox or
production client is refused without a token.

This module is the one place the shop's Square code reaches the simulator
(``shop_app.square_simulator``); the rest of ``services.square`` asks it for a client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import httpx
from square import AsyncSquare, Square
from square.environment import SquareEnvironment as SdkEnvironment

from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.app import shared_simulator
from shop_app.square_simulator.local_token import local_token
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID
from shop_app.square_simulator.transport import SimulatorAsyncTransport, SimulatorTransport

DEFAULT_TIMEOUT_S = 20.0
SIMULATOR_PREFIX = "/_square"
IN_PROCESS_BASE_URL = "http://square-simulator.invalid"  # never resolved: the transport is in-process

EventHooks = Mapping[str, Sequence[Callable[..., Any]]]


class SquareConfigError(RuntimeError):
    """The settings do not allow building a Square client."""


def local_base_url(settings: Settings) -> str:
    """Where the mounted simulator answers over HTTP."""
    return f"{settings.site_url.rstrip('/')}{SIMULATOR_PREFIX}"


def square_client(settings: Settings, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Square:
    """The SDK client for ``settings.square_environment`` (see the module docstring)."""
    if settings.square_environment == SquareEnvironment.LOCAL:
        return Square(token=local_token(), base_url=local_base_url(settings), timeout=timeout_s)
    return remote_client(settings.square_environment, settings.square_access_token, timeout_s=timeout_s)


def remote_client(
    environment: SquareEnvironment, token: str, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> Square:
    """The SDK client for Square's sandbox or production (never the SDK's defaults)."""
    token = token.strip()
    if environment == SquareEnvironment.LOCAL:
        raise SquareConfigError("local mode has no remote Square")
    if not token:
        raise SquareConfigError(f"SQUARE_ACCESS_TOKEN is empty: cannot talk to Square {environment.value}.")
    sdk_environment = (
        SdkEnvironment.SANDBOX if environment == SquareEnvironment.SANDBOX else SdkEnvironment.PRODUCTION
    )
    return Square(token=token, environment=sdk_environment, timeout=timeout_s)


def local_location_id(settings: Settings) -> str:
    """The location in local mode: ``SQUARE_LOCATION_ID``, else the simulator's own."""
    return settings.square_location_id or DEFAULT_LOCATION_ID


def local_client(timeout_s: float = DEFAULT_TIMEOUT_S) -> Square:
    """A blocking client to the process-wide simulator, in-process (the ledger of ``/_square``).

    One per simulator instance and timeout, built once and kept (it holds a connection pool).
    """
    return _in_process_client(shared_simulator(), timeout_s)


@lru_cache(maxsize=4)
def _in_process_client(app: Any, timeout_s: float) -> Square:
    return square_client_for_app(app, timeout_s=timeout_s)


def simulator_http_client(url: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Square:
    """The SDK client for a simulator served over HTTP at ``url`` (another process)."""
    return Square(token=local_token(), base_url=url.rstrip("/"), timeout=timeout_s)


def square_client_for_app(
    app: Any,
    *,
    token: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    event_hooks: EventHooks | None = None,
) -> Square:
    """A blocking SDK client wired to a simulator app in this process."""
    http = httpx.Client(
        transport=SimulatorTransport(app),
        timeout=timeout_s,
        event_hooks={k: list(v) for k, v in (event_hooks or {}).items()},
    )
    return Square(
        token=token or local_token(), base_url=IN_PROCESS_BASE_URL, httpx_client=http, timeout=timeout_s
    )


def async_square_client_for_app(
    app: Any,
    *,
    token: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    event_hooks: EventHooks | None = None,
) -> AsyncSquare:
    """An ``AsyncSquare`` wired to a simulator app in this process."""
    http = httpx.AsyncClient(
        transport=SimulatorAsyncTransport(app),
        timeout=timeout_s,
        event_hooks={k: list(v) for k, v in (event_hooks or {}).items()},
    )
    return AsyncSquare(
        token=token or local_token(), base_url=IN_PROCESS_BASE_URL, httpx_client=http, timeout=timeout_s
    )
