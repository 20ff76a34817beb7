"""The sign-in dialog opened by the favourites heart and the account icon."""

from __future__ import annotations

import reflex as rx

from shop_app.state.auth_dialog import AuthDialogState


def auth_dialog() -> rx.Component:
    """Welcome Back: signing in arrives with customer accounts; guests can keep shopping."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.dialog.title("Welcome Back"),
                rx.dialog.description(
                    "Sign in to save your favorites and follow your orders. "
                    "You can always check out as a guest."
                ),
                rx.dialog.close(rx.button("Continue as Guest", variant="soft")),
                spacing="4",
                align="start",
            ),
            max_width="26rem",
        ),
        open=AuthDialogState.is_open,
        on_open_change=AuthDialogState.set_open,
    )
