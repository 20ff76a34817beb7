"""Budgets, verdicts and the tables of the shop query benchmark (terminal and docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import platform
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .state_size import StateSizes
from .statements import Breakdown
from .timing import MixResult

# docs/architecture.md#performance-budgets
P95_BUDGET_MS = 30.0
SPEEDUP_BUDGET = 20.0
STATE_BUDGET_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Verdict:
    """One budget: what was measured against it and whether it holds."""

    budget: str
    measured: str
    passed: bool

    @property
    def word(self) -> str:
        """PASS or FAIL."""
        return "PASS" if self.passed else "FAIL"


def verdicts(results: list[MixResult], state: StateSizes | None, state_error: str = "") -> list[Verdict]:
    """Each budget of the shop page, judged on the worst mix."""
    worst_p95 = max(results, key=lambda r: r.query.p95)
    worst_ratio = min(results, key=lambda r: r.ratio)
    found = [
        Verdict(
            f"shop page query p95 ≤ {P95_BUDGET_MS:g} ms (every mix)",
            f"worst p95 {worst_p95.query.p95:.1f} ms ({worst_p95.mix.name}); "
            f"{sum(r.query.p95 <= P95_BUDGET_MS for r in results)}/{len(results)} mixes within",
            worst_p95.query.p95 <= P95_BUDGET_MS,
        ),
        Verdict(
            f"≥ {SPEEDUP_BUDGET:g}× faster than loading and grouping the whole catalogue (every mix)",
            f"lowest ratio {worst_ratio.ratio:.1f}× ({worst_ratio.mix.name}); "
            f"{sum(r.ratio >= SPEEDUP_BUDGET for r in results)}/{len(results)} mixes within",
            worst_ratio.ratio >= SPEEDUP_BUDGET,
        ),
        Verdict(
            "the baseline returned the same page as the query (every mix)",
            f"{sum(r.same_page for r in results)}/{len(results)} mixes identical",
            all(r.same_page for r in results),
        ),
    ]
    if state is None and state_error:
        found.append(
            Verdict(
                f"serialized state of a shopper on /shop ≤ {STATE_BUDGET_BYTES // 1024} KB",
                f"not measured ({state_error})",
                False,
            )
        )
    elif state is not None:
        for label, size in (
            ("grouped view after the page loads", state.tree_total),
            ("individual view after one “load more”", state.tree_total_more),
        ):
            found.append(
                Verdict(
                    f"serialized state of a shopper on /shop ≤ {STATE_BUDGET_BYTES // 1024} KB, {label}",
                    f"{kib(size)} ({size:,} bytes)",
                    size <= STATE_BUDGET_BYTES,
                )
            )
    return found


def write_json(path: Path, payload: dict[str, Any]) -> None:
    """Write a run's numbers as indented JSON (``--json PATH``), making the folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def exit_status(found: Sequence[Verdict], *, check: bool, out: Callable[[str], None]) -> int:
    """Say whether every budget holds; 1 when one is missed and ``--check`` asked for it, else 0."""
    failed = [v for v in found if not v.passed]
    out("\n" + ("All budgets met." if not failed else f"{len(failed)} budget(s) missed."))
    return 1 if check and failed else 0


def kib(size: int) -> str:
    """Bytes as KB (1 KB = 1024 bytes)."""
    return f"{size / 1024:.1f} KB"


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model or platform.processor(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }


