"""Lighthouse benchmark (docs/architecture.md#performance-budgets, issue 9) of the production build: mobile
and desktop.

Budget (issue 18): Lighthouse mobile on /, /shop, /product/{id} and /checkout, medians of 3 runs,
the CPU slowdown scaled to a machine of CPU index 1,500: LCP ≤ 2.0 s, TBT ≤ 200 ms, CLS ≤ 0.02,
performance ≥ 95, accessibility, SEO and best practices 100; JavaScript on the first load of /
≤ 300 KB gzipped (as transferred).

The machine's CPU index is measured first (a performance-only run of /) and printed with the
mobile multiplier it gives (4 × index ÷ 1,500, ``lighthouse_run.cpu_slowdown``); every mobile run
then uses that multiplier. ``--reference-index 0`` keeps Lighthouse's fixed 4× (the method of
the earlier results).

Starts the production build on a free loopback port (``benchmarks/server.py``: a temporary
SQLite database with the demo catalogue) and audits each page ``--runs`` times (3) per form
factor with npm's ``lighthouse`` (tools/package.json) and Debian's Chromium, headless; reports
the medians, the JavaScript transferred and the audits that keep each page below 100. A page is
audited as a first visit (empty cache, new browser profile). ``--url`` audits a shop that
already runs. Bounded: every run is stopped after 180 s.

    .venv/bin/python benchmarks/lighthouse.py --write-docs
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from benchmarks import doc_sections, lighthouse_run  # noqa: E402
from benchmarks import lighthouse_report as report  # noqa: E402
from benchmarks import report as common  # noqa: E402
from benchmarks.lighthouse_run import FORM_FACTORS, Report  # noqa: E402
from benchmarks.server import production_server  # noqa: E402

DOCS_PATH = ROOT / "docs" / "benchmarks.md"
PAGES = ("/", "/shop", "/product/{id}", "/checkout")


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _listed(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per page and form factor (3)")
    parser.add_argument(
        "--pages", type=_listed, default=list(PAGES), help="paths (/,/shop,/product/{id},/checkout)"
    )
    parser.add_argument(
        "--form-factors", type=_listed, default=list(FORM_FACTORS), help="mobile,desktop (both)"
    )
    parser.add_argument("--url", help="audit this running shop instead of starting one")
    parser.add_argument(
        "--product-id", type=int, help="the product of /product/{id} (default: a demo candle)"
    )
    parser.add_argument("--reports", type=Path, metavar="DIR", help="keep every Lighthouse JSON report here")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="also write results as JSON")
    parser.add_argument("--write-docs", action="store_true", help="update the results block in the docs")
    parser.add_argument("--docs", type=Path, default=DOCS_PATH, metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument(
        "--reference-index",
        type=float,
        default=lighthouse_run.REFERENCE_CPU_INDEX,
        help="scale the mobile CPU slowdown to a machine of this CPU index (1500; 0: Lighthouse's 4×)",
    )
    parser.add_argument("--check", action="store_true", help="exit with status 1 when a budget is missed")
    return parser


def _first_product(database_url: str) -> int:
    """A listed demo product in stock with an image: what a shopper opens from the shop."""
    from sqlmodel import Session, select  # noqa: PLC0415

    from shop_app.db import create_db_engine  # noqa: PLC0415
    from shop_app.models import Product, ProductImage  # noqa: PLC0415

    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            found = session.exec(
                select(Product.id)
                .join(ProductImage, ProductImage.product_id == Product.id)
                .where(Product.is_active, Product.is_listed, Product.stock_quantity > 0)
                .order_by(Product.id)
            ).first()
    finally:
        engine.dispose()
    if found is None:
        msg = "the demo catalogue has no listed product in stock"
        raise RuntimeError(msg)
    return found


@contextlib.contextmanager
def _shop(args: argparse.Namespace, workdir: Path) -> Iterator[tuple[str, int, str]]:
    """The base URL, the product to audit and the database description."""
    if args.url:
        yield args.url.rstrip("/"), args.product_id or 1, "as configured"
        return
    from shop_app.db import throwaway_database  # noqa: PLC0415

    with (
        throwaway_database(None, sqlite_dir=workdir, prefix="shop_bench_lighthouse") as url,
        production_server(workdir, database_url=url, progress=_out) as server,
    ):
        product = args.product_id or _first_product(url)
        yield server.url, product, "SQLite (a temporary file, demo catalogue)"


def _chromium_version() -> str:
    try:
        done = subprocess.run(
            [lighthouse_run.CHROMIUM, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return "Chromium (version unknown)"
    return done.stdout.strip() or "Chromium"


def _lighthouse_version() -> str:
    package = lighthouse_run.ROOT / "tools" / "node_modules" / "lighthouse" / "package.json"
    try:
        return json.loads(package.read_text(encoding="utf-8"))["version"]
    except (OSError, KeyError, ValueError):
        return "?"


def _calibrate(url: str, output: Path, reference: float) -> tuple[float, float | None]:
    """This machine's CPU index now, and the mobile slowdown that simulates ``reference`` with it
    (None: Lighthouse's 4×, when ``reference`` is 0 or the index is unknown)."""
    index = lighthouse_run.measure_cpu_index(url, output)
    if reference <= 0:
        _out(f"CPU index {index:.0f} at the start; mobile CPU slowdown: Lighthouse's default 4×")
        return index, None
    if index <= 0:
        _out("Lighthouse reported no CPU index: mobile CPU slowdown stays Lighthouse's default 4×")
        return index, None
    slowdown = lighthouse_run.cpu_slowdown(index, reference)
    formula = f"4 × {index:.0f} ÷ {reference:.0f} = {slowdown}×"
    _out(f"CPU index {index:.0f} at the start; mobile CPU slowdown {formula}")
    return index, slowdown


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    load_before = common.load_average()
    reports: list[Report] = []
    with tempfile.TemporaryDirectory(prefix="shop-bench-lh-") as tmp, _shop(args, Path(tmp)) as shop:
        base, product_id, database = shop
        keep = args.reports or Path(tmp) / "reports"
        cpu_index, slowdown = _calibrate(f"{base}/", keep / "calibration.json", args.reference_index)
        for page in args.pages:
            path = page.replace("{id}", str(product_id))
            for form_factor in args.form_factors:
                for number in range(1, args.runs + 1):
                    name = f"{path.strip('/').replace('/', '-') or 'home'}-{form_factor}-{number}.json"
                    found = lighthouse_run.run(
                        f"{base}{path}", page, form_factor, keep / name, slowdown=slowdown
                    )
                    reports.append(found)
                    scores = ", ".join(f"{k} {v}" for k, v in found.scores.items())
                    _out(f"{path} {form_factor} run {number}: {scores}; JS {report.kib(found.script_bytes)}")
        results = report.group(reports)
        home = report.js_page(results)
        js_gzip = lighthouse_run.gzipped_bytes(home.median_run.script_urls) if home else None
    run: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": " ".join([".venv/bin/python benchmarks/lighthouse.py", *argv]),
        "machine": common.machine() | {"memory_gb": psutil.virtual_memory().total / 2**30},
        "load_before": load_before,
        "load_after": common.load_average(),
        "lighthouse": _lighthouse_version(),
        "chromium": _chromium_version(),
        "runs": args.runs,
        "database": database,
        "product_path": f"/product/{product_id}",
        "js_gzip_bytes": js_gzip,
        "cpu_index": cpu_index,
        "reference_index": args.reference_index,
        "cpu_slowdown": slowdown or lighthouse_run.MOBILE_CPU_SLOWDOWN,
    }
    found_verdicts = report.verdicts(results, js_gzip)
    block = report.results_block(run, results, found_verdicts)
    _out()
    _out(block)
    if args.json is not None:
        common.write_json(args.json, report.as_json(run, results, found_verdicts))
        _out(f"\nWrote {args.json}")
    if args.write_docs:
        doc_sections.write_block(
            args.docs,
            heading=report.HEADING,
            template=report.TEMPLATE,
            name="lighthouse",
            variant="scaled" if slowdown is not None else "default",
            variant_title="the production build, SQLite, demo catalogue"
            + (f", CPU scaled to an index of {args.reference_index:,.0f}" if slowdown is not None else ""),
            block=block,
        )
        _out(f"Updated the Lighthouse results in {args.docs}")
    return common.exit_status(found_verdicts, check=args.check, out=_out)


if __name__ == "__main__":
    raise SystemExit(main())
