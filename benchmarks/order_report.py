"""Verdicts, tables and the docs/benchmarks.md block of the order placement benchmark.

The results of each database live between ``<!-- order_placement:<dialect>:start -->`` and
``<!-- order_placement:<dialect>:end -->`` in the section "Order placement"; ``--write-docs``
replaces only that block (re-reading the file right before writing), everything else in the file
is kept as written. A missing section is appended at the end of the file.
"""

from __future__ import annotations

import os
import platform
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .order_run import Integrity, Profile, RaceResult, RoundResult, percentile

# docs/architecture.md#performance-budgets: ≥ 50 % of the throughput of the same SQL written by hand
RATIO_BUDGET = 0.5
DIALECTS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
SECTION_HEADING = "## Order placement (`benchmarks/order_placement.py`)"

SECTION_TEMPLATE = f"""{SECTION_HEADING}

Budget (docs/architecture.md#performance-budgets): place an order (no payment latency), PostgreSQL,
32 concurrent buyers:
≥ 50 % of the throughput of the same SQL written by hand, zero oversell.

```sh
.venv/bin/python benchmarks/order_placement.py --write-docs            # PostgreSQL (the budget)
.venv/bin/python benchmarks/order_placement.py --sqlite --write-docs   # SQLite, for comparison
```

### Results: PostgreSQL

<!-- order_placement:postgresql:start -->
_Not run yet._
<!-- order_placement:postgresql:end -->

### Results: SQLite

<!-- order_placement:sqlite:start -->
_Not run yet._
<!-- order_placement:sqlite:end -->
"""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One budget (or check): what was measured and whether it holds (``None``: not judged)."""

    budget: str
    measured: str
    passed: bool | None

    @property
    def word(self) -> str:
        """PASS, FAIL or a dash (reported, not judged)."""
        return {True: "PASS", False: "FAIL", None: "—"}[self.passed]


def median_throughput(rounds: list[RoundResult]) -> float:
    """Median orders/s over the rounds."""
    return statistics.median(r.throughput for r in rounds) if rounds else 0.0


def ratio(results: dict[str, list[RoundResult]], numerator: str, denominator: str) -> float:
    """Median throughput of one implementation over another's, both from the same run."""
    below = median_throughput(results.get(denominator, []))
    return median_throughput(results.get(numerator, [])) / below if below else 0.0


def round_ratios(results: dict[str, list[RoundResult]], numerator: str, denominator: str) -> list[float]:
    """The ratio within each round."""
    return [
        a.throughput / b.throughput
        for a, b in zip(results.get(numerator, []), results.get(denominator, []), strict=False)
        if b.throughput
    ]


