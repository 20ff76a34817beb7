"""The sign-in dialog: Sign In / Create Account tabs, Forgot password, Continue as Guest."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.auth_forms import (
    checkbox,
    email_field,
    error_text,
    field,
    name_fields,
    new_password_fields,
    sign_in_fields,
    submit_button,
)
from shop_app.domain.messages import AuthMessage
from shop_app.state.auth_dialog import AuthDialogState as S

PREFIX = "dialog"


def _login_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            *sign_in_fields(S, PREFIX),
            rx.hstack(
                checkbox("Remember me", "remember_me"),
                rx.spacer(),
                rx.button(
                    "Forgot password?", type="button", variant="ghost", size="1", on_click=S.set_tab("forgot")
                ),
                width="100%",
                align="center",
            ),
            error_text(S.error),
            submit_button("Sign In", AuthMessage.SIGNING_IN.value, S.submitting),
            spacing="3",
        ),
        on_submit=S.submit_login,
        reset_on_submit=False,
    )


def _register_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            name_fields(PREFIX),
            email_field(PREFIX),
            field(
                "Phone (optional)",
                "phone",
                type_="tel",
                required=False,
                auto_complete="tel",
                id_prefix=PREFIX,
            ),
            *new_password_fields(S, PREFIX),
            checkbox("Email me about new scents and offers", "email_notifications", default=True),
            checkbox("Text me about my orders", "sms_notifications"),
            rx.hstack(
                checkbox("I agree to the", "agree_to_terms"),
                rx.link("Terms of Service", href=routes.TERMS, size="2"),
                rx.text("and", size="2"),
                rx.link("Privacy Policy", href=routes.PRIVACY, size="2"),
                wrap="wrap",
                spacing="1",
                align="center",
            ),
            error_text(S.error),
            submit_button("Create Account", AuthMessage.CREATING_ACCOUNT.value, S.submitting),
            spacing="3",
        ),
        on_submit=S.submit_register,
        reset_on_submit=False,
    )


def _forgot_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.text(
                "Enter the email of your account and we will send you a link to choose a new password.",
                size="2",
                color_scheme="gray",
            ),
            email_field(f"{PREFIX}-forgot"),
            rx.cond(S.notice != "", rx.callout(S.notice, icon="mail", role="status", width="100%")),
            rx.button("Send reset link", type="submit", size="3", width="100%"),
            rx.button("Back to Sign In", type="button", variant="ghost", on_click=S.set_tab("login")),
            spacing="3",
        ),
        on_submit=S.submit_forgot,
        reset_on_submit=False,
    )


def auth_dialog() -> rx.Component:
    """Opened by the account icon, the hearts, and checkout's sign-in buttons."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.dialog.title(
                    rx.match(
                        S.tab,
                        ("register", "Join Our Community"),
                        ("forgot", "Reset your password"),
                        "Welcome Back",
                    ),
                    margin="0",
                ),
                rx.dialog.description(
                    "Sign in or create an account to save favorites and follow your orders.",
                    size="2",
                    color_scheme="gray",
                ),
                rx.cond(
                    S.tab == "forgot",
                    _forgot_form(),
                    rx.tabs.root(
                        rx.tabs.list(
                            rx.tabs.trigger("Sign In", value="login"),
                            rx.tabs.trigger("Create Account", value="register"),
                        ),
                        rx.tabs.content(_login_form(), value="login", padding_top="1rem"),
                        rx.tabs.content(_register_form(), value="register", padding_top="1rem"),
                        value=S.tab,
                        on_change=S.set_tab,
                        width="100%",
                    ),
                ),
                rx.dialog.close(rx.button("Continue as Guest", variant="soft", width="100%")),
                rx.text(
                    "Ordered as a guest? ",
                    rx.link("Find your order", href=routes.ORDER_LOOKUP),
                    size="2",
                    color_scheme="gray",
                    text_align="center",
                ),
                spacing="4",
            ),
            max_width="30rem",
        ),
        open=S.is_open,
        on_open_change=S.set_open,
    )
