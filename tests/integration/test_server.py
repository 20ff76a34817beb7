"""``python -m shop_app serve`` (``./scripts/run`` and ``./scripts/serve``): how many workers, the
shapes it refuses to start in, worker respawn, and the shared Square simulator process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import granian.server
import httpx
import pytest

from shop_app import server
from shop_app.settings import Settings
from shop_app.square_simulator.local_token import local_token
from tests.support.servers import free_port

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_granian_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRANIAN_WORKERS", raising=False)


@pytest.mark.parametrize(
    ("web_workers", "redis_url", "cpus", "expected"),
    [
        (None, "", 8, 1),  # no Redis: one worker, as Reflex decides
        (None, "redis://r:6379", 2, 5),  # Redis: 2 x CPUs + 1
        (None, "redis://r:6379", 16, 8),  # … at most 8
        (3, "redis://r:6379", 2, 3),  # WEB_WORKERS wins
        (4, "", 2, 4),  # counted, then refused by startup_problems
    ],
)
def test_worker_count(web_workers: int | None, redis_url: str, cpus: int, expected: int) -> None:
    settings = Settings(web_workers=web_workers, redis_url=redis_url)

    assert server.worker_count(settings, cpu_count=cpus) == expected


def test_granian_workers_from_the_environment_count_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRANIAN_WORKERS", "3")
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)  # .ci/run sets it for the whole run

    assert server.worker_count(Settings()) == 3
    assert "3 backend workers need Redis" in server.startup_problems(Settings())[0]


def test_several_workers_without_redis_are_refused_before_anything_is_built(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'shop.db'}", "WEB_WORKERS": "2"}
    env.pop("REFLEX_REDIS_URL", None)

    done = subprocess.run(
        [sys.executable, "-m", "shop_app", "serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 1
    assert "error: 2 backend workers need Redis: set REFLEX_REDIS_URL" in done.stderr
    assert "or set WEB_WORKERS=1" in done.stderr


def test_unreachable_redis_and_database_are_named_without_their_passwords() -> None:
    closed = free_port()
    settings = Settings(
        web_workers=2,
        redis_url=f"redis://:secret@127.0.0.1:{closed}",
        database_url=f"postgresql+psycopg://shop:secret@127.0.0.1:{closed}/shop",
    )

    problems = server.startup_problems(settings)

    assert [p.split(" at ")[0] for p in problems] == ["cannot reach Redis", "cannot reach the database"]
    assert all("secret" not in problem for problem in problems)


def test_one_worker_on_a_reachable_database_may_start(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'shop.db'}", web_workers=1)

    assert server.startup_problems(settings) == []


def test_a_worker_that_dies_is_started_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(granian.server, "Server", granian.server.Server)  # put back afterwards
    server._enable_worker_respawn()

    built = granian.server.Server(target="shop_app.shop_app:app", factory=True, workers=2)

    assert built.respawn_failed_workers is True
    assert built.workers == 2


def test_the_square_simulator_process_is_one_ledger_for_every_worker() -> None:
    headers = {"Authorization": f"Bearer {local_token()}"}  # the secret the process inherits
    url, process = server.start_square_simulator()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"{url}/v2/locations", headers=headers, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the simulator did not start"
                time.sleep(0.2)
        assert answer.status_code == 200
        stranger = httpx.get(f"{url}/v2/locations", headers={"Authorization": "Bearer local"}, timeout=5)
        assert stranger.status_code == 401  # only the shop's secret opens it
        body = {
            "source_id": "cnon:card-nonce-ok",
            "idempotency_key": "k-1",
            "amount_money": {"amount": 1500, "currency": "CAD"},
        }
        first = httpx.post(f"{url}/v2/payments", json=body, headers=headers, timeout=5).json()["payment"]
        again = httpx.post(f"{url}/v2/payments", json=body, headers=headers, timeout=5).json()["payment"]
        assert first["id"] == again["id"]  # the same key is the same payment, whoever asks
        listed = httpx.get(f"{url}/v2/payments", headers=headers, timeout=5).json()["payments"]
        assert [p["id"] for p in listed] == [first["id"]]
    finally:
        process.terminate()
        process.wait(timeout=10)
