"""Small pieces of the back office's order screens: the status badge, cards, label-value rows."""

from __future__ import annotations

import reflex as rx


def order_admin_status_badge(label: rx.Var[str] | str, colour: rx.Var[str] | str) -> rx.Component:
    """An order status in the seed's colours (pending yellow, processing blue …, others grey)."""
    return rx.badge(label, color_scheme=colour, variant="soft", high_contrast=True, size="2")  # WCAG AA


def order_admin_not_charged_badge() -> rx.Component:
    """The mark of an order placed with the simulated PayPal of local mode: no money was taken."""
    return order_admin_status_badge("Not charged", "gray")


def order_admin_card(title: str, *children: rx.Component, **props) -> rx.Component:
    """A titled card of the order page (the title is a heading, for screen-reader navigation)."""
    return rx.card(
        rx.vstack(rx.heading(title, size="4", as_="h2"), *children, spacing="3", width="100%"),
        width="100%",
        **props,
    )


def order_admin_fact(label: str, value: rx.Component | rx.Var[str] | str) -> rx.Component:
    """One label and its value, side by side."""
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray", min_width="8rem"),
        value if isinstance(value, rx.Component) else rx.text(value, size="2", word_break="break-all"),
        spacing="3",
        align="start",
        width="100%",
    )
