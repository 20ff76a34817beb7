"""/admin/orders/{id}: one placed order, its history, its refunds, and the status changes and
refunds its status allows.

An order of the simulated PayPal says so (a Not charged badge, and in the Payment card that no money was
taken); it is never offered a refund (``domain.order_status``). An order refunded in part has a
Partially refunded badge, and its Payment card says what was refunded and what is still charged."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.order_admin_dialogs import (
    order_admin_confirm_dialog,
    order_admin_refund_dialog,
    order_admin_ship_dialog,
)
from shop_app.components.admin.order_admin_parts import (
    order_admin_card,
    order_admin_fact,
    order_admin_not_charged_badge,
    order_admin_status_badge,
)
from shop_app.components.admin.product_parts import empty_state, when_loaded
from shop_app.components.image import thumbnail
from shop_app.components.total_row import total_row
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.orders import OrderStatus
from shop_app.state.admin.order_detail import AdminOrderState as S
from shop_app.state.admin.order_detail import HistoryView, LineView, RefundView

ORDER = S.order
NOT_CHARGED_MARK = "Not charged (simulated PayPal): no money was taken"


def _back() -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("arrow-left", size=16), rx.text("All orders"), spacing="2", align="center"),
        href=routes.ADMIN_ORDERS,
        size="2",
    )


def _actions() -> rx.Component:
    def allowed(status: OrderStatus, button: rx.Component) -> rx.Component:
        return rx.cond(S.allowed.contains(status.value), button)

    return rx.flex(
        allowed(
            OrderStatus.PROCESSING,
            rx.button("Mark as Processing", on_click=S.mark(OrderStatus.PROCESSING.value), disabled=S.busy),
        ),
        allowed(OrderStatus.SHIPPED, rx.button("Mark as Shipped", on_click=S.open_ship, disabled=S.busy)),
        allowed(
            OrderStatus.DELIVERED,
            rx.button("Mark as Delivered", on_click=S.mark(OrderStatus.DELIVERED.value), disabled=S.busy),
        ),
        allowed(
            OrderStatus.CANCELLED,
            rx.button(
                "Cancel Order",
                on_click=S.open_confirm(OrderStatus.CANCELLED.value),
                disabled=S.busy,
                variant="outline",
                color_scheme="red",
            ),
        ),
        allowed(
            OrderStatus.REFUNDED,
            rx.button(
                "Refund",
                on_click=S.open_refund,
                disabled=S.busy,
                variant="outline",
                color_scheme="red",
            ),
        ),
        rx.cond(
            S.allowed.length() == 0, rx.text("No further status changes.", size="2", color_scheme="gray")
        ),
        rx.cond(S.busy, rx.spinner(size="2")),
        spacing="2",
        wrap="wrap",
        align="center",
    )


def _print_links() -> rx.Component:
    # Printable pages served beside the app (api/invoices.py): full page loads, in new tabs.
    return rx.hstack(
        rx.icon("printer", size=16),
        rx.link("Invoice", href=ORDER.invoice_url, is_external=True, size="2"),
        rx.link("Packing slip", href=ORDER.packing_slip_url, is_external=True, size="2"),
        spacing="3",
        align="center",
    )


def _header() -> rx.Component:
    return rx.vstack(
        _back(),
        rx.flex(
            rx.vstack(
                rx.hstack(
                    rx.heading("Order ", ORDER.number, size="7", as_="h1"),
                    order_admin_status_badge(ORDER.status_label, ORDER.status_colour),
                    rx.cond(ORDER.not_charged, order_admin_not_charged_badge()),
                    rx.cond(ORDER.partially_refunded, order_admin_status_badge("Partially refunded", "gray")),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                rx.text("Placed ", ORDER.placed_at, " (shop time)", size="2", color_scheme="gray"),
                _print_links(),
                spacing="1",
            ),
            _actions(),
            justify="between",
            align="center",
            wrap="wrap",
            gap="1rem",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


def _line(line: LineView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.hstack(
                thumbnail(line.image_url, line.name, "40px", sizes="40px", intrinsic=(40, 40)),
                rx.vstack(
                    rx.text(line.name, weight="medium"),
                    rx.cond(line.options != "", rx.text(line.options, size="1", color_scheme="gray")),
                    spacing="0",
                ),
                spacing="3",
                align="center",
            )
        ),
        rx.table.cell(line.quantity),
        rx.table.cell(line.unit_price),
        rx.table.cell(line.total),
        align="center",
    )


def _items() -> rx.Component:
    return order_admin_card(
        "Items",
        rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *(
                            rx.table.column_header_cell(label)
                            for label in ("Item", "Quantity", "Unit price", "Total")
                        )
                    )
                ),
                rx.table.body(rx.foreach(ORDER.lines, _line)),
                variant="ghost",
                width="100%",
            ),
            overflow_x="auto",
            width="100%",
        ),
        rx.vstack(
            total_row("Subtotal", ORDER.subtotal, max_width="20rem"),
            rx.foreach(ORDER.discounts, lambda row: total_row(row.label, row.amount, max_width="20rem")),
            total_row("Shipping", ORDER.shipping, max_width="20rem"),
            rx.foreach(ORDER.taxes, lambda tax: total_row(tax.label, tax.amount, max_width="20rem")),
            rx.separator(max_width="20rem"),
            total_row("Total", ORDER.total, strong=True, max_width="20rem"),
            align="end",
            spacing="1",
            width="100%",
        ),
    )


def _customer() -> rx.Component:
    return order_admin_card(
        "Customer",
        order_admin_fact("E-mail", rx.link(ORDER.email, href="mailto:" + ORDER.email, size="2")),
        order_admin_fact("Account", rx.cond(ORDER.guest, "Guest checkout", "Customer account")),
        rx.cond(ORDER.notes != "", order_admin_fact("Instructions", ORDER.notes)),
        rx.cond(ORDER.gift_wrap, order_admin_fact("Gift wrap", "Yes: wrap this order")),
        rx.cond(
            ORDER.gift_message != "",
            order_admin_fact("Gift message", rx.text(ORDER.gift_message, size="2", white_space="pre-wrap")),
        ),
    )


def _shipping() -> rx.Component:
    return order_admin_card(
        "Shipping address",
        rx.vstack(
            rx.text(ORDER.ship_name, weight="medium", size="2"),
            rx.foreach(ORDER.ship_lines, lambda line: rx.text(line, size="2")),
            rx.cond(ORDER.ship_phone != "", rx.text(ORDER.ship_phone, size="2")),
            spacing="0",
        ),
        rx.cond(
            ORDER.tracking_number != "",
            order_admin_fact(
                "Tracking",
                rx.cond(
                    ORDER.tracking_url != "",
                    rx.link(
                        ORDER.carrier,
                        " ",
                        ORDER.tracking_number,
                        href=ORDER.tracking_url,
                        is_external=True,
                        size="2",
                    ),
                    rx.text(ORDER.carrier, " ", ORDER.tracking_number, size="2"),
                ),
            ),
        ),
    )


def _payment() -> rx.Component:
    return order_admin_card(
        "Payment",
        rx.cond(
            ORDER.not_charged,
            rx.callout(
                NOT_CHARGED_MARK, icon="info", color_scheme="gray", high_contrast=True, size="1", width="100%"
            ),
        ),
        order_admin_fact("Provider", ORDER.payment_provider),
        order_admin_fact("Status", ORDER.payment_status),
        order_admin_fact("Payment ID", rx.cond(ORDER.payment_id != "", ORDER.payment_id, "No card payment")),
        rx.cond(ORDER.payment_card != "", order_admin_fact("Card", ORDER.payment_card)),
        order_admin_fact("Amount", ORDER.payment_amount),
        rx.cond(ORDER.refunded != "", order_admin_fact("Refunded", ORDER.refunded)),
        rx.cond(ORDER.still_charged != "", order_admin_fact("Still charged", ORDER.still_charged)),
        rx.cond(
            ORDER.receipt_url != "",
            order_admin_fact(
                "Receipt", rx.link("Square receipt", href=ORDER.receipt_url, is_external=True, size="2")
            ),
        ),
    )


def _entry(entry: HistoryView) -> rx.Component:
    return rx.el.li(
        rx.vstack(
            rx.hstack(
                rx.text(entry.change, weight="medium", size="2"),
                rx.text(entry.at, size="1", color_scheme="gray"),
                spacing="3",
                align="baseline",
                wrap="wrap",
            ),
            rx.cond(entry.by != "", rx.text("By ", entry.by, size="1", color_scheme="gray")),
            rx.cond(entry.tracking != "", rx.text("Tracking: ", entry.tracking, size="1")),
            rx.cond(entry.refunded != "", rx.text(entry.refunded, size="1")),
            rx.cond(entry.note != "", rx.text(entry.note, size="1", font_style="italic")),
            spacing="0",
        ),
        padding_y="0.5rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _refund_entry(refund: RefundView) -> rx.Component:
    return rx.el.li(
        rx.vstack(
            rx.hstack(
                rx.text(refund.amount, " refunded", weight="medium", size="2"),
                rx.text(refund.at, size="1", color_scheme="gray"),
                spacing="3",
                align="baseline",
                wrap="wrap",
            ),
            rx.text(rx.cond(refund.what != "", refund.what, "An amount, no items"), size="1"),
            rx.cond(refund.stock != "", rx.text(refund.stock, size="1")),
            rx.cond(refund.by != "", rx.text("By ", refund.by, size="1", color_scheme="gray")),
            rx.cond(refund.note != "", rx.text(refund.note, size="1", font_style="italic")),
            spacing="0",
        ),
        padding_y="0.5rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _refunds() -> rx.Component:
    return rx.cond(
        ORDER.refunds.length() > 0,
        order_admin_card(
            "Refunds",
            rx.el.ol(
                rx.foreach(ORDER.refunds, _refund_entry),
                list_style="none",
                padding="0",
                margin="0",
                width="100%",
            ),
        ),
    )


def _history() -> rx.Component:
    return order_admin_card(
        "Status history",
        rx.el.ol(rx.foreach(ORDER.history, _entry), list_style="none", padding="0", margin="0", width="100%"),
        rx.text(
            rx.cond(ORDER.not_charged, "Placed ", "Placed and paid "),
            ORDER.placed_at,
            size="1",
            color_scheme="gray",
        ),
    )


def _order() -> rx.Component:
    return rx.vstack(
        _header(),
        rx.grid(
            rx.vstack(_items(), _refunds(), _history(), spacing="4", width="100%"),
            rx.vstack(_customer(), _shipping(), _payment(), spacing="4", width="100%"),
            columns=rx.breakpoints(initial="1", lg="3fr 2fr"),
            spacing="4",
            width="100%",
        ),
        order_admin_ship_dialog(),
        order_admin_confirm_dialog(),
        order_admin_refund_dialog(),
        spacing="5",
        width="100%",
    )


def admin_order() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.box(
        when_loaded(
            S.loaded,
            S.found,
            _order(),
            rx.vstack(_back(), empty_state(M.NOT_FOUND.value, ""), width="100%"),
        ),
        width="100%",
        max_width="1400px",
    )
