"""/admin: the back office's dashboard."""

from __future__ import annotations

import reflex as rx

from shop_app.state.admin.guard import AdminDashboardState as S


def _stat(label: str, value: rx.Var[int]) -> rx.Component:
    return rx.card(
        rx.vstack(rx.text(label, size="2", color_scheme="gray"), rx.heading(value, size="7"), spacing="1")
    )


def dashboard() -> rx.Component:
    """Figures of the shop."""
    return rx.vstack(
        rx.heading("Admin Dashboard", size="8", as_="h1"),
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
        max_width="1200px",
    )
