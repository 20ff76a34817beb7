"""Running the implementations: concurrent rounds, the oversell race, integrity checks, profile.

- A **round** places one order from each prepared cart with ``threads`` buyer threads: every
  thread waits at a barrier, then takes the next cart until none is left. Throughput = orders
  placed / wall time from the barrier to the last thread's end. Rounds are interleaved (each
  round runs every implementation, in a rotated order), so a slow patch of a shared machine hits
  all of them alike.
- The **race**: ``threads`` buyers, each with a cart holding one unit of a product whose stock
  is ``scarce_stock``, all released at once; a watcher reads the stock meanwhile.
- The **profile**: orders placed one at a time with SQLAlchemy engine events counting every
  statement (``before/after_cursor_execute``), connection checkout (``pool_pre_ping`` sends a
  ping then), commit and rollback, and timing the statements.
"""

from __future__ import annotations

import cProfile
import io
import itertools
import math
import pstats
import re
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import Order, OrderAddress, OrderItem, Payment, Product

from .order_db import OrderDatabase, PreparedCart
from .order_impl import Implementation, OrderRefused

Progress = Callable[[str], None]


@dataclass
class RoundResult:
    """One implementation's orders of one round."""

    key: str
    placed: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of this process (every thread) during the round
    latencies_ms: list[float] = field(default_factory=list)
    order_ids: dict[int, int] = field(default_factory=dict)  # cart index -> order id

    @property
    def throughput(self) -> float:
        """Orders placed per second."""
        return self.placed / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_order(self) -> float:
        """Client CPU (this process, all threads) per order placed."""
        return self.cpu_seconds * 1000 / self.placed if self.placed else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


SETTLE_SQL = sa.text(
    "UPDATE orders SET status = 'pending', payment_status = 'completed' WHERE status = 'awaiting_payment'"
)


def settle_orders(engine: Engine) -> None:
    """Untimed, between rounds: the placed orders are paid, so their carts can check out again."""
    with engine.begin() as connection:
        connection.execute(SETTLE_SQL)


def run_concurrent(
    engine: Engine, impl: Implementation, carts: Sequence[PreparedCart], threads: int
) -> RoundResult:
    """Place one order per cart with ``threads`` concurrent buyers."""
    result = RoundResult(impl.key)
    next_index = itertools.count().__next__  # atomic under the GIL
    lock = threading.Lock()
    barrier = threading.Barrier(threads + 1)

    def buyer() -> None:
        latencies: list[float] = []
        ids: dict[int, int] = {}
        refused = 0
        errors: list[str] = []
        barrier.wait()
        while (index := next_index()) < len(carts):
            started = time.perf_counter()
            try:
                ids[index] = impl.place(engine, carts[index])
            except OrderRefused:
                refused += 1
                continue
            except Exception as error:  # counted and reported, never hidden
                errors.append(f"{type(error).__name__}: {str(error).splitlines()[0][:200]}")
                continue
            latencies.append((time.perf_counter() - started) * 1000)
        with lock:
            result.latencies_ms += latencies
            result.order_ids.update(ids)
            result.refused += refused
            result.errors += errors

    workers = [threading.Thread(target=buyer, name=f"buyer-{n}") for n in range(threads)]
    for worker in workers:
        worker.start()
    barrier.wait()
    started, cpu_started = time.perf_counter(), time.process_time()
    for worker in workers:
        worker.join()
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - cpu_started
    result.placed = len(result.order_ids)
    settle_orders(engine)
    return result


