"""The product card used by the shop and the home page.

Its look comes from Radix's classes and the ``product-card`` classes of ``assets/shop.css``, never
from style props (which Emotion turns into generated class names): the first HTML response of
the shop and home pages carries the same cards, rendered by ``api/first_view.py`` with the same
markup, and React's cards take their place without a jump when the page's state arrives.
``tests/e2e/test_first_view.py`` compares the two.
"""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from shop_app.components.heart import heart_button
from shop_app.components.image import safe_image
from shop_app.components.link_button import link_button
from shop_app.services.catalog.card_views import EAGER_CARDS
from shop_app.services.media import PRODUCT_CARD_SIZES
from shop_app.state.cart import CartState
from shop_app.state.views import CardView


def _action(card: CardView) -> rx.Component:
    current = card.current
    return rx.cond(
        ~current.in_stock,
        rx.button("Out of Stock", disabled=True, variant="soft", class_name="product-card__action"),
        rx.cond(
            card.has_variants,
            link_button(
                "Customize",
                current.url,
                variant="outline",
                aria_label="Customize " + card.title,
                class_name="product-card__action",
                _hover=None,
            ),
            rx.button(
                "Add",
                class_name="product-card__action",
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
                    safe_image(
                        current.image_url,
                        current.label,
                        srcset=current.image_srcset,
                        sizes=PRODUCT_CARD_SIZES,
                        intrinsic=(800, 800),
                        loading=rx.cond(eager, "eager", "lazy"),
                        decoding="async",
                        class_name="product-card__image",
                    ),
                    href=current.url,
                    tab_index=-1,
                    aria_hidden="true",
                    _hover=None,
                ),
                rx.cond(
                    current.badge != "",
                    rx.badge(current.badge, variant="solid", class_name="product-card__badge"),
                ),
                heart_button(current.product_id, current.label, class_name="product-card__heart"),
                class_name="product-card__media",
            ),
            rx.link(
                rx.heading(card.title, size="3", as_="h3"),
                href=current.url,
                underline="hover",
                class_name="product-card__title",
                _hover=None,
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
                        color_scheme="gray",
                        size="2",
                        aria_label="was " + current.compare_at_price,
                        as_="span",
                        class_name="product-card__was",  # struck through (Radix's Text has no <s>)
                    ),
                ),
                rx.text(
                    current.stock_text,
                    size="1",
                    color_scheme=rx.cond(current.in_stock, "gray", "red"),
                    class_name="product-card__stock",
                ),
                align="baseline",
                class_name="product-card__price-row",
            ),
            _action(card),
            spacing="2",
            align="start",
            class_name="product-card__body",
        ),
    )


def product_grid(cards: rx.Var[list[CardView]], on_choose_scent: Callable) -> rx.Component:
    """A responsive grid of product cards."""
    return rx.grid(
        rx.foreach(cards, lambda card, index: product_card(card, on_choose_scent, eager=index < EAGER_CARDS)),
        columns=rx.breakpoints(initial="1", xs="2", md="3", lg="4"),
        spacing="4",
        class_name="product-grid",
    )
