"""Home page (/): hero, featured products and shop-by-category (the full design is issue 3)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.components.product_card import product_grid
from shop_app.state.catalog import HomeState


@public_layout
def home() -> rx.Component:
    """The home page."""
    return rx.vstack(
        rx.heading("LUXURY HOME FRAGRANCE", size="8", as_="h1"),
        rx.text("Handcrafted with Care", size="4", color_scheme="gray"),
        rx.link(rx.button("GET IN TOUCH", size="3"), href=routes.CONTACT),
        rx.heading("Featured Products", size="6", as_="h2", margin_top="2rem"),
        product_grid(HomeState.featured),
        rx.link("View All Products", href=routes.SHOP),
        spacing="4",
        align="start",
        width="100%",
    )
