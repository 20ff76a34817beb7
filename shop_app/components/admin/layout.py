"""The back office's layout: a sidebar beside the page, outside the public layout.

The page content is rendered only once the server has confirmed an admin (``AdminGuardState``);
until then a spinner shows. Non-admins are redirected home by the page's ``check`` on-load
handler; the dashboard keeps them and shows "Access Denied" instead.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import reflex as rx

from shop_app import routes
from shop_app.components.account_menu import SIGN_OUT_FORM, SIGN_OUT_FORM_ID, session_cookie_fetcher
from shop_app.components.link_button import PREFETCH_ON_RENDER
from shop_app.components.notification import notification
from shop_app.components.skip_link import skip_link
from shop_app.state.admin.guard import ACCESS_DENIED
from shop_app.state.admin.guard import AdminGuardState as G


class Section(StrEnum):
    """Which sidebar entry a page belongs to (highlighted there)."""

    DASHBOARD = "dashboard"
    ORDERS = "orders"
    INBOX = "inbox"
    PRODUCTS = "products"
    CATEGORIES = "categories"
    DISCOUNTS = "discounts"
    IMAGES = "images"
    SETTINGS = "settings"
    ADMINS = "admins"
    CUSTOMERS = "customers"
    NONE = ""


_NAV: tuple[tuple[Section, str, str, str], ...] = (
    (Section.DASHBOARD, "Dashboard", routes.ADMIN, "layout-dashboard"),
    (Section.ORDERS, "Orders", routes.ADMIN_ORDERS, "receipt"),
    (Section.INBOX, "Inbox", routes.ADMIN_INBOX, "inbox"),
    (Section.PRODUCTS, "Products", routes.ADMIN_MANAGE_PRODUCTS, "package"),  # the product list itself
    (Section.CATEGORIES, "Categories", routes.ADMIN_MANAGE_CATEGORIES, "folder-tree"),
    (Section.DISCOUNTS, "Discounts", routes.ADMIN_DISCOUNTS, "ticket-percent"),
    (Section.IMAGES, "Images", routes.ADMIN_IMAGES, "image"),
    (Section.CUSTOMERS, "Customers", routes.ADMIN_VIEW_USERS, "users"),
    (Section.ADMINS, "Admins", routes.ADMIN_MANAGE_ADMINS, "shield-check"),
    (Section.SETTINGS, "Settings", routes.ADMIN_SETTINGS, "settings"),
)


def _nav_link(section: Section, label: str, href: str, icon: str, *, active: Section) -> rx.Component:
    current = section == active
    return rx.link(
        rx.hstack(rx.icon(icon, size=18), rx.text(label, size="2"), spacing="3", align="center"),
        href=href,
        underline="none",
        class_name="admin-nav-link",
        # Darker on hover, not rx.link's pale accent (which a phone keeps on the tapped link).
        _hover={"color": rx.color("gray", 12)},
        custom_attrs={"aria-current": "page"} if current else PREFETCH_ON_RENDER,
        color=rx.color("gray", 12) if current else rx.color("gray", 11),
        background=rx.color("accent", 4) if current else "transparent",
        padding="0.5rem 0.75rem",
        border_radius="var(--radius-2)",
        width="100%",
    )


def sidebar(active: Section) -> rx.Component:
    """The back office's screens, then Back to site and Logout."""
    return rx.el.nav(
        rx.vstack(
            # The sidebar's title, not a heading: the nav is named "Admin" already, and the page's
            # own headings (one h1) are its outline. (Radix's Heading renders only h1–h6, whatever
            # its `as`, so this is bold text.)
            rx.text(
                "Admin",
                size="4",
                weight="bold",
                as_="p",
                padding_x="0.75rem",
                padding_bottom="0.5rem",
                class_name="admin-sidebar__title",
            ),
            *(_nav_link(*entry, active=active) for entry in _NAV),
            rx.separator(margin_y="0.5rem"),
            rx.link(
                rx.hstack(rx.icon("store", size=18), rx.text("Back to site", size="2"), spacing="3"),
                href=routes.HOME,
                underline="none",
                color=rx.color("gray", 11),
                _hover={"color": rx.color("gray", 12)},
                padding="0.5rem 0.75rem",
                class_name="admin-nav-link",
            ),
            # Logout posts the sign-out form: the server ends the session and sends the browser to /.
            rx.html(SIGN_OUT_FORM),
            rx.el.button(
                rx.hstack(rx.icon("log-out", size=18), rx.text("Logout", size="2"), spacing="3"),
                type="submit",
                class_name="admin-logout",
                custom_attrs={"form": SIGN_OUT_FORM_ID},
            ),
            spacing="1",
            align="stretch",
        ),
        aria_label="Admin",
        class_name="admin-sidebar",
    )


def _denied() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.icon("shield-alert", size=40, color=rx.color("red", 9)),
            rx.heading(ACCESS_DENIED, size="4", weight="medium", as_="h1", text_align="center"),
            rx.link("Back to site", href=routes.HOME),
            align="center",
            spacing="3",
            role="alert",
        ),
        padding_y="6rem",
    )


def admin_layout(content: Callable[[], rx.Component], *, active: Section) -> Callable[[], rx.Component]:
    """Wrap a back-office page: sidebar, guarded content, notifications."""

    def page() -> rx.Component:
        return rx.box(
            skip_link(),
            rx.flex(
                # Only an administrator sees the back office's screens listed (a visitor sent to
                # /admin reads "Access Denied", not the way around the back office).
                rx.cond(G.allowed, sidebar(active)),
                rx.el.main(
                    rx.cond(
                        G.allowed,
                        content(),
                        rx.cond(
                            G.checked,
                            _denied(),
                            rx.center(
                                rx.spinner(size="3"), padding_y="6rem", role="status", aria_label="Loading"
                            ),
                        ),
                    ),
                    id="main",
                    tab_index=-1,
                    class_name="admin-main",
                ),
                direction=rx.breakpoints(initial="column", md="row"),
                min_height="100vh",
            ),
            notification(),
            session_cookie_fetcher(),
        )

    page.__name__ = f"admin_{content.__name__}"
    return page
