"""The orders list (work in progress)."""

from __future__ import annotations

import reflex as rx


def admin_orders() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("the orders list", as_="h1")
