"""Load benchmark (docs/architecture.md#performance-budgets): simulated shoppers over websockets against the
production build.

Budget: add-to-cart event round trip, 50 concurrent websocket clients, p95 ≤ 50 ms; serialized
Reflex state of a shopper ≤ 64 KB.

Starts the production build on a free loopback port (``python -m shop_app prepare`` then
``reflex run --env prod --single-port``; a temporary SQLite database with the demo catalogue,
the disk state manager and one backend worker, the embedded default) and, for each of
``--clients`` (10, 50, 100), opens that many new tabs on /shop over websockets speaking Reflex's
event protocol (``benchmarks/shopper.py``). Each tab acts in turn (browse /shop, search, add to
cart, and two baselines measured in the same run: a trivial event and a transport ping) with
think time between actions. Reported per level: throughput, round-trip p50/p95/p99 per action,
the server's CPU, the backend workers' resident memory and the bytes each shopper's states take
in the state manager. ``--saturation-clients`` adds a level without think time (the most the
server does). A last level (``--burst-clients``, 50) runs the shoppers beside a burst of sign-ins
and checkouts (``--sign-ins-per-s`` 10, ``--checkouts-per-s`` 2) with tabs probing the event loop's
lag (``benchmarks/burst.py``). Bounded: every level lasts ``--warmup`` + ``--seconds``, every
shopper's action at most 15 s (a burst's visit at most 120 s).

``--postgres SERVER_URL`` serves from a fresh PostgreSQL database on that server (dropped at the
end); ``--redis`` uses a private redis-server as Reflex's state manager, which lets
``--workers N`` run several backend workers. ``--url`` measures a shop that already runs.

    .venv/bin/python benchmarks/load.py --write-docs
    .venv/bin/python benchmarks/load.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --redis --workers 2 --write-docs
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from benchmarks import doc_sections, load_report  # noqa: E402
from benchmarks import report as common  # noqa: E402
from benchmarks.burst import BurstConfig, BurstNames, account_emails, make_accounts  # noqa: E402
from benchmarks.load_run import STATE_WRITE_WAIT_S, LevelConfig, LevelResult, run_level  # noqa: E402
from benchmarks.server import Server, private_redis, production_server  # noqa: E402
from benchmarks.shopper import Protocol  # noqa: E402

DOCS_PATH = ROOT / "docs" / "benchmarks.md"
MIN_STOCK = 20  # products the shoppers add: plenty of stock, no required option


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _clients(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text}") from error
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("at least one level, each of 1 client or more")
    return values


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=_clients, default=[10, 50, 100], help="levels (10,50,100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per level (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured seconds first (5)")
    parser.add_argument("--think-min", type=float, default=0.5, help="shortest think time, s (0.5)")
    parser.add_argument("--think-max", type=float, default=1.5, help="longest think time, s (1.5)")
    parser.add_argument(
        "--saturation-clients", type=int, default=50, help="a last level without think time (50; 0: none)"
    )
    parser.add_argument("--saturation-seconds", type=float, default=15.0, help="its measured seconds (15)")
    parser.add_argument(
        "--burst-clients",
        type=int,
        default=50,
        help="a last level: this many shoppers beside a burst of sign-ins and checkouts (50; 0: none)",
    )
    parser.add_argument(
        "--sign-ins-per-s", type=float, default=10.0, help="the burst's sign-ins per second (10)"
    )
    parser.add_argument(
        "--checkouts-per-s", type=float, default=2.0, help="the burst's checkouts per second (2)"
    )
    parser.add_argument("--lag-probes", type=int, default=4, help="tabs probing the event loop's lag (4)")
    parser.add_argument("--postgres", metavar="SERVER_URL", help="serve from a fresh database on this server")
    parser.add_argument("--redis", action="store_true", help="Redis as the state manager (a private server)")
    parser.add_argument("--workers", type=int, default=None, help="backend workers (needs --redis)")
    parser.add_argument("--url", help="measure this running shop instead of starting one")
    parser.add_argument("--states-dir", type=Path, help="with --url: its disk state manager's folder")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the shoppers (0)")
    parser.add_argument("--state-wait", type=float, default=STATE_WRITE_WAIT_S, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="also write results as JSON")
    parser.add_argument("--write-docs", action="store_true", help="update this set-up's block in the docs")
    parser.add_argument("--docs", type=Path, default=DOCS_PATH, metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="exit with status 1 when a budget is missed")
    return parser


def _variant(args: argparse.Namespace) -> tuple[str, str]:
    if args.url:
        return "attached", "a running shop"
    database = "postgresql" if args.postgres else "sqlite"
    title = f"{'PostgreSQL' if args.postgres else 'SQLite'}, "
    if args.redis:
        workers = args.workers or "default"
        return f"{database}-redis-{workers}", title + f"Redis state manager, {workers} workers"
    return database, title + "disk state manager, 1 worker"


def _command(argv: Sequence[str]) -> str:
    shown, hide_next = [], False
    for arg in argv:
        if hide_next:
            arg = make_url(arg).render_as_string(hide_password=True)  # noqa: PLW2901
        hide_next = arg == "--postgres"
        shown.append(arg)
    return " ".join([".venv/bin/python benchmarks/load.py", *shown])


def _product_ids(database_url: str) -> list[int]:
    """Listed, active products with plenty of stock and no option to choose."""
    from sqlmodel import Session, select  # noqa: PLC0415

    from shop_app.db import create_db_engine  # noqa: PLC0415
    from shop_app.models import Product  # noqa: PLC0415

    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            rows = session.exec(
                select(Product.id, Product.variants).where(
                    Product.is_active, Product.is_listed, Product.stock_quantity >= MIN_STOCK
                )
            ).all()
    finally:
        engine.dispose()
    return sorted(pid for pid, variants in rows if not (variants or {}).get("scents"))


@contextlib.contextmanager
def _shop(args: argparse.Namespace, workdir: Path) -> Iterator[tuple[Server, str, dict[str, str]]]:
    """The shop under test, the database to read products from, and how it is set up."""
    if args.url:
        port = urlsplit(args.url).port or 80
        server = Server(
            url=args.url.rstrip("/"), port=port, pid=None, states_dir=args.states_dir, log_path=Path()
        )
        yield server, "", {"database": "as configured", "state_manager": "as configured", "workers": "?"}
        return
    from shop_app.db import throwaway_database  # noqa: PLC0415

    with contextlib.ExitStack() as stack:
        url = stack.enter_context(
            throwaway_database(args.postgres, sqlite_dir=workdir, prefix="shop_bench_load")
        )
        redis_url = stack.enter_context(private_redis()) if args.redis else None
        server = stack.enter_context(
            production_server(
                workdir, database_url=url, redis_url=redis_url, workers=args.workers, progress=_out
            )
        )
        database = (
            "PostgreSQL (a fresh database, demo catalogue)"
            if args.postgres
            else "SQLite (a temporary file, demo catalogue)"
        )
        manager = (
            "Redis (a private redis-server on loopback)"
            if redis_url
            else "disk (pickles under a temporary folder)"
        )
        workers = str(len(server.backend_workers()))
        yield server, url, {"database": database, "state_manager": manager, "workers": workers}


def _levels(args: argparse.Namespace) -> list[LevelConfig]:
    levels = [
        LevelConfig(n, args.seconds, args.warmup, args.think_min, args.think_max, label=f"{n} clients")
        for n in args.clients
    ]
    if args.saturation_clients:
        n = args.saturation_clients
        levels.append(
            LevelConfig(
                n, args.saturation_seconds, args.warmup, 0.0, 0.0, label=f"{n} clients, no think time"
            )
        )
    if args.burst_clients:
        n = args.burst_clients
        burst = BurstConfig(args.sign_ins_per_s, args.checkouts_per_s, args.lag_probes)
        levels.append(
            LevelConfig(
                n,
                args.seconds,
                args.warmup,
                args.think_min,
                args.think_max,
                label=f"{n} clients + a burst",
                burst=burst,
            )
        )
    return levels


def _accounts(args: argparse.Namespace, database_url: str) -> list[str]:
    """The accounts the burst's sign-ins use: one per sign-in of the level, at most 1,000, made
    in the shop's database (a shop given by ``--url`` must have them: ``burst.account_emails``)."""
    if not (args.burst_clients and args.sign_ins_per_s):
        return []
    emails = account_emails(min(1000, int(args.sign_ins_per_s * (args.seconds + args.warmup)) + 1))
    if database_url:
        make_accounts(database_url, emails)
    return emails


