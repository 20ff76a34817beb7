"""Back office product lists benchmark (issue 17, acceptance 8).

Manage Products (individual view), its grouped view and the dashboard's Product Management tab are
searched, filtered, sorted and paged by the database (``services.admin.product_listing``). Measured
in the same run:

1. **Pages at ``--products`` (20,000) synthetic products**: each list's page function
   (``list_products``, ``list_groups``) on realistic requests, each on its own session as the server
   does: median, p95 and max; budget p95 ≤ 30 ms.
2. **State per admin tab**: one tab (a root ``reflex.state.State`` with every substate) of an admin
   who opened the three screens (their ``load`` handlers, as the pages run them) and opened a vessel
   group; the pickles the state manager stores for the whole tree; budget ≤ 64 KB. Also the JSON
   of the whole frontend state (what a hydrate sends).
3. **A search keystroke**: the ``set_search`` handler of each screen run on that tab, plus encoding
   the delta the browser receives; budget p95 ≤ 100 ms (the server's part of the round trip; the
   websocket on loopback adds about a millisecond, see the load benchmark).
4. **Every admin action on the demo catalogue**: each handler of these screens (and category
   update and delete, admin removal) run as the server runs it, including the admin check;
   budget p95 ≤ 150 ms.

SQLite (a temporary file) by default; ``--database-url postgresql+psycopg://user@host/db`` creates
fresh databases on that server and drops them at the end.

    .venv/bin/python benchmarks/admin_products.py --write-docs
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `shop_app` and `benchmarks` importable
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlmodel import Session, select  # noqa: E402

from benchmarks import report  # noqa: E402
from benchmarks.catalogue_db import seeded_database  # noqa: E402
from benchmarks.state_size import _json_size, _new_tree, _run, _shop_environment, _tree_size  # noqa: E402
from benchmarks.timing import percentile  # noqa: E402
from shop_app import migrate  # noqa: E402
from shop_app.db import create_db_engine, throwaway_database  # noqa: E402
from shop_app.domain.product_sort import ProductSort  # noqa: E402
from shop_app.models import AdminRole, Category, Product, User  # noqa: E402
from shop_app.services import seeding, sessions  # noqa: E402
from shop_app.services.admin import product_listing as listing  # noqa: E402

DOCS_PATH = ROOT / "docs" / "benchmarks.md"
PAGE_BUDGET_MS = 30.0
STATE_BUDGET_BYTES = 64 * 1024
KEYSTROKE_BUDGET_MS = 100.0
ACTION_BUDGET_MS = 150.0
DIALECTS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--products", type=int, default=20000, help="synthetic products (20000)")
    parser.add_argument("--runs", type=int, default=30, help="timed requests of each kind (30)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed requests of each kind first (2)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="PostgreSQL server to benchmark on (fresh databases are created there and dropped); "
        "default: SQLite",
    )
    parser.add_argument("--write-docs", action="store_true", help="update this database's block in the docs")
    parser.add_argument("--docs", type=Path, default=DOCS_PATH, metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="exit with status 1 when a budget is missed")
    return parser


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True, slots=True)
class Timed:
    """Wall times of one kind of request, in ms."""

    name: str
    samples: list[float]

    @property
    def median(self) -> float:
        """The median."""
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        """The nearest-rank 95th percentile."""
        return percentile(self.samples, 95)


def _time(
    name: str, work: Callable[[], Any], runs: int, warmup: int, before: Callable[[], Any] | None = None
) -> Timed:
    samples = []
    for number in range(warmup + runs):
        if before is not None:
            before()
        started = time.perf_counter()
        work()
        if number >= warmup:
            samples.append((time.perf_counter() - started) * 1000)
    return Timed(name, samples)


PAGE_REQUESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("individual: first page", {}),
    ("individual: page 50", {"page": 50}),
    ("individual: search 'lavender'", {"search": "lavender"}),
    ("individual: search 'ZZZ' (nothing)", {"search": "ZZZ"}),
    ("individual: category Candles", {"category": "Candles"}),
    ("individual: Candles + 'vanilla'", {"category": "Candles", "search": "vanilla"}),
    ("dashboard: price high to low, p3", {"sort": ProductSort.PRICE_DESC, "page": 3}),
    ("dashboard: name A–Z, 'rose'", {"sort": ProductSort.NAME_ASC, "search": "rose"}),
    # Broad searches (a stranger's, 2026-11-27): they match most of the catalogue.
    ("individual: search 'e' (one letter)", {"search": "e"}),
    ("individual: search 'candle' (a category too)", {"search": "candle"}),
    (
        "dashboard: 'oz', price high to low, p300",
        {"search": "oz", "sort": ProductSort.PRICE_DESC, "page": 300},
    ),
    (
        "individual: Home Fragrance + 'a', name Z–A, p40",
        {"category": "Home Fragrance", "search": "a", "sort": ProductSort.NAME_DESC, "page": 40},
    ),
)
GROUP_REQUESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("grouped: first page", {}),
    ("grouped: search 'lavender'", {"search": "lavender"}),
    ("grouped: page 2, one group opened", {"page": 2, "opened": True}),
    ("grouped: search 'l' (one letter)", {"search": "l"}),
    ("grouped: search 'soy candle - '", {"search": "soy candle - "}),
)


def _pages(engine: sa.Engine, runs: int, warmup: int) -> list[Timed]:
    with Session(engine) as session:
        categories = {c.name: c.id for c in session.exec(select(Category))}
        any_group = listing.list_groups(session, page=2).groups[0].key
    results = []
    for name, request in PAGE_REQUESTS:
        kwargs = dict(request)
        if "category" in kwargs:
            kwargs["category_id"] = categories[kwargs.pop("category")]

        def page(kwargs: dict[str, Any] = kwargs) -> None:
            with Session(engine) as session:
                listing.list_products(session, **kwargs)

        results.append(_time(name, page, runs, warmup))
    for name, request in GROUP_REQUESTS:
        kwargs = dict(request)
        if kwargs.pop("opened", False):
            kwargs["opened"] = {any_group: 20}

        def groups(kwargs: dict[str, Any] = kwargs) -> None:
            with Session(engine) as session:
                listing.list_groups(session, **kwargs)

        results.append(_time(name, groups, runs, warmup))
    return results


# --------------------------------------------------------------------------- the admin's tab


def _admin_key(engine: sa.Engine) -> str:
    with Session(engine) as session:
        admin = User(email="bench-admin@example.com", password_hash="x", first_name="Bench")
        session.add(admin)
        session.flush()
        session.add(AdminRole(user_id=admin.id))
        key = sessions.start(session, user=admin, remember_me=False).state_key
        session.commit()
    return key


@dataclass
class Tab:
    """One browser tab of an admin: the state tree and the loop its handlers run on."""

    loop: asyncio.AbstractEventLoop
    root: Any

    def state(self, cls: type) -> Any:
        """The tab's instance of a state class."""
        return self.root.get_substate(cls.get_full_name().split("."))

    def run(self, handler: Any, *args: Any) -> None:
        """Run an event handler as the server does (the admin check included)."""
        _run(self.loop, self.root, handler, *args)


