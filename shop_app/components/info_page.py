"""Building blocks of the information pages (FAQ, Reviews, Contact, About): a page heading with
its lead paragraph, and titled sections, in the home page's type scale."""

from __future__ import annotations

import reflex as rx


def info_heading(title: str, lead: str | rx.Component) -> rx.Component:
    """The page's h1 and the paragraph under it."""
    return rx.vstack(
        rx.heading(title, size="8", as_="h1"),
        rx.text(lead, size="4", color_scheme="gray") if isinstance(lead, str) else lead,
        spacing="3",
        max_width="44rem",
    )


def info_section(title: str, *children: rx.Component, **props) -> rx.Component:
    """A section with an h2."""
    return rx.el.section(
        rx.vstack(rx.heading(title, size="6", as_="h2"), *children, spacing="4", width="100%", **props),
        width="100%",
    )


def accent_circle(content: rx.Component, **props) -> rx.Component:
    """An icon or a figure in a small round accent-coloured disc (contact details, commitments, steps)."""
    return rx.center(
        content,
        width="2.5rem",
        height="2.5rem",
        border_radius="50%",
        background_color=rx.color("accent", 3),
        color=rx.color("accent", 11),
        **props,
    )
