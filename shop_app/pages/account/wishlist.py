"""/account/wishlist: the favourites grid."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.image import square_image
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.pages.account.signed_out import account_view, please_sign_in
from shop_app.services.media import PRODUCT_CARD_SIZES
from shop_app.state.cart import CartState
from shop_app.state.wishlist import FavoriteRow, WishlistState


def _favorite(row: FavoriteRow) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.box(
                square_image(
                    row.image_url,
                    row.name,
                    srcset=row.image_srcset,
                    sizes=PRODUCT_CARD_SIZES,
                    border_radius="var(--radius-3)",
                    loading="lazy",
                ),
                rx.icon_button(
                    rx.icon("x", size=16),
                    variant="soft",
                    color_scheme="gray",
                    radius="full",
                    aria_label="Remove " + row.name + " from favorites",
                    on_click=WishlistState.remove(row.product_id),
                    position="absolute",
                    top="0.5rem",
                    right="0.5rem",
                ),
                position="relative",
                width="100%",
            ),
            rx.heading(row.name, size="3", as_="h2"),
            rx.text(row.price, weight="bold"),
            rx.button(
                "Add to Cart", width="100%", disabled=~row.in_stock, on_click=CartState.add(row.product_id, 1)
            ),
            link_button("View Details", row.url, width="100%", variant="outline"),
            spacing="2",
            align="start",
        ),
    )


@public_layout
def wishlist() -> rx.Component:
    """The favourites page."""
    return account_view(
        rx.vstack(
            rx.link("← My Account", href=routes.ACCOUNT),
            rx.heading("My Favorites", size="8", as_="h1"),
            rx.cond(
                WishlistState.count > 0,
                rx.grid(
                    rx.foreach(WishlistState.items, _favorite),
                    columns=rx.breakpoints(initial="1", xs="2", md="3", lg="4"),
                    spacing="4",
                    width="100%",
                ),
                rx.vstack(
                    rx.heading("No favorites yet", size="5", as_="h2"),
                    rx.text("Heart items you love to save them here", color_scheme="gray"),
                    link_button("Start Shopping", routes.SHOP, size="3"),
                    align="center",
                    spacing="3",
                    padding_y="3rem",
                    width="100%",
                ),
            ),
            spacing="4",
            width="100%",
        ),
        ready=WishlistState.loaded,
        signed_out=please_sign_in("Sign in to see the products you saved."),
        loading_text="Loading your favorites...",
    )