def verdicts(
    dialect: str,
    results: dict[str, list[RoundResult]],
    *,
    races: list[RaceResult],
    checked: Integrity,
    same: dict[str, tuple[int, int]],
    threads: int,
) -> list[Verdict]:
    """The budget of docs/architecture.md#performance-budgets and the correctness checks of the run."""
    main = ratio(results, "app", "hand")
    per_round = round_ratios(results, "app", "hand")
    spread = f"; per round {min(per_round):.2f}–{max(per_round):.2f}" if per_round else ""
    judged = dialect == "postgresql"
    found = [
        Verdict(
            f"app ≥ {RATIO_BUDGET:.0%} of the throughput of the same SQL written by hand, "
            f"{threads} buyers" + ("" if judged else " (the budget is for PostgreSQL: comparison only)"),
            f"**{main:.2f}** ({median_throughput(results.get('app', [])):.0f} vs "
            f"{median_throughput(results.get('hand', [])):.0f} orders/s, medians{spread})",
            main >= RATIO_BUDGET if judged else None,
        )
    ]
    if "hand_writes" in results:
        writes = ratio(results, "app", "hand_writes")
        found.append(
            Verdict(
                "for reference, not the budget: app vs the writes alone (prices known beforehand)",
                f"{writes:.2f} ({median_throughput(results['app']):.0f} vs "
                f"{median_throughput(results['hand_writes']):.0f} orders/s)",
                None,
            )
        )
    for r in races:
        found.append(
            Verdict(
                f"zero oversell ({r.key}): {r.buyers} buyers race for {r.stock} units",
                f"{r.placed} orders placed, {r.refused} refused, {len(r.errors)} errors; "
                f"{r.units_ordered} units in {r.orders_with_product} orders; stock after {r.stock_after}, "
                f"lowest seen {r.lowest_seen}",
                r.exact,
            )
        )
    found.append(
        Verdict(
            "every product's stock = initial − units ordered, never negative; every order has "
            "its items, one address and one payment of its total",
            f"{checked.conserved:,}/{checked.products:,} products conserved, {checked.negative} negative; "
            f"{checked.complete:,}/{checked.orders:,} orders complete ({checked.orders_placed:,} reported)",
            checked.ok,
        )
    )
    failures = []
    for key, rounds in results.items():
        errors = [e for r in rounds for e in r.errors]
        refused = sum(r.refused for r in rounds)
        if errors or refused:
            first = f": {errors[0]}" if errors else ""
            failures.append(f"{key} {len(errors)} errors, {refused} refused{first}")
    found.append(
        Verdict(
            "every order of the timed rounds placed (no error, no refusal)",
            "; ".join(failures) or "all placed",
            not failures,
        )
    )
    for other, (compared, identical) in same.items():
        found.append(
            Verdict(
                f"app and {other} wrote the same orders (totals, items, snapshots) for the same carts",
                f"{identical:,}/{compared:,} carts identical",
                compared > 0 and compared == identical,
            )
        )
    return found


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
    }


