"""/checkout: account box, contact and shipping details, payment, and the order summary."""

from __future__ import annotations

from typing import Any

import reflex as rx

from shop_app import routes
from shop_app.components.auth_forms import checkbox, field
from shop_app.components.checkout_summary import CODE_FORM, order_summary
from shop_app.components.discount_code import detached_form
from shop_app.components.first_view import first_view
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.components.skeletons import checkout_form_skeleton, checkout_summary_skeleton
from shop_app.domain.messages import CartMessage, CheckoutMessage, DisplayText
from shop_app.services.ordering.forms import GIFT_MESSAGE_MAX
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.checkout import LOCAL_TEST_CARDS
from shop_app.state.checkout import CheckoutState as S
from shop_app.state.site import SiteState

PREFIX = "checkout"
# The server swaps the shapes for an empty cart's view when it can tell (api/checkout_page.py).
EMPTY_SLOT = "checkout-empty"
LOADING_ID = "checkout-loading"
_COLUMNS = rx.breakpoints(initial="1", md="3fr 2fr")  # the form, then the order summary


def _input(
    label: str,
    name: str,
    value: rx.Var[str],
    *,
    type_: str = "text",
    required: bool = True,
    auto_complete: str = "",
    on_blur: Any = None,
) -> rx.Component:
    return field(
        label,
        name,
        type_=type_,
        required=required,
        auto_complete=auto_complete,
        id_prefix=PREFIX,
        default=value,
        invalid=S.error_field == name,
        on_blur=on_blur,
    )


def _account_box() -> rx.Component:
    return rx.cond(
        S.signed_in,
        rx.callout("You are signed in: your details are filled in below.", icon="user", width="100%"),
        rx.card(
            rx.vstack(
                rx.heading("Account", size="4", as_="h2"),
                rx.text(
                    "Sign in for faster checkout and to follow your order, or continue as a guest.",
                    size="2",
                    color_scheme="gray",
                ),
                rx.hstack(
                    rx.button(
                        "Sign In", type="button", variant="outline", on_click=AuthDialogState.open_sign_in
                    ),
                    rx.button(
                        "Create Account",
                        type="button",
                        variant="outline",
                        on_click=AuthDialogState.open_register,
                    ),
                    spacing="2",
                ),
                rx.el.label(
                    rx.hstack(
                        rx.checkbox(checked=S.guest_checkout, on_change=S.set_guest_checkout),
                        rx.text("Check out as a guest", size="2"),
                        align="center",
                        spacing="2",
                    ),
                ),
                rx.cond(
                    ~S.guest_checkout,
                    rx.text(CheckoutMessage.SIGN_IN_OR_GUEST.value, size="2", color_scheme="amber"),
                ),
                spacing="3",
            ),
            width="100%",
        ),
    )


def _country() -> rx.Component:
    """The countries the shop ships to (store settings), in the seed's order of its list."""
    return rx.vstack(
        rx.el.label(
            "Country", html_for=f"{PREFIX}-country", font_size="var(--font-size-2)", font_weight="500"
        ),
        rx.el.select(
            rx.foreach(S.countries, lambda country: rx.el.option(country, value=country)),
            id=f"{PREFIX}-country",
            name="country",
            default_value=S.prefill.country,
            required=True,
            auto_complete="country-name",
            on_change=S.choose_country,
            class_name="native-select",
            custom_attrs={
                "aria-describedby": rx.cond(
                    S.error_field == "country", f"{PREFIX}-ships-to {PREFIX}-error", f"{PREFIX}-ships-to"
                ),
                "aria-invalid": rx.cond(S.error_field == "country", "true", "false"),
            },
        ),
        rx.text(
            "We ship to ", SiteState.ships_to, ".", id=f"{PREFIX}-ships-to", size="1", color_scheme="gray"
        ),
        spacing="1",
        width="100%",
    )


