"""What private pages show to a visitor who is not signed in."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.link_button import link_button
from shop_app.components.skeletons import account_skeleton
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState


def please_sign_in(text: str, *, home_link: bool = False) -> rx.Component:
    """The seed's "Please Sign In" block, with a way to sign in."""
    return rx.vstack(
        rx.heading("Please Sign In", size="7", as_="h1"),
        rx.text(text, color_scheme="gray"),
        rx.hstack(
            rx.button("Sign In", size="3", on_click=AuthDialogState.open_sign_in),
            link_button("Go Home", routes.HOME, size="3", variant="outline")
            if home_link
            else link_button("Sign in or create an account", routes.AUTH, size="3", variant="outline"),
            spacing="3",
        ),
        align="center",
        spacing="4",
        padding_y="4rem",
        width="100%",
    )


def account_view(
    content: rx.Component, *, ready: rx.Var[bool], signed_out: rx.Component, loading_text: str = ""
) -> rx.Component:
    """A private page: its content once the visitor is signed in *and* the page's own data has
    arrived (``ready``), the sign-in block for a visitor known to be signed out, else placeholders
    (issue 15: a page never shows defaults that are not true while it loads), with the page's own
    ``loading_text``."""
    return rx.cond(
        AuthState.is_authenticated & ready,
        content,
        rx.cond(
            AuthState.auth_loaded & ~AuthState.is_authenticated, signed_out, account_skeleton(loading_text)
        ),
    )
