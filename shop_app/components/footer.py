"""The site footer: mailing list, quick links, the store settings' social links, e-mail, phone and
address, copyright."""

from __future__ import annotations

from datetime import date

import reflex as rx

from shop_app import routes
from shop_app.components.newsletter import newsletter_form
from shop_app.state.site import SiteState

QUICK_LINKS = (
    ("Shop All", routes.SHOP),
    ("About Us", routes.ABOUT),
    ("FAQ", routes.FAQ),
    ("Contact", routes.CONTACT),
    ("Shipping & Returns", routes.SHIPPING_AND_RETURNS),
    ("Terms of Service", routes.TERMS),
    ("Privacy Policy", routes.PRIVACY),
    ("Find Your Order", routes.ORDER_LOOKUP),  # ours: guests check an order's status and tracking
)


def _social(label: str, href: rx.Var[str]) -> rx.Component:
    return rx.cond(
        href != "", rx.link(label, href=href, is_external=True, color_scheme="gray", high_contrast=True)
    )


def footer() -> rx.Component:
    """The footer shown on every public page."""
    return rx.el.footer(
        rx.grid(
            rx.vstack(
                rx.heading("Join our mailing list", size="4", as_="h2"),
                rx.text(
                    "New scents, restocks and small-batch releases, a few times a season.",
                    size="2",
                    color_scheme="gray",
                ),
                newsletter_form("footer"),
                spacing="3",
            ),
            rx.vstack(
                rx.heading("Quick Links", size="4", as_="h2"),
                *[
                    rx.link(label, href=href, color_scheme="gray", high_contrast=True)
                    for label, href in QUICK_LINKS
                ],
                spacing="2",
            ),
            rx.vstack(
                rx.heading("Say hello", size="4", as_="h2"),
                rx.hstack(
                    _social("Instagram", SiteState.instagram),
                    _social("Facebook", SiteState.facebook),
                    _social("Twitter", SiteState.twitter),
                    _social("Email us", SiteState.mailto),
                    spacing="4",
                    wrap="wrap",
                ),
                rx.cond(
                    SiteState.tel != "",
                    rx.link(SiteState.phone, href=SiteState.tel, color_scheme="gray", high_contrast=True),
                ),
                rx.cond(SiteState.address != "", rx.text(SiteState.address, size="2", color_scheme="gray")),
                rx.text(
                    "Part of every sale supports cancer research and care.", size="2", color_scheme="gray"
                ),
                spacing="3",
            ),
            columns=rx.breakpoints(initial="1", md="3"),
            spacing="6",
            max_width="1200px",
            margin_x="auto",
            padding="2.5rem 1.5rem",
        ),
        rx.text(
            f"© {date.today().year} ",  # the year of the build (the pages are built on each release)
            SiteState.brand_name,
            " · All rights reserved.",
            size="1",
            color_scheme="gray",
            text_align="center",
            padding_bottom="1.5rem",
        ),
        border_top=f"1px solid {rx.color('gray', 4)}",
        background_color=rx.color("gray", 2),
        margin_top="4rem",
    )
