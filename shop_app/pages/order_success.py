"""/order-success: the thank-you page with the real order number and summary."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.components.total_row import total_row
from shop_app.domain.messages import OrderLookupMessage
from shop_app.pages.order_lookup import order_not_found
from shop_app.state.order_success import OrderSuccessState as S
from shop_app.state.order_success import SuccessLine


def _line(line: SuccessLine) -> rx.Component:
    return rx.hstack(
        rx.text(line.name, " × ", line.quantity, size="2"),
        rx.cond(line.options != "", rx.text("(", line.options, ")", size="2", color_scheme="gray")),
        rx.spacer(),
        rx.text(line.total, size="2", weight="medium"),
        width="100%",
    )


def _receipt() -> rx.Component:
    r = S.receipt
    failed = r.payment_problem != ""
    return rx.vstack(
        rx.cond(
            failed,
            rx.icon("circle-x", size=48, color=rx.color("red", 9)),
            rx.icon("circle-check", size=48, color=rx.color("green", 9)),
        ),
        rx.cond(
            failed,
            rx.heading("Your order was not placed", size="8", as_="h1"),
            rx.heading("Thank you for your order!", size="8", as_="h1"),
        ),
        rx.text("Order number ", rx.text.strong(r.order_number), size="4"),
        rx.cond(
            failed,
            rx.callout(r.payment_problem, icon="circle-alert", color_scheme="red", role="alert"),
        ),
        rx.cond(
            r.awaiting_confirmation,
            rx.callout(
                "We are confirming your payment and will email you the result shortly.",
                icon="clock",
                color_scheme="amber",
            ),
        ),
        rx.cond(
            r.not_charged,
            rx.callout("Demo PayPal order: nothing was charged.", icon="info", color_scheme="blue"),
        ),
        rx.cond(
            failed,
            rx.text("Nothing was charged. The items are still in your cart.", color_scheme="gray"),
            rx.text("A confirmation has been sent to ", r.email, ".", color_scheme="gray"),
        ),
        rx.text(
            OrderLookupMessage.HOW_TO_FIND.value,
            " ",
            rx.link("Find your order", href=routes.ORDER_LOOKUP),
            size="2",
            color_scheme="gray",
            text_align="center",
        ),
        rx.card(
            rx.vstack(
                rx.foreach(r.lines, _line),
                rx.separator(),
                total_row("Subtotal", r.subtotal),
                rx.foreach(r.discounts, lambda row: total_row(row.label, row.amount)),
                total_row("Shipping", r.shipping),
                rx.foreach(r.taxes, lambda tax: total_row(tax.label, tax.amount)),
                total_row("Total", r.total, strong=True),
                rx.separator(),
                rx.text("Shipping to", weight="medium", size="2"),
                rx.foreach(r.ship_to, lambda part: rx.text(part, size="2")),
                spacing="2",
                width="100%",
            ),
            width="100%",
            max_width="32rem",
        ),
        rx.hstack(
            link_button("Return Home", routes.HOME, size="3", variant="outline"),
            link_button("Continue Shopping", routes.SHOP, size="3"),
        ),
        align="center",
        spacing="4",
        width="100%",
    )


@public_layout
def order_success() -> rx.Component:
    """Thank-you page."""
    return rx.cond(
        ~S.loaded,
        rx.center(rx.spinner(size="3"), padding_y="4rem", width="100%"),
        rx.cond(
            S.found,
            _receipt(),
            order_not_found(
                "Please check the link in your confirmation email, or find your order with your "
                "email address and order number."
            ),
        ),
    )
