"""The sales overview benchmark's database and its baseline.

Seeding: a fresh database migrated to head, ``products`` products (stock 0..60, a few archived)
and ``orders`` orders spread evenly over the year before :data:`NOW`, with 1..3 items each (the
best sellers drawn more often), statuses mostly paid but some awaiting payment, cancelled or
refunded, totals computed with the shop's own ``compute_totals``. Rows go in with Core
executemany in chunks: the seeding is not what is measured.

:data:`NOW` is two weeks after the autumn clock change, so the 30-day window has a 25-hour day.

The baseline is the approach the overview avoids: load every paid order of the window with its
items, and every product, into Python and group there (local day by ``astimezone``). It must give
the same overview, which also cross-checks the SQL bucketing on random data.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

import shop_app.models  # noqa: F401 - registers every table
from shop_app import migrate
from shop_app.db import create_db_engine, throwaway_database
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.domain.totals import compute_totals
from shop_app.models import Order, OrderItem, Product, Refund
from shop_app.services.admin import sales
from shop_app.services.admin.sales import (
    CHART_DAYS,
    LOW_STOCK_LIMIT,
    PERIOD_DAYS,
    SALE_STATUSES,
    TOP_LIMIT,
    DaySales,
    LowStockProduct,
    PeriodSales,
    SalesOverview,
    TopProduct,
    day_bounds,
)

VANCOUVER = ZoneInfo("America/Vancouver")
NOW = datetime(2026, 11, 15, 12, 0, tzinfo=VANCOUVER)
HISTORY_DAYS = 365
STATUS_WEIGHTS = {
    OrderStatus.PENDING: 8,
    OrderStatus.PROCESSING: 8,
    OrderStatus.SHIPPED: 20,
    OrderStatus.DELIVERED: 54,
    OrderStatus.AWAITING_PAYMENT: 3,
    OrderStatus.CANCELLED: 4,
    OrderStatus.REFUNDED: 3,
}
_CHUNK = 2000


@dataclass(frozen=True, slots=True)
class SalesDatabase:
    """A migrated database holding the synthetic orders."""

    url: str
    engine: Engine
    products: int
    orders: int
    items: int
    orders_in_window: int  # sales (paid, standing) in the 30-day window
    seed_seconds: float
    analyzed: bool

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name


def _products(session: Session, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Insert the products; return (id, price in cents) of each."""
    rows = [
        Product(
            name=f"Synthetic Candle {number:04d}",
            base_price_cents=rng.randrange(800, 6000, 50),
            stock_quantity=rng.randint(0, 60),
            is_active=rng.random() > 0.05,
        )
        for number in range(count)
    ]
    session.add_all(rows)
    session.flush()
    return [(p.id, p.base_price_cents) for p in rows]


def _order_rows(
    count: int, products: list[tuple[int, int]], rng: random.Random
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    statuses, weights = list(STATUS_WEIGHTS), list(STATUS_WEIGHTS.values())
    popularity = [1 / (rank + 1) for rank in range(len(products))]
    start = NOW.astimezone(UTC) - timedelta(days=HISTORY_DAYS)
    for number in range(1, count + 1):
        lines = []
        for product_id, price in rng.choices(products, popularity, k=rng.randint(1, 3)):
            quantity = rng.randint(1, 4)
            lines.append(
                {
                    "order_id": number,
                    "product_id": product_id,
                    "quantity": quantity,
                    "unit_price_cents": price,
                    "total_price_cents": price * quantity,
                    "product_snapshot": {"name": f"Product {product_id}", "selected_options": {}},
                }
            )
        totals = compute_totals(sum(line["total_price_cents"] for line in lines))
        status = rng.choices(statuses, weights)[0]
        created = start + timedelta(seconds=rng.uniform(0, HISTORY_DAYS * 86400))
        paid = status != OrderStatus.AWAITING_PAYMENT
        order = {
            "id": number,
            "order_number": f"ORD-B{number:07d}",
            "email": f"buyer{number % 500}@example.com",
            "phone": "",
            "status": status.value,
            "payment_status": (PaymentStatus.COMPLETED if paid else PaymentStatus.PENDING).value,
            "currency": "CAD",
            "subtotal_cents": totals.subtotal_cents,
            "tax_cents": totals.tax_cents,
            "shipping_cents": totals.shipping_cents,
            "total_cents": totals.total_cents,
            "notes": "",
            "created_at": created,
            "updated_at": created,
            "paid_at": created if paid else None,
        }
        yield order, lines


def _seed(engine: Engine, *, products: int, orders: int, seed: int) -> int:
    """Insert products and orders; return the number of order items."""
    rng = random.Random(seed)
    with Session(engine) as session:
        catalogue = _products(session, products, rng)
        session.commit()
    items = 0
    with engine.begin() as connection:
        batch_orders: list[dict[str, Any]] = []
        batch_items: list[dict[str, Any]] = []
        for order, lines in _order_rows(orders, catalogue, rng):
            batch_orders.append(order)
            batch_items.extend(lines)
            if len(batch_orders) == _CHUNK:
                connection.execute(sa.insert(Order), batch_orders)
                connection.execute(sa.insert(OrderItem), batch_items)
                items += len(batch_items)
                batch_orders, batch_items = [], []
        if batch_orders:
            connection.execute(sa.insert(Order), batch_orders)
            connection.execute(sa.insert(OrderItem), batch_items)
            items += len(batch_items)
    return items


def _gather_statistics(engine: Engine) -> None:
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("VACUUM (ANALYZE)"))
    else:
        with engine.begin() as connection:
            connection.execute(sa.text("ANALYZE"))


