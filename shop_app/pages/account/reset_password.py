"""/reset-password?token=…: choose a new password."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.auth_forms import error_text, password_field
from shop_app.components.layout import public_layout
from shop_app.domain.messages import AuthMessage
from shop_app.state.reset_password import ResetPasswordState as S


@public_layout
def reset_password() -> rx.Component:
    """The new-password form of a mailed link."""
    return rx.center(
        rx.card(
            rx.vstack(
                rx.heading("Choose a new password", size="6", as_="h1"),
                rx.cond(
                    ~S.checked,
                    rx.spinner(),
                    rx.cond(
                        S.link_ok,
                        rx.form(
                            rx.vstack(
                                password_field(
                                    "New password",
                                    "password",
                                    state=S,
                                    auto_complete="new-password",
                                    id_prefix="reset",
                                ),
                                password_field(
                                    "Confirm new password",
                                    "confirm_password",
                                    state=S,
                                    auto_complete="new-password",
                                    id_prefix="reset",
                                ),
                                error_text(S.error),
                                rx.button(
                                    "Save new password",
                                    type="submit",
                                    size="3",
                                    width="100%",
                                    loading=S.submitting,
                                    disabled=S.submitting,
                                ),
                                spacing="3",
                            ),
                            on_submit=S.submit,
                            reset_on_submit=False,
                        ),
                        rx.vstack(
                            rx.text(AuthMessage.RESET_LINK_INVALID.value),
                            rx.link("Go to sign in", href=routes.AUTH),
                            spacing="3",
                        ),
                    ),
                ),
                spacing="4",
            ),
            width="min(28rem, 100%)",
        ),
        width="100%",
    )
