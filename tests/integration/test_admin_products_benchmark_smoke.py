"""The admin product lists benchmark still runs end to end at a tiny scale, so it cannot rot.

No timing is asserted: only that it runs through the pages, an admin's tab, the keystrokes and the
actions on the demo catalogue, and writes its docs block.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import admin_products
from tests.support.databases import postgres_base_url

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale


def test_admin_products_benchmark_runs_at_tiny_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "benchmarks.md"
    argv = ["--products", "60", "--runs", "1", "--warmup", "0", "--write-docs", "--docs", str(docs)]
    if (server := postgres_base_url()) is not None:
        argv += ["--database-url", server]

    assert admin_products.main(argv) == 0

    out = capsys.readouterr().out
    assert "| state per admin tab ≤ 64 KB |" in out
    dialect = "postgresql" if postgres_base_url() else "sqlite"
    block = docs.read_text(encoding="utf-8").split(f"<!-- admin_products:{dialect}:start -->")[1]
    assert "60 synthetic products" in block and "| manage: delete |" in block
    assert "| admins: remove an admin |" in block
