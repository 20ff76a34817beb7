"""Budgets, verdicts and tables of the load benchmark (terminal and docs/benchmarks.md)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from .burst import BURST_ACTIONS, LAG, LAG_INTERVAL_S, VISIT_TIMEOUT_S
from .load_run import LevelResult
from .report import Verdict, kib
from .shopper import ACTIONS, BUDGETED
from .timing import percentile

# docs/architecture.md#performance-budgets
P95_BUDGET_MS = 50.0
BUDGET_CLIENTS = 50
STATE_BUDGET_BYTES = 64 * 1024
TRIVIAL = "trivial event"
PING = "transport ping"
LAG_P99_BUDGET_MS = 50.0  # issue 18, acceptance 3: the event loop's lag during the burst

HEADING = "## Load: shoppers over websockets (`benchmarks/load.py`)"
TEMPLATE = f"""{HEADING}

Budget (docs/architecture.md#performance-budgets): add-to-cart event round trip, 50 concurrent
websocket clients, p95 ≤ 50 ms;
serialized Reflex state of a shopper ≤ 64 KB.

```sh
.venv/bin/python benchmarks/load.py --write-docs
```

### Results: SQLite, disk state manager, 1 worker

<!-- load:sqlite:start -->
_Not run yet._
<!-- load:sqlite:end -->
"""


@dataclass(frozen=True, slots=True)
class ActionStats:
    """Round trips of one action at one level (finished actions only), in milliseconds."""

    action: str
    n: int
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, action: str, samples: list[float]) -> ActionStats:
        """Percentiles (nearest rank) of ``samples``; zeros when there are none."""
        if not samples:
            return cls(action, 0, 0.0, 0.0, 0.0, 0.0)
        return cls(
            action,
            len(samples),
            percentile(samples, 50),
            percentile(samples, 95),
            percentile(samples, 99),
            max(samples),
        )


def action_stats(level: LevelResult) -> dict[str, ActionStats]:
    """Per action, the finished round trips of the measured window."""
    return {
        action: ActionStats.of(action, [s.ms for s in level.samples if s.action == action and s.ok])
        for action in ACTIONS
    }


def throughput(level: LevelResult) -> float:
    """Finished actions per second of the measured window."""
    return sum(s.ok for s in level.samples) / level.window_s if level.window_s else 0.0


def error_count(level: LevelResult) -> int:
    """Timeouts, closed connections and refused actions."""
    return sum(level.errors.values())


def _is_budget_level(level: LevelResult) -> bool:
    c = level.config
    return c.clients == BUDGET_CLIENTS and c.think_max > 0 and not c.burst.active


def burst_stats(level: LevelResult) -> dict[str, ActionStats]:
    """Per burst action (sign-in, checkout) and the loop probes, the finished round trips."""
    samples = level.burst.samples if level.burst else []
    return {
        action: ActionStats.of(action, [s.ms for s in samples if s.action == action and s.ok])
        for action in (*BURST_ACTIONS, LAG)
    }


def browsing_events(level: LevelResult) -> ActionStats:
    """Every event the browsing shoppers sent (page loads, searches, adds to cart, trivial
    events; not the transport ping, which is no event), pooled."""
    return ActionStats.of("browsing events", [s.ms for s in level.samples if s.ok and s.action != PING])


def _burst_verdicts(level: LevelResult) -> list[Verdict]:
    c, stats = level.config.burst, burst_stats(level)
    events, lag = browsing_events(level), stats[LAG]
    beside = f"{c.sign_ins_per_s:g} sign-ins/s and {c.checkouts_per_s:g} checkouts/s"
    each = ", ".join(f"{a} {s.p95:.1f}" for a, s in action_stats(level).items() if a != PING)
    found = [
        Verdict(
            f"browsing shoppers' event round trip p95 ≤ {P95_BUDGET_MS:g} ms, "
            f"{level.config.clients} shoppers beside {beside}",
            f"p95 {events.p95:.1f} ms (p50 {events.p50:.1f}, p99 {events.p99:.1f}; n = {events.n}; "
            f"p95 by action: {each})",
            events.n > 0 and events.p95 <= P95_BUDGET_MS,
        )
    ]
    if c.lag_probes:
        found.append(
            Verdict(
                f"event loop lag p99 ≤ {LAG_P99_BUDGET_MS:g} ms during the burst "
                f"(ping round trip of {c.lag_probes} idle tabs, every {1000 * LAG_INTERVAL_S:.0f} ms)",
                f"p99 {lag.p99:.1f} ms (p50 {lag.p50:.1f}, p95 {lag.p95:.1f}, max {lag.max:.1f}; "
                f"n = {lag.n})",
                lag.n > 0 and lag.p99 <= LAG_P99_BUDGET_MS,
            )
        )
    return found


def verdicts(levels: list[LevelResult]) -> list[Verdict]:
    """The budgets, judged on the measured levels."""
    found: list[Verdict] = []
    for level in levels:
        if level.config.burst.active:
            found += _burst_verdicts(level)
        if not _is_budget_level(level):
            continue
        stats = action_stats(level)
        add, trivial = stats[BUDGETED], stats[TRIVIAL]
        found.append(
            Verdict(
                f"add-to-cart round trip p95 ≤ {P95_BUDGET_MS:g} ms, "
                f"{BUDGET_CLIENTS} concurrent websocket clients",
                f"p95 {add.p95:.1f} ms (p50 {add.p50:.1f}, p99 {add.p99:.1f}; n = {add.n}); "
                f"trivial event p95 {trivial.p95:.1f} ms in the same level",
                add.n > 0 and add.p95 <= P95_BUDGET_MS,
            )
        )
    sizes = [size for level in levels for size in level.state_bytes]
    if sizes:
        worst = max(sizes)
        found.append(
            Verdict(
                f"serialized state of a shopper ≤ {STATE_BUDGET_BYTES // 1024} KB "
                "(every shopper, every level)",
                f"largest {kib(worst)} ({worst:,} bytes); median {kib(int(statistics.median(sizes)))}",
                worst <= STATE_BUDGET_BYTES,
            )
        )
    errors = sum(error_count(level) for level in levels)
    found.append(
        Verdict(
            "every shopper's action finished (no timeout, no refused add to cart, no dropped connection)",
            f"{errors} error(s)" if errors else "all finished",
            errors == 0,
        )
    )
    return found


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _mib(size: float) -> str:
    return f"{size / 2**20:.0f}"


def _level_name(level: LevelResult) -> str:
    c = level.config
    think = f"{c.think_min:g}–{c.think_max:g} s" if c.think_max > 0 else "none"
    name = f"{c.clients} (think {think})"
    if c.burst.active:
        name += f" + {c.burst.sign_ins_per_s:g} sign-ins/s + {c.burst.checkouts_per_s:g} checkouts/s"
    return name


def level_table(levels: list[LevelResult]) -> list[str]:
    """Throughput and CPU per level."""
    lines = [
        _row(
            [
                "clients",
                "measured s",
                "actions",
                "**actions/s**",
                "server CPU, % of one core",
                "server CPU ms / action",
                "shoppers' CPU, % of one core",
                "errors",
            ]
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for level in levels:
        done = sum(s.ok for s in level.samples)
        window = level.window_s or 1.0
        lines.append(
            _row(
                [
                    _level_name(level),
                    f"{level.window_s:.0f}",
                    f"{done:,}",
                    f"**{throughput(level):.0f}**",
                    f"{100 * level.server_cpu_s / window:.0f}",
                    f"{1000 * level.server_cpu_s / done:.1f}" if done else "",
                    f"{100 * level.client_cpu_s / window:.0f}",
                    str(error_count(level)),
                ]
            )
        )
    return lines


def latency_table(levels: list[LevelResult]) -> list[str]:
    """Round-trip percentiles per level and action, with the ratio to the trivial event."""
    lines = [
        _row(["clients", "action", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "p95 ÷ trivial p95"]),
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for level in levels:
        stats = action_stats(level)
        trivial = stats[TRIVIAL].p95
        for action in ACTIONS:
            s = stats[action]
            budget = _is_budget_level(level) and action == BUDGETED
            lines.append(_latency_row(level, action, s, trivial, bold=budget))
        if level.config.burst.active:
            lines += [
                _latency_row(level, f"*{action}*", s, trivial)
                for action, s in burst_stats(level).items()
                if s.n
            ]
    return lines


def _latency_row(
    level: LevelResult, action: str, s: ActionStats, trivial: float, *, bold: bool = False
) -> str:
    p95 = f"**{s.p95:.1f}**" if bold else f"{s.p95:.1f}"
    ratio = f"{s.p95 / trivial:.1f}×" if trivial and s.n else ""
    cells = [_level_name(level), action, str(s.n), f"{s.p50:.1f}", p95, f"{s.p99:.1f}", f"{s.max:.1f}", ratio]
    return _row(cells)


def burst_table(levels: list[LevelResult]) -> list[str]:
    """What arrived beside the shoppers, what finished, and how fast."""
    lines = [
        _row(["level", "visit", "arrived", "finished", "finished / s", "p50 ms", "p95 ms", "max ms"]),
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for level in levels:
        if level.burst is None:
            continue
        stats = burst_stats(level)
        window = level.window_s or 1.0
        for action in BURST_ACTIONS:
            arrived = level.burst.arrived.get(action, 0)
            if not arrived:
                continue
            s = stats[action]
            lines.append(
                _row(
                    [
                        _level_name(level),
                        action,
                        str(arrived),
                        str(s.n),
                        f"{s.n / window:.1f}",
                        f"{s.p50:.1f}",
                        f"{s.p95:.1f}",
                        f"{s.max:.1f}",
                    ]
                )
            )
    return lines


def burst_errors(levels: list[LevelResult]) -> list[str]:
    """The burst's failures, by kind (none: an empty list)."""
    return [
        f"- {_level_name(level)}: {why} × {count}"
        for level in levels
        if level.burst is not None
        for why, count in sorted(level.burst.errors.items())
    ]


def memory_table(levels: list[LevelResult], idle: list[int]) -> list[str]:
    """Resident memory of the backend workers: idle before the first level, peak and end of each."""
    lines = [
        _row(["after / during", "workers", "RSS per worker, MB (peak)", "RSS per worker, MB (end of level)"]),
        "|---|---:|---:|---:|",
        _row(["idle, before the first level", str(len(idle)), ", ".join(_mib(r) for r in idle), ""]),
    ]
    for level in levels:
        lines.append(
            _row(
                [
                    _level_name(level),
                    str(len(level.worker_rss_end)),
                    ", ".join(_mib(r) for r in level.worker_rss_peak),
                    ", ".join(_mib(r) for r in level.worker_rss_end),
                ]
            )
        )
    return lines


def state_table(levels: list[LevelResult], top: int = 5) -> list[str]:
    """Bytes each shopper's states take in the state manager, and the largest states."""
    lines = [
        _row(
            [
                "clients",
                "shoppers",
                "median per shopper",
                "largest shopper",
                "largest states (median per shopper)",
            ]
        ),
        "|---|---:|---:|---:|---|",
    ]
    for level in levels:
        if not level.state_bytes:
            continue
        largest = sorted(
            ((statistics.median(sizes), name) for name, sizes in level.state_by_name.items()), reverse=True
        )[:top]
        names = ", ".join(f"`{_short(name)}` {kib(int(size))}" for size, name in largest)
        lines.append(
            _row(
                [
                    _level_name(level),
                    str(len(level.state_bytes)),
                    kib(int(statistics.median(level.state_bytes))),
                    kib(max(level.state_bytes)),
                    names,
                ]
            )
        )
    return lines


def _short(state_name: str) -> str:
    """``reflex___state____state.shop_app___state___shop____shop_state`` → ``shop_state``."""
    return state_name.rsplit(".", 1)[-1].rsplit("____", 1)[-1]


def verdict_table(found: list[Verdict]) -> list[str]:
    """Markdown table of the verdicts."""
    lines = [
        _row(["budget (docs/architecture.md#performance-budgets)", "measured", "verdict"]),
        "|---|---|---|",
    ]
    lines += [_row([v.budget, v.measured, f"**{v.word}**"]) for v in found]
    return lines


def results_block(run: dict[str, Any], levels: list[LevelResult], found: list[Verdict]) -> str:
    """The generated Markdown of one run."""
    m = run["machine"]
    first = levels[0].config if levels else None
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['memory_gb']:.0f} GB RAM, {m['platform']}, "
        f"Python {m['python']}. 1-minute load average {run['load_before']} before, "
        f"{run['load_after']} after: "
        "other jobs share the machine, so compare the ratios of a run, not absolutes between runs; the "
        "shoppers run on the same cores as the server.",
        f"- Server: the production build (`reflex run --env prod --single-port`, Reflex {run['reflex']}), "
        f"{run['workers']} backend worker(s); {run['database']}; state manager: {run['state_manager']}.",
    ]
    if first is not None:
        lines.append(
            "- Shoppers: each level opens new tabs on /shop over loopback websockets (Reflex's event "
            "protocol, no browser); each tab acts in turn: browse /shop, search, add to cart, trivial "
            f"event, transport ping, thinking {first.think_min:g}–{first.think_max:g} s (uniform) between "
            f"actions; {first.warmup:g} s warm-up, then {first.seconds:g} s measured. Round trip = emit → "
            "the update that ends the action (page loads: `is_hydrated`; add to cart: its notification). "
            "p-values are nearest-rank percentiles of the finished actions."
        )
    burst = next((level.config.burst for level in levels if level.config.burst.active), None)
    if burst is not None:
        lines.append(
            f"- Burst (the last level): beside its shoppers, {burst.sign_ins_per_s:g} visitors a second "
            "sign in through the dialog (`AuthDialogState.submit_login`, bcrypt at the shop's cost) from "
            "a tab opened on / before the level, and "
            f"{burst.checkouts_per_s:g} a second open /shop, add a product, open /checkout and "
            "place the order as a guest with the simulator's approved card (timed from `place_order` to "
            "the redirect to /order-success); arrivals do not wait for earlier visits. "
            f"{burst.lag_probes} idle tabs ping every {1000 * LAG_INTERVAL_S:.0f} ms: the pong is written "
            "by the worker's event loop, so its round trip is that loop's lag. Burst rows are in *italics*."
        )
    lines += [
        "",
        *level_table(levels),
        "",
        *latency_table(levels),
        "",
    ]
    if burst is not None:
        lines += [
            f"The burst's visits (arrived in the measured window; finished within {VISIT_TIMEOUT_S:g} s):",
            "",
            *burst_table(levels),
        ]
        errors = burst_errors(levels)
        lines += (
            ["", "Failed visits of the burst:", "", *errors]
            if errors
            else ["", "No visit of the burst failed."]
        )
        lines.append("")
    lines += [
        "Verdicts:",
        "",
        *verdict_table(found),
        "",
        "Memory of the backend (resident set of each worker process):",
        "",
        *memory_table(levels, run["idle_rss"]),
        "",
        "Serialized state per shopper, as the state manager stores it (the pickles of every state the "
        "shopper's tab touched, read after the level):",
        "",
        *state_table(levels),
    ]
    return "\n".join(lines)


