"""Sales overview benchmark (issue 7; docs/architecture.md#performance-budgets).

Seeds a fresh database with ``--orders`` synthetic orders over a year (``benchmarks/sales_data``),
then times, in the same run:

- ``sales_overview`` (the dashboard's sales section: days, periods, top products, low stock),
  each request on its own session as the server does: median, p95 and max of ``--runs``;
- the baseline (every sale of the window and its items, and every product, loaded and grouped
  in Python) on ``--baseline-runs``; it must return the same overview.

docs/architecture.md#performance-budgets has no line for the back office. The reference is its one server-side
query budget, the shop page's: p95 ≤ 30 ms. The dashboard is opened by an administrator, not by every
shopper, so this is a reference, not a promise to shoppers.

SQLite (a temporary file) by default; ``--database-url postgresql+psycopg://user@host/db``
creates a fresh database on that server and drops it at the end.

    .venv/bin/python benchmarks/sales_overview.py --write-docs
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlmodel import Session  # noqa: E402

from benchmarks import report  # noqa: E402
from benchmarks.sales_data import NOW, SalesDatabase, baseline_overview, sales_database  # noqa: E402
from benchmarks.timing import percentile  # noqa: E402
from shop_app.services.admin.sales import SalesOverview, sales_overview  # noqa: E402

DOCS_PATH = ROOT / "docs" / "benchmarks.md"
P95_BUDGET_MS = 30.0
DIALECTS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--orders", type=int, default=20000, help="synthetic orders over a year (20000)")
    parser.add_argument("--products", type=int, default=300, help="synthetic products (300)")
    parser.add_argument("--runs", type=int, default=50, help="timed sales_overview requests (50)")
    parser.add_argument("--baseline-runs", type=int, default=5, help="timed baseline requests (5)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed requests of each kind first (3)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="PostgreSQL server to benchmark on (a fresh database is created there and dropped); "
        "default: SQLite",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed of the synthetic orders (0)")
    parser.add_argument("--write-docs", action="store_true", help="update this database's block in the docs")
    parser.add_argument("--docs", type=Path, default=DOCS_PATH, metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="exit with status 1 when the budget is missed")
    return parser


Reader = Callable[[Session], SalesOverview]


@dataclass(frozen=True, slots=True)
class Timings:
    """Per request: wall time and this process's CPU time, in ms."""

    wall: list[float]
    cpu: list[float]


