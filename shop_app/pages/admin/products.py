"""Manage Products (individual view) (work in progress)."""

from __future__ import annotations

import reflex as rx


def manage_products() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("Manage Products (individual view)", as_="h1")
