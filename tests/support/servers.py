"""Real servers started by tests (and the benchmarks) on this machine: a throw-away PostgreSQL
cluster and Redis, the Square simulator over HTTP, and the helpers that start and stop the shop
itself as a process group.

Never the machine's shared PostgreSQL or Redis (other test runs use them): each is its own
process on a free port with its data in a temporary directory, stopped and deleted afterwards,
so a test may stop and restart it at will. PostgreSQL refuses to run as root; as root the cluster
is owned by and run as the ``postgres`` system user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import redis
import uvicorn

from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger


def free_port() -> int:
    """A TCP port nobody listens on right now (on 127.0.0.1)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process_group(process: subprocess.Popen, timeout_s: float = 30) -> None:
    """Stop a process started with ``start_new_session=True`` and every process it started."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout_s)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_until_serving(url: str, process: subprocess.Popen, log_path: Path, timeout_s: float) -> None:
    """Wait until the shop at ``url`` answers its health check and home page.

    Raises ``RuntimeError`` with the end of its log when it exits or takes longer than ``timeout_s``.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            msg = f"the shop exited while starting:\n{log_path.read_text()[-4000:]}"
            raise RuntimeError(msg)
        with suppress(httpx.HTTPError):
            if (
                httpx.get(f"{url}/api/health", timeout=2).status_code == 200
                and httpx.get(f"{url}/", timeout=5).status_code == 200
            ):
                return
        time.sleep(1)
    msg = f"the shop did not start within {timeout_s:.0f} s:\n{log_path.read_text()[-4000:]}"
    raise RuntimeError(msg)


def postgres_bin_dir() -> Path | None:
    """The newest installed PostgreSQL server binaries (``initdb``, ``pg_ctl``), if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own: ``start()``, ``stop()``, ``restart()``, ``url(database)``."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="shop-pg-"))
        self.data = self.root / "data"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        command = [*self._as_user, str(self.bin_dir / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}")

    def _pg_ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", action, "-D", str(self.data), "-w", "-t", "60", "-o", options, *extra)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self._pg_ctl("start", "-l", str(self.root / "server.log"))

    def stop(self) -> None:
        """Stop it now (fast shutdown: open connections are cut, as in a crash of the clients)."""
        self._pg_ctl("stop", "-m", "fast")

    def restart(self) -> None:
        """Stop and start again (every pooled connection of the shop is now dead)."""
        self._pg_ctl("restart", "-m", "fast", "-l", str(self.root / "server.log"))

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of a database on this server."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create a database; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def destroy(self) -> None:
        """Stop the server if it runs and delete its files."""
        with suppress(RuntimeError):  # already stopped
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class ThrowawayRedis:
    """A Redis server of its own, without persistence: a restart loses every key."""

    def __init__(self) -> None:
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="shop-redis-"))
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL."""
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait until it answers."""
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.root)]
        log = (self.root / "redis.log").open("ab")
        self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
            finally:
                client.close()

    def stop(self) -> None:
        """Stop it without saving anything."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=20)
            self._process = None

    def restart(self, down_s: float = 0.0) -> None:
        """Stop, stay down ``down_s`` seconds, start again (empty)."""
        self.stop()
        time.sleep(down_s)
        self.start()

    def destroy(self) -> None:
        """Stop it and delete its directory."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def throwaway_postgres() -> Iterator[ThrowawayPostgres]:
    """A started cluster, destroyed afterwards (``RuntimeError`` when PostgreSQL is not installed)."""
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    server = ThrowawayPostgres(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@contextmanager
def throwaway_redis() -> Iterator[ThrowawayRedis]:
    """A started Redis, destroyed afterwards."""
    server = ThrowawayRedis()
    try:
        server.start()
        yield server
    finally:
        server.destroy()


class SquareServer:
    """The simulator over HTTP on a fixed port; it can be stopped and started with its ledger."""

    def __init__(self, public_url: str) -> None:
        self.port = free_port()
        self.ledger = SimulatorLedger(reusable_test_values=True)
        self._app = create_simulator(self.ledger, public_url=public_url)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Where the shop reaches it."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Serve (again) on the same port."""
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        config = uvicorn.Config(self._app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            assert time.monotonic() < deadline, "the simulator did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop serving: connections to the port are refused (Square unreachable)."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def payments_for(self, reference: str) -> list[dict]:
        """Every payment the simulator took for an order number."""
        return [p for p in self.ledger.payments() if p.get("reference_id") == reference]