def as_json(run: dict[str, Any], levels: list[LevelResult], found: list[Verdict]) -> dict[str, Any]:
    """Every number of the run."""
    return {
        "run": run,
        "levels": [
            {
                "clients": level.config.clients,
                "think_s": [level.config.think_min, level.config.think_max],
                "measured_s": level.window_s,
                "actions_per_s": throughput(level),
                "server_cpu_s": level.server_cpu_s,
                "client_cpu_s": level.client_cpu_s,
                "errors": level.errors,
                "connect_ms_median": statistics.median(level.connect_ms) if level.connect_ms else None,
                "actions": {
                    a: {"n": s.n, "p50": s.p50, "p95": s.p95, "p99": s.p99, "max": s.max}
                    for a, s in action_stats(level).items()
                },
                "worker_rss_peak": level.worker_rss_peak,
                "worker_rss_end": level.worker_rss_end,
                "state_bytes": level.state_bytes,
                "state_by_name_median": {n: statistics.median(s) for n, s in level.state_by_name.items()},
                "burst": None
                if level.burst is None
                else {
                    "sign_ins_per_s": level.config.burst.sign_ins_per_s,
                    "checkouts_per_s": level.config.burst.checkouts_per_s,
                    "arrived": level.burst.arrived,
                    "errors": level.burst.errors,
                    "actions": {
                        a: {"n": s.n, "p50": s.p50, "p95": s.p95, "p99": s.p99, "max": s.max}
                        for a, s in burst_stats(level).items()
                    },
                },
            }
            for level in levels
        ],
        "verdicts": [{"budget": v.budget, "measured": v.measured, "verdict": v.word} for v in found],
    }
