"""Manage Categories (work in progress)."""

from __future__ import annotations

import reflex as rx


def manage_categories() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("Manage Categories", as_="h1")
