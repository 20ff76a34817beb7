"""One order (work in progress)."""

from __future__ import annotations

import reflex as rx


def admin_order() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("one order", as_="h1")
