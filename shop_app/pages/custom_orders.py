"""/custom-orders: choose custom, bulk or wholesale, fill the form, see the confirmation
(docs/spec/content.md#custom-orders)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.inquiry_fields import inquiry_error, inquiry_input, inquiry_select, inquiry_textarea
from shop_app.components.inquiry_products import inquiry_products
from shop_app.components.layout import public_layout
from shop_app.components.notice import notice
from shop_app.domain.inquiries import SCENT_NAMES, VESSEL_COLORS, VESSEL_SIZES, InquiryMessage, OrderType
from shop_app.state.custom_orders import CustomOrdersState as S

TYPES = (
    (
        OrderType.CUSTOM,
        "sparkles",
        "Candles made just for you: your vessel, color and scent, for weddings, showers and gifts.",
    ),
    (
        OrderType.BULK,
        "package",
        "Many of our products at once, for events, corporate gifts and celebrations.",
    ),
    (
        OrderType.WHOLESALE,
        "store",
        "Stock our handcrafted candles and body care in your shop, at wholesale prices.",
    ),
)


def _type_card(order_type: OrderType, icon: str, description: str) -> rx.Component:
    return rx.card(
        rx.el.button(
            rx.vstack(
                rx.icon(icon, size=28, color=rx.color("accent", 11)),
                rx.heading(order_type.label, size="5", as_="h2"),
                rx.text(description, size="2", color_scheme="gray", text_align="left"),
                spacing="2",
                align="start",
            ),
            type="button",
            on_click=S.choose_type(order_type.value),
            style={"cursor": "pointer", "text_align": "left", "width": "100%", "height": "100%"},
        ),
        as_child=True,
        size="3",
    )


def _type_selection() -> rx.Component:
    return rx.vstack(
        rx.text("What would you like to order?", size="4", weight="medium"),
        rx.grid(
            *[_type_card(*spec) for spec in TYPES],
            columns=rx.breakpoints(initial="1", md="3"),
            spacing="4",
            width="100%",
        ),
        notice(
            "Just one candle, made for you? Design it yourself in our ",
            rx.link("Custom Candle Creator", href=routes.CUSTOM_CREATOR, weight="medium"),
            " and add it straight to your cart.",
            icon="flame",
            color_scheme="gray",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def _back_button() -> rx.Component:
    return rx.button(
        rx.icon("arrow-left", size=16),
        "Back to Order Types",
        type="button",
        variant="ghost",
        on_click=S.back_to_types,
    )


def _contact() -> rx.Component:
    return rx.vstack(
        rx.heading("Your details", size="4", as_="h3"),
        rx.grid(
            inquiry_input("Name", "name", required=True, auto_complete="name"),
            inquiry_input("Email", "email", type_="email", required=True, auto_complete="email"),
            inquiry_input("Phone (optional)", "phone", type_="tel", auto_complete="tel"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


def _custom_fields() -> rx.Component:
    return rx.vstack(
        rx.heading("Your candles", size="4", as_="h3"),
        rx.grid(
            inquiry_select("Vessel size", "vessel_size", VESSEL_SIZES, placeholder="Choose a size"),
            inquiry_select("Vessel color", "vessel_color", VESSEL_COLORS, placeholder="Choose a color"),
            inquiry_select("Scent", "scent", SCENT_NAMES, placeholder="Choose a scent"),
            inquiry_input("Quantity", "quantity", type_="number", required=True, min=1),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        inquiry_textarea(
            "Special requests (optional)",
            "special_requests",
            hint="Labels, ribbons, colors for an event, the date you need them by...",
        ),
        spacing="3",
        width="100%",
    )


def _products_fields() -> rx.Component:
    return rx.vstack(
        inquiry_products(),
        rx.cond(
            S.order_type == OrderType.WHOLESALE.value,
            inquiry_textarea(
                "Message",
                "message",
                required=True,
                hint="Tell us about your business: your shop, where it is and what you would like to stock.",
            ),
            inquiry_textarea("Message (optional)", "message"),
        ),
        spacing="4",
        width="100%",
    )


def _form() -> rx.Component:
    return rx.vstack(
        _back_button(),
        rx.heading(S.type_label + " Inquiry", size="6", as_="h2"),
        rx.form(
            rx.vstack(
                _contact(),
                rx.cond(S.order_type == OrderType.CUSTOM.value, _custom_fields(), _products_fields()),
                inquiry_error(),
                rx.button(
                    rx.cond(S.submitting, "Sending...", "Submit Inquiry"),
                    type="submit",
                    size="3",
                    disabled=S.submitting,
                ),
                spacing="5",
                width="100%",
            ),
            on_submit=S.submit,
            reset_on_submit=False,
            # Every rule is checked on the server, which says what is missing.
            no_validate=True,
            width="100%",
        ),
        spacing="4",
        width="100%",
        max_width="760px",
    )


def _submitted() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.icon("circle-check", size=44, color=rx.color("green", 10)),
            rx.heading(InquiryMessage.SUBMITTED.value, size="6", as_="h2"),
            rx.text(S.confirmation, text_align="center"),
            rx.text(InquiryMessage.RETURNING.value, size="2", color_scheme="gray"),
            _back_button(),
            align="center",
            spacing="3",
            role="status",
        ),
        size="4",
        width="100%",
        max_width="640px",
    )


@public_layout
def custom_orders() -> rx.Component:
    """Custom, bulk and wholesale order inquiries."""
    return rx.vstack(
        rx.heading("Custom Orders", size="8", as_="h1"),
        rx.text(
            "Planning a wedding, a corporate gift or stocking your shop? Tell us what you need and we "
            "will get back to you within 1-2 business days.",
            color_scheme="gray",
            size="3",
        ),
        rx.match(
            S.step,
            ("form", _form()),
            ("submitted", _submitted()),
            _type_selection(),
        ),
        spacing="5",
        width="100%",
    )
