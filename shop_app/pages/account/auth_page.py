"""/auth: full-page Sign In / Sign Up (outside the public layout)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.account_menu import session_cookie_fetcher
from shop_app.components.auth_forms import (
    email_field,
    error_text,
    name_fields,
    new_password_fields,
    sign_in_fields,
    submit_button,
)
from shop_app.components.notification import notification
from shop_app.domain.messages import AuthMessage
from shop_app.state.auth import AuthState
from shop_app.state.auth_page import AuthPageState as S
from shop_app.state.site import SiteState

PREFIX = "page"


def _sign_in() -> rx.Component:
    return rx.form(
        rx.vstack(
            *sign_in_fields(S, PREFIX),
            error_text(S.error),
            submit_button("Sign In", AuthMessage.SIGNING_IN.value, S.submitting),
            spacing="3",
        ),
        on_submit=S.submit_login,
        reset_on_submit=False,
    )


def _sign_up() -> rx.Component:
    return rx.form(
        rx.vstack(
            name_fields(f"{PREFIX}-up"),
            email_field(f"{PREFIX}-up"),
            *new_password_fields(S, f"{PREFIX}-up"),
            error_text(S.error),
            submit_button("Sign Up", AuthMessage.CREATING_ACCOUNT.value, S.submitting),
            spacing="3",
        ),
        on_submit=S.submit_register,
        reset_on_submit=False,
        key=S.form_key,
    )


def auth_page() -> rx.Component:
    """Sign in or sign up."""
    return rx.center(
        rx.cond(
            AuthState.auth_loaded & ~AuthState.is_authenticated,
            rx.card(
                rx.vstack(
                    rx.link("← Back to home", href=routes.HOME, size="2"),
                    rx.heading(SiteState.brand_name, size="6", as_="h1"),
                    rx.tabs.root(
                        rx.tabs.list(
                            rx.tabs.trigger("Sign In", value="signin"),
                            rx.tabs.trigger("Sign Up", value="signup"),
                        ),
                        rx.tabs.content(_sign_in(), value="signin", padding_top="1rem"),
                        rx.tabs.content(_sign_up(), value="signup", padding_top="1rem"),
                        value=S.tab,
                        on_change=S.set_tab,
                        width="100%",
                    ),
                    rx.text(
                        "By signing up, you agree to our Terms of Service and Privacy Policy.",
                        size="1",
                        color_scheme="gray",
                    ),
                    spacing="4",
                ),
                width="min(28rem, 100%)",
            ),
            rx.spinner(size="3"),
        ),
        notification(),
        session_cookie_fetcher(),
        min_height="100vh",
        padding="1rem",
        background_color=rx.color("gray", 2),
    )