def _tab(loop: asyncio.AbstractEventLoop, key: str) -> Tab:
    from shop_app.state.auth import AuthState  # noqa: PLC0415 - Reflex only when measuring

    root = _new_tree()
    root.get_substate(AuthState.get_full_name().split("."))._session_key = key
    return Tab(loop, root)


@dataclass(frozen=True, slots=True)
class TabSizes:
    """Serialized state of an admin's tab, in bytes."""

    tree: int  # every state's pickle, as the state manager stores them
    frontend_json: int  # the JSON of every frontend var (a hydrate)
    largest: list[tuple[str, int]]  # the biggest states
    keystrokes: list[Timed]
    delta_json: dict[str, int]  # a keystroke's delta, per screen


def _load_screens(tab: Tab) -> None:
    from shop_app.state.admin.dashboard import AdminDashboardState, DashboardProductsState  # noqa: PLC0415
    from shop_app.state.admin.products import ManageProductsState  # noqa: PLC0415
    from shop_app.state.admin.products_grouped import GroupedProductsState  # noqa: PLC0415

    tab.run(AdminDashboardState.load)
    tab.run(DashboardProductsState.load)
    tab.run(ManageProductsState.load)
    tab.run(GroupedProductsState.load)
    grouped = tab.state(GroupedProductsState)
    tab.run(GroupedProductsState.toggle_group, grouped.groups[0].key)


