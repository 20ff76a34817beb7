"""The dashboard's sales overview (issue 7): revenue, orders, top products and low stock.

What counts as a sale: a paid order that still stands
(:func:`~shop_app.services.order_history.sale_orders`, built on
:func:`~shop_app.services.order_history.paid_orders`, the set the dashboard's Paid Orders card and
the Orders list count), i.e. ``pending`` (paid, not yet handled), ``processing``, ``shipped`` or
``delivered`` (:data:`SALE_STATUSES`) with the money taken. Left out: ``awaiting_payment`` (no
money yet, and a declined or abandoned checkout), ``cancelled`` and ``refunded`` (the money is,
or is to be, given back), and the simulated PayPal of the local test mode (payment
``not_charged``: nothing was taken, though the order ends ``pending``). Revenue is what the
customers paid and kept paid: the order totals, tax and shipping included, less what partial
refunds gave back (``refunds``), in integer cents. Days are the
order's ``created_at``.

Days are the shop's calendar days (America/Vancouver, :data:`SHOP_TIME_ZONE`), daylight saving
time included: a day has 23 or 25 hours when the clocks change. The UTC instant of each local
midnight is computed here with ``zoneinfo``; the database then buckets ``created_at`` against
those bounds with a ``CASE`` and sums per bucket (``GROUP BY``). That SQL is the same on SQLite
and PostgreSQL, and the ``(status, created_at)`` index narrows it to the window. The statements
are built once, at import, with the bounds as parameters (:data:`DAILY`, :data:`TOP_PRODUCTS`):
a request binds 31 instants and builds nothing (docs/benchmarks.md, "Sales overview"). Days without
sales are filled with zeros here. Today, the last 7 and the last 30 days are sums of those daily
rows (today is the last bucket), so the figures and the chart can never disagree.

Top products are read from the order items of the same sales over the last 30 days: units are
the quantities, revenue the items' totals (the prices paid, before tax and shipping), grouped by
product and ranked both ways in the database (one statement); the name shown is the snapshot
taken at purchase by the most recent item, so a product renamed since shows as it was sold.

Low stock: active products with 5 units or fewer (the admin individual view's rule,
``domain.stock.LOW_STOCK_THRESHOLD``), the lowest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.models import Order, OrderItem, Product
from shop_app.models.base import table_of
from shop_app.services.order_history import SALE_STATUSES, SHOP_TIME_ZONE, kept_cents, sale_orders

__all__ = [
    "CHART_DAYS",
    "LOW_STOCK_LIMIT",
    "PERIOD_DAYS",
    "SALE_STATUSES",
    "TOP_LIMIT",
    "DaySales",
    "LowStockProduct",
    "PeriodSales",
    "SalesOverview",
    "TopProduct",
    "day_bounds",
    "sales_overview",
]

CHART_DAYS: Final = 30
PERIOD_DAYS: Final = (1, 7, 30)  # today, the last 7 days, the last 30 days (today included)
TOP_LIMIT: Final = 5
LOW_STOCK_LIMIT: Final = 10


@dataclass(frozen=True, slots=True)
class DaySales:
    """One local day of sales (zero when nothing was sold)."""

    day: date
    revenue_cents: int
    orders: int


@dataclass(frozen=True, slots=True)
class PeriodSales:
    """The last ``days`` local days, today included."""

    days: int
    revenue_cents: int
    orders: int


@dataclass(frozen=True, slots=True)
class TopProduct:
    """A product's sales over the chart's window."""

    product_id: int
    name: str
    units: int
    revenue_cents: int


@dataclass(frozen=True, slots=True)
class LowStockProduct:
    """An active product with few units left."""

    product_id: int
    name: str
    stock_quantity: int


@dataclass(frozen=True, slots=True)
class SalesOverview:
    """Everything the dashboard's sales section shows."""

    today: date
    periods: tuple[PeriodSales, ...]
    days: tuple[DaySales, ...]  # oldest first, CHART_DAYS of them, the last one is today
    top_by_units: tuple[TopProduct, ...]
    top_by_revenue: tuple[TopProduct, ...]
    low_stock: tuple[LowStockProduct, ...]
    low_stock_total: int  # all low-stock products, of which ``low_stock`` lists the lowest


def day_bounds(first: date, count: int, zone: tzinfo = SHOP_TIME_ZONE) -> list[datetime]:
    """The UTC instants of the local midnights starting ``count`` days from ``first``, and the end.

    ``count + 1`` instants: day ``i`` is ``[bounds[i], bounds[i + 1])``. Midnight exists on every
    day in Vancouver (the clocks change at 2 a.m.), so no local time is skipped or repeated.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> [b.isoformat() for b in day_bounds(date(2026, 3, 8), 2, ZoneInfo("America/Vancouver"))]
        ['2026-03-08T08:00:00+00:00', '2026-03-09T07:00:00+00:00', '2026-03-10T07:00:00+00:00']
    """
    return [
        datetime.combine(first + timedelta(days=offset), time.min, tzinfo=zone).astimezone(UTC)
        for offset in range(count + 1)
    ]


def _bound(index: int) -> sa.BindParameter[datetime]:
    """The UTC instant of the window's ``index``-th local midnight (bound when executed)."""
    return sa.bindparam(f"bound_{index}", type_=table_of(Order).c.created_at.type)


def _bound_values(bounds: list[datetime]) -> dict[str, datetime]:
    return {f"bound_{index}": bound for index, bound in enumerate(bounds)}


_IN_WINDOW: Final = sa.and_(
    sale_orders(),  # defined once, in services.order_history
    col(Order.created_at) >= _bound(0),
    col(Order.created_at) < _bound(CHART_DAYS),
)