@contextmanager
def sales_database(
    *, products: int, orders: int, admin_url: str | None = None, seed: int = 0, analyze: bool | None = None
) -> Iterator[SalesDatabase]:
    """A fresh database with the synthetic orders (dropped afterwards).

    ``analyze`` (None: on PostgreSQL only, as autovacuum would after a bulk load) gathers the
    planner's statistics.
    """
    with (
        tempfile.TemporaryDirectory(prefix="shop-bench-") as tmp,
        throwaway_database(admin_url, sqlite_dir=Path(tmp), prefix="shop_bench_sales") as url,
    ):
        engine = create_db_engine(url)
        try:
            migrate.upgrade(engine=engine)
            started = time.perf_counter()
            items = _seed(engine, products=products, orders=orders, seed=seed)
            seeded = time.perf_counter() - started
            analyze = engine.dialect.name == "postgresql" if analyze is None else analyze
            if analyze:
                _gather_statistics(engine)
            with Session(engine) as session:
                overview = sales.sales_overview(session, now=NOW)
            yield SalesDatabase(
                url=url,
                engine=engine,
                products=products,
                orders=orders,
                items=items,
                orders_in_window=overview.periods[-1].orders,
                seed_seconds=seeded,
                analyzed=analyze,
            )
        finally:
            engine.dispose()


def _top(totals: dict[int, list[Any]], *, by_revenue: bool) -> tuple[TopProduct, ...]:
    def rank(item: tuple[int, list[Any]]) -> tuple[int, int, int]:
        product_id, (units, revenue, _last, _name) = item
        return (-revenue, -units, product_id) if by_revenue else (-units, -revenue, product_id)

    best = sorted(totals.items(), key=rank)[:TOP_LIMIT]
    return tuple(
        TopProduct(product_id=pid, name=name, units=units, revenue_cents=revenue)
        for pid, (units, revenue, _last, name) in best
    )


def baseline_overview(session: Session, *, now: datetime, zone: tzinfo = VANCOUVER) -> SalesOverview:
    """The overview the slow way: every sale of the window and its items, grouped in Python."""
    today = now.astimezone(zone).date()
    first = today - timedelta(days=CHART_DAYS - 1)
    bounds = day_bounds(first, CHART_DAYS, zone)
    window = (
        Order.status.in_([s.value for s in SALE_STATUSES]),
        Order.payment_status != PaymentStatus.NOT_CHARGED.value,  # the simulated PayPal took no money
        Order.created_at >= bounds[0],
        Order.created_at < bounds[-1],
    )
    orders = session.exec(select(Order).where(*window)).all()
    revenue: dict[int, int] = defaultdict(int)
    count: dict[int, int] = defaultdict(int)
    for order in orders:
        index = (order.created_at.astimezone(zone).date() - first).days
        refunded = sum(
            r.amount_cents for r in session.exec(select(Refund).where(Refund.order_id == order.id))
        )
        revenue[index] += order.total_cents - refunded  # a partial refund is money given back
        count[index] += 1
    days = tuple(
        DaySales(first + timedelta(days=i), revenue.get(i, 0), count.get(i, 0)) for i in range(CHART_DAYS)
    )
    periods = tuple(
        PeriodSales(span, sum(d.revenue_cents for d in days[-span:]), sum(d.orders for d in days[-span:]))
        for span in PERIOD_DAYS
    )
    totals: dict[int, list[Any]] = {}
    for item in session.exec(select(OrderItem).join(Order, Order.id == OrderItem.order_id).where(*window)):
        entry = totals.setdefault(item.product_id, [0, 0, 0, ""])
        entry[0] += item.quantity
        entry[1] += item.total_price_cents
        if item.id > entry[2]:
            entry[2], entry[3] = item.id, item.product_snapshot.get("name", "")
    low = sorted(
        (
            p
            for p in session.exec(select(Product)).all()
            if p.is_active and p.stock_quantity <= LOW_STOCK_THRESHOLD
        ),
        key=lambda p: (p.stock_quantity, p.name, p.id),
    )
    return SalesOverview(
        today=today,
        periods=periods,
        days=days,
        top_by_units=_top(totals, by_revenue=False),
        top_by_revenue=_top(totals, by_revenue=True),
        low_stock=tuple(LowStockProduct(p.id, p.name, p.stock_quantity) for p in low[:LOW_STOCK_LIMIT]),
        low_stock_total=len(low),
    )
