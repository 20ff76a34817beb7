"""The catch-all not-found page with a link home."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout


@public_layout
def not_found() -> rx.Component:
    """Shown for any unknown route."""
    return rx.vstack(
        rx.heading("Page Not Found", size="8", as_="h1"),
        rx.text("The page you are looking for does not exist."),
        rx.link("Back to Home", href=routes.HOME),
        spacing="4",
        align="center",
        width="100%",
    )
