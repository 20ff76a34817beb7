"""The shop page benchmark still runs end to end at a tiny scale, so it cannot rot.

No timing is asserted: only that every part runs, the baseline returns the same pages as the
query, and the docs block and JSON are written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import shop_query
from benchmarks.timing import MIXES
from tests.support.databases import postgres_base_url

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale


def test_shop_query_benchmark_runs_at_tiny_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "benchmarks.md"
    result = tmp_path / "result.json"
    argv = [
        "--products", "40",
        "--iterations", "2",
        "--baseline-iterations", "1",
        "--warmup", "0",
        "--breakdown-runs", "1",
        "--json", str(result),
        "--write-docs", "--docs", str(docs),
    ]  # fmt: skip
    if (server := postgres_base_url()) is not None:
        argv += ["--database-url", server]

    assert shop_query.main(argv) == 0

    payload = json.loads(result.read_text(encoding="utf-8"))
    assert [mix["name"] for mix in payload["mixes"]] == [mix.name for mix in MIXES]
    assert all(mix["same_page"] for mix in payload["mixes"])
    assert all(mix["query_ms"]["n"] == 2 and mix["baseline_ms"]["n"] == 1 for mix in payload["mixes"])
    assert payload["run"]["products"] == 40
    assert payload["state_bytes"]["tree_total"] > payload["state_bytes"]["shop_state"] > 0
    assert {v["verdict"] for v in payload["verdicts"]} <= {"PASS", "FAIL"}

    dialect = payload["run"]["dialect"]
    text = docs.read_text(encoding="utf-8")
    block = text.split(f"shop_query:{dialect}:start -->")[1].split(f"<!-- shop_query:{dialect}:end")[0]
    assert "| all | no filter |" in block and "whole tree of the shopper" in block
    out = capsys.readouterr().out
    assert "Seeded 40 products" in out and ("budget(s) missed" in out or "All budgets met" in out)
