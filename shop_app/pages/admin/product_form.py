"""The local product form (add and edit) (work in progress)."""

from __future__ import annotations

import reflex as rx


def product_form() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("the local product form (add and edit)", as_="h1")
