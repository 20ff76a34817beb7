"""A mailing-list box (footer) or newsletter box (home)."""

from __future__ import annotations

import reflex as rx

from shop_app.state.newsletter import NewsletterState


def newsletter_form(source: str, *, button: str = "Subscribe") -> rx.Component:
    """E-mail box and button; ``source`` tells the boxes apart (and names the input)."""
    input_id = f"{source}-email"
    return rx.form(
        rx.hstack(
            rx.el.label("Email address", html_for=input_id, class_name="sr-only"),
            rx.input(
                id=input_id,
                name="email",
                type="email",
                placeholder="Your email address",
                required=True,
                size="3",
                flex="1",
                auto_complete="email",
            ),
            rx.el.input(type="hidden", name="source", value=source),
            rx.button(button, type="submit", size="3"),
            width="100%",
            max_width="28rem",
        ),
        on_submit=NewsletterState.subscribe,
        reset_on_submit=False,
        width="100%",
    )
