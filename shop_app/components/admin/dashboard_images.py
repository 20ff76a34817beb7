"""The dashboard's Website Images tab: the six slots as they show now, and the way to change them."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.image import safe_image
from shop_app.components.link_button import link_button
from shop_app.state.admin.dashboard import AdminDashboardState as S
from shop_app.state.admin.dashboard import SiteImageTile


def _tile(tile: SiteImageTile) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.cond(
                tile.is_set,
                safe_image(
                    tile.image_url,
                    tile.title,
                    srcset=tile.image_srcset,
                    sizes="(min-width: 768px) 20rem, 100vw",
                    width="100%",
                    aspect_ratio="4 / 3",
                    object_fit="cover",
                    border_radius="var(--radius-2)",
                    loading="lazy",
                ),
                rx.center(
                    rx.vstack(
                        rx.icon("image", size=28, color=rx.color("gray", 9)),
                        rx.text("Default image", size="2", color_scheme="gray"),
                        align="center",
                        spacing="1",
                    ),
                    width="100%",
                    aspect_ratio="4 / 3",
                    background=rx.color("gray", 3),
                    border_radius="var(--radius-2)",
                ),
            ),
            rx.text(tile.title, weight="medium", size="2"),
            spacing="2",
        ),
    )


def website_images_preview() -> rx.Component:
    """The tab's content."""
    return rx.vstack(
        rx.grid(
            rx.foreach(S.images, _tile),
            columns=rx.breakpoints(initial="1", sm="2", lg="3"),
            spacing="4",
            width="100%",
        ),
        link_button(
            rx.hstack(
                rx.icon("image", size=16), rx.text("Manage Website Images"), spacing="2", align="center"
            ),
            routes.ADMIN_MANAGE_IMAGES,
        ),
        spacing="4",
        width="100%",
    )
