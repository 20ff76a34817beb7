"""The inbox of contact messages and order inquiries (work in progress)."""

from __future__ import annotations

import reflex as rx


def inbox() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("the inbox of contact messages and order inquiries", as_="h1")
