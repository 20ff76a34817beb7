"""One load level: N shoppers connected at once, acting with think time, measured for a while.

Each level opens N new tabs on /shop (at most ``CONNECT_CONCURRENCY`` handshakes at a time, not
timed against the budget), lets them act for a warm-up, then records every action for the
measured window. While the level runs, the backend workers' resident memory is sampled; the CPU
time the server's processes and this process used in the window is read at both ends. After the
level the tabs close and the states each shopper left in the state manager are weighed: the
pickles the disk manager wrote (``<states dir>/md5("<token>_<state>").pkl``) or the Redis values
(``<token>_<state>``), the bytes Reflex stores per shopper.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import psutil

from .burst import Burst, BurstConfig, BurstNames, BurstResult
from .server import Server
from .shopper import Protocol, Sample, Shopper

CONNECT_CONCURRENCY = 10
STATE_WRITE_WAIT_S = 3.0  # the disk manager writes states 2 s after their last change
MEMORY_SAMPLE_S = 0.5


@dataclass(frozen=True, slots=True)
class LevelConfig:
    """How one level runs."""

    clients: int
    seconds: float
    warmup: float
    think_min: float
    think_max: float
    label: str = ""
    burst: BurstConfig = field(default_factory=BurstConfig)  # sign-ins, checkouts and loop probes beside


@dataclass
class LevelResult:
    """Everything measured at one level."""

    config: LevelConfig
    samples: list[Sample] = field(default_factory=list)
    window_s: float = 0.0
    connect_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    worker_rss_peak: list[int] = field(default_factory=list)  # bytes, per worker
    worker_rss_end: list[int] = field(default_factory=list)
    server_cpu_s: float = 0.0  # all server processes, during the window
    client_cpu_s: float = 0.0  # this process (the shoppers), during the window
    state_bytes: list[int] = field(default_factory=list)  # per shopper, all its stored states
    state_by_name: dict[str, list[int]] = field(default_factory=dict)  # per state, per shopper
    burst: BurstResult | None = None  # what ran beside the shoppers (None: nothing)


def _cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def _rss(processes: list[psutil.Process]) -> list[int]:
    found = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            found.append(process.memory_info().rss)
    return found


async def _sample_memory(server: Server, peak: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for index, rss in enumerate(_rss(server.backend_workers())):
            if index >= len(peak):
                peak.append(rss)
            else:
                peak[index] = max(peak[index], rss)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), MEMORY_SAMPLE_S)


async def _shop(
    shopper: Shopper, config: LevelConfig, record_from: float, stop_at: float, out: list[Sample]
) -> None:
    rng = shopper.rng
    # Spread the first actions over a think time, so the shoppers do not act in lockstep.
    await asyncio.sleep(rng.uniform(0, config.think_max))
    while time.perf_counter() < stop_at:
        sample = await shopper.act(shopper.next_action())
        if record_from <= sample.sent < stop_at:
            out.append(sample)
        if not sample.ok:
            return  # a timed-out or closed tab stops; its error is counted
        think = rng.uniform(config.think_min, config.think_max)
        if think > 0:
            await asyncio.sleep(think)


def state_sizes(server: Server, shoppers: list[Shopper]) -> tuple[list[int], dict[str, list[int]]]:
    """The bytes each shopper's states take in the state manager (total, and per state)."""
    per_shopper: list[int] = []
    per_state: dict[str, list[int]] = {}
    if server.states_dir is None and not server.redis_url:
        return per_shopper, per_state  # a shop started elsewhere: where it keeps states is unknown
    redis_client = None
    if server.redis_url:
        import redis  # noqa: PLC0415 - only with the Redis state manager

        redis_client = redis.Redis.from_url(server.redis_url)
    try:
        for shopper in shoppers:
            total = 0
            for name in sorted(shopper.state_names):
                key = f"{shopper.token}_{name}"
                if redis_client is not None:
                    size = int(redis_client.strlen(key))
                else:
                    assert server.states_dir is not None
                    path = server.states_dir / f"{hashlib.md5(key.encode()).hexdigest()}.pkl"
                    size = path.stat().st_size if path.exists() else 0
                if size:
                    per_state.setdefault(name, []).append(size)
                total += size
            per_shopper.append(total)
    finally:
        if redis_client is not None:
            redis_client.close()
    return per_shopper, per_state


async def run_level(
    server: Server,
    protocol: Protocol,
    config: LevelConfig,
    product_ids: list[int],
    *,
    seed: int = 0,
    state_wait: float = STATE_WRITE_WAIT_S,
    progress: Callable[[str], None] = lambda _text: None,
    burst_names: BurstNames | None = None,
    accounts: Sequence[str] = (),
) -> LevelResult:
    """Run one level against ``server`` and measure it (with its burst, when it has one: the
    names of its events and the accounts its sign-ins use)."""
    result = LevelResult(config)
    host, port = "127.0.0.1", server.port
    burst = None
    if config.burst.active:
        if burst_names is None:
            msg = "a level with a burst needs the burst's event names"
            raise ValueError(msg)
        burst = Burst(
            protocol, burst_names, config.burst, host, port, server.url, product_ids, list(accounts), seed
        )
        result.burst = burst.result
    shoppers = [
        Shopper(protocol, host, port, server.url, product_ids, random.Random(f"{seed}-{config.label}-{i}"))
        for i in range(config.clients)
    ]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def open_tab(shopper: Shopper) -> None:
        async with gate:
            await shopper.open()

    progress(f"{config.label}: opening {config.clients} tabs on /shop")
    try:
        await asyncio.gather(*(open_tab(s) for s in shoppers))
        result.connect_ms = [s.connect_ms for s in shoppers]
        if burst is not None and config.burst.sign_ins_per_s:
            progress(f"{config.label}: opening the tabs of the sign-ins on /")
            await burst.prepare(config.warmup + config.seconds, CONNECT_CONCURRENCY)
        stop_sampling = asyncio.Event()
        sampler = asyncio.create_task(_sample_memory(server, result.worker_rss_peak, stop_sampling))
        start = time.perf_counter()
        record_from = start + config.warmup
        stop_at = record_from + config.seconds
        progress(f"{config.label}: {config.warmup:g} s warm-up, then {config.seconds:g} s measured")
        tasks = [
            asyncio.create_task(_shop(s, config, record_from, stop_at, result.samples)) for s in shoppers
        ]
        if burst is not None:
            tasks.append(asyncio.create_task(burst.run(record_from, stop_at)))
        await asyncio.sleep(max(0.0, record_from - time.perf_counter()))
        me = psutil.Process()
        server_cpu, client_cpu, window_start = (
            _cpu_seconds(server.processes()),
            _cpu_seconds([me]),
            time.perf_counter(),
        )
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        result.server_cpu_s = _cpu_seconds(server.processes()) - server_cpu
        result.client_cpu_s = _cpu_seconds([me]) - client_cpu
        result.window_s = time.perf_counter() - window_start
        await asyncio.gather(*tasks)
        stop_sampling.set()
        await sampler
        result.worker_rss_end = _rss(server.backend_workers())
    finally:
        await asyncio.gather(*(s.close() for s in shoppers), return_exceptions=True)
        if burst is not None:
            await burst.close()
    for shopper in shoppers:
        for error in shopper.errors:
            result.errors[error] = result.errors.get(error, 0) + 1
    await asyncio.sleep(state_wait)
    result.state_bytes, result.state_by_name = state_sizes(server, shoppers)
    return result
