"""/account/orders and /account/orders/{id}: order cards and the full order page."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.pages.account.signed_out import account_view, please_sign_in
from shop_app.state.orders import OrderCard, OrderLineRow, OrdersState

NOT_CHARGED_NOTE = "Demo PayPal order: nothing was charged."
"""Under an order placed with the simulated PayPal of local mode (the order success page says the same)."""


def _line(line: OrderLineRow) -> rx.Component:
    return rx.hstack(
        rx.link(line.name, href=line.url, color_scheme="gray", high_contrast=True),
        rx.cond(line.options != "", rx.text("(", line.options, ")", size="2", color_scheme="gray")),
        rx.spacer(),
        rx.text(line.unit_price, " × ", line.quantity, size="2", color_scheme="gray"),
        rx.text(line.total, weight="medium", min_width="5rem", text_align="right"),
        width="100%",
        align="baseline",
        wrap="wrap",
    )


def _shipping(order: OrderCard) -> rx.Component:
    # The order lookup (e-mail + number) shows no address: its card has no shipping lines.
    return rx.cond(
        order.ship_lines.length() > 0,
        rx.vstack(
            rx.text("Shipping to", weight="medium", size="2"),
            rx.text(order.ship_name, size="2"),
            rx.foreach(order.ship_lines, lambda line: rx.text(line, size="2")),
            rx.cond(order.ship_phone != "", rx.text(order.ship_phone, size="2")),
            spacing="0",
        ),
    )


def _invoice(order: OrderCard) -> rx.Component:
    # A printable page served beside the app (api/invoices.py): a full page load, in a new tab.
    return rx.cond(
        order.invoice_url != "",
        rx.button(
            rx.link("Invoice", href=order.invoice_url, is_external=True, underline="none"),
            as_child=True,
            variant="soft",
            size="2",
        ),
    )


def _actions(order: OrderCard, *, details: bool) -> rx.Component:
    return rx.hstack(
        link_button("View Details", order.url, variant="outline", size="2") if details else rx.fragment(),
        rx.cond(order.can_reorder, rx.button("Reorder", size="2", on_click=OrdersState.reorder(order.id))),
        rx.cond(
            order.tracking_url != "",
            rx.button(
                rx.link("Track Package", href=order.tracking_url, is_external=True, underline="none"),
                as_child=True,
                variant="soft",
                size="2",
            ),
        ),
        rx.fragment() if details else _invoice(order),  # on the order's own page
        spacing="2",
        wrap="wrap",
    )


def order_card(order: OrderCard, *, details: bool = True) -> rx.Component:
    """One order: number, date, status, total, items, shipping, tracking and actions."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.vstack(
                    rx.heading("Order ", order.order_number, size="4", as_="h2"),
                    rx.text("Placed on ", order.placed_on, size="2", color_scheme="gray"),
                    spacing="1",
                ),
                rx.spacer(),
                rx.badge(order.status_label, color_scheme=order.status_colour, size="2"),
                rx.cond(order.not_charged, rx.badge("Not charged", color_scheme="gray", size="2")),
                rx.text(order.total, weight="bold", size="4"),
                width="100%",
                align="center",
                wrap="wrap",
            ),
            rx.cond(
                order.not_charged,
                rx.text(NOT_CHARGED_NOTE, size="2", color_scheme="gray"),
            ),
            rx.separator(),
            rx.vstack(rx.foreach(order.lines, _line), width="100%", spacing="2"),
            rx.separator(),
            rx.hstack(
                _shipping(order),
                rx.spacer(),
                rx.cond(
                    order.tracking_number != "", rx.text("Tracking number: ", order.tracking_number, size="2")
                ),
                width="100%",
                wrap="wrap",
            ),
            _actions(order, details=details),
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


@public_layout
def order_history() -> rx.Component:
    """The customer's orders."""
    return account_view(
        rx.vstack(
            rx.heading("Order History", size="8", as_="h1"),
            rx.cond(
                OrdersState.orders.length() > 0,
                rx.vstack(rx.foreach(OrdersState.orders, order_card), spacing="4", width="100%"),
                rx.vstack(
                    rx.heading("No Orders Yet", size="5", as_="h2"),
                    rx.text("When you place an order, it will appear here.", color_scheme="gray"),
                    link_button("Start Shopping", routes.SHOP, size="3"),
                    align="center",
                    spacing="3",
                    padding_y="3rem",
                    width="100%",
                ),
            ),
            spacing="5",
            width="100%",
        ),
        ready=~OrdersState.loading,
        signed_out=please_sign_in("Sign in to see your orders.", home_link=True),
        loading_text="Loading your orders...",  # docs/spec/account.md#order-history
    )


def order_totals(order: OrderCard) -> rx.Component:
    """Subtotal, shipping, tax and total of an order."""

    def row(label: str | rx.Var[str], value: rx.Var[str], *, strong: bool = False) -> rx.Component:
        return rx.hstack(
            rx.text(label), rx.spacer(), rx.text(value, weight="bold" if strong else "regular"), width="100%"
        )

    return rx.card(
        rx.vstack(
            row("Subtotal", order.subtotal),
            rx.foreach(order.discounts, lambda discount: row(discount.label, discount.amount)),
            row("Shipping", order.shipping),
            rx.foreach(order.taxes, lambda tax: row(tax.label, tax.amount)),
            rx.separator(),
            row("Total", order.total, strong=True),
            rx.cond(order.refunded != "", row("Refunded", order.refunded)),
            width="100%",
            spacing="2",
        ),
        width="100%",
        max_width="24rem",
    )


@public_layout
def order_detail() -> rx.Component:
    """One order of the customer, in full."""
    return account_view(
        rx.cond(
            OrdersState.order_found,
            rx.vstack(
                rx.link("← Order History", href=routes.ACCOUNT_ORDERS),
                rx.heading("Order Details", size="8", as_="h1"),
                order_card(OrdersState.order, details=False),
                order_totals(OrdersState.order),
                rx.text("Confirmation sent to ", OrdersState.order.email, size="2", color_scheme="gray"),
                rx.cond(
                    OrdersState.order.notes != "",
                    rx.text("Special instructions: ", OrdersState.order.notes, size="2"),
                ),
                spacing="4",
                width="100%",
            ),
            rx.vstack(
                rx.heading("Order Not Found", size="7", as_="h1"),
                link_button("Back to Order History", routes.ACCOUNT_ORDERS, size="3"),
                align="center",
                spacing="4",
                padding_y="4rem",
                width="100%",
            ),
        ),
        # Not the order of the page before (the state keeps it): this page's own, once loaded.
        ready=~OrdersState.loading & (OrdersState.order_page == OrdersState.router.url.path),
        signed_out=please_sign_in("Sign in to see your orders.", home_link=True),
    )
