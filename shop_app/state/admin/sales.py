"""The dashboard's sales overview: figures, the revenue chart, top products and low stock.

A state of its own, loaded after the dashboard's figures on /admin and /admin/products. The
database does the counting (``services.admin.sales``); this state only formats the result for
the browser: amounts with ``format_cents``, the chart's points as plain integers of cents (the
chart's axis formats them in the browser with a function compiled into the bundle, no ``eval``).
Nothing is read for anyone but an admin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.money import format_cents
from shop_app.services.admin.sales import SalesOverview, TopProduct, sales_overview
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

LOAD_FAILED: Final = "The sales overview could not be loaded. Please try again."
PERIOD_LABELS: Final[dict[int, str]] = {1: "Today", 7: "Last 7 days", 30: "Last 30 days"}


@dataclass
class PeriodFigure:
    """Revenue and orders of one period (a figure card)."""

    label: str = ""
    revenue: str = ""
    orders: int = 0
    orders_text: str = ""


@dataclass
class DayRow:
    """One day of the chart, as its table of figures lists it."""

    date: str = ""  # "Sun, Mar 8"
    revenue: str = ""
    orders: int = 0


@dataclass
class TopProductRow:
    """A best seller over the last 30 days."""

    name: str = ""
    units: int = 0
    revenue: str = ""
    edit_url: str = ""


@dataclass
class LowStockRow:
    """An active product with 5 units or fewer."""

    name: str = ""
    stock: int = 0
    edit_url: str = ""


def orders_text(count: int) -> str:
    """ "1 order", "3 orders"."""
    return f"{count} order" if count == 1 else f"{count} orders"


def _top_rows(products: tuple[TopProduct, ...]) -> list[TopProductRow]:
    return [
        TopProductRow(
            name=p.name,
            units=p.units,
            revenue=format_cents(p.revenue_cents),
            edit_url=routes.admin_product_edit_url(p.product_id),
        )
        for p in products
    ]


@private_state
class SalesOverviewState(AdminGuardMixin, rx.State):
    """The sales section of the dashboard (loaded only for admins)."""

    loaded: bool = False
    periods: list[PeriodFigure] = []
    chart: list[dict[str, Any]] = []  # {"day": "Mar 8", "revenue_cents": 1250, "revenue": "$12.50"}
    days: list[DayRow] = []
    top_by_units: list[TopProductRow] = []
    top_by_revenue: list[TopProductRow] = []
    low_stock: list[LowStockRow] = []
    low_stock_more: int = 0  # low-stock products beyond those listed

    def _show(self, overview: SalesOverview) -> None:
        self.periods = [
            PeriodFigure(
                label=PERIOD_LABELS.get(p.days, f"Last {p.days} days"),
                revenue=format_cents(p.revenue_cents),
                orders=p.orders,
                orders_text=orders_text(p.orders),
            )
            for p in overview.periods
        ]
        self.chart = [
            {
                "day": f"{d.day:%b} {d.day.day}",
                "revenue_cents": d.revenue_cents,
                "revenue": format_cents(d.revenue_cents),
            }
            for d in overview.days
        ]
        self.days = [
            DayRow(date=f"{d.day:%a, %b} {d.day.day}", revenue=format_cents(d.revenue_cents), orders=d.orders)
            for d in reversed(overview.days)  # today first
        ]
        self.top_by_units = _top_rows(overview.top_by_units)
        self.top_by_revenue = _top_rows(overview.top_by_revenue)
        self.low_stock = [
            LowStockRow(
                name=p.name, stock=p.stock_quantity, edit_url=routes.admin_product_edit_url(p.product_id)
            )
            for p in overview.low_stock
        ]
        self.low_stock_more = overview.low_stock_total - len(overview.low_stock)
        self.loaded = True

    @admin_event(failure=LOAD_FAILED)
    async def load(self) -> None:
        """Read the overview (admins only)."""
        with session_scope() as session:
            overview = sales_overview(session)
        self._show(overview)