def run_rounds(
    db: OrderDatabase,
    impls: Sequence[Implementation],
    *,
    rounds: int,
    threads: int,
    warmup: int,
    progress: Progress,
) -> tuple[dict[str, list[RoundResult]], int]:
    """``warmup`` untimed orders per implementation, then ``rounds`` interleaved timed rounds.

    Returns the rounds of each implementation and the number of warm-up orders placed.
    """
    warmed = 0
    if warmup:
        for impl in impls:
            warmed += run_concurrent(db.engine, impl, db.carts[:warmup], threads).placed
    results: dict[str, list[RoundResult]] = {impl.key: [] for impl in impls}
    for number in range(rounds):
        order = [impls[(number + shift) % len(impls)] for shift in range(len(impls))]
        for impl in order:
            found = run_concurrent(db.engine, impl, db.carts, threads)
            results[impl.key].append(found)
            progress(
                f"  round {number + 1}/{rounds} {impl.key:<12} {found.placed:>6} orders in "
                f"{found.seconds:6.2f} s = {found.throughput:7.1f} orders/s"
                + (f", {found.refused} refused" if found.refused else "")
                + (f", {len(found.errors)} errors ({found.errors[0]})" if found.errors else "")
            )
    return results, warmed


# --------------------------------------------------------------------------- oversell


@dataclass(frozen=True, slots=True)
class RaceResult:
    """``threads`` buyers raced for ``stock`` units of one product."""

    key: str
    buyers: int
    stock: int
    placed: int
    refused: int
    errors: list[str]
    stock_after: int
    lowest_seen: int  # lowest stock the watcher read during the race
    units_ordered: int  # sum of the product's order_items quantities
    orders_with_product: int

    @property
    def expected(self) -> int:
        """Orders that must succeed: one per unit (or per buyer, when there are fewer)."""
        return min(self.buyers, self.stock)

    @property
    def exact(self) -> bool:
        """Exactly that many orders, the rest of the stock left, never negative, others refused."""
        return (
            self.placed == self.expected
            and self.units_ordered == self.expected
            and self.orders_with_product == self.expected
            and self.stock_after == self.stock - self.expected
            and self.lowest_seen >= 0
            and self.refused == self.buyers - self.expected
            and not self.errors
        )


def race(db: OrderDatabase, impl: Implementation, threads: int) -> RaceResult:
    """Release ``threads`` buyers of the scarce product at once; check what was sold."""
    scarce = db.scarce[impl.key]
    lowest = [scarce.stock]
    done = threading.Event()

    def watch() -> None:
        query = select(Product.stock_quantity).where(Product.id == scarce.product_id)
        with db.engine.connect() as connection:
            while not done.is_set():
                lowest[0] = min(lowest[0], connection.execute(query).scalar_one())
                connection.rollback()

    watcher = threading.Thread(target=watch, name="stock-watcher")
    watcher.start()
    try:
        found = run_concurrent(db.engine, impl, scarce.carts, threads)
    finally:
        done.set()
        watcher.join()
    with Session(db.engine) as session:
        stock_after = session.execute(
            select(Product.stock_quantity).where(Product.id == scarce.product_id)
        ).scalar_one()
        units, orders = session.execute(
            select(
                sa.func.coalesce(sa.func.sum(OrderItem.quantity), 0),
                sa.func.count(OrderItem.order_id.distinct()),
            ).where(OrderItem.product_id == scarce.product_id)
        ).one()
    return RaceResult(
        key=impl.key,
        buyers=len(scarce.carts),
        stock=scarce.stock,
        placed=found.placed,
        refused=found.refused,
        errors=found.errors,
        stock_after=stock_after,
        lowest_seen=min(lowest[0], stock_after),
        units_ordered=units,
        orders_with_product=orders,
    )


# --------------------------------------------------------------------------- integrity


@dataclass(frozen=True, slots=True)
class Integrity:
    """What the database holds after the whole run."""

    products: int
    conserved: int  # products whose stock = initial - units ordered
    negative: int  # products with a negative stock
    orders: int
    orders_placed: int  # orders the implementations reported
    complete: int  # orders with >= 1 item, exactly one address and one payment (amount = total)

    @property
    def ok(self) -> bool:
        """Every product's stock conserved and non-negative, every order complete."""
        return (
            self.conserved == self.products
            and self.negative == 0
            and self.orders == self.orders_placed == self.complete
        )