def _daily_statement() -> sa.Select[Any, Any, int]:
    # Latest day first: the first bound the order is at or after is its day.
    day_index = sa.case(
        *((Order.created_at >= _bound(index), index) for index in range(CHART_DAYS - 1, 0, -1)), else_=0
    )
    sales = (
        select(day_index.label("day_index"), kept_cents().label("total_cents"))
        .where(_IN_WINDOW)
        .subquery("sales")
    )
    # Grouped in an outer query: PostgreSQL cannot match a GROUP BY expression that carries
    # bound parameters with the same expression in the select list.
    return select(sales.c.day_index, sa.func.sum(sales.c.total_cents), sa.func.count()).group_by(
        sales.c.day_index
    )


def _top_statement() -> sa.Select[Any]:
    """The best sellers of the window by units (ties: revenue) and by revenue (ties: units).

    The items are grouped by product once and ranked both ways with ``row_number()`` (SQLite
    3.25+ and PostgreSQL); only the at most 2 × TOP_LIMIT rows ranked in either top come back.
    """
    grouped = (
        select(
            col(OrderItem.product_id),
            sa.func.sum(col(OrderItem.quantity)).label("units"),
            sa.func.sum(col(OrderItem.total_price_cents)).label("revenue"),
            sa.func.max(col(OrderItem.id)).label("last_item_id"),
        )
        .join(Order, col(Order.id) == col(OrderItem.order_id))
        .where(_IN_WINDOW)
        .group_by(col(OrderItem.product_id))
        .subquery("grouped")
    )
    g = grouped.c

    def rank(*order: sa.ColumnElement[Any]) -> sa.ColumnElement[int]:
        return sa.func.row_number().over(order_by=(*order, g.product_id))

    ranked = sa.select(
        grouped,
        rank(g.units.desc(), g.revenue.desc()).label("by_units"),
        rank(g.revenue.desc(), g.units.desc()).label("by_revenue"),
    ).subquery("ranked")
    r = ranked.c
    last_item = aliased(OrderItem)
    return (
        sa.select(
            r.product_id,
            last_item.product_snapshot["name"].as_string().label("snapshot_name"),
            col(Product.name).label("current_name"),
            r.units,
            r.revenue,
            r.by_units,
            r.by_revenue,
        )
        .join(last_item, col(last_item.id) == r.last_item_id)
        .outerjoin(Product, col(Product.id) == r.product_id)
        .where(sa.or_(r.by_units <= TOP_LIMIT, r.by_revenue <= TOP_LIMIT))
    )


# Built once, at import: each request only binds the day bounds (no statement building).
DAILY: Final = _daily_statement()
TOP_PRODUCTS: Final = _top_statement()


def _daily(session: Session, bounds: list[datetime]) -> dict[int, tuple[int, int]]:
    """Revenue and order count per day index, for the days that had sales."""
    rows = session.execute(DAILY, _bound_values(bounds)).all()
    return {index: (int(revenue), int(orders)) for index, revenue, orders in rows}


def _top_products(
    session: Session, bounds: list[datetime]
) -> tuple[tuple[TopProduct, ...], tuple[TopProduct, ...]]:
    """The top products by units and by revenue (see :func:`_top_statement`)."""
    rows = session.execute(TOP_PRODUCTS, {"bound_0": bounds[0], f"bound_{CHART_DAYS}": bounds[-1]}).all()
    found = {
        row.product_id: TopProduct(
            product_id=row.product_id,
            name=row.snapshot_name or row.current_name or f"Product {row.product_id}",
            units=int(row.units),
            revenue_cents=int(row.revenue),
        )
        for row in rows
    }

    def top(place: str) -> tuple[TopProduct, ...]:
        placed = sorted(
            (row for row in rows if row._mapping[place] <= TOP_LIMIT), key=lambda row: row._mapping[place]
        )
        return tuple(found[row.product_id] for row in placed)

    return top("by_units"), top("by_revenue")


def _low_stock(session: Session) -> tuple[tuple[LowStockProduct, ...], int]:
    low = sa.and_(col(Product.is_active), col(Product.stock_quantity) <= LOW_STOCK_THRESHOLD)
    rows = session.execute(
        select(col(Product.id), col(Product.name), col(Product.stock_quantity))
        .where(low)
        .order_by(col(Product.stock_quantity), col(Product.name), col(Product.id))
        .limit(LOW_STOCK_LIMIT)
    ).all()
    total = session.execute(select(sa.func.count()).select_from(Product).where(low)).scalar_one()
    return tuple(LowStockProduct(product_id=i, name=n, stock_quantity=q) for i, n, q in rows), total


def sales_overview(
    session: Session, *, now: datetime | None = None, zone: tzinfo = SHOP_TIME_ZONE
) -> SalesOverview:
    """Read the overview as of ``now`` (default: the current time) in the shop's time zone."""
    moment = now or datetime.now(UTC)
    today = moment.astimezone(zone).date()
    first = today - timedelta(days=CHART_DAYS - 1)
    bounds = day_bounds(first, CHART_DAYS, zone)
    daily = _daily(session, bounds)
    days = tuple(
        DaySales(first + timedelta(days=index), *daily.get(index, (0, 0))) for index in range(CHART_DAYS)
    )
    periods = tuple(
        PeriodSales(
            days=span,
            revenue_cents=sum(day.revenue_cents for day in days[-span:]),
            orders=sum(day.orders for day in days[-span:]),
        )
        for span in PERIOD_DAYS
    )
    low_stock, low_stock_total = _low_stock(session)
    top_by_units, top_by_revenue = _top_products(session, bounds)
    return SalesOverview(
        today=today,
        periods=periods,
        days=days,
        top_by_units=top_by_units,
        top_by_revenue=top_by_revenue,
        low_stock=low_stock,
        low_stock_total=low_stock_total,
    )
