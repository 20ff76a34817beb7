"""/admin/orders: the paid orders, newest first, with search, a status filter and pages (the "Not
charged" filter lists the simulated PayPal's orders, each with a Not charged badge)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.order_admin_parts import (
    order_admin_not_charged_badge,
    order_admin_status_badge,
)
from shop_app.components.admin.page_header import page_title
from shop_app.components.admin.product_parts import empty_state, search_input, select, when_loaded
from shop_app.components.admin.table import data_table
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.state.admin.orders import STATUS_CHOICES, OrderRowView
from shop_app.state.admin.orders import AdminOrdersState as S

COLUMNS = ("Print", "Order", "Date", "Customer", "Items", "Total", "Status", "Payment")


def _header() -> rx.Component:
    return page_title(
        "Orders",
        "Paid orders, newest first. Open an order to see its details and change its status. "
        "Demo PayPal orders took no money: choose Not charged in the status filter to see them.",
    )


def _filters() -> rx.Component:
    return rx.flex(
        search_input(
            S.search,
            S.set_search,
            placeholder="Search by order number, customer name or email",
            label="Search orders",
            debounce_timeout=300,
            type="search",
            flex="1",
            min_width="16rem",
        ),
        select(
            "Filter by status",
            S.status,
            S.set_status,
            rx.fragment(*(rx.select.item(label, value=value) for value, label in STATUS_CHOICES)),
            width="12rem",
        ),
        spacing="3",
        wrap="wrap",
        align="center",
        width="100%",
    )


def _row(row: OrderRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.checkbox(
                checked=S.selected.contains(row.id),
                on_change=lambda ticked: S.toggle_selected(row.id, ticked),
                custom_attrs={"aria-label": "Select order " + row.number + " to print"},
            )
        ),
        rx.table.row_header_cell(rx.link(row.number, href=row.url, weight="medium")),
        rx.table.cell(row.placed_at, white_space="nowrap"),
        rx.table.cell(
            rx.vstack(
                rx.text(row.customer, weight="medium"),
                rx.text(row.email, size="1", color_scheme="gray"),
                spacing="0",
            )
        ),
        rx.table.cell(row.item_count),
        rx.table.cell(row.total),
        rx.table.cell(order_admin_status_badge(row.status_label, row.status_colour)),
        rx.table.cell(
            rx.cond(
                row.not_charged,
                order_admin_not_charged_badge(),
                rx.text(row.payment_label),
            )
        ),
        align="center",
    )


def _table() -> rx.Component:
    return data_table(COLUMNS, S.rows, _row)


def _print_links() -> rx.Component:
    """The ticked orders (else those on this page: the search and the filter choose them), printed
    together, and every page of them as a CSV file for the accountant."""
    return rx.hstack(
        rx.text(S.print_scope, size="2", color_scheme="gray"),
        rx.link("Print invoices", href=S.print_invoices_url, is_external=True, size="2"),
        rx.link("Print packing slips", href=S.print_slips_url, is_external=True, size="2"),
        rx.cond(
            S.selected.length() > 0,
            rx.button("Clear selection", on_click=S.clear_selected, variant="ghost", size="1"),
        ),
        rx.text("Every page:", size="2", color_scheme="gray"),
        # A download: the browser loads it (with the session cookie) and stays on this page.
        rx.link("Export CSV", href=S.export_csv_url, size="2", custom_attrs={"reloadDocument": True}),
        spacing="3",
        align="center",
        wrap="wrap",
    )


def _pager() -> rx.Component:
    return rx.el.nav(
        rx.hstack(
            rx.button(
                rx.icon("chevron-left", size=16),
                "Previous",
                on_click=S.go_to_page(S.page - 1),
                disabled=S.page <= 1,
                variant="soft",
            ),
            rx.text(S.page_text, size="2", color_scheme="gray"),
            rx.button(
                "Next",
                rx.icon("chevron-right", size=16),
                on_click=S.go_to_page(S.page + 1),
                disabled=S.page >= S.pages,
                variant="soft",
            ),
            spacing="3",
            align="center",
            justify="center",
            width="100%",
        ),
        aria_label="Pages",
        width="100%",
    )


def admin_orders() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        _header(),
        _filters(),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            rx.vstack(_print_links(), _table(), _pager(), spacing="4", width="100%"),
            empty_state(M.NO_ORDERS.value, S.empty_text),
        ),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
