"""Order placement benchmark (docs/architecture.md#performance-budgets): 32 concurrent buyers, the app against
hand-written SQL.

Budget: place an order (no payment latency), PostgreSQL, 32 concurrent buyers: ≥ 50 % of the
throughput of the same SQL written by hand, zero oversell.

On a fresh database (PostgreSQL by default: ``shop_bench_orders_<random>`` is created on the
server of ``--database-url`` and dropped at the end; ``--sqlite`` for a temporary SQLite file),
migrated and seeded with ``--products`` synthetic products and one guest cart per order (1–3
lines, through ``cart.add_item``), this measures in the same run:

- orders/second of ``checkout.place_order`` (re-price the cart, conditional stock decrements,
  order + items + address + payment with its idempotency key, one transaction; no payment) with
  ``--threads`` buyer threads, against the same work written by hand in SQL (``text()``) with
  the same threads and carts, and against the hand-written writes alone: ``--rounds`` rounds
  each, interleaved; medians and the ratio app / hand;
- the oversell race: ``--threads`` buyers for a product with ``--scarce-stock`` units, in each
  implementation (exactly that many orders, stock 0, never negative);
- stock conservation and order completeness over the whole run, and that app and hand wrote the
  same orders for the same carts;
- where an order's time goes: statements and round trips per order (SQLAlchemy engine events),
  orders placed one at a time; ``--cprofile`` adds Python's profile of the app path.

    .venv/bin/python benchmarks/order_placement.py --write-docs
    .venv/bin/python benchmarks/order_placement.py --sqlite --write-docs
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from benchmarks import order_report as report  # noqa: E402
from benchmarks import report as common  # noqa: E402
from benchmarks.order_db import STOCK, OrderDatabase, order_database  # noqa: E402
from benchmarks.order_impl import IMPLEMENTATIONS, Implementation  # noqa: E402
from benchmarks.order_run import (  # noqa: E402
    Integrity,
    Profile,
    RaceResult,
    RoundResult,
    integrity,
    percentile,
    profile,
    python_profile,
    race,
    run_rounds,
    same_orders,
)

DOCS_PATH = ROOT / "docs" / "benchmarks.md"
DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--products", type=int, default=2000, metavar="N", help="synthetic products (2000)")
    parser.add_argument(
        "--orders", type=int, default=2000, metavar="N", help="orders per implementation per round (2000)"
    )
    parser.add_argument("--threads", type=int, default=32, help="concurrent buyer threads (32)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per implementation (3)")
    parser.add_argument(
        "--warmup", type=int, default=100, help="untimed orders per implementation first (100)"
    )
    parser.add_argument("--scarce-stock", type=int, default=5, help="stock of the raced product (5)")
    parser.add_argument(
        "--profile-orders", type=int, default=50, help="orders per implementation placed alone, counted (50)"
    )
    parser.add_argument(
        "--cprofile", type=int, default=0, metavar="N", help="print cProfile of N app orders placed alone"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--database-url",
        default=DEFAULT_SERVER,
        help="PostgreSQL server (its database is only used to CREATE and DROP a fresh one); "
        f"default {DEFAULT_SERVER}",
    )
    where.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead (comparison)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of catalogue and carts (0)")
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
    return " ".join([".venv/bin/python benchmarks/order_placement.py", *shown])


def _server_version(db: OrderDatabase) -> str:
    if db.dialect == "sqlite":
        import sqlite3  # noqa: PLC0415

        return f"SQLite {sqlite3.sqlite_version} (temporary file, WAL, `BEGIN IMMEDIATE` writers)"
    with db.engine.connect() as connection:
        version = connection.execute(sa.text("SHOW server_version")).scalar_one()
        isolation = connection.execute(sa.text("SHOW transaction_isolation")).scalar_one()
        sync = connection.execute(sa.text("SHOW synchronous_commit")).scalar_one()
    url = db.engine.url
    return (
        f"PostgreSQL {version} on {url.host or 'localhost'}:{url.port or 5432} (fresh database, "
        f"{isolation}, synchronous_commit={sync})"
    )


def _as_json(
    run: dict[str, Any],
    results: dict[str, list[RoundResult]],
    *,
    races: list[RaceResult],
    checked: Integrity,
    profiles: list[Profile],
    found: list[report.Verdict],
) -> dict[str, Any]:
    return {
        "run": run,
        "implementations": {
            key: {
                "rounds_orders_per_s": [r.throughput for r in rounds],
                "median_orders_per_s": report.median_throughput(rounds),
                "placed": sum(r.placed for r in rounds),
                "refused": sum(r.refused for r in rounds),
                "errors": [e for r in rounds for e in r.errors][:20],
                "latency_ms": {
                    "median": percentile([ms for r in rounds for ms in r.latencies_ms], 50),
                    "p95": percentile([ms for r in rounds for ms in r.latencies_ms], 95),
                },
            }
            for key, rounds in results.items()
        },
        "ratio_app_hand": report.ratio(results, "app", "hand"),
        "ratio_app_hand_writes": report.ratio(results, "app", "hand_writes"),
        "races": [asdict(r) | {"exact": r.exact} for r in races],
        "integrity": asdict(checked) | {"ok": checked.ok},
        "profiles": [
            {
                "key": p.key,
                "orders": p.orders,
                "median_ms": p.median_ms,
                "statement_ms_per_order": p.statement_ms_per_order,
                "statements_per_order": p.statements_per_order,
                "round_trips_per_order": p.round_trips_per_order,
                "statements": {label: p.per_order(n) for label, n in p.statements.items()},
            }
            for p in profiles
        ],
        "verdicts": [{"budget": v.budget, "measured": v.measured, "verdict": v.word} for v in found],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    # place_order logs every refused order (the race refuses on purpose): keep the output readable.
    logging.getLogger("shop_app.services.ordering").setLevel(logging.CRITICAL)
    impls: tuple[Implementation, ...] = IMPLEMENTATIONS
    labels = {impl.key: impl.label for impl in impls}
    admin_url = None if args.sqlite else args.database_url
    load_before = report.load_average()
    _out(
        f"Fresh {'SQLite' if args.sqlite else 'PostgreSQL'} database: {args.products:,} products, "
        f"{args.orders:,} carts…"
    )
    with order_database(
        products=args.products,
        orders=args.orders,
        implementations=[impl.key for impl in impls],
        admin_url=admin_url,
        threads=args.threads,
        scarce_stock=args.scarce_stock,
        seed=args.seed,
        progress=_out,
    ) as db:
        _out(f"Carts ready in {db.carts_seconds:.1f} s. {args.rounds} rounds, {args.threads} buyers:")
        database = _server_version(db)
        results, warmed = run_rounds(
            db, impls, rounds=args.rounds, threads=args.threads, warmup=args.warmup, progress=_out
        )
        first = {key: rounds[0].order_ids for key, rounds in results.items() if rounds}
        same = (
            {"hand": same_orders(db.engine, first.get("app", {}), first["hand"])} if "hand" in first else {}
        )
        _out(f"Oversell race: {args.threads} buyers for {args.scarce_stock} units…")
        races = [race(db, impl, args.threads) for impl in impls]
        profile_carts = db.carts[: args.profile_orders]
        profiles = [profile(db.engine, impl, profile_carts) for impl in impls] if profile_carts else []
        placed = sum(r.placed for rounds in results.values() for r in rounds)
        placed += sum(r.placed for r in races) + sum(p.orders for p in profiles)
        placed += warmed
        cprofile_text = ""
        if args.cprofile:
            cprofile_text = python_profile(db.engine, impls[0], db.carts[: args.cprofile])
            placed += min(args.cprofile, len(db.carts))
        checked = integrity(db, placed)
        run = {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": _command(argv),
            "machine": report.machine(),
            "database": database,
            "dialect": db.dialect,
            "products": db.products,
            "orders": len(db.carts),
            "stock": STOCK,
            "seed": args.seed,
            "seed_seconds": db.seed_seconds,
            "carts_seconds": db.carts_seconds,
            "threads": args.threads,
            "rounds": args.rounds,
            "warmup": min(args.warmup, len(db.carts)),
            "profile_orders": len(profile_carts),
            "load_before": load_before,
            "load_after": report.load_average(),
        }
        dialect = db.dialect

    found = report.verdicts(dialect, results, races=races, checked=checked, same=same, threads=args.threads)
    block = report.results_block(run, results, found, profiles, labels)
    _out()
    _out(block)
    if cprofile_text:
        _out(f"\ncProfile of {args.cprofile} app orders placed one at a time:\n{cprofile_text}")
    if args.json is not None:
        common.write_json(
            args.json, _as_json(run, results, races=races, checked=checked, profiles=profiles, found=found)
        )
        _out(f"\nWrote {args.json}")
    if args.write_docs:
        report.write_results(args.docs, dialect, block)
        _out(f"Updated the {report.DIALECTS.get(dialect, dialect)} results in {args.docs}")
    failed = [v for v in found if v.passed is False]
    _out(
        "\n" + ("All budgets and checks met." if not failed else f"{len(failed)} budget(s)/check(s) missed.")
    )
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
