"""The favourite toggle drawn on product cards and the product page."""

from __future__ import annotations

import reflex as rx

from shop_app.state.wishlist import WishlistState


def heart_button(product_id: rx.Var[int], name: rx.Var[str], *, size: str = "2", **position) -> rx.Component:
    """Filled when the product is a favourite; guests get the sign-in dialog."""
    saved = WishlistState.product_ids.contains(product_id)
    return rx.icon_button(
        rx.icon("heart", size=18, fill=rx.cond(saved, "currentColor", "none")),
        variant="soft",
        color_scheme=rx.cond(saved, "red", "gray"),
        radius="full",
        size=size,
        aria_label=rx.cond(saved, "Remove " + name + " from favorites", "Add " + name + " to favorites"),
        aria_pressed=saved,
        on_click=WishlistState.toggle(product_id),
        position="absolute",
        **position,
    )
