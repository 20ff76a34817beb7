"""The shop in production mode, started the documented way (``./scripts/serve``): two backend
workers, a throw-away PostgreSQL cluster and Redis of its own, JSON logs at DEBUG.

Square is the local simulator served over HTTP by this test process (``SQUARE_SIMULATOR_URL``, as
``serve`` would start one for the workers to share), so tests can read its ledger, make it
misbehave, and stop it (Square unreachable). The build runs once per session (about a minute);
the fault tests restart the cluster, Redis and the simulator under the running shop.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from shop_app.state.diagnostics import client_hash
from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS
from tests.support.servers import (
    SquareServer,
    ThrowawayPostgres,
    ThrowawayRedis,
    free_port,
    stop_process_group,
    throwaway_postgres,
    throwaway_redis,
)

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 480
WORKERS = 2


@dataclass
class ProductionShop:
    """The running shop: its URL, database, log, and its worker processes."""

    url: str
    database_url: str
    log_path: Path
    process: subprocess.Popen[bytes]
    postgres: ThrowawayPostgres
    redis: ThrowawayRedis
    square: SquareServer
    killed: list[int] = field(default_factory=list)

    def records(self) -> list[dict]:
        """Every JSON record the shop logged so far (Reflex's own plain lines are skipped)."""
        found = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                try:
                    found.append(json.loads(line))
                except ValueError:
                    continue
        return found

    def events_of(self, token: str) -> list[dict]:
        """The event records of one tab (by its state token), oldest first."""
        name = client_hash(token)
        return [r for r in self.records() if r.get("msg") == "event" and r.get("client") == name]

    def wait_for_events(self, token: str, handlers: set[str], timeout_s: float = 15) -> list[dict]:
        """The tab's event records, once every one of ``handlers`` has run (their log lines land
        a moment after the browser shows the result)."""
        deadline = time.monotonic() + timeout_s
        while True:
            records = self.events_of(token)
            ran = {r["event"].rsplit(".", 1)[-1] for r in records}
            if handlers <= ran or time.monotonic() > deadline:
                return records
            time.sleep(0.25)

    def worker_pids(self) -> list[int]:
        """The backend workers: the server's child processes other than the Square simulator."""
        children: set[int] = set()
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():  # any thread may fork one
            try:
                children.update(map(int, (task / "children").read_text().split()))
            except FileNotFoundError:
                continue
        pids = []
        for pid in sorted(children):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except FileNotFoundError:
                continue
            if b"square-simulator" not in command:
                pids.append(pid)
        return pids

    def wait_for_workers(self, count: int, *, without: int | None = None, timeout_s: float = 60) -> list[int]:
        """Wait until ``count`` workers run (none of them ``without``) and answer; their pids."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            pids = self.worker_pids()
            if len(pids) == count and without not in pids and self.healthy():
                return pids
            time.sleep(0.5)
        pytest.fail(f"{count} workers did not come up: {self.worker_pids()}\n{self.tail()}")

    def kill_worker(self, pid: int) -> None:
        """Kill a worker the hard way (as the out-of-memory killer would)."""
        assert pid in self.worker_pids(), f"{pid} is not a worker of the shop"
        os.kill(pid, signal.SIGKILL)
        self.killed.append(pid)

    def healthy(self) -> bool:
        """Whether /api/health answers 200."""
        try:
            return httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def tail(self, chars: int = 4000) -> str:
        """The end of the shop's log (for failure messages)."""
        return self.log_path.read_text(errors="replace")[-chars:]


class Traffic:
    """Other visitors meanwhile: a thread requesting pages and the health check, keeping every
    answer (time, path, status; 0 when the request itself failed)."""

    PATHS = ("/api/health", "/", "/shop", "/product/1", "/sitemap.xml")

    def __init__(self, shop: ProductionShop) -> None:
        self.shop = shop
        self.answers: list[tuple[float, str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.shop.url, timeout=10, follow_redirects=True) as client:
            while not self._stop.is_set():
                for path in self.PATHS:
                    try:
                        status = client.get(path).status_code
                    except httpx.HTTPError:
                        status = 0
                    self.answers.append((time.monotonic(), path, status))
                self._stop.wait(0.2)

    def __enter__(self) -> Traffic:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def since(self, moment: float) -> list[tuple[float, str, int]]:
        """The answers given after ``moment`` (``time.monotonic()``)."""
        return [answer for answer in self.answers if answer[0] >= moment]


@pytest.fixture(scope="session")
def postgres() -> Iterator[ThrowawayPostgres]:
    """A PostgreSQL cluster of the shop's own (the tests restart it)."""
    try:
        with throwaway_postgres() as server:
            yield server
    except RuntimeError as error:
        pytest.fail(f"cannot run a PostgreSQL cluster for the production tests: {error}")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[ThrowawayRedis]:
    """A Redis of the shop's own (the tests restart it)."""
    with throwaway_redis() as server:
        yield server


@pytest.fixture(scope="session")
def shop(
    tmp_path_factory: pytest.TempPathFactory, postgres: ThrowawayPostgres, redis_server: ThrowawayRedis
) -> Iterator[ProductionShop]:
    """The shop in production mode with the demo catalogue (see the module docstring)."""
    workdir = tmp_path_factory.mktemp("production")
    port = free_port()
    url = f"http://localhost:{port}"
    square = SquareServer(public_url=f"{url}/_square")
    square.start()
    database_url = postgres.create_database("shop")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REFLEX_REDIS_URL": redis_server.url,
        "WEB_WORKERS": str(WORKERS),
        "SITE_URL": url,
        "PORT": str(port),
        "MEDIA_DIR": str(workdir / "media"),
        "SQUARE_ENVIRONMENT": "local",
        "SQUARE_SIMULATOR_URL": square.url,
        "MAIL_BACKEND": "outbox",
        "LOG_LEVEL": "DEBUG",
        "LOG_FORMAT": "json",
        "REFLEX_TELEMETRY_ENABLED": "false",
    }
    env.pop("GRANIAN_WORKERS", None)
    quiet = {**env, "LOG_LEVEL": "WARNING"}
    subprocess.run([sys.executable, "-m", "shop_app", "migrate"], cwd=ROOT, env=quiet, check=True)
    subprocess.run([sys.executable, "-m", "shop_app", "seed", "--demo"], cwd=ROOT, env=quiet, check=True)
    log_path = workdir / "shop.log"
    with log_path.open("ab") as log:  # O_APPEND: the workers' lines never overwrite each other
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    shop = ProductionShop(url, database_url, log_path, process, postgres, redis_server, square)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not (shop.healthy() and len(shop.worker_pids()) == WORKERS):
            if process.poll() is not None:
                pytest.fail(f"the shop exited while starting:\n{shop.tail()}")
            if time.monotonic() > deadline:
                pytest.fail(f"the shop did not start within {START_TIMEOUT_S} s:\n{shop.tail()}")
            time.sleep(1)
        yield shop
    finally:
        stop_process_group(process)
        square.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium (Playwright's own browser download is not available)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}
