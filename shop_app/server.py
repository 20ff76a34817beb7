"""Starting the shop's server: ``python -m shop_app serve`` (behind ``./scripts/run`` and
``./scripts/serve``) and ``python -m shop_app square-simulator``.

``serve`` is Reflex's production server (``reflex run --env prod --single-port``: the compiled
pages, the websocket and ``/api/*`` on one port), configured by environment variables only, with
three additions:

- It refuses to start in a shape that cannot work, before the minutes-long build, with a clear
  message: several workers without Redis (each worker would keep its own copy of every shopper's
  page state), Redis or the database unreachable.
- ``WEB_WORKERS`` sets the number of backend worker processes (granian's ``GRANIAN_WORKERS``,
  which Reflex reads). Unset, Reflex decides: 1 without Redis, 2 x CPUs + 1 (at most 8) with it.
- A worker that dies (killed, out of memory) is started again. Reflex 0.10 does not ask granian
  for that, and granian's default then stops the whole server when any one worker exits.
- The websocket URL built into the pages is ``SITE_URL`` (``REFLEX_API_URL``), the origin the
  shop accepts websockets from anyway.

(``REFLEX_LOG_JSON`` does not mix with this: Reflex then runs its command again as a child
process, ``python -m reflex serve``, which it does not know. Reflex's and granian's few lines of
their own stay plain text; the shop's own records follow ``LOG_FORMAT``.)

In local Square mode with several workers, one simulator process is started beside the server
(``SQUARE_SIMULATOR_URL`` points every worker at it) unless ``SQUARE_SIMULATOR_URL`` is already
set: a simulator inside each worker would give each its own ledger, so a payment taken through one
worker would be invisible to another's reconciliation (and could be charged again there).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
from typing import Any

import redis
import sqlalchemy as sa

from shop_app.db import create_db_engine, ping
from shop_app.settings import Settings, SquareEnvironment, get_settings

MAX_REFLEX_WORKERS = 8  # Reflex's own cap (reflex.constants MAX_BACKEND_WORKERS)
_PR_SET_PDEATHSIG = 1


class StartupError(Exception):
    """The server cannot start with these settings; the message says what to change."""


def worker_count(settings: Settings, cpu_count: int | None = None) -> int:
    """The number of backend workers ``serve`` runs (see the module docstring)."""
    if settings.web_workers is not None:
        return settings.web_workers
    if os.environ.get("GRANIAN_WORKERS", "").strip().isdigit():
        return max(1, int(os.environ["GRANIAN_WORKERS"]))
    if not settings.redis_url:
        return 1
    return min((cpu_count or os.cpu_count() or 1) * 2 + 1, MAX_REFLEX_WORKERS)


def _display_url(url: str) -> str:
    """A database or Redis URL without its password."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url.rsplit("@", maxsplit=1)[-1]


def startup_problems(settings: Settings) -> list[str]:
    """What stops the shop from serving with these settings (empty: it can start)."""
    problems = []
    workers = worker_count(settings)
    if workers > 1 and not settings.redis_url:
        problems.append(
            f"{workers} backend workers need Redis: set REFLEX_REDIS_URL (e.g. redis://127.0.0.1:6379) "
            "so every worker reads the same page state of each shopper, or set WEB_WORKERS=1"
        )
    if settings.redis_url:
        client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        except redis.RedisError as error:
            problems.append(f"cannot reach Redis at {_display_url(settings.redis_url)}: {error}")
        finally:
            client.close()
    engine = create_db_engine(settings.database_url)
    try:
        if not ping(engine):
            problems.append(f"cannot reach the database at {_display_url(settings.database_url)}")
    finally:
        engine.dispose()
    return problems


def _enable_worker_respawn() -> None:
    """Have granian start a worker again when it dies (Reflex builds its server without this)."""
    import granian.server  # noqa: PLC0415 - only the server needs granian

    base: Any = granian.server.Server

    class RespawningServer(base):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("respawn_failed_workers", True)
            super().__init__(*args, **kwargs)

    granian.server.Server = RespawningServer


def start_square_simulator() -> tuple[str, subprocess.Popen[bytes]]:
    """Start ``square-simulator`` on a free loopback port; its URL and process.

    The listening socket is made here and handed over, so the port is taken before the URL is
    given out; the simulator stops with this process, even when this process is killed.
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    command = [sys.executable, "-m", "shop_app", "square-simulator", "--fd", str(listener.fileno())]
    child = subprocess.Popen(command, pass_fds=[listener.fileno()])
    listener.close()
    return f"http://127.0.0.1:{port}", child


def serve(settings: Settings) -> None:
    """Run the production server until it is stopped (see the module docstring)."""
    problems = startup_problems(settings)
    if problems:
        raise StartupError("; ".join(problems))
    workers = worker_count(settings)
    os.environ["GRANIAN_WORKERS"] = str(workers)
    # The pages open the websocket at SITE_URL, the origin the shop accepts anyway; without it
    # Reflex builds in http://localhost:<port>, whose port survives behind a proxy on plain HTTP.
    os.environ.setdefault("REFLEX_API_URL", settings.site_url)
    local = settings.square_environment == SquareEnvironment.LOCAL
    if local and workers > 1 and not settings.square_simulator_url:
        url, simulator = start_square_simulator()
        atexit.register(simulator.terminate)
        os.environ["SQUARE_SIMULATOR_URL"] = url
        get_settings.cache_clear()  # the app is imported below, with the simulator's address
    _enable_worker_respawn()
    from reflex.reflex import cli  # noqa: PLC0415 - importing Reflex reads rxconfig (the settings)

    port = str(settings.port)
    cli.main(["run", "--env", "prod", "--single-port", "--frontend-port", port], prog_name="reflex")


def _die_with_parent() -> None:
    """Linux: receive SIGTERM when the process that started this one exits, even if killed."""
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (AttributeError, OSError):
        return


def serve_square_simulator(*, host: str, port: int, fd: int | None) -> None:
    """Serve the shop's Square simulator over HTTP (one ledger for every worker of a server).

    ``fd``: a listening socket inherited from ``serve`` (the simulator then also stops with it).
    The simulator reads its own settings (``SITE_URL`` for receipt links, ``SQUARE_LOCATION_ID``).
    """
    import uvicorn  # noqa: PLC0415 - only this command serves with uvicorn

    from shop_app.square_simulator.app import shared_simulator  # noqa: PLC0415

    if fd is not None:
        _die_with_parent()
    where: dict[str, Any] = {"fd": fd} if fd is not None else {"host": host, "port": port}
    config = uvicorn.Config(shared_simulator(), log_level="warning", lifespan="off", **where)
    uvicorn.Server(config).run()
