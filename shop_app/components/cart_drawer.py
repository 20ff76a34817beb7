"""The cart drawer: lines with quantity controls, the subtotal, Checkout and Continue Shopping."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.count_badge import count_badge
from shop_app.components.discount_code import discount_code_field
from shop_app.components.image import thumbnail
from shop_app.components.link_button import link_button
from shop_app.domain.messages import CartMessage, DisplayText
from shop_app.state.cart import CartState
from shop_app.state.checkout import CheckoutState  # a checkout on screen follows the drawer
from shop_app.state.views import CartLineRow


def _trigger() -> rx.Component:
    return rx.box(
        rx.dialog.trigger(
            rx.icon_button(
                rx.icon("shopping-bag", size=20),
                variant="ghost",
                color_scheme="gray",
                size="2",
                aria_label=rx.cond(
                    CartState.count > 0,
                    rx.cond(
                        CartState.count == 1,
                        "Cart, 1 item",
                        "Cart, " + CartState.count.to_string() + " items",
                    ),
                    "Cart",
                ),
                title="Cart",
            ),
        ),
        count_badge(CartState.count),
        position="relative",
    )


def _line(line: CartLineRow) -> rx.Component:
    return rx.hstack(
        thumbnail(line.image_url, "", "64px"),
        rx.vstack(
            rx.link(
                line.name,
                href=line.url,
                weight="medium",
                size="2",
                color_scheme="gray",
                high_contrast=True,
                on_click=CartState.set_drawer_open(False),
            ),
            rx.cond(line.options != "", rx.text(line.options, size="1", color_scheme="gray")),
            rx.text(line.unit_price, size="1", color_scheme="gray"),
            rx.hstack(
                rx.icon_button(
                    rx.icon("minus", size=14),
                    size="1",
                    variant="soft",
                    aria_label="Decrease quantity of " + line.name,
                    on_click=[
                        CartState.set_quantity(line.line_id, line.quantity - 1),
                        CheckoutState.cart_changed,
                    ],
                ),
                rx.text(line.quantity, size="2", min_width="2ch", text_align="center", aria_live="polite"),
                rx.icon_button(
                    rx.icon("plus", size=14),
                    size="1",
                    variant="soft",
                    aria_label="Increase quantity of " + line.name,
                    disabled=~line.can_increase,
                    on_click=[
                        CartState.set_quantity(line.line_id, line.quantity + 1),
                        CheckoutState.cart_changed,
                    ],
                ),
                rx.spacer(),
                rx.icon_button(
                    rx.icon("trash-2", size=14),
                    size="1",
                    variant="ghost",
                    color_scheme="red",
                    aria_label="Remove " + line.name,
                    on_click=[CartState.remove(line.line_id), CheckoutState.cart_changed],
                ),
                align="center",
                width="100%",
            ),
            spacing="1",
            width="100%",
        ),
        rx.text(line.line_total, weight="bold", size="2"),
        align="start",
        width="100%",
        spacing="3",
    )


def _continue_shopping() -> rx.Component:
    return link_button(
        "Continue Shopping",
        routes.SHOP,
        variant="outline",
        width="100%",
        size="3",
        on_click=CartState.set_drawer_open(False),
    )


def _estimate_row(label: str | rx.Var[str], value: rx.Var[str]) -> rx.Component:
    return rx.hstack(rx.text(label), rx.spacer(), rx.text(value), width="100%")


def _estimate() -> rx.Component:
    """Shipping and taxes as a British Columbia address would pay them (checkout has the address's),
    and how far the cart is from free shipping."""
    return rx.vstack(
        rx.cond(
            CartState.free_shipping != "",
            rx.text(CartState.free_shipping, size="2", weight="medium", color=rx.color("accent", 11)),
        ),
        rx.cond(CartState.discount != "", _estimate_row(CartState.discount_label, CartState.discount)),
        _estimate_row("Shipping", CartState.shipping),
        rx.foreach(CartState.taxes, lambda tax: _estimate_row(tax.label, tax.amount)),
        _estimate_row("Estimated total", CartState.estimated_total),
        rx.text(DisplayText.CART_ESTIMATE_HINT.value, size="1", color_scheme="gray"),
        spacing="1",
        width="100%",
        font_size="var(--font-size-2)",
        color=rx.color("gray", 11),
    )


def _contents() -> rx.Component:
    return rx.cond(
        CartState.count > 0,
        rx.vstack(
            rx.scroll_area(
                rx.vstack(rx.foreach(CartState.lines, _line), spacing="4", padding_right="0.75rem"),
                type="auto",
                scrollbars="vertical",
                flex="1",
            ),
            rx.separator(),
            discount_code_field("drawer", CartState.code_refused),
            rx.hstack(
                rx.text("Subtotal", weight="medium"),
                rx.spacer(),
                rx.text(CartState.subtotal, weight="bold"),
                width="100%",
            ),
            _estimate(),
            # A full page load: the checkout's own CSP admits Square's card form (sandbox/production).
            link_button("Checkout", routes.CHECKOUT, width="100%", size="3", full_page_load=True),
            _continue_shopping(),
            spacing="3",
            height="100%",
        ),
        rx.vstack(
            rx.icon("shopping-bag", size=40, color=rx.color("gray", 8)),
            rx.text(CartMessage.EMPTY_DRAWER.value, size="3", color_scheme="gray"),
            _continue_shopping(),
            align="center",
            justify="center",
            spacing="4",
            height="100%",
        ),
    )


def cart_drawer() -> rx.Component:
    """The cart button with its count badge, and the side sheet it opens (a modal dialog)."""
    return rx.dialog.root(
        _trigger(),
        rx.dialog.content(
            rx.vstack(
                rx.hstack(
                    rx.dialog.title("Your Cart", size="5", margin="0"),
                    rx.spacer(),
                    rx.dialog.close(
                        rx.icon_button(
                            rx.icon("x", size=18),
                            variant="ghost",
                            color_scheme="gray",
                            aria_label="Close cart",
                        )
                    ),
                    width="100%",
                    align="center",
                ),
                rx.dialog.description("Items in your cart", class_name="sr-only"),
                _contents(),
                spacing="4",
                height="100%",
            ),
            class_name="side-sheet",
        ),
        open=CartState.drawer_open,
        on_open_change=CartState.set_drawer_open,
    )
