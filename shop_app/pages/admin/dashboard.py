"""/admin: the back office's dashboard (docs/spec/admin.md#dashboard): figures, quick links and three tabs.

Also shown on /admin/products and the nested /admin/dashboard/... paths, opened on the
Product Management tab. Non-admins never get here: the layout shows "Access Denied".
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.dashboard_admins import admin_management
from shop_app.components.admin.dashboard_images import website_images_preview
from shop_app.components.admin.dashboard_products import product_management
from shop_app.components.admin.dashboard_sales import sales_overview
from shop_app.components.admin.product_parts import figure_card, stats_grid
from shop_app.state.admin.dashboard import PRODUCTS_TAB
from shop_app.state.admin.dashboard import AdminDashboardState as S

ADMINS_TAB = "admins"
IMAGES_TAB = "images"

QUICK_LINKS = (
    ("Orders", "Paid orders: ship, cancel or refund", routes.ADMIN_ORDERS, "receipt"),
    (
        "Create Product",
        "Six steps, published to the shop and Square",
        routes.ADMIN_PRODUCT_CREATION,
        "circle_plus",
    ),
    ("Manage Products", "Edit, archive, variants and Square sync", routes.ADMIN_MANAGE_PRODUCTS, "package"),
    ("Categories", "Main categories and collections", routes.ADMIN_MANAGE_CATEGORIES, "folder_tree"),
    ("Website Images", "Hero, category cards, mission and about", routes.ADMIN_MANAGE_IMAGES, "image"),
)


def _quick_link(title: str, hint: str, href: str, icon: str) -> rx.Component:
    return rx.card(
        rx.link(
            rx.hstack(
                rx.icon(icon, size=22, color=rx.color("accent", 10)),
                rx.vstack(
                    rx.text(title, weight="medium", color=rx.color("gray", 12)),
                    rx.text(hint, size="1", color_scheme="gray"),
                    spacing="0",
                ),
                spacing="3",
                align="center",
            ),
            href=href,
            underline="none",
        ),
        as_child=True,  # the whole card is the link: one element, one tab stop
    )


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Product Management", value=PRODUCTS_TAB),
            rx.tabs.trigger("Admin Management", value=ADMINS_TAB),
            rx.tabs.trigger("Website Images", value=IMAGES_TAB),
        ),
        rx.tabs.content(product_management(), value=PRODUCTS_TAB, padding_top="1rem"),
        rx.tabs.content(admin_management(), value=ADMINS_TAB, padding_top="1rem"),
        rx.tabs.content(website_images_preview(), value=IMAGES_TAB, padding_top="1rem"),
        value=S.tab,
        on_change=S.set_tab,
        width="100%",
    )


def dashboard() -> rx.Component:
    """Figures of the shop, the sales overview, quick links, then the tabs."""
    return rx.vstack(
        rx.heading("Admin Dashboard", size="8", as_="h1"),
        stats_grid(
            figure_card("Total Products", S.products),
            figure_card("Active", S.active_products),
            figure_card("Low Stock", S.low_stock),
            figure_card("Paid Orders", S.paid_orders),
            figure_card("Customers", S.customers),
            figure_card("Verified Customers", S.verified_customers),
            figure_card("Newsletter Subscribers", S.subscribers),
        ),
        sales_overview(),
        rx.el.nav(
            rx.grid(
                *(_quick_link(*link) for link in QUICK_LINKS),
                columns=rx.breakpoints(initial="1", sm="2", lg="4"),
                spacing="4",
                width="100%",
            ),
            aria_label="Quick links",
            width="100%",
        ),
        _tabs(),
        spacing="5",
        width="100%",
        max_width="1200px",
    )
