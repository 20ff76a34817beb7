"""The sales overview benchmark still runs end to end at a tiny scale, so it cannot rot.

No timing is asserted: only that it runs, the baseline (grouping in Python) gives the same
overview as the SQL, and the docs block is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import sales_overview
from tests.support.databases import postgres_base_url

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale


def test_sales_benchmark_runs_at_tiny_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "benchmarks.md"
    argv = [
        "--orders", "300",
        "--products", "20",
        "--runs", "2",
        "--baseline-runs", "1",
        "--warmup", "0",
        "--write-docs", "--docs", str(docs),
    ]  # fmt: skip
    if (server := postgres_base_url()) is not None:
        argv += ["--database-url", server]

    assert sales_overview.main(argv) == 0

    out = capsys.readouterr().out
    assert "Same overview from both: **yes**" in out
    dialect = "postgresql" if postgres_base_url() else "sqlite"
    text = docs.read_text(encoding="utf-8")
    block = text.split(f"<!-- sales_overview:{dialect}:start -->")[1].split("<!-- sales_overview:")[0]
    assert "300 orders" in block and "| `sales_overview`" in block
