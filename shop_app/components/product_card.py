"""The product card used in listings."""

from __future__ import annotations

import reflex as rx

from shop_app.state.views import ProductCardView


def product_card(product: ProductCardView) -> rx.Component:
    """Image, badge, name, description preview, price and stock text of one product."""
    return rx.card(
        rx.link(
            rx.vstack(
                rx.box(
                    rx.image(
                        src=product.image_url,
                        alt=product.name,
                        width="100%",
                        aspect_ratio="1",
                        object_fit="cover",
                        loading="lazy",
                        border_radius="var(--radius-3)",
                    ),
                    rx.cond(
                        product.badge != "",
                        rx.badge(product.badge, position="absolute", top="0.5rem", left="0.5rem"),
                    ),
                    position="relative",
                    width="100%",
                ),
                rx.heading(product.name, size="3", as_="h3"),
                rx.text(product.description, size="2", color_scheme="gray"),
                rx.hstack(
                    rx.text(product.price, weight="bold"),
                    rx.cond(
                        product.compare_at_price != "",
                        rx.text(product.compare_at_price, as_="s", color_scheme="gray", size="2"),
                    ),
                    align="baseline",
                ),
                rx.text(product.stock_text, size="1", color_scheme=rx.cond(product.in_stock, "gray", "red")),
                spacing="2",
                align="start",
            ),
            href=product.url,
            underline="none",
            color="inherit",
        ),
    )


def product_grid(products: rx.Var[list[ProductCardView]]) -> rx.Component:
    """A responsive grid of product cards."""
    return rx.grid(
        rx.foreach(products, product_card),
        columns=rx.breakpoints(initial="1", xs="2", md="3", lg="4"),
        spacing="4",
        width="100%",
    )