async def _run(
    server: Server, product_ids: list[int], accounts: list[str], args: argparse.Namespace
) -> list[LevelResult]:
    protocol, names = Protocol.of_app(), BurstNames.of_app()
    results = []
    for config in _levels(args):
        result = await run_level(
            server,
            protocol,
            config,
            product_ids,
            seed=args.seed,
            state_wait=args.state_wait,
            progress=_out,
            burst_names=names,
            accounts=accounts,
        )
        results.append(result)
        stats = load_report.action_stats(result)[load_report.BUDGETED]
        _out(
            f"  {load_report.throughput(result):.0f} actions/s; add to cart p50 {stats.p50:.1f} ms, "
            f"p95 {stats.p95:.1f} ms; errors {load_report.error_count(result)}"
        )
    return results


def _memory_gb() -> float:
    return psutil.virtual_memory().total / 2**30


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    if args.workers and not args.redis and not args.url:
        _out("error: --workers needs --redis (Reflex runs one worker with the disk state manager)")
        return 2
    variant, title = _variant(args)
    load_before = common.load_average()
    with tempfile.TemporaryDirectory(prefix="shop-bench-load-") as tmp, _shop(args, Path(tmp)) as shop:
        server, database_url, setup = shop
        product_ids = _product_ids(database_url) if database_url else []
        accounts = _accounts(args, database_url)
        idle_rss = [w.memory_info().rss for w in server.backend_workers()] if server.pid else []
        levels = asyncio.run(_run(server, product_ids, accounts, args))
    from reflex_base.constants import Reflex  # noqa: PLC0415

    run: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": _command(argv),
        "machine": common.machine() | {"memory_gb": _memory_gb()},
        "load_before": load_before,
        "load_after": common.load_average(),
        "reflex": Reflex.VERSION,
        "idle_rss": idle_rss,
        "products_added": product_ids,
        **setup,
    }
    found = load_report.verdicts(levels)
    block = load_report.results_block(run, levels, found)
    _out()
    _out(block)
    if args.json is not None:
        common.write_json(args.json, load_report.as_json(run, levels, found))
        _out(f"\nWrote {args.json}")
    if args.write_docs:
        doc_sections.write_block(
            args.docs,
            heading=load_report.HEADING,
            template=load_report.TEMPLATE,
            name="load",
            variant=variant,
            variant_title=title,
            block=block,
        )
        _out(f"Updated the {title} results in {args.docs}")
    return common.exit_status(found, check=args.check, out=_out)


if __name__ == "__main__":
    raise SystemExit(main())
