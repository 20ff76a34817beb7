"""One Lighthouse run, and what the benchmark keeps of its report.

Runs npm's ``lighthouse`` (pinned in tools/package.json, installed by scripts/_setup.sh) against
Debian's Chromium, headless, with Lighthouse's default settings: mobile is a Moto G Power-sized
screen with simulated throttling (150 ms RTT, 1.6 Mbps, 4× CPU slowdown), ``--preset=desktop``
the desktop profile. Only loopback is contacted: the shop serves every asset itself.

Lighthouse's 4× CPU slowdown stands for a phone four times slower than the machine it runs on,
so the same build scores better on a fast machine than on a slow one. Issue 18 fixes the phone
instead: the mobile slowdown is scaled to the machine's CPU index (Lighthouse's
``benchmarkIndex``, measured by a first run) so that every machine simulates the same CPU, the
one of a machine of index 1,500 slowed 4×: multiplier = 4 × index ÷ 1,500 (``cpu_slowdown``).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "tools" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "seo", "best-practices")
FORM_FACTORS = ("mobile", "desktop")
METRICS = {  # audit id: what the tables call it
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
}
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
MOBILE_CPU_SLOWDOWN = 4.0  # Lighthouse's default for mobile
REFERENCE_CPU_INDEX = 1500  # issue 18: the machine the mobile budgets are judged on
RUN_TIMEOUT_S = 180


class LighthouseError(RuntimeError):
    """Lighthouse could not audit the page."""


@dataclass(frozen=True, slots=True)
class Audit:
    """A failing audit of a category (score below 1 and weighted, or a performance opportunity)."""

    id: str
    title: str
    score: float | None
    display: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """What one run measured."""

    page: str
    form_factor: str
    scores: dict[str, int]  # category: 0–100
    metrics: dict[str, float]  # FCP, LCP, TBT, SI in ms; CLS unitless
    script_bytes: int  # JavaScript transferred (compressed as served: Brotli for Chromium)
    script_requests: int
    script_urls: tuple[str, ...]
    total_bytes: int  # everything transferred
    failing: dict[str, list[Audit]] = field(default_factory=dict)  # category: audits below 1
    lcp_element: str = ""
    warnings: list[str] = field(default_factory=list)
    noindex: bool = False  # the page asks search engines not to index it (Lighthouse's is-crawlable)
    benchmark_index: float = 0.0  # Lighthouse's CPU speed index of the machine at the run's start
    cpu_slowdown: float = MOBILE_CPU_SLOWDOWN  # the CPU slowdown the run simulated


def cpu_slowdown(benchmark_index: float, reference: float = REFERENCE_CPU_INDEX) -> float:
    """The mobile CPU slowdown that makes a machine of ``benchmark_index`` as slow as a machine of
    index ``reference`` slowed 4× (Lighthouse's default): 4 × index ÷ reference, two decimals."""
    if benchmark_index <= 0 or reference <= 0:
        msg = f"a CPU index must be positive (measured {benchmark_index}, reference {reference})"
        raise ValueError(msg)
    return round(MOBILE_CPU_SLOWDOWN * benchmark_index / reference, 2)


def command(
    url: str,
    form_factor: str,
    output: Path,
    *,
    slowdown: float | None = None,
    categories: tuple[str, ...] = CATEGORIES,
) -> list[str]:
    """The lighthouse command line of one run (``slowdown``: the mobile CPU slowdown, else 4×)."""
    args = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(categories)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
        "--no-enable-error-reporting",
    ]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    elif slowdown is not None:
        args.append(f"--throttling.cpuSlowdownMultiplier={slowdown}")
    return args


