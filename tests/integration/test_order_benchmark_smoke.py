"""The order placement benchmark still runs end to end at a tiny scale (SQLite), so it cannot rot.

No throughput is asserted: only that every implementation places its orders, the oversell race
sells exactly the stock, the run's integrity checks hold, app and hand-written SQL write the
same orders, and the docs block and JSON are written without touching the rest of the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import order_placement, order_report
from benchmarks.order_impl import IMPLEMENTATIONS
from benchmarks.order_run import statement_label

pytestmark = pytest.mark.slow  # subprocesses, servers or a benchmark at tiny scale

OTHER_SECTION = """# Benchmarks

## Shop page query and shopper state (`benchmarks/shop_query.py`)

<!-- shop_query:sqlite:start -->
someone else's results
<!-- shop_query:sqlite:end -->
"""


def test_order_benchmark_runs_at_tiny_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "benchmarks.md"
    docs.write_text(OTHER_SECTION, encoding="utf-8")
    result = tmp_path / "result.json"
    argv = [
        "--sqlite",
        "--products", "30",
        "--orders", "12",
        "--threads", "4",
        "--rounds", "2",
        "--warmup", "2",
        "--scarce-stock", "2",
        "--profile-orders", "2",
        "--json", str(result),
        "--write-docs", "--docs", str(docs),
    ]  # fmt: skip

    assert order_placement.main(argv) == 0

    payload = json.loads(result.read_text(encoding="utf-8"))
    keys = [impl.key for impl in IMPLEMENTATIONS]
    assert list(payload["implementations"]) == keys
    for found in payload["implementations"].values():
        assert found["placed"] == 2 * 12 and found["refused"] == 0 and found["errors"] == []
        assert len(found["rounds_orders_per_s"]) == 2 and found["median_orders_per_s"] > 0
    assert payload["ratio_app_hand"] > 0
    assert all(r["exact"] and r["placed"] == 2 and r["refused"] == 2 for r in payload["races"])
    assert payload["integrity"]["ok"]
    same = [v for v in payload["verdicts"] if v["budget"].startswith("app and ")]
    assert len(same) == 1 and same[0]["verdict"] == "PASS"  # app and hand
    assert [p["key"] for p in payload["profiles"]] == keys
    assert all(p["statements_per_order"] > 0 for p in payload["profiles"])

    text = docs.read_text(encoding="utf-8")
    assert text.startswith(OTHER_SECTION.rstrip("\n"))  # the other section is untouched
    block = text.split("order_placement:sqlite:start -->")[1].split("<!-- order_placement:sqlite:end")[0]
    assert "| app: `place_order` |" in block and "zero oversell (app)" in block
    assert "_Not run yet._" in text.split("order_placement:postgresql:start -->")[1]
    out = capsys.readouterr().out
    assert "Fresh SQLite database: 30 products" in out


def test_write_results_replaces_only_its_own_block(tmp_path: Path) -> None:
    docs = tmp_path / "benchmarks.md"
    docs.write_text(OTHER_SECTION + "\n## Later section\n\nkept\n", encoding="utf-8")

    order_report.write_results(docs, "postgresql", "first run")
    order_report.write_results(docs, "postgresql", "second run")

    text = docs.read_text(encoding="utf-8")
    assert "someone else's results" in text and "## Later section\n\nkept" in text
    assert text.count(order_report.SECTION_HEADING) == 1
    assert "second run" in text and "first run" not in text


def test_statement_labels_name_verb_tables_and_condition() -> None:
    assert (
        statement_label(
            "SELECT cart_lines.id, (SELECT image_url FROM product_images WHERE x) AS image_url\n"
            "FROM cart_lines JOIN products ON products.id = cart_lines.product_id\n"
            "WHERE cart_lines.cart_id = %(cart_id)s"
        )
        == "SELECT cart_lines ⋈ products by cart_id"
    )
    insert = "INSERT INTO orders (a) VALUES (1) RETURNING orders.id"
    assert statement_label(insert) == "INSERT orders RETURNING"
    assert statement_label("SAVEPOINT sa_savepoint_1") == "SAVEPOINT"
    assert statement_label("RELEASE SAVEPOINT sa_savepoint_1") == "RELEASE SAVEPOINT"