def _measure_tab(url: str, key: str, runs: int, warmup: int) -> TabSizes:
    import shop_app.pages  # noqa: F401, PLC0415 - registers every state of the app, as the server
    from shop_app.state.admin.dashboard import DashboardProductsState  # noqa: PLC0415
    from shop_app.state.admin.products import ManageProductsState  # noqa: PLC0415
    from shop_app.state.admin.products_grouped import GroupedProductsState  # noqa: PLC0415

    loop = asyncio.new_event_loop()
    try:
        with _shop_environment(url):
            tab = _tab(loop, key)
            _load_screens(tab)
            sizes = sorted(
                ((s.get_name(), len(s._serialize())) for s in _walk(tab.root)), key=lambda item: -item[1]
            )
            tree, frontend = _tree_size(tab.root), _json_size(tab.root.dict())
            keystrokes, deltas = [], {}
            words = ("l", "la", "lav", "lave", "laven", "")
            for name, handler in (
                ("Manage Products", ManageProductsState.set_search),
                ("grouped view", GroupedProductsState.set_search),
                ("dashboard list", DashboardProductsState.set_search),
            ):
                typed = iter(words * (runs + warmup))

                def keystroke(handler: Any = handler, typed: Iterator[str] = typed) -> None:
                    tab.root._clean()
                    tab.run(handler, next(typed))
                    _json_size(tab.root.get_delta())

                keystrokes.append(_time(f"keystroke: {name}", keystroke, runs, warmup))
                tab.root._clean()
                tab.run(handler, "lavender")
                deltas[name] = _json_size(tab.root.get_delta())
    finally:
        loop.close()
    return TabSizes(tree, frontend, sizes[:4], keystrokes, deltas)


def _walk(state: Any) -> Iterator[Any]:
    yield state
    for sub in state.substates.values():
        yield from _walk(sub)


# --------------------------------------------------------------------------- actions on the demo


@contextmanager
def _demo_database(admin_url: str | None) -> Iterator[tuple[str, sa.Engine, int]]:
    with (
        tempfile.TemporaryDirectory(prefix="shop-bench-demo-") as tmp,
        throwaway_database(admin_url, sqlite_dir=Path(tmp), prefix="shop_bench_demo") as url,
    ):
        engine = create_db_engine(url)
        try:
            migrate.upgrade(engine=engine)
            with Session(engine) as session:
                seeding.load_demo(session, media_dir=Path(tmp) / "media")
                session.commit()
                count = session.exec(select(sa.func.count()).select_from(Product)).one()
            yield url, engine, count
        finally:
            engine.dispose()


