"""The product card used by the shop and the home page."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from shop_app.components.heart import heart_button
from shop_app.components.image import square_image
from shop_app.components.link_button import link_button
from shop_app.services.media import PRODUCT_CARD_SIZES
from shop_app.state.cart import CartState
from shop_app.state.views import CardView

# Cards of the first rows (four on a wide screen) are above the fold: their images load at once,
# the rest when scrolled near (the first card's image is the shop page's largest paint).
EAGER_CARDS = 4


def _action(card: CardView) -> rx.Component:
    current = card.current
    return rx.cond(
        ~current.in_stock,
        rx.button("Out of Stock", disabled=True, width="100%", variant="soft"),
        rx.cond(
            card.has_variants,
            link_button(
                "Customize",
                current.url,
                width="100%",
                variant="outline",
                aria_label="Customize " + card.title,
            ),
            rx.button(
                "Add",
                width="100%",
                aria_label="Add " + current.label + " to cart",
                on_click=CartState.add(current.product_id, 1),
            ),
        ),
    )


def product_card(
    card: CardView, on_choose_scent: Callable, *, eager: rx.Var[bool] | bool = False
) -> rx.Component:
    """Image, badges, name, description preview, price, stock, heart, scent selector, button.

    ``eager``: the card is in the first rows, its image is not lazy-loaded.
    """
    current = card.current
    return rx.card(
        rx.vstack(
            rx.box(
                rx.link(
                    square_image(
                        current.image_url,
                        current.label,
                        srcset=current.image_srcset,
                        sizes=PRODUCT_CARD_SIZES,
                        loading=rx.cond(eager, "eager", "lazy"),
                        decoding="async",
                        border_radius="var(--radius-3)",
                        background_color=rx.color("gray", 3),
                    ),
                    href=current.url,
                    tab_index=-1,
                    aria_hidden="true",
                ),
                rx.cond(
                    current.badge != "",
                    rx.badge(
                        current.badge, variant="solid", position="absolute", top="0.5rem", left="0.5rem"
                    ),
                ),
                heart_button(current.product_id, current.label, top="0.5rem", right="0.5rem"),
                position="relative",
                width="100%",
            ),
            rx.link(
                rx.heading(card.title, size="3", as_="h3"),
                href=current.url,
                color="inherit",
                underline="hover",
            ),
            rx.text(current.description, size="2", color_scheme="gray"),
            rx.cond(
                card.scents.length() > 1,
                # A native <select>: a phone's own picker, and one element per card to hydrate
                # where Radix's Select is a tree of components (a page holds up to 24 cards).
                rx.el.select(
                    rx.foreach(card.scent_options, lambda scent: rx.el.option(scent.text, value=scent.value)),
                    value=card.selected_scent,
                    on_change=lambda label: on_choose_scent(card.key, label),
                    aria_label="Scent of " + card.title,
                    class_name="native-select native-select--small",
                ),
            ),
            rx.hstack(
                rx.text(current.price, weight="bold", size="3"),
                rx.cond(
                    current.compare_at_price != "",
                    rx.text(
                        current.compare_at_price,
                        as_="s",
                        color_scheme="gray",
                        size="2",
                        aria_label="was " + current.compare_at_price,
                    ),
                ),
                rx.spacer(),
                rx.text(current.stock_text, size="1", color_scheme=rx.cond(current.in_stock, "gray", "red")),
                align="baseline",
                width="100%",
            ),
            _action(card),
            spacing="2",
            align="start",
            height="100%",
        ),
    )


def product_grid(cards: rx.Var[list[CardView]], on_choose_scent: Callable) -> rx.Component:
    """A responsive grid of product cards."""
    return rx.grid(
        rx.foreach(cards, lambda card, index: product_card(card, on_choose_scent, eager=index < EAGER_CARDS)),
        columns=rx.breakpoints(initial="1", xs="2", md="3", lg="4"),
        spacing="4",
        width="100%",
    )
