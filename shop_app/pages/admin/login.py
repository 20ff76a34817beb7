"""/admin/login: the legacy admin login page (docs/spec/admin.md#routes)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.state.auth_dialog import AuthDialogState


@public_layout
def admin_login() -> rx.Component:
    """Signed-out visitors learn where admin sign-in lives now; the signed-in are redirected."""
    return rx.center(
        rx.card(
            rx.vstack(
                rx.heading("Admin Login", size="6", as_="h1"),
                rx.text(
                    "Admin access now goes through the main sign-in. Sign in with your admin "
                    "account, then open the dashboard.",
                    size="2",
                    color_scheme="gray",
                ),
                rx.button("Sign In", on_click=AuthDialogState.open_sign_in, width="100%"),
                rx.hstack(
                    link_button("Go to Homepage", routes.HOME, variant="soft", flex="1"),
                    link_button("Go to Admin Dashboard", routes.ADMIN, variant="outline", flex="1"),
                    width="100%",
                ),
                spacing="4",
            ),
            max_width="420px",
            width="100%",
        ),
        padding_y="4rem",
    )
