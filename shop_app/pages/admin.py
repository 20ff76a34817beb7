"""/admin: the back office's dashboard (admins only; others are sent home)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.notification import notification
from shop_app.state.admin import AdminDashboardState as S


def _stat(label: str, value: rx.Var[int]) -> rx.Component:
    return rx.card(
        rx.vstack(rx.text(label, size="2", color_scheme="gray"), rx.heading(value, size="7"), spacing="1")
    )


def admin_dashboard() -> rx.Component:
    """Figures of the shop."""
    return rx.box(
        rx.cond(
            S.allowed,
            rx.vstack(
                rx.hstack(
                    rx.heading("Admin Dashboard", size="8", as_="h1"),
                    rx.spacer(),
                    rx.link("Back to site", href=routes.HOME),
                    width="100%",
                    align="center",
                ),
                rx.grid(
                    _stat("Total Products", S.products),
                    _stat("Active", S.active_products),
                    _stat("Low Stock", S.low_stock),
                    _stat("Paid Orders", S.paid_orders),
                    _stat("Customers", S.customers),
                    _stat("Verified Customers", S.verified_customers),
                    _stat("Newsletter Subscribers", S.subscribers),
                    columns=rx.breakpoints(initial="2", md="4"),
                    spacing="4",
                    width="100%",
                ),
                spacing="5",
            ),
            rx.center(rx.spinner(size="3"), padding_y="6rem"),
        ),
        notification(),
        max_width="1200px",
        margin_x="auto",
        padding="2rem 1rem",
    )
