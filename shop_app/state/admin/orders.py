"""State of the back office's orders list (/admin/orders).

One page of paid orders at a time (the database searches, filters, counts and pages; the state
never holds more than a page). The "Not charged" filter lists the orders of the simulated PayPal
instead, which no other view shows (``services.admin.orders``). Every handler re-checks the admin
role on the server first; a refused call changes and reveals nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.money import format_cents
from shop_app.domain.order_status import LISTED_STATUSES
from shop_app.domain.orders import status_label
from shop_app.services.admin import orders as svc
from shop_app.services.admin.orders import ALL_STATUSES, NOT_CHARGED, SEARCH_MAX, AdminOrderRow
from shop_app.services.invoices import MAX_BATCH
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

RADIX_COLOURS = {"yellow": "amber", "blue": "blue", "purple": "purple", "green": "green", "red": "red"}
"""Radix colour names for the seed's badge colours (any other status is gray)."""

STATUS_CHOICES: tuple[tuple[str, str], ...] = (
    (ALL_STATUSES, "All statuses"),
    *((status.value, status_label(status)) for status in LISTED_STATUSES),
    (NOT_CHARGED, status_label(NOT_CHARGED)),
)
"""The status filter's items: value and label ("Not charged": the simulated PayPal's orders only)."""


def badge_colour(seed_colour: str) -> str:
    """The Radix colour of a status badge."""
    return RADIX_COLOURS.get(seed_colour, "gray")


@dataclass
class OrderRowView:
    """A row of the orders table."""

    id: int = 0
    number: str = ""
    placed_at: str = ""
    customer: str = ""
    email: str = ""
    item_count: int = 0
    total: str = ""
    status_label: str = ""
    status_colour: str = "gray"
    payment_label: str = ""
    not_charged: bool = False  # the simulated PayPal: no money taken (a badge says so)
    url: str = ""


def row_view(row: AdminOrderRow) -> OrderRowView:
    """Format one order for the table."""
    return OrderRowView(
        id=row.id,
        number=row.order_number,
        placed_at=row.placed_at,
        customer=row.customer_name,
        email=row.email,
        item_count=row.item_count,
        total=format_cents(row.total_cents),
        status_label=row.status_label,
        status_colour=badge_colour(row.status_colour),
        payment_label=status_label(row.shown_payment_status),  # "Partially refunded" once some went back
        not_charged=row.not_charged,
        url=routes.admin_order_url(row.id),
    )


@private_state
class AdminOrdersState(AdminGuardMixin, rx.State):
    """Search, status filter, the current page and its rows."""

    loaded: bool = False
    rows: list[OrderRowView] = []
    search: str = ""
    status: str = ALL_STATUSES
    page: int = 1
    pages: int = 1
    total: int = 0
    any_orders: bool = False
    selected: list[int] = []  # orders ticked to print together (kept across pages, at most 100)

    @rx.var
    def empty_text(self) -> str:
        """What the empty list says: no paid order at all, or none matching."""
        return M.ADJUST_SEARCH.value if self.any_orders else M.NO_ORDERS_YET.value

    def _to_print(self) -> list[int]:
        """The ticked orders, else the orders on this page (the search and the filter choose them)."""
        return list(self.selected) or [row.id for row in self.rows]

    @rx.var
    def print_invoices_url(self) -> str:
        """The invoices of the orders to print, one after another (api/invoices.py)."""
        return routes.admin_orders_print_url(self._to_print(), "invoice")

    @rx.var
    def print_slips_url(self) -> str:
        """Their packing slips: tick the orders (or filter, e.g. Processing), then print."""
        return routes.admin_orders_print_url(self._to_print(), "packing-slip")

    @rx.var
    def print_scope(self) -> str:
        """What the print links print: "2 selected orders:" or "This page's orders:"."""
        if not self.selected:
            return "This page's orders:"
        return f"{len(self.selected)} selected order{'' if len(self.selected) == 1 else 's'}:"

    @rx.var
    def export_csv_url(self) -> str:
        """Every order of this search and status filter (all pages) as CSV (api/orders_csv.py)."""
        return routes.admin_orders_csv_url(self.search, self.status)

    @rx.var
    def page_text(self) -> str:
        """ "Page 2 of 5 · 93 orders"."""
        noun = "order" if self.total == 1 else "orders"
        return f"Page {self.page} of {self.pages} · {self.total} {noun}"

    def _reload(self) -> None:
        with session_scope() as session:
            found = svc.list_orders(session, search=self.search, status=self.status, page=self.page)
        self.rows = [row_view(row) for row in found.rows]
        self.page, self.pages, self.total, self.any_orders = (
            found.page,
            found.pages,
            found.total,
            found.any_orders,
        )
        self.loaded = True

    async def _refresh(self):
        try:
            self._reload()
        except Exception:
            log.exception("Loading the admin orders list failed")
            return notify.error(M.LOAD_FAILED.value)
        return None

    @admin_event
    async def load(self):
        """Read the current page (admins only); search, filter and page are kept."""
        return await self._refresh()

    @admin_event
    async def set_search(self, value: str):
        """Search by order number, customer name or e-mail, from the first page."""
        self.search, self.page = str(value)[:SEARCH_MAX], 1
        return await self._refresh()

    @admin_event
    async def set_status(self, value: str):
        """Show one status (or all), from the first page."""
        valid = {choice for choice, _ in STATUS_CHOICES}
        self.status, self.page = (value if value in valid else ALL_STATUSES), 1
        return await self._refresh()

    @admin_event
    async def toggle_selected(self, order_id: int, ticked: bool) -> None:
        """Tick or untick an order of this page for printing (ids of other pages are ignored)."""
        if order_id not in {row.id for row in self.rows}:
            return
        if not ticked:
            self.selected = [chosen for chosen in self.selected if chosen != order_id]
        elif order_id not in self.selected and len(self.selected) < MAX_BATCH:
            self.selected = [*self.selected, order_id]

    @admin_event
    async def clear_selected(self) -> None:
        """Untick every order."""
        self.selected = []

    @admin_event
    async def go_to_page(self, page: int):
        """Show another page (clamped to the pages there are)."""
        try:
            self.page = int(page)
        except (TypeError, ValueError):
            return None
        return await self._refresh()
