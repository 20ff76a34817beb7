"""The shop's production build on a free loopback port, for the load and Lighthouse benchmarks.

Started the way the README's run command and the end-to-end tests start it
(``python -m shop_app prepare`` then ``reflex run --env prod --single-port``), on a throw-away
SQLite database with the demo catalogue by default. Optionally PostgreSQL (a fresh database,
dropped afterwards) and Redis as Reflex's state manager (a private ``redis-server`` on a free port
with no persistence, so nothing of another job's Redis is touched), with a given number of
backend workers. Everything listens on 127.0.0.1 only. The process helpers (free port, private
Redis, wait until serving, stop the process group) are ``tests/support/servers.py``'s, which the
end-to-end and production tests start the shop with too.

The frontend is compiled and built by ``reflex run`` in this checkout's ``.web`` (a few minutes
the first time, faster afterwards): do not run it while the end-to-end tests build the same
checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil

from tests.support.servers import free_port, stop_process_group, throwaway_redis, wait_until_serving

ROOT = Path(__file__).resolve().parents[1]
BUILD_TIMEOUT_S = 900
BUN = ROOT / "tools" / "node_modules" / ".bin" / "bun"


@dataclass(frozen=True, slots=True)
class Server:
    """A running production build."""

    url: str  # http://localhost:<port>, no trailing slash (the origin the shop allows)
    port: int
    pid: int | None  # the `reflex run` process, leader of the server's process group (None: unknown)
    states_dir: Path | None  # where the disk state manager keeps each state's pickle (None: unknown)
    log_path: Path
    redis_url: str | None = None

    def processes(self) -> list[psutil.Process]:
        """Every live process of the server (the `reflex run` process and its descendants)."""
        if not self.pid:
            return []
        try:
            leader = psutil.Process(self.pid)
            return [leader, *leader.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def backend_workers(self) -> list[psutil.Process]:
        """The processes that run the app: the leaves of the server's process tree.

        ``reflex run --env prod`` forks the ASGI server (Granian) from the ``reflex run`` process,
        and Granian forks one process per worker when there are several: the processes without
        children hold the app (the ``reflex run`` process itself if it started nothing).
        """
        return [p for p in self.processes() if not _children(p)]


def _children(process: psutil.Process) -> list[psutil.Process]:
    try:
        return process.children()
    except psutil.NoSuchProcess:
        return []


def _environment(port: int, workdir: Path, database_url: str, redis_url: str | None, workers: int | None):
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MEDIA_DIR": str(workdir / "media"),
        "SITE_URL": f"http://localhost:{port}",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REFLEX_STATES_WORKDIR": str(workdir / "states"),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REFLEX_REDIS_URL", None)
    if redis_url:
        env["REFLEX_REDIS_URL"] = redis_url
    if workers:
        env["GRANIAN_WORKERS"] = str(workers)
    if BUN.exists():
        env.setdefault("REFLEX_BUN_PATH", str(BUN))
    if (BUN.parent / "node").exists():  # Node.js 24 (tools/package.json) ahead of the system's
        env["PATH"] = f"{BUN.parent}{os.pathsep}{env.get('PATH', '')}"
    return env


@contextmanager
def private_redis() -> Iterator[str]:
    """A redis-server of our own on a free loopback port, without persistence; its URL."""
    if shutil.which("redis-server") is None:
        msg = "redis-server is not installed (apt-get install redis-server)"
        raise RuntimeError(msg)
    with throwaway_redis() as server:
        yield server.url


@contextmanager
def production_server(
    workdir: Path,
    *,
    database_url: str | None = None,
    redis_url: str | None = None,
    workers: int | None = None,
    progress: Callable[[str], None] = lambda _text: None,
) -> Iterator[Server]:
    """Prepare the database, build and serve the shop; stop every process of it at the end."""
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    database_url = database_url or f"sqlite:///{workdir / 'shop.db'}"
    env = _environment(port, workdir, database_url, redis_url, workers)
    progress("preparing the database (migrations, demo catalogue)")
    subprocess.run(
        [sys.executable, "-m", "shop_app", "prepare"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    log_path = workdir / "reflex.log"
    progress(f"building and starting the production build on port {port} (log: {log_path})")
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "reflex", "run", "--env", "prod", "--single-port",
             "--frontend-port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    server = Server(
        url=f"http://localhost:{port}",
        port=port,
        pid=process.pid,
        states_dir=workdir / "states",
        log_path=log_path,
        redis_url=redis_url,
    )
    try:
        started = time.monotonic()
        wait_until_serving(server.url, process, log_path, BUILD_TIMEOUT_S)
        progress(f"serving after {time.monotonic() - started:.0f} s")
        yield server
    finally:
        stop_process_group(process)