def _actions(url: str, engine: sa.Engine, key: str, runs: int, warmup: int) -> list[Timed]:  # noqa: PLR0915
    import shop_app.pages  # noqa: F401, PLC0415
    from shop_app.state.admin.admins import ManageAdminsState  # noqa: PLC0415
    from shop_app.state.admin.categories import CategoriesState  # noqa: PLC0415
    from shop_app.state.admin.dashboard import AdminDashboardState, DashboardProductsState  # noqa: PLC0415
    from shop_app.state.admin.products import (  # noqa: PLC0415
        ManageProductsState,
        ProductConvertState,
        ProductDeleteState,
        ProductEditState,
    )
    from shop_app.state.admin.products_grouped import GroupedProductsState  # noqa: PLC0415

    with Session(engine) as session:
        product = session.exec(select(Product).order_by(Product.id)).first()
        candles = session.exec(select(Category).where(Category.parent_id.is_(None))).first()  # type: ignore[union-attr]
        assert product is not None and product.id is not None and candles is not None
        product_id, category_id = product.id, candles.id

    def spare_product() -> int:
        with Session(engine) as session:
            spare = Product(name="Bench Jar - Spare", base_price_cents=1000, stock_quantity=3)
            session.add(spare)
            session.commit()
            assert spare.id is not None
            return spare.id

    def spare_category() -> int:
        with Session(engine) as session:
            spare = Category(name="Bench Spare", slug=f"bench-spare-{time.perf_counter_ns()}")
            session.add(spare)
            session.commit()
            assert spare.id is not None
            return spare.id

    def spare_admin() -> int:
        with Session(engine) as session:
            user = User(email=f"spare-{time.perf_counter_ns()}@example.com", password_hash="x")
            session.add(user)
            session.flush()
            role = AdminRole(user_id=user.id)
            session.add(role)
            session.commit()
            assert role.id is not None
            return role.id

    loop = asyncio.new_event_loop()
    results: list[Timed] = []
    try:
        with _shop_environment(url):
            tab = _tab(loop, key)
            _load_screens(tab)
            grouped = tab.state(GroupedProductsState)
            group_key = grouped.groups[0].key
            targets: dict[str, int] = {}

            def act(name: str, work: Callable[[], Any], before: Callable[[], Any] | None = None) -> None:
                results.append(_time(name, work, runs, warmup, before))

            act("dashboard: load (figures, admins, images)", lambda: tab.run(AdminDashboardState.load))
            act("dashboard list: load", lambda: tab.run(DashboardProductsState.load))
            act("dashboard list: search", lambda: tab.run(DashboardProductsState.set_search, "candle"))
            act(
                "dashboard list: category",
                lambda: tab.run(DashboardProductsState.set_category, str(category_id)),
            )
            act("dashboard list: sort", lambda: tab.run(DashboardProductsState.set_sort, "price-desc"))
            act("dashboard list: next page", lambda: tab.run(DashboardProductsState.turn_page, 1))
            tab.run(DashboardProductsState.set_category, "all")
            tab.run(DashboardProductsState.set_search, "")

            def dashboard_delete() -> None:
                tab.run(DashboardProductsState.ask_delete, targets["product"])
                tab.run(DashboardProductsState.confirm_delete)

            act("dashboard list: delete", dashboard_delete, lambda: targets.update(product=spare_product()))
            act("manage: load", lambda: tab.run(ManageProductsState.load))
            act("manage: search", lambda: tab.run(ManageProductsState.set_search, "lavender"))
            act("manage: category", lambda: tab.run(ManageProductsState.set_category, str(category_id)))
            act("manage: clear filters", lambda: tab.run(ManageProductsState.clear_filters))
            act("manage: next page", lambda: tab.run(ManageProductsState.go_to_page, 2))
            act("manage: archive / activate", lambda: tab.run(ManageProductsState.toggle_active, product_id))

            def edit() -> None:
                tab.run(ProductEditState.open_edit, product_id)
                tab.run(ProductEditState.save_edit)

            act("manage: edit (open + update)", edit)
            act(
                "manage: open Convert to Variant",
                lambda: tab.run(ProductConvertState.open_convert, product_id),
            )

            def manage_delete() -> None:
                tab.run(ProductDeleteState.ask_delete, targets["product"])
                tab.run(ProductDeleteState.confirm_delete)

            act("manage: delete", manage_delete, lambda: targets.update(product=spare_product()))
            act("grouped: load", lambda: tab.run(GroupedProductsState.load))
            act("grouped: search", lambda: tab.run(GroupedProductsState.set_search, "lavender"))
            tab.run(GroupedProductsState.set_search, "")
            act(
                "grouped: open / close a group", lambda: tab.run(GroupedProductsState.toggle_group, group_key)
            )
            act("grouped: deactivate", lambda: tab.run(GroupedProductsState.deactivate, product_id))
            act("grouped: activate", lambda: tab.run(GroupedProductsState.activate, product_id))

            def variant_delete() -> None:
                tab.run(GroupedProductsState.open_delete, targets["product"])
                tab.run(GroupedProductsState.confirm_delete)

            act("grouped: delete variant", variant_delete, lambda: targets.update(product=spare_product()))
            tab.run(CategoriesState.load)

            def category_update() -> None:
                tab.run(CategoriesState.open_edit, category_id)
                tab.run(CategoriesState.save)

            act("categories: update", category_update)

            def category_delete() -> None:
                tab.run(CategoriesState.ask_delete, targets["category"])
                tab.run(CategoriesState.confirm_delete)

            act("categories: delete", category_delete, lambda: targets.update(category=spare_category()))
            tab.run(ManageAdminsState.load)

            def admin_remove() -> None:
                tab.run(ManageAdminsState.ask_remove, targets["role"])
                tab.run(ManageAdminsState.confirm_remove)

            act("admins: remove an admin", admin_remove, lambda: targets.update(role=spare_admin()))
    finally:
        loop.close()
    return results