def integrity(db: OrderDatabase, orders_placed: int) -> Integrity:
    """Check stock conservation and the completeness of every order."""
    with Session(db.engine) as session:
        ordered = dict(
            session.execute(
                select(OrderItem.product_id, sa.func.sum(OrderItem.quantity)).group_by(OrderItem.product_id)
            ).all()
        )
        stock = dict(session.execute(select(Product.id, Product.stock_quantity)).all())
        items = select(OrderItem.order_id, sa.func.count().label("n")).group_by(OrderItem.order_id).subquery()
        addresses = (
            select(OrderAddress.order_id, sa.func.count().label("n"))
            .group_by(OrderAddress.order_id)
            .subquery()
        )
        payments = (
            select(
                Payment.order_id,
                sa.func.count().label("n"),
                sa.func.min(Payment.amount_cents).label("amount"),
            )
            .group_by(Payment.order_id)
            .subquery()
        )
        complete = session.execute(
            select(sa.func.count())
            .select_from(Order)
            .join(items, items.c.order_id == Order.id)
            .join(addresses, addresses.c.order_id == Order.id)
            .join(payments, payments.c.order_id == Order.id)
            .where(
                items.c.n >= 1, addresses.c.n == 1, payments.c.n == 1, payments.c.amount == Order.total_cents
            )
        ).scalar_one()
        orders = session.execute(select(sa.func.count()).select_from(Order)).scalar_one()
    conserved = sum(
        stock.get(pid, 0) == initial - ordered.get(pid, 0) for pid, initial in db.initial_stock.items()
    )
    return Integrity(
        products=len(db.initial_stock),
        conserved=conserved,
        negative=sum(value < 0 for value in stock.values()),
        orders=orders,
        orders_placed=orders_placed,
        complete=complete,
    )


def same_orders(engine: Engine, first: dict[int, int], second: dict[int, int]) -> tuple[int, int]:
    """How many carts got identical orders (totals, items, snapshots) from two implementations."""

    def describe(ids: list[int]) -> dict[int, tuple]:
        with Session(engine) as session:
            orders = {
                o.id: (o.subtotal_cents, o.tax_cents, o.shipping_cents, o.total_cents, o.status, o.email)
                for o in session.exec(select(Order).where(Order.id.in_(ids)))
            }
            items: dict[int, list[tuple]] = {}
            for item in session.exec(select(OrderItem).where(OrderItem.order_id.in_(ids))):
                items.setdefault(item.order_id, []).append(
                    (
                        item.product_id,
                        item.quantity,
                        item.unit_price_cents,
                        item.total_price_cents,
                        sorted(item.product_snapshot.items(), key=lambda kv: kv[0]).__repr__(),
                    )
                )
        return {oid: (orders.get(oid), sorted(items.get(oid, []))) for oid in ids}

    carts = sorted(set(first) & set(second))
    a = describe([first[c] for c in carts])
    b = describe([second[c] for c in carts])
    return len(carts), sum(a[first[c]] == b[second[c]] for c in carts)


# --------------------------------------------------------------------------- profile


_VERB = re.compile(r"^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT|BEGIN\b[A-Z ]*|\w+)", re.I)


def statement_label(statement: str) -> str:
    """A short name of a statement: the verb, the table and the first condition at top level."""
    text = " ".join(statement.split())
    verb = _VERB.match(text)
    word = verb.group(1).upper().strip() if verb else text[:20]
    if word.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT")):
        return word.split()[0] if word != "RELEASE SAVEPOINT" else word
    top = _top_level(text)
    table = re.search(r"\b(?:FROM|INTO|UPDATE)\s+(\w+)", top, re.I)
    where = re.search(r"\bWHERE\s+(?:\w+\.)?(\w+)", top, re.I)
    joined = re.findall(r"\bJOIN\s+(\w+)", top, re.I)
    parts = [word, " ⋈ ".join([table.group(1) if table else "?", *joined])]
    if where:
        parts.append(f"by {where.group(1)}")
    if word == "INSERT" and re.search(r"\bRETURNING\b", top, re.I):
        parts.append("RETURNING")
    return " ".join(parts)


