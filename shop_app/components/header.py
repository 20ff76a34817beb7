"""The site header: brand, navigation (a side sheet on small screens), search, favourites,
account and the cart."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.account_menu import account_control, favorites_control
from shop_app.components.cart_drawer import cart_drawer
from shop_app.components.first_view import first_view
from shop_app.components.search_popover import search_popover
from shop_app.state.site import SiteState

NAV_LINKS = (
    ("Home", routes.HOME),
    ("Shop", routes.SHOP),
    ("Custom Orders", routes.CUSTOM_ORDERS),
    ("About", routes.ABOUT),
    ("Reviews", routes.REVIEWS),
    ("Contact", routes.CONTACT),
)


def icon_button(icon: str, label: str, **props) -> rx.Component:
    """A ghost icon button with an accessible name."""
    return rx.icon_button(
        rx.icon(icon, size=20),
        variant="ghost",
        color_scheme="gray",
        aria_label=label,
        title=label,
        size="2",
        **props,
    )


def _nav_links(**link_props) -> list[rx.Component]:
    return [rx.link(label, href=href, underline="hover", **link_props) for label, href in NAV_LINKS]


def _mobile_nav() -> rx.Component:
    """The navigation as a sheet along the left edge (a modal dialog, like the cart's sheet).

    A Radix dialog rather than ``rx.drawer``: the drawer's library (vaul) added about 20 KB of
    compressed JavaScript to every page for this one menu.
    """
    return rx.dialog.root(
        rx.dialog.trigger(icon_button("menu", "Open menu")),
        rx.dialog.content(
            rx.vstack(
                rx.hstack(
                    rx.dialog.title(SiteState.brand_name, size="4", margin="0"),
                    rx.spacer(),
                    rx.dialog.close(icon_button("x", "Close menu")),
                    width="100%",
                    align="center",
                ),
                rx.dialog.description("Site navigation", class_name="sr-only"),
                rx.el.nav(
                    rx.vstack(
                        *[
                            rx.dialog.close(link)
                            for link in _nav_links(size="5", color_scheme="gray", high_contrast=True)
                        ],
                        spacing="4",
                    ),
                    aria_label="Main",
                ),
                spacing="6",
            ),
            class_name="side-sheet side-sheet--left",
        ),
    )


def header(*, overlay: bool = False) -> rx.Component:
    """The sticky header; ``overlay`` floats it transparently over the home hero."""
    return rx.el.header(
        rx.hstack(
            rx.box(_mobile_nav(), display=rx.breakpoints(initial="block", md="none")),
            rx.link(
                rx.text(
                    # The server puts the shop's name in the first HTML of the pages it answers
                    # itself (/, /shop, a product: api/seo.py); elsewhere it comes with the state.
                    rx.cond(
                        SiteState.brand_name != "",
                        SiteState.brand_name,
                        first_view("brand", rx.fragment(), inline=True),
                    ),
                    # two steps smaller on phones, and never more than two lines (shop.css): at
                    # 390 px a long name beside four 36 px icon buttons took three lines and
                    # touched the header's top edge
                    size=rx.breakpoints(initial="3", sm="5"),
                    weight="bold",
                    font_family="var(--heading-font-family)",
                    line_height="1.2",
                    class_name="site-header__brand",
                ),
                # The brand comes with the page's state; until then the link still has a name.
                rx.el.span("Home page", class_name="sr-only"),
                href=routes.HOME,
                underline="none",
                color="inherit",
            ),
            rx.spacer(),
            rx.el.nav(
                rx.hstack(*_nav_links(color="inherit", weight="medium"), spacing="5"),
                aria_label="Main",
                display=rx.breakpoints(initial="none", md="block"),
            ),
            rx.spacer(),
            rx.hstack(
                search_popover(),
                favorites_control(),
                account_control(),
                cart_drawer(),
                spacing="1",
                align="center",
                class_name="site-header__actions",
            ),
            align="center",
            width="100%",
            max_width="1200px",
            margin_x="auto",
            padding_x="1rem",
            height="var(--shop-header-height)",
        ),
        class_name="site-header--overlay" if overlay else "site-header",
        position="fixed" if overlay else "sticky",
        top="0",
        z_index="20",
        width="100%",
        **(
            {}
            if overlay
            else {
                "background_color": rx.color("gray", 1),
                "border_bottom": f"1px solid {rx.color('gray', 4)}",
            }
        ),
    )