# --------------------------------------------------------------------------- report


def _row(timed: Timed) -> str:
    return (
        f"| {timed.name} | {len(timed.samples)} | {timed.median:.1f} | {timed.p95:.1f} | "
        f"{max(timed.samples):.1f} |"
    )


def _server(engine: sa.Engine) -> str:
    if engine.dialect.name == "sqlite":
        return f"SQLite {report.machine()['sqlite']} (temporary file)"
    with engine.connect() as connection:
        version = connection.execute(sa.text("SHOW server_version")).scalar_one()
    return f"PostgreSQL {version} on {engine.url.host or 'localhost'} (fresh databases)"


def _command(argv: Sequence[str]) -> str:
    shown, hide_next = [], False
    for arg in argv:
        shown.append(make_url(arg).render_as_string(hide_password=True) if hide_next else arg)
        hide_next = arg == "--database-url"
    return " ".join([".venv/bin/python benchmarks/admin_products.py", *shown])


def results_block(
    run: dict[str, Any], pages: list[Timed], tab: TabSizes, actions: list[Timed]
) -> tuple[str, bool]:
    """The Markdown of one run, and whether every budget holds."""
    m = run["machine"]
    worst_page = max(pages, key=lambda t: t.p95)
    worst_key = max(tab.keystrokes, key=lambda t: t.p95)
    worst_action = max(actions, key=lambda t: t.p95)
    verdicts = [
        (
            f"list page, {run['products']:,} products: p95 ≤ {PAGE_BUDGET_MS:g} ms",
            f"worst p95 {worst_page.p95:.1f} ms ({worst_page.name})",
            worst_page.p95 <= PAGE_BUDGET_MS,
        ),
        (
            f"state per admin tab ≤ {STATE_BUDGET_BYTES // 1024} KB",
            f"{tab.tree / 1024:.1f} KB",
            tab.tree <= STATE_BUDGET_BYTES,
        ),
        (
            f"search keystroke (server side) p95 ≤ {KEYSTROKE_BUDGET_MS:g} ms",
            f"worst p95 {worst_key.p95:.1f} ms ({worst_key.name})",
            worst_key.p95 <= KEYSTROKE_BUDGET_MS,
        ),
        (
            f"every admin action, demo catalogue: p95 ≤ {ACTION_BUDGET_MS:g} ms",
            f"worst p95 {worst_action.p95:.1f} ms ({worst_action.name})",
            worst_action.p95 <= ACTION_BUDGET_MS,
        ),
    ]
    passed = all(ok for _, _, ok in verdicts)
    header = ["| request | requests | median ms | p95 ms | max ms |", "|---|---:|---:|---:|---:|"]
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['platform']}, Python {m['python']}; "
        f"database {run['database']}. 1-minute load average {run['load_before']} before, "
        f"{run['load_after']} after.",
        f"- Data: {run['products']:,} synthetic products (seeded in {run['seed_seconds']:.1f} s; planner "
        f"statistics gathered: {'yes' if run['analyzed'] else 'no'}); the demo catalogue "
        f"({run['demo_products']} products) for the actions.",
        f"- Timing: {run['warmup']} untimed requests of each kind first; p95 is the nearest-rank 95th "
        "percentile. Pages: each request opens a session, calls the page function, closes the session. "
        "Keystrokes and actions: the state handler on an admin's tab, the admin check included.",
        "",
        f"Pages at {run['products']:,} products:",
        "",
        *header,
        *(_row(t) for t in pages),
        "",
        f"Admin tab after loading the dashboard, Manage Products, the grouped view and opening a group: "
        f"**{tab.tree / 1024:.1f} KB** of state stored (largest: "
        + ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in tab.largest)
        + f"); {tab.frontend_json / 1024:.1f} KB of JSON on a hydrate. A keystroke's delta: "
        + ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in tab.delta_json.items())
        + ".",
        "",
        *header,
        *(_row(t) for t in tab.keystrokes),
        "",
        f"Admin actions on the demo catalogue ({run['demo_products']} products):",
        "",
        *header,
        *(_row(t) for t in actions),
        "",
        "| budget (issue 17, acceptance 8) | measured | verdict |",
        "|---|---|---|",
        *(f"| {budget} | {measured} | **{'PASS' if ok else 'FAIL'}** |" for budget, measured, ok in verdicts),
    ]
    return "\n".join(lines), passed


