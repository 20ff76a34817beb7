"""Shop page benchmark (docs/architecture.md#performance-budgets, storefront acceptance 11).

Seeds a fresh database with ``--products`` synthetic products, then measures in the same run:

- ``shop_page`` (category + search + one page, grouped) on several realistic query mixes:
  median and p95 per mix;
- the baseline, the seed's approach (load the whole catalogue with its images, group it with
  ``group_products``, filter, search and paginate in Python), on the same mixes, and the ratio
  baseline median / query median; both must return the same page;
- where each request's time goes, per SQL statement (``--explain`` also prints the plans);
- the serialized Reflex state of a shopper on /shop.

SQLite (a temporary file) by default; ``--database-url postgresql+psycopg://user@host/db`` uses
that server: a new database is created there and dropped at the end.

    .venv/bin/python benchmarks/shop_query.py --products 20000 --write-docs
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from benchmarks import docs, report  # noqa: E402
from benchmarks.catalogue_db import SeededDatabase, seeded_database  # noqa: E402
from benchmarks.state_size import StateSizes, measure_state_sizes  # noqa: E402
from benchmarks.statements import breakdown, explain  # noqa: E402
from benchmarks.timing import MIXES, run_mixes  # noqa: E402

DOCS_PATH = ROOT / "docs" / "benchmarks.md"


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--products", type=int, default=20000, metavar="N", help="synthetic products (20000)")
    parser.add_argument("--iterations", type=int, default=100, help="timed shop_page requests per mix (100)")
    parser.add_argument(
        "--baseline-iterations", type=int, default=5, help="timed baseline requests per mix (5)"
    )
    parser.add_argument("--warmup", type=int, default=3, help="untimed shop_page requests per mix first (3)")
    parser.add_argument(
        "--breakdown-runs", type=int, default=10, help="requests per mix for the per-statement times (10)"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="PostgreSQL server to benchmark on (a database there used only to create and drop a "
        "fresh one), e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test; default: SQLite",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed of the synthetic catalogue (0)")
    parser.add_argument(
        "--analyze",
        choices=("auto", "yes", "no"),
        default="auto",
        help="gather planner statistics after seeding: auto = on PostgreSQL (as autovacuum would), "
        "not on SQLite (which never does it by itself)",
    )
    parser.add_argument("--no-state", action="store_true", help="skip the Reflex state measurement")
    parser.add_argument("--explain", action="store_true", help="print every statement's plan per mix")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="also write results as JSON")
    parser.add_argument("--write-docs", action="store_true", help="update this database's block in the docs")
    parser.add_argument("--docs", type=Path, default=DOCS_PATH, metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="exit with status 1 when a budget is missed")
    return parser


def _command(argv: Sequence[str]) -> str:
    shown = []
    hide_next = False
    for arg in argv:
        if hide_next:
            arg = make_url(arg).render_as_string(hide_password=True)  # noqa: PLW2901
        hide_next = arg == "--database-url"
        shown.append(arg)
    return " ".join([".venv/bin/python benchmarks/shop_query.py", *shown])


def _server_version(db: SeededDatabase) -> str:
    if db.dialect == "sqlite":
        return f"SQLite {report.machine()['sqlite']} (temporary file, WAL)"
    with db.engine.connect() as connection:
        version = connection.execute(sa.text("SHOW server_version")).scalar_one()
        jit = connection.execute(sa.text("SHOW jit")).scalar_one()
    host = db.engine.url.host or "localhost"
    return f"PostgreSQL {version} on {host}:{db.engine.url.port or 5432} (fresh database, jit={jit})"


def _print_explain(db: SeededDatabase) -> None:
    for mix in MIXES:
        _out(f"\n=== plans: {mix.name} ({mix.description})")
        for label, statement, plan in explain(db.engine, mix.query):
            _out(f"\n--- {label}\n{statement}")
            _out("\n".join(f"    {line}" for line in plan))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    analyze = {"auto": None, "yes": True, "no": False}[args.analyze]
    load_before = report.load_average()
    _out(f"Seeding {args.products:,} synthetic products ({'PostgreSQL' if args.database_url else 'SQLite'})…")
    with seeded_database(
        products=args.products, admin_url=args.database_url, seed=args.seed, analyze=analyze
    ) as db:
        _out(
            f"Seeded {db.products:,} products in {db.seed_seconds:.1f} s "
            f"(migrations {db.migrate_seconds:.1f} s; statistics gathered: {'yes' if db.analyzed else 'no'})."
        )
        database = _server_version(db)
        results = run_mixes(
            db.engine,
            iterations=args.iterations,
            baseline_iterations=args.baseline_iterations,
            warmup=args.warmup,
            progress=_out,
        )
        _out(f"Per-statement times: {args.breakdown_runs} requests per mix…")
        rows = breakdown(db.engine, MIXES, runs=args.breakdown_runs)
        if args.explain:
            _print_explain(db)
        state: StateSizes | None = None
        state_error = ""
        if not args.no_state:
            _out("Reflex state of a shopper on /shop…")
            try:
                state = measure_state_sizes(db.url)
            except Exception as error:  # the timings above are still worth reporting
                state_error = f"{type(error).__name__}: {error}"
                traceback.print_exc()
        run = {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": _command(argv),
            "machine": report.machine(),
            "database": database,
            "dialect": db.dialect,
            "products": db.products,
            "seed": args.seed,
            "seed_seconds": db.seed_seconds,
            "migrate_seconds": db.migrate_seconds,
            "analyzed": ("yes (VACUUM (ANALYZE))" if db.dialect == "postgresql" else "yes (ANALYZE)")
            if db.analyzed
            else "no",
            "iterations": args.iterations,
            "baseline_iterations": args.baseline_iterations,
            "warmup": args.warmup,
            "load_before": load_before,
            "load_after": report.load_average(),
            "state_error": state_error,
        }
        dialect = db.dialect

    found = report.verdicts(results, state, state_error)
    block = docs.results_block(run, results, rows, state, found)
    _out()
    _out(block)
    if args.json is not None:
        report.write_json(args.json, report.as_json(run, results, rows, state, found))
        _out(f"\nWrote {args.json}")
    if args.write_docs:
        docs.write_results(args.docs, dialect, block)
        _out(f"Updated the {docs.DIALECTS.get(dialect, dialect)} results in {args.docs}")
    return report.exit_status(found, check=args.check, out=_out)


if __name__ == "__main__":
    raise SystemExit(main())
