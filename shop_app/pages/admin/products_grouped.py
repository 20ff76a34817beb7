"""Manage Products (grouped view) (work in progress)."""

from __future__ import annotations

import reflex as rx


def manage_products_grouped() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("Manage Products (grouped view)", as_="h1")