def load_average() -> str:
    """The 1-minute load average ("" where unknown)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return ""


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def throughput_table(results: dict[str, list[RoundResult]], labels: dict[str, str]) -> list[str]:
    """Markdown: orders/s per round and the median, latency, refusals and errors."""
    rounds = max((len(r) for r in results.values()), default=0)
    header = ["implementation", *[f"round {n + 1}" for n in range(rounds)], "**median orders/s**"]
    header += ["client CPU ms/order", "latency median ms", "latency p95 ms", "orders", "refused", "errors"]
    lines = [_row(header), "|---|" + "---:|" * (len(header) - 1)]
    for key, found in results.items():
        latencies = [ms for r in found for ms in r.latencies_ms]
        lines.append(
            _row(
                [
                    labels.get(key, key),
                    *[f"{r.throughput:.0f}" for r in found],
                    f"**{median_throughput(found):.0f}**",
                    f"{statistics.median(r.cpu_ms_per_order for r in found):.2f}" if found else "",
                    f"{percentile(latencies, 50):.1f}",
                    f"{percentile(latencies, 95):.1f}",
                    f"{sum(r.placed for r in found):,}",
                    str(sum(r.refused for r in found)),
                    str(sum(len(r.errors) for r in found)),
                ]
            )
        )
    return lines


def verdict_table(found: list[Verdict]) -> list[str]:
    """Markdown table of the verdicts."""
    lines = [_row(["budget / check", "measured", "verdict"]), "|---|---|---|"]
    lines += [
        _row([v.budget, v.measured, f"**{v.word}**" if v.passed is not None else v.word]) for v in found
    ]
    return lines


def profile_table(profiles: list[Profile], labels: dict[str, str]) -> list[str]:
    """Markdown: per order, one at a time — time, statements by kind, round trips."""
    keys = [p.key for p in profiles]
    lines = [_row(["per order (placed alone)", *[f"`{k}`" for k in keys]]), "|---|" + "---:|" * len(keys)]
    lines.append(_row(["wall time, median ms", *[f"{p.median_ms:.2f}" for p in profiles]]))
    lines.append(
        _row(
            [
                "of which inside the driver's execute, mean ms",
                *[f"{p.statement_ms_per_order:.2f}" for p in profiles],
            ]
        )
    )
    lines.append(
        _row(["client CPU (the placing thread), mean ms", *[f"{p.cpu_ms_per_order:.2f}" for p in profiles]])
    )
    lines.append(_row(["**statements executed**", *[f"**{p.statements_per_order:.2f}**" for p in profiles]]))
    all_labels = sorted({label for p in profiles for label in p.statements}, key=_label_order)
    for label in all_labels:
        cells = [f"{p.per_order(p.statements[label]):.2f}" if p.statements[label] else "" for p in profiles]
        lines.append(_row([f"&nbsp;&nbsp;`{label}`", *cells]))
    lines.append(
        _row(
            [
                "connection checkouts (`pool_pre_ping`: a `SELECT 1` round trip each)",
                *[f"{p.per_order(p.checkouts):.2f}" + ("" if p.pre_ping else " (no ping)") for p in profiles],
            ]
        )
    )
    lines.append(_row(["commits", *[f"{p.per_order(p.commits):.2f}" for p in profiles]]))
    lines.append(
        _row(
            [
                "**round trips** (statements + ping + BEGIN + COMMIT)",
                *[f"**{p.round_trips_per_order:.2f}**" for p in profiles],
            ]
        )
    )
    return lines


def _label_order(label: str) -> tuple[int, str]:
    rank = {"BEGIN": 0, "SELECT": 1, "UPDATE": 2, "SAVEPOINT": 3, "INSERT": 4, "RELEASE": 5}
    return rank.get(label.split(maxsplit=1)[0], 9), label


def results_block(
    run: dict[str, Any],
    results: dict[str, list[RoundResult]],
    found: list[Verdict],
    profiles: list[Profile],
    labels: dict[str, str],
) -> str:
    """The generated Markdown of one run."""
    m = run["machine"]
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['platform']}, Python {m['python']}; "
        f"database {run['database']}. 1-minute load average {run['load_before']} before, "
        f"{run['load_after']} after (other work shares the machine: compare ratios, not absolutes).",
        f"- Data: {run['products']:,} synthetic products (`load_synthetic`, seed {run['seed']}, "
        f"{run['seed_seconds']:.1f} s), stock {run['stock']:,} each; {run['orders']:,} guest carts of 1–3 "
        f"lines (quantity 1–2) filled with `cart.add_item` ({run['carts_seconds']:.1f} s).",
        f"- Timing: {run['threads']} buyer threads in one process, each with its own pooled connection of "
        "the shop's engine (`create_db_engine`). A round = each implementation places one order from "
        f"each of the {run['orders']:,} carts; {run['rounds']} rounds, interleaved in rotated order, "
        f"after {run['warmup']} untimed orders per implementation. Throughput = orders / wall time; "
        "ratio = median app / median hand, from the same run. Client CPU = CPU time of the benchmark "
        "process (all threads: Python, SQLAlchemy, the driver) / orders, median of the rounds. Latency is "
        "per order, pooled over the rounds.",
        "",
        *throughput_table(results, labels),
        "",
        "Verdicts:",
        "",
        *verdict_table(found),
        "",
    ]
    if profiles:
        lines += [
            f"Where an order's time goes: {run['profile_orders']} orders per implementation placed one at "
            "a time (no concurrency), statements counted and timed with SQLAlchemy engine events:",
            "",
            *profile_table(profiles, labels),
        ]
    return "\n".join(lines)


def _markers(dialect: str) -> tuple[str, str]:
    return f"<!-- order_placement:{dialect}:start -->", f"<!-- order_placement:{dialect}:end -->"


def write_results(path: Path, dialect: str, block: str) -> None:
    """Replace ``dialect``'s results block in ``path``; add the section if it is missing.

    The file is read right before it is written, so edits made meanwhile to other sections
    are kept.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if SECTION_HEADING not in text:
        text = text.rstrip("\n") + "\n\n" + SECTION_TEMPLATE
    start, end = _markers(dialect)
    replacement = f"{start}\n{block}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _match: replacement, text, count=1)
    else:  # the section is there without this database's block: add it at the section's end
        at = text.index(SECTION_HEADING)
        following = re.search(r"^## ", text[at + len(SECTION_HEADING) :], re.MULTILINE)
        cut = at + len(SECTION_HEADING) + following.start() if following else len(text)
        heading = f"### Results: {DIALECTS.get(dialect, dialect)}"
        text = text[:cut].rstrip("\n") + f"\n\n{heading}\n\n{replacement}\n\n" + text[cut:].lstrip("\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