def load_average() -> str:
    """The 1-minute load average ("" where unknown)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return ""


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def mix_table(results: list[MixResult]) -> list[str]:
    """Markdown table: per mix medians, p95 and the ratio."""
    lines = [
        _row(
            [
                "mix",
                "request",
                "total",
                "cards",
                "query median ms",
                "query p95 ms",
                "n",
                "baseline median ms",
                "baseline p95 ms",
                "n",
                "ratio (median)",
                "same page",
            ]
        ),
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        lines.append(
            _row(
                [
                    r.mix.name,
                    r.mix.description,
                    str(r.total),
                    str(r.cards),
                    f"{r.query.median:.1f}",
                    f"**{r.query.p95:.1f}**" if r.query.p95 > P95_BUDGET_MS else f"{r.query.p95:.1f}",
                    str(r.query.n),
                    f"{r.baseline.median:.0f}",
                    f"{r.baseline.p95:.0f}",
                    str(r.baseline.n),
                    f"**{r.ratio:.1f}×**" if r.ratio < SPEEDUP_BUDGET else f"{r.ratio:.1f}×",
                    "yes" if r.same_page else "**NO**",
                ]
            )
        )
    return lines


def verdict_table(found: list[Verdict]) -> list[str]:
    """Markdown table of the verdicts."""
    lines = [
        _row(["budget (docs/architecture.md#performance-budgets)", "measured", "verdict"]),
        "|---|---|---|",
    ]
    lines += [_row([v.budget, v.measured, f"**{v.word}**"]) for v in found]
    return lines


def state_table(state: StateSizes) -> list[str]:
    """Markdown table of the serialized state sizes."""
    s = state
    rows = [
        ("ShopState `_serialize()` (pickle the state manager stores)", s.shop_state, s.shop_state_more),
        ("CartState `_serialize()` (3 lines in the cart)", s.cart_state, s.cart_state),
        ("SiteState `_serialize()`", s.site_state, s.site_state),
        ("**whole tree of the shopper** (root + every substate)", s.tree_total, s.tree_total_more),
        ("JSON of `State.dict()` (every frontend var)", s.frontend_json, s.frontend_json_more),
    ]
    header = [
        "what",
        f"grouped, after load ({s.cards} cards)",
        f"individual, after one load more ({s.cards_more} cards)",
    ]
    lines = [_row(header), "|---|---:|---:|"]
    lines += [_row([label, kib(a), kib(b)]) for label, a, b in rows]
    lines.append(_row(["JSON delta sent for “load more”", "", kib(state.load_more_delta_json)]))
    return lines


def state_fields(state: StateSizes, *, top: int = 4) -> str:
    """The largest ShopState fields, as one sentence."""
    fields = list(state.shop_fields.items())[:top]
    return ", ".join(f"`{name}` {kib(size)}" for name, size in fields)


def breakdown_table(rows: list[Breakdown]) -> list[str]:
    """Markdown table: median ms per statement (rows) and mix (columns)."""
    labels: list[str] = []
    for row in rows:
        labels += [label for label in row.statements if label not in labels]
    lines = [_row(["statement", *(row.mix for row in rows)]), "|---" + "|---:" * len(rows) + "|"]
    for label in labels:
        cells = [f"{row.statements[label]:.1f}" if label in row.statements else "" for row in rows]
        lines.append(_row([label, *cells]))
    lines.append(_row(["Python (rows → cards, session)", *(f"{row.python_ms:.1f}" for row in rows)]))
    lines.append(_row(["**whole request (median)**", *(f"**{row.request_ms:.1f}**" for row in rows)]))
    return lines


def as_json(
    run: dict[str, Any],
    results: list[MixResult],
    rows: list[Breakdown],
    state: StateSizes | None,
    found: list[Verdict],
) -> dict[str, Any]:
    """Everything the run measured, for ``--json``."""
    return {
        "run": run,
        "mixes": [
            {
                "name": r.mix.name,
                "request": r.mix.description,
                "total": r.total,
                "cards": r.cards,
                "same_page": r.same_page,
                "ratio": r.ratio,
                "query_ms": {
                    "median": r.query.median,
                    "p95": r.query.p95,
                    "max": r.query.max,
                    "n": r.query.n,
                },
                "baseline_ms": {"median": r.baseline.median, "p95": r.baseline.p95, "n": r.baseline.n},
            }
            for r in results
        ],
        "statements_ms": [asdict(row) | {"python_ms": row.python_ms} for row in rows],
        "state_bytes": asdict(state) if state is not None else None,
        "verdicts": [asdict(v) | {"verdict": v.word} for v in found],
    }
