"""The dashboard's sales overview: counted by the database, by the shop's calendar day.

The shop's days are Vancouver days: an order at 23:30 there is already the next day in UTC and
must stay on its local day, and the days the clocks change have 23 and 25 hours (2026-03-08 and
2026-11-01). Only paid orders that still stand count (never the simulated PayPal's: not charged).
Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import AdminRole, Order, OrderItem, Payment, Product, Refund, User
from shop_app.pages.admin import ADMIN_SCREENS
from shop_app.services import sessions
from shop_app.services.admin.sales import CHART_DAYS, LOW_STOCK_LIMIT, day_bounds, sales_overview
from shop_app.state.admin.sales import SalesOverviewState
from shop_app.state.auth import AuthState

VANCOUVER = ZoneInfo("America/Vancouver")
_numbers = itertools.count(1)


def local(year: int, month: int, day: int, hour: int, minute: int = 0, *, fold: int = 0) -> datetime:
    """A Vancouver wall-clock time, as an aware datetime."""
    return datetime(year, month, day, hour, minute, tzinfo=VANCOUVER, fold=fold)


def _product(session: Session, name: str, *, stock: int = 20, active: bool = True) -> Product:
    product = Product(name=name, base_price_cents=1000, stock_quantity=stock, is_active=active)
    session.add(product)
    session.flush()
    return product


def _order(
    session: Session,
    at: datetime,
    total_cents: int,
    *,
    status: OrderStatus = OrderStatus.PENDING,
    payment_status: PaymentStatus = PaymentStatus.COMPLETED,
    items: tuple[tuple[Product, int, int], ...] = (),
    snapshot_names: dict[int, str] | None = None,
) -> Order:
    """A placed order at ``at``; ``items`` are (product, quantity, line total in cents)."""
    order = Order(
        order_number=f"ORD-S{next(_numbers):05d}",
        email="buyer@example.com",
        status=status.value,
        payment_status=payment_status.value,
        subtotal_cents=total_cents,
        tax_cents=0,
        shipping_cents=0,
        total_cents=total_cents,
        created_at=at.astimezone(UTC),
    )
    session.add(order)
    session.flush()
    for product, quantity, line_total in items:
        name = (snapshot_names or {}).get(product.id, product.name)
        session.add(
            OrderItem(
                order_id=order.id,
                product_id=product.id,
                quantity=quantity,
                unit_price_cents=line_total // quantity,
                total_price_cents=line_total,
                product_snapshot={"name": name, "selected_options": {}},
            )
        )
    session.flush()
    return order


def _by_day(overview: Any) -> dict[date, tuple[int, int]]:
    return {d.day: (d.revenue_cents, d.orders) for d in overview.days}


def test_a_partial_refund_comes_off_the_days_revenue(session: Session) -> None:
    """A sale that stands after a partial refund counts what the customer kept paid."""
    kept = _order(session, local(2026, 3, 9, 10), 4000)
    _order(session, local(2026, 3, 9, 11), 1000)
    payment = Payment(order_id=kept.id, provider="square", idempotency_key="p-kept", amount_cents=4000)
    session.add(payment)
    session.flush()
    for key, amount in (("r-1", 500), ("r-2", 250)):
        session.add(
            Refund(
                order_id=kept.id,
                payment_id=payment.id,
                kind="amount",
                amount_cents=amount,
                idempotency_key=key,
            )
        )
    session.commit()

    overview = sales_overview(session, now=local(2026, 3, 9, 12))

    assert _by_day(overview)[date(2026, 3, 9)] == (4000 - 750 + 1000, 2)


# --- day bounds --------------------------------------------------------------------------------


def test_the_days_the_clocks_change_have_23_and_25_hours() -> None:
    spring = day_bounds(date(2026, 3, 8), 1, VANCOUVER)
    fall = day_bounds(date(2026, 11, 1), 1, VANCOUVER)

    assert spring == [datetime(2026, 3, 8, 8, tzinfo=UTC), datetime(2026, 3, 9, 7, tzinfo=UTC)]
    assert fall == [datetime(2026, 11, 1, 7, tzinfo=UTC), datetime(2026, 11, 2, 8, tzinfo=UTC)]
    assert (spring[1] - spring[0], fall[1] - fall[0]) == (timedelta(hours=23), timedelta(hours=25))


# --- revenue and orders per day ----------------------------------------------------------------


def test_orders_land_on_their_vancouver_day_across_the_spring_change(session: Session) -> None:
    _order(session, local(2026, 3, 7, 23, 30), 700)  # 07:30 UTC on the 8th: still the 7th here
    _order(session, local(2026, 3, 8, 0, 30), 1000)  # PST, first half hour of the short day
    _order(session, local(2026, 3, 8, 23, 30), 2500)  # PDT, 06:30 UTC on the 9th: still the 8th
    _order(session, local(2026, 3, 9, 0, 15), 4000)  # today, a quarter of an hour in
    session.commit()

    overview = sales_overview(session, now=local(2026, 3, 9, 12))

    days = _by_day(overview)
    assert overview.today == date(2026, 3, 9)
    assert days[date(2026, 3, 7)] == (700, 1)
    assert days[date(2026, 3, 8)] == (3500, 2)
    assert days[date(2026, 3, 9)] == (4000, 1)
    assert days[date(2026, 3, 6)] == (0, 0)  # a day without sales shows 0


def test_orders_land_on_their_vancouver_day_across_the_fall_change(session: Session) -> None:
    _order(session, local(2026, 11, 1, 0, 30), 100)  # PDT
    _order(session, local(2026, 11, 1, 1, 30, fold=0), 200)  # 1:30 PDT (08:30 UTC)
    _order(session, local(2026, 11, 1, 1, 30, fold=1), 400)  # 1:30 again, PST (09:30 UTC)
    _order(session, local(2026, 11, 1, 23, 30), 800)  # PST, 07:30 UTC on the 2nd: still the 1st
    _order(session, local(2026, 11, 2, 0, 10), 1600)
    _order(session, local(2026, 10, 31, 23, 59), 3200)  # PDT, 06:59 UTC on Nov 1: Oct 31
    session.commit()

    overview = sales_overview(session, now=local(2026, 11, 2, 10))

    days = _by_day(overview)
    assert days[date(2026, 10, 31)] == (3200, 1)
    assert days[date(2026, 11, 1)] == (1500, 4)
    assert days[date(2026, 11, 2)] == (1600, 1)


def test_thirty_days_with_zeros_and_the_periods_add_up(session: Session) -> None:
    now = local(2026, 6, 30, 18)
    _order(session, local(2026, 6, 1, 0, 0), 1000)  # the first instant of the window
    _order(session, local(2026, 5, 31, 23, 59), 9999)  # one minute before: not in it
    _order(session, local(2026, 6, 24, 0, 0), 200)  # the first instant of the last 7 days
    _order(session, local(2026, 6, 23, 23, 59), 300)  # the minute before
    _order(session, local(2026, 6, 30, 9), 50)
    _order(session, local(2026, 6, 30, 10), 25)
    session.commit()

    overview = sales_overview(session, now=now)

    assert len(overview.days) == CHART_DAYS
    assert (overview.days[0].day, overview.days[-1].day) == (date(2026, 6, 1), date(2026, 6, 30))
    assert sum(1 for d in overview.days if d.orders == 0) == 26
    today, week, month = overview.periods
    assert (today.days, today.revenue_cents, today.orders) == (1, 75, 2)
    assert (week.days, week.revenue_cents, week.orders) == (7, 275, 3)
    assert (month.days, month.revenue_cents, month.orders) == (30, 1575, 5)


@pytest.mark.parametrize(
    ("status", "payment_status", "counted"),
    [
        (OrderStatus.PENDING, PaymentStatus.COMPLETED, True),
        (OrderStatus.PROCESSING, PaymentStatus.COMPLETED, True),
        (OrderStatus.SHIPPED, PaymentStatus.COMPLETED, True),
        (OrderStatus.DELIVERED, PaymentStatus.COMPLETED, True),
        (OrderStatus.AWAITING_PAYMENT, PaymentStatus.PENDING, False),
        (OrderStatus.CANCELLED, PaymentStatus.REFUNDED, False),
        (OrderStatus.CANCELLED, PaymentStatus.FAILED, False),
        (OrderStatus.REFUNDED, PaymentStatus.REFUNDED, False),
        # The simulated PayPal of local mode: placed, never charged, so never a sale.
        (OrderStatus.PENDING, PaymentStatus.NOT_CHARGED, False),
        (OrderStatus.DELIVERED, PaymentStatus.NOT_CHARGED, False),
        (OrderStatus.CANCELLED, PaymentStatus.NOT_CHARGED, False),
    ],
)
def test_only_paid_orders_that_still_stand_count(
    session: Session, status: OrderStatus, payment_status: PaymentStatus, counted: bool
) -> None:
    candle = _product(session, "Candle")
    _order(
        session,
        local(2026, 6, 30, 9),
        1234,
        status=status,
        payment_status=payment_status,
        items=((candle, 2, 1234),),
    )
    session.commit()

    overview = sales_overview(session, now=local(2026, 6, 30, 18))

    assert overview.periods[0].orders == (1 if counted else 0)
    assert overview.periods[0].revenue_cents == (1234 if counted else 0)
    assert [p.units for p in overview.top_by_units] == ([2] if counted else [])


# --- top products and low stock ----------------------------------------------------------------


def test_top_products_by_units_and_by_revenue_from_the_snapshots(session: Session) -> None:
    soap, spray, candle = (_product(session, n) for n in ("Soap", "Room Spray - Cedar", "Big Candle"))
    now = local(2026, 6, 30, 18)
    _order(session, local(2026, 6, 10, 12), 1, items=((soap, 5, 2500), (candle, 1, 9000)))
    _order(
        session,
        local(2026, 6, 29, 12),
        1,
        items=((soap, 3, 1500), (spray, 4, 6400)),
        snapshot_names={spray.id: "Room Spray - Cedarwood"},  # renamed since: the sale keeps its name
    )
    _order(session, local(2026, 6, 29, 13), 1, items=((candle, 9, 81000),), status=OrderStatus.REFUNDED)
    _order(session, local(2026, 5, 1, 12), 1, items=((spray, 50, 80000),))  # before the window
    spray.name = "Room Spray - Cedar (old stock)"
    session.commit()

    overview = sales_overview(session, now=now)

    assert [(p.name, p.units, p.revenue_cents) for p in overview.top_by_units] == [
        ("Soap", 8, 4000),
        ("Room Spray - Cedarwood", 4, 6400),
        ("Big Candle", 1, 9000),
    ]
    assert [p.name for p in overview.top_by_revenue] == ["Big Candle", "Room Spray - Cedarwood", "Soap"]
    assert overview.top_by_units[0].product_id == soap.id


def test_low_stock_lists_active_products_at_5_or_fewer_lowest_first(session: Session) -> None:
    for name, stock in (("Five", 5), ("Zero", 0), ("Six", 6), ("Two", 2)):
        _product(session, name, stock=stock)
    _product(session, "Archived", stock=1, active=False)
    session.commit()

    overview = sales_overview(session, now=local(2026, 6, 30, 18))

    assert [(p.name, p.stock_quantity) for p in overview.low_stock] == [("Zero", 0), ("Two", 2), ("Five", 5)]
    assert overview.low_stock_total == 3


def test_low_stock_lists_the_lowest_and_counts_them_all(session: Session) -> None:
    for number in range(LOW_STOCK_LIMIT + 3):
        _product(session, f"Product {number:02d}", stock=number % 5)
    session.commit()

    overview = sales_overview(session, now=local(2026, 6, 30, 18))

    assert len(overview.low_stock) == LOW_STOCK_LIMIT and overview.low_stock_total == LOW_STOCK_LIMIT + 3
    assert [p.stock_quantity for p in overview.low_stock] == sorted(
        p.stock_quantity for p in overview.low_stock
    )


# --- the database does the counting ------------------------------------------------------------


@pytest.fixture
def statements(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements run on the engine meanwhile."""
    seen: list[str] = []

    def record(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    yield seen
    sa.event.remove(engine, "before_cursor_execute", record)


def test_the_same_few_grouped_statements_whatever_the_number_of_orders(
    session: Session, statements: list[str]
) -> None:
    candle = _product(session, "Candle")
    for minute in range(120):
        _order(session, local(2026, 6, 30, 9) - timedelta(hours=5 * minute), 100, items=((candle, 1, 100),))
    session.commit()
    statements.clear()

    overview = sales_overview(session, now=local(2026, 6, 30, 18))

    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 4  # days, top products (both ways), low stock, low-stock count
    assert sum("GROUP BY" in s.upper() for s in selects) == 2
    assert overview.periods[2].orders == 120


# --- the state ---------------------------------------------------------------------------------


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """A customer and an admin signed in, a sale today and a low-stock product."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan")
    owner = User(email="owner@example.com", password_hash="x", first_name="Olive")
    session.add_all([customer, owner])
    session.flush()
    session.add(AdminRole(user_id=owner.id))
    candle = _product(session, "Amber Candle", stock=3)
    _order(session, datetime.now(UTC), 123456, items=((candle, 2, 110000),))
    session.commit()
    ids = {}
    for name, user in (("customer", customer), ("owner", owner)):
        started = sessions.start(session, user=user, remember_me=False)
        ids[name] = started.state_key
    session.commit()
    ids["candle"] = candle.id
    return ids


async def _state(session_key: str | None) -> SalesOverviewState:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key or ""
    return await root.get_state(SalesOverviewState)


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_get_no_sales_figures(who: str | None, people: dict[str, Any]) -> None:
    state = await _state(people[who] if who else None)

    assert await state.load() is None

    assert not state.loaded
    assert state.periods == [] and state.chart == [] and state.days == []
    assert state.top_by_units == [] and state.top_by_revenue == [] and state.low_stock == []


async def test_the_admin_sees_formatted_figures_chart_and_lists(people: dict[str, Any]) -> None:
    state = await _state(people["owner"])

    await state.load()

    assert state.loaded
    assert [(p.label, p.revenue, p.orders_text) for p in state.periods] == [
        ("Today", "$1,234.56", "1 order"),
        ("Last 7 days", "$1,234.56", "1 order"),
        ("Last 30 days", "$1,234.56", "1 order"),
    ]
    assert len(state.chart) == CHART_DAYS
    assert state.chart[-1]["revenue_cents"] == 123456 and state.chart[-1]["revenue"] == "$1,234.56"
    assert state.days[0].revenue == "$1,234.56"  # the table lists today first
    edit_url = f"/admin/products/edit/{people['candle']}"
    assert [(t.name, t.units, t.revenue, t.edit_url) for t in state.top_by_units] == [
        ("Amber Candle", 2, "$1,100.00", edit_url)
    ]
    assert [(row.name, row.stock, row.edit_url) for row in state.low_stock] == [("Amber Candle", 3, edit_url)]
    assert state.low_stock_more == 0


def test_both_dashboard_paths_load_the_sales_overview_after_the_guard() -> None:
    dashboards = [s for s in ADMIN_SCREENS if "/admin" in s.paths or "/admin/products" in s.paths]

    assert len(dashboards) == 2
    for screen in dashboards:
        assert screen.on_load[-1] == SalesOverviewState.load
