"""The tops of the back office's screens: title and line of text, actions, the way back."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.link_button import link_button


def page_title(title: str, text: str) -> rx.Component:
    """The screen's heading and, below it, what the screen is for."""
    return rx.vstack(
        rx.heading(title, size="7", as_="h1"),
        rx.text(text, color_scheme="gray", size="2"),
        spacing="1",
    )


def page_header(title: str, text: str, actions: rx.Component) -> rx.Component:
    """:func:`page_title` on the left, the screen's ``actions`` on the right (below it when narrow)."""
    return rx.flex(
        page_title(title, text),
        actions,
        justify="between",
        align="center",
        wrap="wrap",
        gap="1rem",
        width="100%",
    )


def back_to_dashboard_link() -> rx.Component:
    """ "Back to Dashboard" with an arrow, above a screen's heading."""
    return link_button(
        rx.hstack(rx.icon("arrow-left", size=16), "Back to Dashboard", spacing="2"),
        routes.ADMIN,
        variant="ghost",
    )


def title_with_back_button(title: str | rx.Var[str]) -> rx.Component:
    """The heading, and the "Back to Dashboard" button on the right (the product forms)."""
    return rx.hstack(
        rx.heading(title, size="7", as_="h1"),
        rx.spacer(),
        link_button("Back to Dashboard", routes.ADMIN, variant="soft", color_scheme="gray"),
        width="100%",
        align="center",
    )