def _time(engine: sa.Engine, function: Reader, runs: int, warmup: int) -> Timings:
    """Open a session, read the overview, close the session; ``runs`` times after ``warmup``.

    The CPU time of this process is kept too: on a machine shared with other work it moves much
    less than the wall time. On SQLite it includes the database's own work (same process); on
    PostgreSQL it is the client's share only.
    """
    wall, cpu = [], []
    for number in range(warmup + runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        with Session(engine) as session:
            function(session)
        if number >= warmup:
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
    return Timings(wall, cpu)


def _server(db: SalesDatabase) -> str:
    if db.dialect == "sqlite":
        return f"SQLite {report.machine()['sqlite']} (temporary file)"
    with db.engine.connect() as connection:
        version = connection.execute(sa.text("SHOW server_version")).scalar_one()
    return f"PostgreSQL {version} on {db.engine.url.host or 'localhost'} (fresh database)"


def _command(argv: Sequence[str]) -> str:
    shown, hide_next = [], False
    for arg in argv:
        shown.append(make_url(arg).render_as_string(hide_password=True) if hide_next else arg)
        hide_next = arg == "--database-url"
    return " ".join([".venv/bin/python benchmarks/sales_overview.py", *shown])


def _stats_row(name: str, timings: Timings) -> str:
    wall = timings.wall
    return (
        f"| {name} | {len(wall)} | {statistics.median(wall):.1f} | {percentile(wall, 95):.1f} | "
        f"{max(wall):.1f} | {statistics.median(timings.cpu):.1f} |"
    )


def results_block(run: dict, query: Timings, baseline: Timings, same: bool) -> tuple[str, bool]:
    """The Markdown of one run, and whether the budget holds."""
    m = run["machine"]
    p95 = percentile(query.wall, 95)
    ratio = statistics.median(baseline.wall) / statistics.median(query.wall)
    passed = p95 <= P95_BUDGET_MS and same
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['platform']}, Python {m['python']}; "
        f"database {run['database']}. 1-minute load average {run['load_before']} before, "
        f"{run['load_after']} after.",
        f"- Data: {run['orders']:,} orders ({run['items']:,} items) over the year before "
        f"{NOW:%Y-%m-%d %H:%M} Vancouver time, {run['products']} products; "
        f"{run['in_window']:,} sales in the 30-day window. Seeded in {run['seed_seconds']:.1f} s; "
        f"planner statistics gathered: {'yes' if run['analyzed'] else 'no'}.",
        f"- Timing: each request opens a session, reads the overview, closes the session; "
        f"{run['warmup']} untimed requests of each kind first. p95 is the nearest-rank 95th percentile.",
        "",
        "| implementation | requests | median ms | p95 ms | max ms | median CPU ms (this process) |",
        "|---|---:|---:|---:|---:|---:|",
        _stats_row("`sales_overview` (grouped in SQL, 4 statements)", query),
        _stats_row("baseline (load the window's sales and items, group in Python)", baseline),
        "",
        f"Baseline median / query median: **{ratio:.1f}×**. Same overview from both: "
        f"**{'yes' if same else 'NO'}**.",
        "",
        "| budget (reference: docs/architecture.md#performance-budgets, shop page query) "
        "| measured | verdict |",
        "|---|---|---|",
        f"| sales overview p95 ≤ {P95_BUDGET_MS:g} ms, same result as the baseline | p95 {p95:.1f} ms | "
        f"**{'PASS' if passed else 'FAIL'}** |",
    ]
    return "\n".join(lines), passed


def write_results(path: Path, dialect: str, block: str) -> None:
    """Replace ``dialect``'s block between its markers in ``path`` (appended when missing)."""
    start, end = f"<!-- sales_overview:{dialect}:start -->", f"<!-- sales_overview:{dialect}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    replacement = f"{start}\n{block}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _match: replacement, text, count=1)
    else:
        heading = f"### Results: {DIALECTS.get(dialect, dialect)} (sales overview)"
        text = text.rstrip("\n") + f"\n\n{heading}\n\n{replacement}\n"
    path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    load_before = report.load_average()
    _out(f"Seeding {args.orders:,} orders ({'PostgreSQL' if args.database_url else 'SQLite'})…")
    with sales_database(
        products=args.products, orders=args.orders, admin_url=args.database_url, seed=args.seed
    ) as db:
        _out(f"Seeded in {db.seed_seconds:.1f} s; {db.orders_in_window:,} sales in the window. Timing…")
        query = _time(db.engine, lambda s: sales_overview(s, now=NOW), args.runs, args.warmup)
        baseline = _time(db.engine, lambda s: baseline_overview(s, now=NOW), args.baseline_runs, args.warmup)
        with Session(db.engine) as session:
            same = sales_overview(session, now=NOW) == baseline_overview(session, now=NOW)
        run = {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": _command(argv),
            "machine": report.machine(),
            "database": _server(db),
            "orders": db.orders,
            "items": db.items,
            "products": db.products,
            "in_window": db.orders_in_window,
            "seed_seconds": db.seed_seconds,
            "analyzed": db.analyzed,
            "warmup": args.warmup,
            "load_before": load_before,
            "load_after": report.load_average(),
        }
        dialect = db.dialect
    block, passed = results_block(run, query, baseline, same)
    _out()
    _out(block)
    if args.write_docs:
        write_results(args.docs, dialect, block)
        _out(f"\nUpdated the {DIALECTS.get(dialect, dialect)} results in {args.docs}")
    _out("\n" + ("Budget met." if passed else "Budget missed."))
    return 1 if args.check and not passed else 0


if __name__ == "__main__":
    raise SystemExit(main())
