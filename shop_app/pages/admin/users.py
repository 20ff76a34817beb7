"""View Users (customers) (work in progress)."""

from __future__ import annotations

import reflex as rx


def view_users() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("View Users (customers)", as_="h1")
