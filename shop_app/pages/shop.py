"""Shop page (/shop): the catalogue, one page at a time."""

from __future__ import annotations

import reflex as rx

from shop_app.components.layout import public_layout
from shop_app.components.product_card import product_grid
from shop_app.state.catalog import ShopState


@public_layout
def shop() -> rx.Component:
    """The catalogue listing."""
    return rx.vstack(
        rx.heading("Shop", size="8", as_="h1"),
        rx.text("Showing ", ShopState.total, " products", color_scheme="gray"),
        rx.cond(
            ShopState.total > 0,
            product_grid(ShopState.products),
            rx.heading("No products found", size="5", as_="h2"),
        ),
        rx.cond(
            ShopState.has_more,
            rx.button("Load more", on_click=ShopState.load_more, variant="outline", size="3"),
        ),
        spacing="4",
        align="start",
        width="100%",
    )
