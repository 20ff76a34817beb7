"""/order-status (a signed order link) and /order-lookup (e-mail + order number): a guest's order."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.domain.messages import OrderLookupMessage
from shop_app.domain.order_numbers import ORDER_NUMBER_PREFIX
from shop_app.pages.account.orders import order_card, order_totals
from shop_app.state.order_lookup import LOOKUP_FIELD_IDS, OrderLookupState, OrderStatusState

FIND_YOUR_ORDER = "Find Your Order"
NUMBER_EXAMPLE = f"{ORDER_NUMBER_PREFIX}-20261121-7K3QX9"


def order_not_found(text: str) -> rx.Component:
    """ "Order not found": why, and the ways on (find the order, keep shopping)."""
    return rx.vstack(
        rx.heading("Order not found", size="7", as_="h1"),
        rx.text(text, color_scheme="gray", text_align="center"),
        rx.hstack(
            link_button(FIND_YOUR_ORDER, routes.ORDER_LOOKUP, size="3"),
            link_button("Continue Shopping", routes.SHOP, size="3", variant="outline"),
            wrap="wrap",
            justify="center",
        ),
        align="center",
        spacing="4",
        padding_y="4rem",
        width="100%",
    )


@public_layout
def order_status() -> rx.Component:
    """The order a signed link from a guest's mail opens: status, items, shipping, tracking."""
    S = OrderStatusState
    return rx.cond(
        ~S.loaded,
        rx.center(rx.spinner(size="3"), padding_y="4rem", width="100%"),
        rx.cond(
            S.found,
            rx.vstack(
                rx.heading("Your Order", size="8", as_="h1"),
                order_card(S.order, details=False),
                order_totals(S.order),
                rx.text("Confirmation sent to ", S.order.email, size="2", color_scheme="gray"),
                link_button("Continue Shopping", routes.SHOP, size="3", variant="outline"),
                spacing="4",
                width="100%",
            ),
            order_not_found(OrderLookupMessage.LINK_INVALID.value),
        ),
    )


def _input(label: str, name: str, **props) -> rx.Component:
    input_id = LOOKUP_FIELD_IDS[name]
    return rx.vstack(
        rx.el.label(label, html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        rx.input(id=input_id, name=name, required=True, size="3", width="100%", **props),
        spacing="1",
        width="100%",
    )


def _form() -> rx.Component:
    S = OrderLookupState
    return rx.form(
        rx.vstack(
            _input("Email", "email", type="email", auto_complete="email"),
            _input(
                "Order number",
                "order_number",
                auto_complete="off",
                placeholder=NUMBER_EXAMPLE,
                spell_check=False,
                custom_attrs={"autoCapitalize": "characters"},
            ),
            rx.cond(
                S.error != "",
                rx.callout(S.error, icon="circle-alert", color_scheme="red", role="alert", width="100%"),
            ),
            rx.button(
                rx.cond(S.searching, rx.spinner(size="2"), rx.icon("search", size=18)),
                "Find Order",
                type="submit",
                size="3",
                disabled=S.searching,
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=S.submit,
        reset_on_submit=False,
        no_validate=True,
        aria_label="Find your order",
        width="100%",
        max_width="28rem",
    )


@public_layout
def order_lookup() -> rx.Component:
    """Find an order by the e-mail address it was placed with and its number."""
    S = OrderLookupState
    return rx.vstack(
        rx.heading(FIND_YOUR_ORDER, size="8", as_="h1"),
        rx.text(
            "Enter the email address you used at checkout and your order number. The order number "
            f"looks like {NUMBER_EXAMPLE} and is in your confirmation email.",
            color_scheme="gray",
        ),
        _form(),
        rx.cond(
            S.found,
            rx.vstack(
                order_card(S.order, details=False),
                order_totals(S.order),
                spacing="4",
                width="100%",
            ),
        ),
        rx.text(
            "Have an account? Your orders are in ",
            rx.link("Order History", href=routes.ACCOUNT_ORDERS),
            ".",
            size="2",
            color_scheme="gray",
        ),
        spacing="5",
        width="100%",
    )