def run(
    url: str,
    page: str,
    form_factor: str,
    output: Path,
    *,
    slowdown: float | None = None,
    categories: tuple[str, ...] = CATEGORIES,
) -> Report:
    """Audit ``url`` once; the JSON report is kept at ``output``."""
    if not LIGHTHOUSE.exists():
        msg = f"{LIGHTHOUSE} is missing: run ./scripts/run or npm ci --prefix tools"
        raise LighthouseError(msg)
    output.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)}
    try:
        done = subprocess.run(
            command(url, form_factor, output, slowdown=slowdown, categories=categories),
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        msg = f"lighthouse took more than {RUN_TIMEOUT_S} s on {url} ({form_factor})"
        raise LighthouseError(msg) from error
    if done.returncode != 0 or not output.exists():
        msg = f"lighthouse failed on {url} ({form_factor}): {done.stderr[-2000:]}"
        raise LighthouseError(msg)
    return summarize(json.loads(output.read_text(encoding="utf-8")), page=page, form_factor=form_factor)


def summarize(lhr: dict[str, Any], *, page: str, form_factor: str) -> Report:
    """The numbers of a Lighthouse result (LHR) this benchmark reports."""
    if lhr.get("runtimeError"):
        msg = f"lighthouse reported {lhr['runtimeError']}"
        raise LighthouseError(msg)
    audits = lhr["audits"]
    categories = lhr["categories"]
    audited = [name for name in CATEGORIES if name in categories]  # a calibration run: performance
    scores = {name: round(100 * (categories[name]["score"] or 0)) for name in audited}
    metrics = {label: float(audits[audit_id]["numericValue"]) for audit_id, label in METRICS.items()}
    requests = audits["network-requests"]["details"]["items"]
    scripts = [r for r in requests if r.get("resourceType") == "Script"]
    failing: dict[str, list[Audit]] = {}
    for name in audited:
        found = []
        for ref in categories[name]["auditRefs"]:
            audit = audits[ref["id"]]
            score = audit.get("score")
            mode = audit.get("scoreDisplayMode")
            weighted = ref.get("weight", 0) > 0
            opportunity = name == "performance" and mode == "metricSavings" and score is not None
            if score is not None and score < 1 and (weighted or opportunity):
                found.append(Audit(ref["id"], audit["title"], score, audit.get("displayValue", "")))
        failing[name] = found
    return Report(
        page=page,
        form_factor=form_factor,
        scores=scores,
        metrics=metrics,
        script_bytes=sum(int(r.get("transferSize") or 0) for r in scripts),
        script_requests=len(scripts),
        script_urls=tuple(r["url"] for r in scripts),
        total_bytes=sum(int(r.get("transferSize") or 0) for r in requests),
        failing=failing,
        lcp_element=_lcp_element(audits),
        warnings=list(lhr.get("runWarnings") or []),
        noindex=audits.get("is-crawlable", {}).get("score") == 0,
        benchmark_index=float((lhr.get("environment") or {}).get("benchmarkIndex") or 0),
        cpu_slowdown=float(
            ((lhr.get("configSettings") or {}).get("throttling") or {}).get("cpuSlowdownMultiplier")
            or MOBILE_CPU_SLOWDOWN
        ),
    )


def measure_cpu_index(url: str, output: Path) -> float:
    """Lighthouse's CPU index of this machine now: a first, performance-only mobile run of ``url``
    (its ``benchmarkIndex``, which Lighthouse measures before it loads the page); 0 when unknown."""
    return run(url, "calibration", "mobile", output, categories=("performance",)).benchmark_index


def _lcp_element(audits: dict[str, Any]) -> str:
    details = audits.get("largest-contentful-paint-element", {}).get("details", {})
    for table in details.get("items", []):
        for item in table.get("items", []):
            node = item.get("node")
            if isinstance(node, dict):
                return str(node.get("snippet", ""))[:120]
    return ""


def gzipped_bytes(urls: tuple[str, ...] | list[str], *, timeout: float = 30.0) -> int:
    """What ``urls`` weigh when the browser asks for gzip only (the bytes on the wire).

    Chromium is served Brotli, which is smaller: the budget is stated for gzip, so the scripts
    of the audited page are fetched again asking for gzip.
    """
    total = 0
    with httpx.Client(headers={"Accept-Encoding": "gzip"}, timeout=timeout) as client:
        for url in dict.fromkeys(urls):
            with client.stream("GET", url) as response:
                response.raise_for_status()
                total += sum(len(chunk) for chunk in response.iter_raw())
    return total
