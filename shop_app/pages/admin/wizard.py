"""The 6-step product creation wizard (work in progress)."""

from __future__ import annotations

import reflex as rx


def product_wizard() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("the 6-step product creation wizard", as_="h1")
