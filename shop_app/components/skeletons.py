"""Placeholders shown until a page's state has arrived: never an empty-state text that is not true.

A page is prerendered with its state's defaults (no products, no counts); the real first view
comes over the websocket a moment later. Until then the page shows grey shapes where the cards,
counts and filters will be (issue 15: a cold /shop read "Showing 0 products" and "No products
found" for a second).
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.messages import DisplayText

CARD_PLACEHOLDERS = 8


def _block(height: str, width: str = "100%") -> rx.Component:
    return rx.skeleton(rx.box(height=height, width=width), loading=True)


def card_skeleton() -> rx.Component:
    """A product card's shape: image, title, price, button."""
    return rx.card(
        rx.vstack(
            _block("0", "100%"),
            rx.skeleton(rx.box(width="100%", aspect_ratio="1 / 1"), loading=True),
            _block("1.25rem", "80%"),
            _block("1rem", "40%"),
            _block("2rem"),
            spacing="2",
            width="100%",
        ),
    )


def card_grid_skeleton(count: int = CARD_PLACEHOLDERS) -> rx.Component:
    """The product grid's shape while its cards load (announced to screen readers as loading)."""
    return rx.grid(
        *[card_skeleton() for _ in range(count)],
        columns=rx.breakpoints(initial="1", xs="2", md="3", lg="4"),
        spacing="4",
        width="100%",
        # A named element needs a role (axe: aria-prohibited-attr): a status, busy until replaced.
        role="status",
        aria_busy="true",
        aria_label="Loading products",
    )


def line_skeleton(width: str = "10rem", height: str = "1.25rem") -> rx.Component:
    """A line of text still to come (a count, a name)."""
    return _block(height, width)


def account_skeleton(caption: str = "") -> rx.Component:
    """An account page's shape (heading, card of lines) until who is signed in and the page's own
    data have both arrived: never "Hello, User", "Not set" or an empty list that is not true.
    ``caption``: the page's own loading text (seed: "Loading your orders...")."""
    return rx.vstack(
        _block("2.5rem", "16rem"),
        rx.text(caption, color_scheme="gray") if caption else rx.fragment(),
        rx.card(
            rx.vstack(
                _block("1.5rem", "8rem"),
                _block("1.25rem"),
                _block("1.25rem"),
                _block("1.25rem", "60%"),
                spacing="3",
                width="100%",
            ),
            width="100%",
            max_width="40rem",
        ),
        spacing="5",
        width="100%",
        role="status",
        aria_busy="true",
        aria_label=DisplayText.LOADING_ACCOUNT.value,
    )


def checkout_form_skeleton() -> rx.Component:
    """The checkout form's shape until the cart has arrived (the account box, the details, Place
    Order): no field is drawn before it can keep what is typed."""
    return rx.vstack(
        _block("6rem"),
        _block("1.5rem", "8rem"),
        _block("2.5rem"),
        _block("2.5rem"),
        _block("1.5rem", "12rem"),
        _block("2.5rem"),
        _block("3rem"),
        spacing="4",
        width="100%",
        role="status",
        aria_busy="true",
        aria_label=DisplayText.LOADING_CHECKOUT.value,
    )


def checkout_summary_skeleton() -> rx.Component:
    """The order summary card's shape beside it (announced once, by the form's placeholder)."""
    return rx.card(
        rx.vstack(
            _block("1.5rem", "10rem"),
            _block("3rem"),
            _block("1.25rem"),
            _block("1.25rem"),
            _block("1.5rem"),
            spacing="3",
            width="100%",
        ),
        width="100%",
        aria_hidden="true",
    )


def product_skeleton() -> rx.Component:
    """A product page's shape (breadcrumb, picture, name, price, button) until its state has
    arrived, when the page was reached by a link inside the app: a page loaded from its address
    comes with its product in the HTML (``api/seo.product_page``)."""
    return rx.vstack(
        _block("1.25rem", "16rem"),
        rx.grid(
            rx.skeleton(rx.box(width="100%", aspect_ratio="1 / 1"), loading=True),
            rx.vstack(
                _block("1.5rem", "8rem"),
                _block("2.5rem", "80%"),
                _block("2rem", "6rem"),
                _block("4rem"),
                _block("3rem"),
                spacing="4",
                width="100%",
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="8",
            width="100%",
        ),
        spacing="6",
        width="100%",
        role="status",
        aria_busy="true",
        aria_label=DisplayText.LOADING_PRODUCT.value,
    )