def _details() -> rx.Component:
    p = S.prefill
    return rx.vstack(
        rx.heading("Contact", size="4", as_="h2"),
        rx.grid(
            _input("First name", "first_name", p.first_name, auto_complete="given-name"),
            _input("Last name", "last_name", p.last_name, auto_complete="family-name"),
            _input("Email", "email", p.email, type_="email", auto_complete="email"),
            _input("Phone (optional)", "phone", p.phone, type_="tel", required=False, auto_complete="tel"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        rx.heading("Shipping address", size="4", as_="h2", margin_top="1rem"),
        rx.cond(
            S.address_notice != "",
            rx.callout(S.address_notice, icon="map-pin", color_scheme="amber", width="100%"),
        ),
        _input("Address", "address", p.address, auto_complete="address-line1"),
        _input(
            "Apartment, suite (optional)",
            "address_line2",
            p.address_line2,
            required=False,
            auto_complete="address-line2",
        ),
        rx.grid(
            _input("City", "city", p.city, auto_complete="address-level2"),
            _input(
                "Province / State", "state", p.state, auto_complete="address-level1", on_blur=S.choose_region
            ),
            _input("Postal / ZIP code", "zip_code", p.zip_code, auto_complete="postal-code"),
            _country(),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        rx.vstack(
            rx.el.label(
                "Special instructions (optional)",
                html_for=f"{PREFIX}-notes",
                font_size="var(--font-size-2)",
                font_weight="500",
            ),
            rx.text_area(id=f"{PREFIX}-notes", name="special_instructions", rows="3", width="100%"),
            spacing="1",
            width="100%",
        ),
        rx.cond(S.signed_in, checkbox("Save this address as my default", "save_address", default=True)),
        _gift(),
        spacing="3",
        width="100%",
    )


def _gift() -> rx.Component:
    """A gift: wrapped (free) and a message for the card (printed on the packing slip, no prices)."""
    return rx.vstack(
        rx.heading("Gift (optional)", size="4", as_="h2", margin_top="1rem"),
        checkbox("Gift wrap this order (free)", "gift_wrap"),
        rx.el.label(
            f"Gift message (optional, up to {GIFT_MESSAGE_MAX} characters)",
            html_for=f"{PREFIX}-gift_message",
            font_size="var(--font-size-2)",
            font_weight="500",
        ),
        rx.text_area(
            id=f"{PREFIX}-gift_message",
            name="gift_message",
            rows="3",
            max_length=GIFT_MESSAGE_MAX,
            width="100%",
            custom_attrs={"aria-invalid": rx.cond(S.error_field == "gift_message", "true", "false")},
        ),
        spacing="2",
        width="100%",
    )


def _payment() -> rx.Component:
    return rx.vstack(
        rx.heading("Payment", size="4", as_="h2"),
        rx.radio_group.root(
            rx.hstack(
                rx.el.label(
                    rx.hstack(rx.radio_group.item(value="card"), rx.text("Card"), align="center", spacing="2")
                ),
                rx.cond(
                    S.local_payments,
                    rx.el.label(
                        rx.hstack(
                            rx.radio_group.item(value="paypal"),
                            rx.text("PayPal (demo, not charged)"),
                            align="center",
                            spacing="2",
                        )
                    ),
                ),
                spacing="5",
            ),
            value=S.payment_method,
            on_change=S.set_payment_method,
            aria_label="Payment method",
        ),
        rx.cond(
            S.error != "",
            rx.callout(
                S.error,
                icon="circle-alert",
                color_scheme="red",
                role="alert",
                id=f"{PREFIX}-error",
                width="100%",
            ),
        ),
        rx.cond(
            S.payment_method == "card",
            rx.cond(
                S.local_payments,
                rx.vstack(
                    rx.callout(
                        "Test mode: choose a test card. No real card is charged.",
                        icon="flask-conical",
                        color_scheme="amber",
                        width="100%",
                    ),
                    rx.el.label(
                        "Test card",
                        html_for=f"{PREFIX}-card",
                        font_size="var(--font-size-2)",
                        font_weight="500",
                    ),
                    rx.el.select(
                        *[rx.el.option(label, value=nonce) for label, nonce in LOCAL_TEST_CARDS],
                        id=f"{PREFIX}-card",
                        name="source_id",
                        class_name="native-select",
                    ),
                    spacing="2",
                    width="100%",
                ),
                rx.vstack(
                    # assets/square-checkout.js puts Square's card iframe here and, on submit, the
                    # single-use token into the hidden input.
                    rx.box(
                        id="card-container",
                        min_height="90px",
                        width="100%",
                        custom_attrs={
                            "data-sdk": S.square_sdk["src"],
                            "data-application-id": S.square_sdk["application_id"],
                            "data-location-id": S.square_sdk["location_id"],
                        },
                    ),
                    rx.el.input(type="hidden", name="source_id", id="card-token"),
                    rx.script(src="/square-checkout.js"),
                    width="100%",
                ),
            ),
            rx.text(
                "The PayPal option is a demonstration: your order is placed but nothing is charged.",
                size="2",
                color_scheme="gray",
            ),
        ),
        spacing="3",
        width="100%",
    )


def _empty() -> rx.Component:
    """An empty cart (``api/checkout_page.py`` sends the same markup: classes only, no Emotion)."""
    return rx.el.div(
        rx.heading(CartMessage.EMPTY_CHECKOUT.value, size="7", as_="h1"),
        rx.text(DisplayText.EMPTY_CHECKOUT_HINT.value, color_scheme="gray"),
        link_button("Browse Products", routes.SHOP, size="3", _hover=None),  # Radix's hover, not a link's
        class_name="checkout-empty",
    )


def _loading() -> rx.Component:
    """Until the cart has arrived (prerendered): the heading, the shapes of the form and summary."""
    return rx.grid(
        rx.vstack(
            rx.heading("Checkout", size="8", as_="h1"), checkout_form_skeleton(), spacing="5", width="100%"
        ),
        checkout_summary_skeleton(),
        columns=_COLUMNS,
        spacing="8",
        width="100%",
        align_items="start",
        id=LOADING_ID,
    )


@public_layout
def checkout_page() -> rx.Component:
    """The checkout. Until the cart has arrived and for an empty cart, the empty cart's view the
    server sent (``api/checkout_page.py``) stays, the same nodes (the page's largest paint: drawn
    again it would count as a later one); else the shapes, then the empty view."""
    return rx.el.div(
        rx.cond(
            S.loaded & ~S.is_empty,
            rx.form(
                rx.grid(
                    rx.vstack(
                        rx.heading("Checkout", size="8", as_="h1"),
                        _account_box(),
                        _details(),
                        _payment(),
                        # The total the shopper sees on the button: placing is refused unless it is
                        # the server's (CheckoutState._not_ready).
                        rx.el.input(type="hidden", name="shown_total", value=S.total),
                        rx.button(
                            rx.cond(S.processing, "Processing...", "Place Order · " + S.total),
                            type="submit",
                            size="4",
                            width="100%",
                            disabled=S.processing,
                        ),
                        spacing="5",
                        width="100%",
                    ),
                    order_summary(),
                    columns=_COLUMNS,
                    spacing="8",
                    width="100%",
                    align_items="start",
                ),
                on_submit=S.place_order,
                reset_on_submit=False,
                key=S.form_key,
                # The fields stay marked required, but the seed's own alert explains what is missing.
                no_validate=True,
            ),
            first_view(EMPTY_SLOT, rx.cond(S.loaded, _empty(), _loading()), prerendered=False),
        ),
        detached_form(CODE_FORM),  # the summary's discount code field submits this one
        custom_attrs={"data-cart-loaded": rx.cond(S.loaded, "true", "false")},  # for tests
    )
