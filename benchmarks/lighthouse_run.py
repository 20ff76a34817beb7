"""One Lighthouse run, and what the benchmark keeps of its report.

Runs npm's ``lighthouse`` (pinned in tools/package.json, installed by scripts/_setup.sh) against
Debian's Chromium, headless, with Lighthouse's default settings: mobile is a Moto G Power-sized
screen with simulated throttling (150 ms RTT, 1.6 Mbps, 4× CPU slowdown), ``--preset=desktop``
the desktop profile. Only loopback is contacted: the shop serves every asset itself.
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


def command(url: str, form_factor: str, output: Path) -> list[str]:
    """The lighthouse command line of one run."""
    args = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
        "--no-enable-error-reporting",
    ]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    return args


def run(url: str, page: str, form_factor: str, output: Path) -> Report:
    """Audit ``url`` once; the JSON report is kept at ``output``."""
    if not LIGHTHOUSE.exists():
        msg = f"{LIGHTHOUSE} is missing: run ./scripts/run or npm ci --prefix tools"
        raise LighthouseError(msg)
    output.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)}
    try:
        done = subprocess.run(
            command(url, form_factor, output),
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
    scores = {name: round(100 * (categories[name]["score"] or 0)) for name in CATEGORIES}
    metrics = {label: float(audits[audit_id]["numericValue"]) for audit_id, label in METRICS.items()}
    requests = audits["network-requests"]["details"]["items"]
    scripts = [r for r in requests if r.get("resourceType") == "Script"]
    failing: dict[str, list[Audit]] = {}
    for name in CATEGORIES:
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
    )


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
