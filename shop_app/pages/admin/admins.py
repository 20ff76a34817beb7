"""Manage Admins (work in progress)."""

from __future__ import annotations

import reflex as rx


def manage_admins() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("Manage Admins", as_="h1")
