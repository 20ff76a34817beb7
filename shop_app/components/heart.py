"""The favourite toggle drawn on product cards and the product page."""

from __future__ import annotations

import reflex as rx

from shop_app.state.wishlist import WishlistState


def heart_button(
    product_id: rx.Var[int], name: rx.Var[str], *, size: str = "2", class_name: str = "", **position
) -> rx.Component:
    """Filled when the product is a favourite; guests get the sign-in dialog.

    ``class_name``: placed by a stylesheet class (the product cards: no generated styles, see
    ``components/product_card.py``), else by the ``position`` props.
    """
    saved = WishlistState.product_ids.contains(product_id)
    icon = rx.icon("heart", size=18, custom_attrs={"fill": rx.cond(saved, "currentColor", "none")})
    label = rx.cond(saved, "Remove " + name + " from favorites", "Add " + name + " to favorites")
    if class_name:
        # Radix's icon button by its classes: its component adds a generated padding style.
        return rx.el.button(
            icon,
            type="button",
            class_name=f"rt-reset rt-BaseButton rt-r-size-{size} rt-variant-soft rt-IconButton {class_name}",
            custom_attrs={"data-accent-color": rx.cond(saved, "red", "gray"), "data-radius": "full"},
            aria_label=label,
            aria_pressed=saved,
            on_click=WishlistState.toggle(product_id),
        )
    return rx.icon_button(
        icon,
        variant="soft",
        color_scheme=rx.cond(saved, "red", "gray"),
        radius="full",
        size=size,
        aria_label=label,
        aria_pressed=saved,
        on_click=WishlistState.toggle(product_id),
        position="absolute",
        **position,
    )