def _top_level(text: str) -> str:
    """``text`` with every parenthesised part removed (sub-queries, column lists)."""
    out, depth = [], 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


@dataclass
class Profile:
    """Statements and round trips per order of one implementation, placed one at a time."""

    key: str
    orders: int = 0
    statements: Counter = field(default_factory=Counter)  # label -> count over all orders
    executemany: int = 0
    checkouts: int = 0
    commits: int = 0
    rollbacks: int = 0
    statement_ms: float = 0.0
    order_ms: list[float] = field(default_factory=list)
    cpu_ms: float = 0.0  # CPU time of the placing thread, all orders
    pre_ping: bool = False
    implicit_begin: bool = False  # the driver sends BEGIN by itself (psycopg)

    def per_order(self, count: float) -> float:
        """A count over all orders, per order."""
        return count / self.orders if self.orders else 0.0

    @property
    def statements_per_order(self) -> float:
        """Statements the driver executed per order (an executemany counts once)."""
        return self.per_order(sum(self.statements.values()))

    @property
    def round_trips_per_order(self) -> float:
        """Statements + the pool's ping + the driver's BEGIN + COMMIT/ROLLBACK, per order."""
        extra = self.checkouts if self.pre_ping else 0
        extra += (self.commits + self.rollbacks) * (2 if self.implicit_begin else 1)
        return self.per_order(sum(self.statements.values()) + extra)

    @property
    def median_ms(self) -> float:
        """Median wall time of one order placed alone."""
        return statistics.median(self.order_ms) if self.order_ms else 0.0

    @property
    def cpu_ms_per_order(self) -> float:
        """CPU time of the client thread per order (Python, the driver's C code)."""
        return self.per_order(self.cpu_ms)

    @property
    def statement_ms_per_order(self) -> float:
        """Time inside the driver's execute, per order."""
        return self.per_order(self.statement_ms)


def profile(engine: Engine, impl: Implementation, carts: Sequence[PreparedCart]) -> Profile:
    """Place one order per cart, one at a time, counting and timing what reaches the driver."""
    found = Profile(
        impl.key,
        pre_ping=bool(getattr(engine.pool, "_pre_ping", False)),
        implicit_begin=engine.dialect.name == "postgresql",
    )
    started: list[float] = []

    def before(_conn, _cursor, _statement, _parameters, _context, executemany) -> None:
        started.append(time.perf_counter())

    def after(_conn, _cursor, statement, _parameters, _context, executemany) -> None:
        found.statement_ms += (time.perf_counter() - started.pop()) * 1000
        found.statements[statement_label(statement)] += 1
        found.executemany += bool(executemany)

    def checkout(*_args) -> None:
        found.checkouts += 1

    def commit(_conn) -> None:
        found.commits += 1

    def rollback(_conn) -> None:
        found.rollbacks += 1

    listeners = [
        (engine, "before_cursor_execute", before),
        (engine, "after_cursor_execute", after),
        (engine.pool, "checkout", checkout),
        (engine, "commit", commit),
        (engine, "rollback", rollback),
    ]
    for target, name, fn in listeners:
        sa.event.listen(target, name, fn)
    try:
        for cart in carts:
            begun, cpu_begun = time.perf_counter(), time.thread_time()
            impl.place(engine, cart)
            found.order_ms.append((time.perf_counter() - begun) * 1000)
            found.cpu_ms += (time.thread_time() - cpu_begun) * 1000
            found.orders += 1
    finally:
        for target, name, fn in listeners:
            sa.event.remove(target, name, fn)
    settle_orders(engine)
    return found


def python_profile(engine: Engine, impl: Implementation, carts: Sequence[PreparedCart], top: int = 30) -> str:
    """cProfile of ``impl`` placing one order per cart, one at a time: the top functions."""
    profiler = cProfile.Profile()
    profiler.enable()
    for cart in carts:
        impl.place(engine, cart)
    profiler.disable()
    settle_orders(engine)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()
