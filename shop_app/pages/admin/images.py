"""The website images screen (work in progress)."""

from __future__ import annotations

import reflex as rx


def website_images() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.heading("the website images screen", as_="h1")
