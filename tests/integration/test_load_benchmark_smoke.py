"""The load benchmark still runs end to end at a tiny size, so it cannot rot.

No server start: a stand-in for Reflex's event endpoint (python-socketio, the library Reflex
serves its websocket with, under uvicorn on loopback) answers the shoppers the way the shop does
(hydrate on connect, page loads ending with ``is_hydrated``, add to cart ending with a
notification, pings) and writes state pickles where the disk state manager would. The real
protocol against the real shop is measured by ``benchmarks/load.py`` itself. No timing is
asserted.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest
import socketio
import uvicorn

from benchmarks import load, load_report
from benchmarks.burst import BurstNames
from benchmarks.load_run import LevelConfig, run_level
from benchmarks.server import Server
from benchmarks.shopper import ACTIONS, Protocol
from tests.support.servers import free_port

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale

CART_STATE = "reflex___state____state.shop_app___state___cart____cart_state"
CARD = {"current": {"product_id": 7, "in_stock": True}}


class FakeShop(socketio.AsyncNamespace):
    """Answers like the shop's event namespace; stores a pickle per touched state, per tab."""

    def __init__(self, protocol: Protocol, states_dir: Path) -> None:
        super().__init__("/_event")
        self.p = protocol
        self.burst = BurstNames.of_app()
        self.states_dir = states_dir
        self.tokens: dict[str, str] = {}

    def _store(self, sid: str, *states: str) -> None:
        for state in states:
            key = f"{self.tokens[sid]}_{state}"
            (self.states_dir / f"{hashlib.md5(key.encode()).hexdigest()}.pkl").write_bytes(b"x" * 100)

    async def _update(self, sid: str, delta: dict) -> None:
        self._store(sid, *delta)
        await self.emit("event", {"delta": delta, "events": []}, to=sid)

    async def _page(self, sid: str, search: str = "") -> None:
        await self._update(sid, {self.p.root: {"is_hydrated_rx_state_": False}})
        await self._update(sid, {self.p.shop_state: {"cards_rx_state_": [CARD], "search_rx_state_": search}})
        await self._update(sid, {self.p.root: {"is_hydrated_rx_state_": True}})

    async def on_connect(self, sid: str, environ: dict, auth: dict | None = None) -> None:
        """The CONNECT packet carries the hydrate event (checked)."""
        self.tokens[sid] = parse_qs(environ["QUERY_STRING"])["token"][0]
        assert auth["event"]["name"] == self.p.hydrate_and_load
        asyncio.get_running_loop().create_task(self._page(sid))

    async def on_event(self, sid: str, data: dict) -> None:
        """A page load, an add to cart or the trivial event."""
        if data["name"] == self.p.on_load_internal:
            await self._page(sid, data["router_data"].get("query", {}).get("search", ""))
        elif data["name"] == self.p.add_to_cart:
            assert data["payload"]["product_id"] == 7
            await self._update(sid, {CART_STATE: {"count_rx_state_": 1}})
            await self._update(
                sid, {self.p.notification_state: {"seq_rx_state_": 1, "kind_rx_state_": "success"}}
            )
        elif data["name"] == self.p.dismiss:
            await self._update(sid, {self.p.notification_state: {"message_rx_state_": ""}})
        elif data["name"] == self.burst.submit_login:
            assert data["payload"]["form"]["email"].startswith("burst-")
            await self._update(
                sid, {self.p.notification_state: {"seq_rx_state_": 2, "kind_rx_state_": "success"}}
            )
        elif data["name"] == self.burst.place_order:
            assert data["payload"]["data"]["source_id"] == "cnon:card-nonce-ok"
            redirect = {"name": "_redirect", "payload": {"path": "/order-success?order=1"}}
            await self.emit("event", {"delta": {}, "events": [redirect]}, to=sid)

    async def on_ping(self, sid: str) -> None:
        """Reflex answers a ping with a pong."""
        await self.emit("ping", "pong", to=sid)


@pytest.fixture
def fake_shop(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The stand-in on a free loopback port; its URL and states folder."""
    states = tmp_path / "states"
    states.mkdir()
    sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins="*")
    sio.register_namespace(FakeShop(Protocol.of_app(), states))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            socketio.ASGIApp(sio, socketio_path="_event"),
            host="127.0.0.1",
            port=port,
            ws="wsproto",
            log_level="error",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://localhost:{port}", states
    server.should_exit = True
    thread.join(timeout=5)


def test_load_benchmark_runs_at_tiny_scale(fake_shop: tuple[str, Path], tmp_path: Path) -> None:
    url, states = fake_shop
    docs, result = tmp_path / "benchmarks.md", tmp_path / "load.json"
    argv = [
        "--url", url, "--states-dir", str(states),
        "--clients", "1,2", "--seconds", "1.5", "--warmup", "0.1",
        "--think-min", "0", "--think-max", "0.02",
        "--saturation-clients", "2", "--saturation-seconds", "1",
        "--burst-clients", "1", "--sign-ins-per-s", "8", "--checkouts-per-s", "4", "--lag-probes", "1",
        "--state-wait", "2",  # the fake shop writes states from its own thread: slow on a busy machine
        "--json", str(result), "--write-docs", "--docs", str(docs),
    ]  # fmt: skip

    assert load.main(argv) == 0

    payload = json.loads(result.read_text(encoding="utf-8"))
    levels = payload["levels"]
    shape = [(lv["clients"], lv["think_s"][1] > 0, lv["burst"] is not None) for lv in levels]
    assert shape == [(1, True, False), (2, True, False), (2, False, False), (1, True, True)]
    for level in levels:
        assert level["errors"] == {}
        assert set(level["actions"]) == set(ACTIONS) and level["actions_per_s"] > 0
        assert len(level["state_bytes"]) == level["clients"] and min(level["state_bytes"]) >= 300
    burst = levels[-1]["burst"]
    assert burst["errors"] == {}, burst["errors"]
    assert burst["arrived"]["sign-in"] >= 2 and burst["arrived"]["checkout"] >= 1
    assert burst["actions"]["sign-in"]["n"] == burst["arrived"]["sign-in"]
    assert burst["actions"]["checkout"]["n"] == burst["arrived"]["checkout"]
    assert burst["actions"]["loop lag (ping)"]["n"] > 0
    verdicts = {v["budget"]: v["verdict"] for v in payload["verdicts"]}
    assert set(verdicts.values()) <= {"PASS", "FAIL"}
    assert any(budget.startswith("browsing shoppers' event round trip") for budget in verdicts)
    assert any(budget.startswith("event loop lag p99") for budget in verdicts)
    text = docs.read_text(encoding="utf-8")
    assert load_report.HEADING in text and "<!-- load:attached:start -->" in text
    assert "| add to cart |" in text and "transport ping" in text
    assert "| *sign-in* |" in text and "| *checkout* |" in text and "No visit of the burst failed." in text


def test_a_level_samples_the_backend_workers_memory(fake_shop: tuple[str, Path]) -> None:
    url, states = fake_shop
    port = int(url.rsplit(":", 1)[1])
    server = Server(url=url, port=port, pid=os.getpid(), states_dir=states, log_path=Path())
    config = LevelConfig(clients=2, seconds=0.4, warmup=0.1, think_min=0, think_max=0.02, label="smoke")

    level = asyncio.run(run_level(server, Protocol.of_app(), config, [7], state_wait=0.2))

    assert level.worker_rss_peak and min(level.worker_rss_peak) > 0  # this process stands in
    assert level.server_cpu_s >= 0 and level.window_s > 0
    assert load_report.action_stats(level)["add to cart"].n > 0
