"""The Lighthouse benchmark still runs end to end, so it cannot rot: no browser, no server start.

A stand-in ``lighthouse`` command writes a report shaped like Lighthouse 12's (the fields the
benchmark reads) whose scripts live on a small loopback file server; the benchmark runs it for
every page, form factor and run, takes the medians, fetches the home page's scripts again for
their gzip size, and writes its JSON and docs block. No score is asserted.
"""

from __future__ import annotations

import functools
import json
import stat
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchmarks import lighthouse, lighthouse_report, lighthouse_run
from benchmarks.lighthouse_run import CATEGORIES, METRICS

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale

FAKE = """#!{python}
import json, sys
args = dict(a.split("=", 1) for a in sys.argv[2:] if a.startswith("--") and "=" in a)
desktop = "--preset=desktop" in sys.argv
score = 0.99 if desktop else 0.91
slowdown = float(args.get("--throttling.cpuSlowdownMultiplier", 4))
report = {{
    "runtimeError": None,
    "environment": {{"benchmarkIndex": 3000}},
    "configSettings": {{"throttling": {{"cpuSlowdownMultiplier": 1 if desktop else slowdown}}}},
    "runWarnings": [],
    "categories": {{name: {{"score": score, "auditRefs": [{{"id": "first-contentful-paint", "weight": 10}}]}}
                   for name in args["--only-categories"].split(",")}},
    "audits": {{
        **{{audit: {{"numericValue": 1234.0, "score": 0.8, "title": audit, "displayValue": "1.2 s",
                    "scoreDisplayMode": "numeric"}} for audit in {metrics!r}}},
        "network-requests": {{"details": {{"items": [
            {{"url": sys.argv[1], "resourceType": "Document", "transferSize": 5000}},
            {{"url": "{scripts}/app.js", "resourceType": "Script", "transferSize": 900}},
        ]}}}},
        "largest-contentful-paint-element": {{"details": {{"items": [
            {{"items": [{{"node": {{"snippet": "<img alt=hero>"}}}}]}}]}}}},
    }},
}}
open(args["--output-path"], "w").write(json.dumps(report))
"""


@pytest.fixture
def scripts(tmp_path: Path) -> Iterator[str]:
    """A loopback file server holding one 'script'; its base URL."""
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "app.js").write_text("console.log('hello');" * 40, encoding="utf-8")
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path / "static"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def fake_lighthouse(tmp_path: Path, scripts: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in command, put where the benchmark looks for npm's lighthouse."""
    path = tmp_path / "lighthouse"
    path.write_text(
        FAKE.format(python=sys.executable, categories=CATEGORIES, metrics=list(METRICS), scripts=scripts),
        encoding="utf-8",
    )
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(lighthouse_run, "LIGHTHOUSE", path)
    return path


def test_lighthouse_benchmark_runs_without_a_browser(
    fake_lighthouse: Path, scripts: str, tmp_path: Path
) -> None:
    docs, result = tmp_path / "benchmarks.md", tmp_path / "lighthouse.json"
    argv = [
        "--url", scripts, "--product-id", "3", "--runs", "2", "--pages", "/,/product/{id}",
        "--reports", str(tmp_path / "reports"), "--json", str(result), "--write-docs", "--docs", str(docs),
    ]  # fmt: skip

    assert lighthouse.main(argv) == 0

    payload = json.loads(result.read_text(encoding="utf-8"))
    pages = [(p["page"], p["form_factor"]) for p in payload["pages"]]
    assert pages == [
        ("/", "mobile"),
        ("/", "desktop"),
        ("/product/{id}", "mobile"),
        ("/product/{id}", "desktop"),
    ]
    assert all(len(p["runs"]) == 2 and set(p["scores"]) == set(CATEGORIES) for p in payload["pages"])
    assert payload["pages"][0]["scores"]["performance"] == 91 and payload["pages"][1]["scores"]["seo"] == 99
    assert payload["run"]["js_gzip_bytes"] == (tmp_path / "static" / "app.js").stat().st_size
    assert len(list((tmp_path / "reports").glob("product-3-*.json"))) == 4
    # The machine's CPU index (3000 here) scales every mobile run: 4 × 3000 ÷ 1500 = 8×.
    assert payload["run"]["cpu_index"] == 3000 and payload["run"]["cpu_slowdown"] == 8.0
    assert (tmp_path / "reports" / "calibration.json").exists()
    mobile_runs = [run for p in payload["pages"] if p["form_factor"] == "mobile" for run in p["runs"]]
    assert {run["cpu_slowdown"] for run in mobile_runs} == {8.0}
    budgets = {v["budget"]: v["verdict"] for v in payload["verdicts"]}
    assert budgets["mobile performance ≥ 95 (every page)"] == "FAIL"  # 91
    assert budgets["mobile LCP ≤ 2.0 s (every page)"] == "PASS"  # 1234 ms
    assert budgets["mobile CLS ≤ 0.02 (every page)"] == "FAIL"  # 1234
    text = docs.read_text(encoding="utf-8")
    assert lighthouse_report.HEADING in text and "| `/product/{id}` | mobile | **91** |" in text
    assert "a 8.0× CPU slowdown (4 × the machine's CPU index 3000" in text
    assert "<!-- lighthouse:scaled:start -->" in text


def test_the_command_line_of_a_run() -> None:
    mobile = lighthouse_run.command("http://127.0.0.1:1/shop", "mobile", Path("/tmp/r.json"))
    desktop = lighthouse_run.command("http://127.0.0.1:1/shop", "desktop", Path("/tmp/r.json"))

    assert mobile[1] == "http://127.0.0.1:1/shop" and "--preset=desktop" not in mobile
    assert desktop[-1] == "--preset=desktop"
    assert "--only-categories=performance,accessibility,seo,best-practices" in mobile
    assert any(flag.startswith("--chrome-flags=--headless") for flag in mobile)
    assert not any("cpuSlowdownMultiplier" in flag for flag in mobile + desktop)  # Lighthouse's own


def test_the_mobile_slowdown_is_scaled_to_the_machine() -> None:
    scaled = lighthouse_run.command("http://127.0.0.1:1/", "mobile", Path("/tmp/r.json"), slowdown=2.4)
    desktop = lighthouse_run.command("http://127.0.0.1:1/", "desktop", Path("/tmp/r.json"), slowdown=2.4)

    assert "--throttling.cpuSlowdownMultiplier=2.4" in scaled
    assert not any("cpuSlowdownMultiplier" in flag for flag in desktop)  # the desktop preset's own
    assert lighthouse_run.cpu_slowdown(1500) == 4.0  # the reference machine: Lighthouse's default
    assert lighthouse_run.cpu_slowdown(900) == 2.4  # a slower machine is slowed less
    assert lighthouse_run.cpu_slowdown(4000) == 10.67
    with pytest.raises(ValueError, match="positive"):
        lighthouse_run.cpu_slowdown(0)
