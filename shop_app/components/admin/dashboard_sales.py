"""The dashboard's sales overview: period figures, revenue per day, top products, low stock.

Names sit in plain cells, not row headers: the dashboard's product list below is the page's one
table of row headers (its journeys count them).

The chart is Reflex's recharts (an SVG drawn by React, no ``eval``, so it renders under the
shop's Content-Security-Policy). Its y axis and tooltip format the cents in the browser with
small functions compiled into the bundle; the same figures are listed in a table under the
chart for keyboards and screen readers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex_base.vars.function import FunctionStringVar

from shop_app.state.admin.sales import DayRow, LowStockRow, PeriodFigure, TopProductRow
from shop_app.state.admin.sales import SalesOverviewState as S

HEADING_ID = "sales-overview-heading"
CHART_CAPTION_ID = "sales-chart-caption"
CHART_HEIGHT = 260
SCOPE = (
    "Paid orders (pending, processing, shipped, delivered), by the shop's calendar day in Vancouver; "
    "awaiting payment, cancelled and refunded orders are left out. Revenue includes tax and shipping."
)
NO_SALES = "No sales in the last 30 days."
NO_LOW_STOCK = "No active product has 5 units or fewer."
# Compiled into the page's JavaScript (not evaluated at run time): cents -> "$1,234".
AXIS_DOLLARS = "(cents) => '$' + Math.round(cents / 100).toLocaleString('en-US')"
TOOLTIP_AMOUNT = "(cents, name, item) => [item.payload.revenue, 'Revenue']"


def _period(figure: PeriodFigure) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(figure.label, size="2", color_scheme="gray"),
            rx.text(figure.revenue, size="6", weight="bold"),
            rx.text(figure.orders_text, size="2"),
            spacing="1",
        ),
        role="group",
        aria_label=figure.label,
        width="100%",
    )


def _table(headers: tuple[str, ...], rows: rx.Var, row: Callable[[Any], rx.Component]) -> rx.Component:
    return rx.table.root(
        rx.table.header(rx.table.row(*(rx.table.column_header_cell(h) for h in headers))),
        rx.table.body(rx.foreach(rows, row)),
        size="1",
        width="100%",
    )


def _day_row(day: DayRow) -> rx.Component:
    return rx.table.row(rx.table.cell(day.date), rx.table.cell(day.revenue), rx.table.cell(day.orders))


def _chart() -> rx.Component:
    chart = rx.recharts.bar_chart(
        rx.recharts.cartesian_grid(stroke_dasharray="3 3", vertical=False),
        rx.recharts.x_axis(data_key="day", interval="preserveStartEnd", min_tick_gap=16),
        rx.recharts.y_axis(tick_formatter=AXIS_DOLLARS, allow_decimals=False, width=72),
        rx.recharts.graphing_tooltip(
            custom_attrs={"formatter": FunctionStringVar.create(TOOLTIP_AMOUNT)},
            is_animation_active=False,
        ),
        rx.recharts.bar(data_key="revenue_cents", name="Revenue", fill=rx.color("accent", 9)),
        data=S.chart,
        height=CHART_HEIGHT,
    )
    return rx.el.figure(
        rx.el.figcaption(
            rx.heading("Revenue per day, last 30 days", size="3", as_="h3"),
            id=CHART_CAPTION_ID,
            margin_bottom="0.75rem",
        ),
        rx.box(chart, height=f"{CHART_HEIGHT}px", width="100%"),
        rx.el.details(
            rx.el.summary("Daily figures", cursor="pointer", font_size="var(--font-size-2)"),
            _table(("Day", "Revenue", "Orders"), S.days, _day_row),
            margin_top="0.75rem",
        ),
        aria_labelledby=CHART_CAPTION_ID,
        margin="0",
        width="100%",
    )


def _top_row(row: TopProductRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row.name, href=row.edit_url)),
        rx.table.cell(row.units),
        rx.table.cell(row.revenue),
    )


def _top_table(rows: rx.Var[list[TopProductRow]]) -> rx.Component:
    return rx.cond(
        rows.length() > 0,
        _table(("Product", "Units", "Revenue"), rows, _top_row),
        rx.text(NO_SALES, size="2", color_scheme="gray"),
    )


def _card(heading: str, heading_id: str, *children: rx.Component) -> rx.Component:
    """A card that is a named region: its heading labels it."""
    return rx.card(
        rx.el.section(
            rx.vstack(
                rx.heading(heading, size="3", as_="h3", id=heading_id),
                *children,
                spacing="3",
                width="100%",
            ),
            aria_labelledby=heading_id,
        ),
        width="100%",
    )


def _top_products() -> rx.Component:
    return _card(
        "Top products, last 30 days",
        "sales-top-products",
        rx.tabs.root(
            rx.tabs.list(
                rx.tabs.trigger("By units", value="units"),
                rx.tabs.trigger("By revenue", value="revenue"),
            ),
            rx.tabs.content(_top_table(S.top_by_units), value="units", padding_top="0.5rem"),
            rx.tabs.content(_top_table(S.top_by_revenue), value="revenue", padding_top="0.5rem"),
            default_value="units",
            width="100%",
        ),
    )


def _low_row(row: LowStockRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row.name, href=row.edit_url)),
        rx.table.cell(rx.badge(row.stock, color_scheme=rx.cond(row.stock == 0, "red", "orange"))),
    )


def _low_stock() -> rx.Component:
    return _card(
        "Low stock",
        "sales-low-stock",
        rx.cond(
            S.low_stock.length() > 0,
            _table(("Product", "Units left"), S.low_stock, _low_row),
            rx.text(NO_LOW_STOCK, size="2", color_scheme="gray"),
        ),
        rx.cond(
            S.low_stock_more > 0,
            rx.text(f"and {S.low_stock_more} more", size="1", color_scheme="gray"),
        ),
    )


def sales_overview() -> rx.Component:
    """The section (shown once the overview is loaded: admins only)."""
    return rx.cond(
        S.loaded,
        rx.el.section(
            rx.vstack(
                rx.heading("Sales", size="5", as_="h2", id=HEADING_ID),
                rx.text(SCOPE, size="1", color_scheme="gray"),
                rx.grid(
                    rx.foreach(S.periods, _period),
                    columns=rx.breakpoints(initial="1", sm="3"),
                    spacing="4",
                    width="100%",
                ),
                rx.card(_chart(), width="100%"),
                rx.grid(
                    _top_products(),
                    _low_stock(),
                    columns=rx.breakpoints(initial="1", md="2"),
                    spacing="4",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            aria_labelledby=HEADING_ID,
            width="100%",
        ),
    )