def write_results(path: Path, dialect: str, block: str) -> None:
    """Replace ``dialect``'s block between its markers in ``path`` (appended when missing)."""
    start, end = f"<!-- admin_products:{dialect}:start -->", f"<!-- admin_products:{dialect}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    replacement = f"{start}\n{block}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _match: replacement, text, count=1)
    else:
        heading = f"### Results: {DIALECTS.get(dialect, dialect)} (admin product lists)"
        text = text.rstrip("\n") + f"\n\n{heading}\n\n{replacement}\n"
    path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    load_before = report.load_average()
    _out(f"Seeding {args.products:,} synthetic products ({'PostgreSQL' if args.database_url else 'SQLite'})…")
    with seeded_database(products=args.products, admin_url=args.database_url) as db:
        _out(f"Seeded in {db.seed_seconds:.1f} s. Pages…")
        pages = _pages(db.engine, args.runs, args.warmup)
        _out("An admin's tab…")
        tab = _measure_tab(db.url, _admin_key(db.engine), args.runs, args.warmup)
        database, dialect = _server(db.engine), db.dialect
        seed_seconds, analyzed, products = db.seed_seconds, db.analyzed, db.products
    _out("Actions on the demo catalogue…")
    with _demo_database(args.database_url) as (url, engine, demo_products):
        actions = _actions(url, engine, _admin_key(engine), args.runs, args.warmup)
    run = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": _command(argv),
        "machine": report.machine(),
        "database": database,
        "products": products,
        "demo_products": demo_products,
        "seed_seconds": seed_seconds,
        "analyzed": analyzed,
        "warmup": args.warmup,
        "load_before": load_before,
        "load_after": report.load_average(),
    }
    block, passed = results_block(run, pages, tab, actions)
    _out()
    _out(block)
    if args.write_docs:
        write_results(args.docs, dialect, block)
        _out(f"\nUpdated the {DIALECTS.get(dialect, dialect)} results in {args.docs}")
    _out("\n" + ("Budgets met." if passed else "Budget missed."))
    return 1 if args.check and not passed else 0


if __name__ == "__main__":
    raise SystemExit(main())
