"""The header's account control and favourites popover."""

from __future__ import annotations

import reflex as rx
from reflex.components.react_router.dom import ReactRouterLink

from shop_app import routes
from shop_app.components.count_badge import count_badge
from shop_app.components.image import thumbnail
from shop_app.components.link_button import PREFETCH_ON_RENDER
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.wishlist import FavoriteRow, WishlistState

SIGN_OUT_FORM_ID = "sign-out-form"
SIGN_OUT_FORM = f'<form id="{SIGN_OUT_FORM_ID}" method="post" action="/api/auth/sign-out" hidden></form>'


def account_control() -> rx.Component:
    """Signed out: an icon that opens the sign-in dialog. Signed in: the avatar and its menu."""
    return rx.cond(
        AuthState.is_authenticated,
        rx.fragment(
            # Sign Out submits this form (a plain POST): the server ends the session, removes the
            # cookie and sends the browser home, which drops everything private held by the page.
            # Raw HTML on purpose: Reflex's form component cancels native submission.
            rx.html(
                f'<form id="{SIGN_OUT_FORM_ID}" method="post" action="/api/auth/sign-out" hidden></form>'
            ),
            _menu(),
        ),
        rx.icon_button(
            rx.icon("user", size=20),
            variant="ghost",
            color_scheme="gray",
            size="2",
            aria_label="Account",
            title="Account",
            on_click=AuthDialogState.open_sign_in,
        ),
    )


def _link_item(label: str, href: str) -> rx.Component:
    """A menu item that is a link (``rx.redirect`` on a click made it a button): a middle click
    opens a tab, and the page's scripts start loading when the menu opens
    (``components.link_button.PREFETCH_ON_RENDER``). React Router's own link: Radix Themes' link
    with ``as_child`` under the item's ``as_child`` fails to slot (a console error, no menu)."""
    return rx.menu.item(
        ReactRouterLink.create(label, to=href, custom_attrs=PREFETCH_ON_RENDER), as_child=True
    )


def _menu() -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(
            rx.button(
                AuthState.initial,
                variant="soft",
                radius="full",
                size="2",
                aria_label="Account menu for " + AuthState.full_name,
                width="2rem",
                padding="0",
            ),
        ),
        rx.menu.content(
            rx.box(
                rx.text(AuthState.full_name, weight="bold", size="2"),
                rx.text(AuthState.email, size="1", color_scheme="gray"),
                padding="0.5rem 0.75rem",
            ),
            rx.menu.separator(),
            _link_item("My Account", routes.ACCOUNT),
            _link_item("Order History", routes.ACCOUNT_ORDERS),
            rx.cond(AuthState.is_admin, _link_item("Admin Dashboard", routes.ADMIN)),
            rx.menu.separator(),
            rx.menu.item(
                rx.el.button(
                    "Sign Out",
                    type="submit",
                    class_name="sign-out-button",
                    custom_attrs={"form": SIGN_OUT_FORM_ID},
                ),
                as_child=True,
                color_scheme="red",  # Radix's red item (its text and highlight), not CSS red text
                # The menu stays open while the form posts: closed at once (no closing animation
                # for a visitor who prefers reduced motion), it took the button out of the page
                # before the click could submit the form.
                on_select=rx.prevent_default,
            ),
        ),
    )


def _favorite(row: FavoriteRow) -> rx.Component:
    return rx.hstack(
        thumbnail(row.image_url, "", "48px"),
        rx.vstack(
            rx.link(
                row.name, href=row.url, size="2", weight="medium", color_scheme="gray", high_contrast=True
            ),
            rx.text(row.price, size="2", color_scheme="gray"),
            spacing="0",
            flex="1",
        ),
        rx.icon_button(
            rx.icon("x", size=14),
            variant="ghost",
            color_scheme="gray",
            size="1",
            aria_label="Remove " + row.name + " from favorites",
            on_click=WishlistState.remove(row.product_id),
        ),
        width="100%",
        align="center",
        spacing="3",
    )


def favorites_control() -> rx.Component:
    """The heart with its count; signed out it opens the sign-in dialog."""
    badge = count_badge(WishlistState.count)
    button = rx.icon_button(
        rx.icon("heart", size=20),
        variant="ghost",
        color_scheme="gray",
        size="2",
        aria_label=rx.cond(
            WishlistState.count > 0,
            rx.cond(
                WishlistState.count == 1,
                "Favorites, 1 item",
                "Favorites, " + WishlistState.count.to_string() + " items",
            ),
            "Favorites",
        ),
        title="Favorites",
    )
    return rx.cond(
        AuthState.is_authenticated,
        rx.popover.root(
            rx.box(rx.popover.trigger(button), badge, position="relative"),
            rx.popover.content(
                rx.vstack(
                    rx.hstack(
                        rx.heading("Your Favorites", size="3", as_="h2"),
                        rx.cond(
                            WishlistState.loaded,
                            rx.text("(", WishlistState.count, ")", size="2", color_scheme="gray"),
                        ),
                        align="baseline",
                        spacing="2",
                    ),
                    rx.cond(
                        ~WishlistState.loaded,  # not "No favorites yet" before they have arrived
                        rx.text("Loading your favorites...", size="2", color_scheme="gray", role="status"),
                        rx.cond(
                            WishlistState.count > 0,
                            rx.vstack(
                                rx.scroll_area(
                                    rx.vstack(
                                        rx.foreach(WishlistState.items, _favorite),
                                        spacing="3",
                                        padding_right="0.75rem",
                                    ),
                                    max_height="256px",
                                    type="auto",
                                    scrollbars="vertical",
                                ),
                                rx.button(
                                    "View All Favorites",
                                    width="100%",
                                    on_click=rx.redirect(routes.ACCOUNT_WISHLIST),
                                ),
                                spacing="3",
                                width="100%",
                            ),
                            rx.vstack(
                                rx.text("No favorites yet", weight="medium"),
                                rx.text(
                                    "Heart items you love to save them here", size="2", color_scheme="gray"
                                ),
                                spacing="1",
                            ),
                        ),
                    ),
                    spacing="3",
                ),
                width="min(22rem, 92vw)",
            ),
        ),
        rx.box(
            rx.icon_button(
                rx.icon("heart", size=20),
                variant="ghost",
                color_scheme="gray",
                size="2",
                aria_label="Favorites",
                title="Favorites",
                on_click=AuthDialogState.open_sign_in,
            ),
            position="relative",
        ),
    )


def session_cookie_fetcher() -> rx.Component:
    """Right after a sign-in, the page asks the server for the HttpOnly session cookie, once.

    The element only carries the single-use ticket; ``assets/shop.js`` trades each ticket once per
    tab (it remembers the tickets it traded), so a page that mounts the element again (the page
    after /auth, the next page of the dialog's tab, a reload) does not ask for the spent ticket.
    """
    return rx.cond(
        AuthState.cookie_ticket != "",
        rx.el.span(custom_attrs={"data-sign-in-ticket": AuthState.cookie_ticket}, hidden=True),
    )
