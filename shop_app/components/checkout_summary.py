"""The checkout's Order Summary: its lines (with quantity and remove buttons), subtotal,
shipping, one row per tax of the address (``CheckoutState.taxes``) and the total."""

from __future__ import annotations

import reflex as rx

from shop_app.components.discount_code import discount_code_field
from shop_app.components.image import thumbnail
from shop_app.components.total_row import total_row
from shop_app.state.cart import CartState
from shop_app.state.checkout import CheckoutState as S
from shop_app.state.views import CartLineRow

CODE_FORM = "checkout"
"""The discount code's own form (``discount_code.detached_form``), outside the order's form."""


def _summary_line(line: CartLineRow) -> rx.Component:
    return rx.hstack(
        thumbnail(line.image_url, "", "56px"),
        rx.vstack(
            rx.text(line.name, size="2", weight="medium"),
            rx.cond(line.options != "", rx.text(line.options, size="1", color_scheme="gray")),
            rx.hstack(
                rx.icon_button(
                    rx.icon("minus", size=12),
                    size="1",
                    variant="soft",
                    type="button",
                    aria_label="Decrease quantity of " + line.name,
                    disabled=line.quantity <= 1,
                    on_click=[CartState.set_quantity(line.line_id, line.quantity - 1), S.cart_changed],
                ),
                rx.text(line.quantity, size="2", min_width="2ch", text_align="center"),
                rx.icon_button(
                    rx.icon("plus", size=12),
                    size="1",
                    variant="soft",
                    type="button",
                    aria_label="Increase quantity of " + line.name,
                    disabled=~line.can_increase,
                    on_click=[CartState.set_quantity(line.line_id, line.quantity + 1), S.cart_changed],
                ),
                rx.button(
                    "Remove",
                    size="1",
                    variant="ghost",
                    color_scheme="red",
                    type="button",
                    aria_label="Remove " + line.name,
                    on_click=[CartState.remove(line.line_id), S.cart_changed],
                ),
                align="center",
                spacing="2",
            ),
            spacing="1",
            flex="1",
        ),
        rx.text(line.line_total, weight="medium", size="2"),
        width="100%",
        align="start",
        spacing="3",
    )


def order_summary() -> rx.Component:
    """The summary card (sticky beside the form on wide screens)."""
    return rx.card(
        rx.vstack(
            rx.heading("Order Summary", size="4", as_="h2"),
            rx.vstack(rx.foreach(S.lines, _summary_line), spacing="3", width="100%"),
            rx.separator(),
            # The summary is inside the order's form: the field submits a form of its own.
            discount_code_field(CODE_FORM, S.code_refused, detached=True),
            total_row("Subtotal", S.subtotal),
            rx.cond(S.discount != "", total_row(S.discount_label, S.discount)),
            total_row("Shipping", rx.cond(S.free_shipping, "Free", S.shipping)),
            rx.foreach(S.taxes, lambda tax: total_row(tax.label, tax.amount)),
            rx.separator(),
            total_row("Total", S.total, strong=True),
            rx.cond(
                S.free_shipping_note != "",
                rx.text(S.free_shipping_note, size="1", color_scheme="gray"),  # the address's zone
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
        position=rx.breakpoints(initial="static", md="sticky"),
        top="5rem",
    )
