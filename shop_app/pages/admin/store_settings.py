"""Store settings (work in progress)."""

from __future__ import annotations

import reflex as rx


def store_settings() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("store settings", as_="h1")
