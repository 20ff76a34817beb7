"""The public layout: header, main content and footer."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from shop_app import routes
from shop_app.state.site import SiteState

NAV_LINKS = (
    ("Home", routes.HOME),
    ("Shop", routes.SHOP),
    ("Custom Orders", routes.CUSTOM_ORDERS),
    ("About", routes.ABOUT),
    ("Reviews", routes.REVIEWS),
    ("Contact", routes.CONTACT),
)


def header() -> rx.Component:
    """Sticky header with the brand and the main navigation."""
    return rx.el.header(
        rx.hstack(
            rx.link(rx.heading(SiteState.brand_name, size="5"), href=routes.HOME, underline="none"),
            rx.spacer(),
            rx.el.nav(
                rx.hstack(
                    *[
                        rx.link(label, href=href, underline="hover", color_scheme="gray", high_contrast=True)
                        for label, href in NAV_LINKS
                    ],
                    spacing="5",
                ),
                aria_label="Main",
            ),
            align="center",
            width="100%",
            max_width="1200px",
            margin_x="auto",
            padding_x="1.5rem",
            padding_y="1rem",
        ),
        position="sticky",
        top="0",
        z_index="10",
        background_color=rx.color("gray", 1),
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def footer() -> rx.Component:
    """Footer with quick links and the copyright line."""
    return rx.el.footer(
        rx.vstack(
            rx.hstack(
                rx.link("Shop All", href=routes.SHOP),
                rx.link("About Us", href=routes.ABOUT),
                rx.link("FAQ", href=routes.FAQ),
                rx.link("Contact", href=routes.CONTACT),
                spacing="5",
                wrap="wrap",
            ),
            rx.text("© 2025 ", SiteState.brand_name, ". All rights reserved.", size="2", color_scheme="gray"),
            align="center",
            spacing="3",
            padding="2rem",
        ),
        border_top=f"1px solid {rx.color('gray', 4)}",
        margin_top="4rem",
    )


def public_layout(content: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
    """Wrap a page function in the public layout."""

    def page() -> rx.Component:
        return rx.box(
            header(),
            rx.el.main(
                content(),
                max_width="1200px",
                margin_x="auto",
                padding_x="1.5rem",
                padding_y="2rem",
                width="100%",
            ),
            footer(),
            min_height="100vh",
        )

    page.__name__ = content.__name__
    return page
