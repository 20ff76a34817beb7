"""Medians, budgets and tables of the Lighthouse benchmark (terminal and docs/benchmarks.md)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from .lighthouse_run import CATEGORIES, METRICS, Report
from .report import Verdict

# docs/architecture.md#performance-budgets and issue 18: mobile scores and metrics on every audited page
# (CPU slowdown scaled to a machine of index 1,500), JavaScript of the home page.
SCORE_BUDGETS = {"performance": 95, "accessibility": 100, "seo": 100, "best-practices": 100}
METRIC_BUDGETS = {"LCP": 2000.0, "TBT": 200.0, "CLS": 0.02}  # ms, ms, unitless
JS_BUDGET_BYTES = 300 * 1024
JS_PAGE = "/"
LABELS = {
    "performance": "performance",
    "accessibility": "accessibility",
    "seo": "SEO",
    "best-practices": "best practices",
}

HEADING = "## Lighthouse (`benchmarks/lighthouse.py`)"
TEMPLATE = f"""{HEADING}

Budget (docs/architecture.md#performance-budgets, issue 18): Lighthouse mobile on /, /shop,
/product/{{id}} and /checkout, medians of 3 runs, the CPU slowdown scaled so that the run is as
slow as on a machine of CPU index 1,500 (multiplier = 4 × index ÷ 1,500, the index measured at
the run's start): LCP ≤ 2.0 s, TBT ≤ 200 ms, CLS ≤ 0.02, performance ≥ 95, accessibility, SEO
and best practices 100; JavaScript on the first load of / ≤ 300 KB gzipped.

```sh
.venv/bin/python benchmarks/lighthouse.py --write-docs
```

### Results: the production build, SQLite, demo catalogue

<!-- lighthouse:default:start -->
_Not run yet._
<!-- lighthouse:default:end -->
"""


@dataclass(frozen=True, slots=True)
class PageResult:
    """The runs of one page in one form factor, and their medians."""

    page: str
    form_factor: str
    runs: tuple[Report, ...]

    def score(self, category: str) -> int:
        """The median score of ``category``."""
        return round(statistics.median(r.scores[category] for r in self.runs))

    def metric(self, label: str) -> float:
        """The median of a metric (FCP, LCP, TBT, SI in ms; CLS)."""
        return statistics.median(r.metrics[label] for r in self.runs)

    @property
    def script_bytes(self) -> int:
        """The median JavaScript transferred."""
        return round(statistics.median(r.script_bytes for r in self.runs))

    @property
    def total_bytes(self) -> int:
        """The median of everything transferred."""
        return round(statistics.median(r.total_bytes for r in self.runs))

    @property
    def benchmark_index(self) -> int:
        """The median of Lighthouse's CPU index at the runs' starts (lower: a busier machine)."""
        return round(statistics.median(r.benchmark_index for r in self.runs))

    @property
    def noindex(self) -> bool:
        """Whether the page asks search engines not to index it."""
        return any(r.noindex for r in self.runs)

    @property
    def median_run(self) -> Report:
        """The run whose performance score is the median (its audits explain the numbers)."""
        ordered = sorted(self.runs, key=lambda r: r.scores["performance"])
        return ordered[(len(ordered) - 1) // 2]


def group(reports: list[Report]) -> list[PageResult]:
    """Reports grouped by page and form factor, in the order they were run."""
    keys: list[tuple[str, str]] = []
    for report in reports:
        if (report.page, report.form_factor) not in keys:
            keys.append((report.page, report.form_factor))
    return [
        PageResult(page, ff, tuple(r for r in reports if (r.page, r.form_factor) == (page, ff)))
        for page, ff in keys
    ]


def kib(size: float) -> str:
    """Bytes as KB (1 KB = 1024 bytes)."""
    return f"{size / 1024:.0f} KB"


def js_page(results: list[PageResult]) -> PageResult | None:
    """The audit of the page whose JavaScript has a budget (mobile if it was audited)."""
    mobile = [r for r in results if r.page == JS_PAGE and r.form_factor == "mobile"]
    return (mobile or [r for r in results if r.page == JS_PAGE] or [None])[0]


def verdicts(results: list[PageResult], js_gzip_bytes: int | None) -> list[Verdict]:
    """Each mobile score budget over every page, and the JavaScript budget (gzip bytes)."""
    mobile = [r for r in results if r.form_factor == "mobile"]
    found = []
    for category, floor in SCORE_BUDGETS.items():
        if not mobile:
            break
        # A page that asks not to be indexed (the checkout) fails Lighthouse's SEO on purpose.
        judged = [r for r in mobile if not (category == "seo" and r.noindex)]
        measured = ", ".join(
            f"{r.page} {r.score(category)}" + ("" if r in judged else " (noindex on purpose: not judged)")
            for r in mobile
        )
        scope = "every indexable page" if len(judged) < len(mobile) else "every page"
        found.append(
            Verdict(
                f"mobile {LABELS[category]} ≥ {floor} ({scope})",
                measured,
                all(r.score(category) >= floor for r in judged),
            )
        )
    for label, ceiling in METRIC_BUDGETS.items():
        if not mobile:
            break
        found.append(
            Verdict(
                f"mobile {label} ≤ {_budget(label, ceiling)} (every page)",
                ", ".join(f"{r.page} {_metric(label, r.metric(label))}" for r in mobile),
                all(r.metric(label) <= ceiling for r in mobile),
            )
        )
    home = js_page(results)
    if home is not None and js_gzip_bytes is not None:
        found.append(
            Verdict(
                f"JavaScript on the first load of {JS_PAGE} ≤ {JS_BUDGET_BYTES // 1024} KB gzipped",
                f"{kib(js_gzip_bytes)} gzipped ({js_gzip_bytes:,} bytes, "
                f"{home.median_run.script_requests} files); as served (Brotli) {kib(home.script_bytes)}",
                js_gzip_bytes <= JS_BUDGET_BYTES,
            )
        )
    return found


def _budget(label: str, ceiling: float) -> str:
    return f"{ceiling:g}" if label == "CLS" else _ms(ceiling)


def _metric(label: str, value: float) -> str:
    return f"{value:.3f}" if label == "CLS" else _ms(value)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _ms(value: float) -> str:
    return f"{value / 1000:.1f} s" if value >= 1000 else f"{value:.0f} ms"


def score_table(results: list[PageResult]) -> list[str]:
    """Median scores, metrics and bytes per page and form factor."""
    lines = [
        _row(
            [
                "page",
                "form factor",
                *[LABELS[c] for c in CATEGORIES],
                *METRICS.values(),
                "JS (files)",
                "all bytes",
                "CPU index",
            ]
        ),
        "|---|---|" + "---:|" * (len(CATEGORIES) + len(METRICS) + 3),
    ]
    for r in results:
        scores = []
        for category in CATEGORIES:
            value = r.score(category)
            if category == "seo" and r.noindex:
                scores.append(f"{value} (noindex)")
                continue
            missed = r.form_factor == "mobile" and value < SCORE_BUDGETS[category]
            scores.append(f"**{value}**" if missed else str(value))
        metrics = []
        for label in METRICS.values():
            missed = r.form_factor == "mobile" and r.metric(label) > METRIC_BUDGETS.get(label, float("inf"))
            text = _metric(label, r.metric(label))
            metrics.append(f"**{text}**" if missed else text)
        lines.append(
            _row(
                [
                    f"`{r.page}`",
                    r.form_factor,
                    *scores,
                    *metrics,
                    f"{kib(r.script_bytes)} ({r.median_run.script_requests})",
                    kib(r.total_bytes),
                    str(r.benchmark_index),
                ]
            )
        )
    return lines


def failing_table(results: list[PageResult]) -> list[str]:
    """What keeps each mobile page below 100 (the median run's audits)."""
    lines = [_row(["page", "category", "audits below 100 (median run)"]), "|---|---|---|"]
    for r in results:
        if r.form_factor != "mobile":
            continue
        for category, audits in r.median_run.failing.items():
            if not audits:
                continue
            text = "; ".join(f"{a.title}{f' ({a.display})' if a.display else ''}" for a in audits)
            lines.append(_row([f"`{r.page}`", LABELS[category], text.replace("|", "\\|")]))
    return lines


def verdict_table(found: list[Verdict]) -> list[str]:
    """Markdown table of the verdicts."""
    lines = [_row(["budget", "measured (median of the runs)", "verdict"]), "|---|---|---|"]
    lines += [_row([v.budget, v.measured, f"**{v.word}**"]) for v in found]
    return lines


def results_block(run: dict[str, Any], results: list[PageResult], found: list[Verdict]) -> str:
    """The generated Markdown of one run."""
    m = run["machine"]
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['memory_gb']:.0f} GB RAM, {m['platform']}. "
        f"1-minute load average {run['load_before']} before, {run['load_after']} after (other jobs share "
        "the machine; Lighthouse's simulated throttling makes its scores much steadier than wall times).",
        f"- Lighthouse {run['lighthouse']}, {run['chromium']} (headless), default settings but the mobile "
        f"CPU slowdown: mobile = simulated slow 4G (150 ms RTT, 1.6 Mbps) and {_slowdown(run)}; desktop = "
        "`--preset=desktop`. "
        f"{run['runs']} runs per page and form factor; every number is the median of the runs. "
        "JS = JavaScript transferred until the page settled, as served (Brotli); the budget's gzip "
        "figure is the same files fetched again asking for gzip. 1 KB = 1024 bytes. CPU index = "
        "Lighthouse's `benchmarkIndex` of the machine when the run started: the simulated blocking "
        "time (TBT) scales the tasks Chromium really ran by the slowdown, which is why it is scaled "
        "to the index. Bold: a mobile figure over its budget.",
        f"- Shop: the production build (`reflex run --env prod --single-port`), {run['database']}; "
        f"product page: `{run['product_path']}`.",
        "",
        *score_table(results),
        "",
        "Verdicts:",
        "",
        *verdict_table(found),
        "",
        "What keeps the mobile pages below 100 (audits of the median run):",
        "",
        *failing_table(results),
    ]
    return "\n".join(lines)


def _slowdown(run: dict[str, Any]) -> str:
    """How the run's mobile CPU slowdown was chosen."""
    slowdown, index, reference = (
        run.get("cpu_slowdown", 4.0),
        run.get("cpu_index", 0),
        run.get("reference_index", 0),
    )
    if not reference or not index:  # unscaled (or Lighthouse reported no index)
        return "Lighthouse's fixed 4× CPU slowdown"
    return (
        f"a {slowdown}× CPU slowdown (4 × the machine's CPU index {index:.0f} measured at the start ÷ "
        f"{reference:.0f}: the CPU of a machine of index {reference:,.0f} slowed 4×)"
    )


def as_json(run: dict[str, Any], results: list[PageResult], found: list[Verdict]) -> dict[str, Any]:
    """Every number of the run (``run`` holds the gzip size of the budgeted page's scripts)."""
    return {
        "run": run,
        "pages": [
            {
                "page": r.page,
                "form_factor": r.form_factor,
                "scores": {c: r.score(c) for c in CATEGORIES},
                "metrics": {m: r.metric(m) for m in METRICS.values()},
                "script_bytes": r.script_bytes,
                "total_bytes": r.total_bytes,
                "runs": [
                    {
                        "scores": x.scores,
                        "metrics": x.metrics,
                        "script_bytes": x.script_bytes,
                        "cpu_slowdown": x.cpu_slowdown,
                    }
                    for x in r.runs
                ],
                "failing": {
                    c: [
                        {"id": a.id, "title": a.title, "score": a.score, "display": a.display} for a in audits
                    ]
                    for c, audits in r.median_run.failing.items()
                },
                "lcp_element": r.median_run.lcp_element,
                "benchmark_index": [x.benchmark_index for x in r.runs],
            }
            for r in results
        ],
        "verdicts": [{"budget": v.budget, "measured": v.measured, "verdict": v.word} for v in found],
    }
