"""/account: greeting and profile card with Edit Profile."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.auth_forms import field
from shop_app.components.layout import public_layout
from shop_app.components.notice import notice
from shop_app.pages.account.signed_out import account_view, please_sign_in
from shop_app.state.account import NOT_SET, AccountState


def _value(label: str, value: rx.Var[str], *, badge: str = "") -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label),
        rx.data_list.value(
            rx.hstack(
                rx.cond(value != "", rx.text(value), rx.text(NOT_SET, color_scheme="gray")),
                rx.badge(badge, color_scheme="gray") if badge else rx.fragment(),
                spacing="2",
                align="center",
            )
        ),
    )


def _view() -> rx.Component:
    return rx.vstack(
        rx.data_list.root(
            _value("First name", AccountState.first_name),
            _value("Last name", AccountState.last_name),
            _value("Email", AccountState.email, badge="Cannot be changed"),
            _value("Phone", AccountState.phone),
        ),
        rx.button("Edit Profile", on_click=AccountState.edit, size="3"),
        spacing="4",
        align="start",
    )


def _edit() -> rx.Component:
    return rx.form(
        rx.vstack(
            field(
                "First name",
                "first_name",
                auto_complete="given-name",
                id_prefix="profile",
                default=AccountState.first_name,
            ),
            field(
                "Last name",
                "last_name",
                auto_complete="family-name",
                id_prefix="profile",
                default=AccountState.last_name,
            ),
            rx.vstack(
                rx.el.label(
                    "Email", html_for="profile-email", font_size="var(--font-size-2)", font_weight="500"
                ),
                rx.hstack(
                    # Named, as Reflex 0.10.1 asks of every submitted control (an id alone is
                    # deprecated); AccountState.save ignores it: the e-mail cannot change.
                    rx.input(
                        id="profile-email",
                        name="profile-email",
                        value=AccountState.email,
                        read_only=True,
                        size="3",
                        width="100%",
                    ),
                    rx.badge("Cannot be changed", color_scheme="gray"),
                    align="center",
                    width="100%",
                ),
                spacing="1",
                width="100%",
            ),
            field(
                "Phone",
                "phone",
                type_="tel",
                required=False,
                auto_complete="tel",
                id_prefix="profile",
                default=AccountState.phone,
            ),
            rx.hstack(
                rx.button("Save Changes", type="submit", size="3"),
                rx.button("Cancel", type="button", variant="soft", size="3", on_click=AccountState.cancel),
            ),
            spacing="3",
            max_width="28rem",
        ),
        on_submit=AccountState.save,
        reset_on_submit=False,
    )


def _verify_notice() -> rx.Component:
    return rx.cond(
        ~AccountState.email_verified,
        notice(
            "Please verify your email address. We sent you a link when you created your account.",
            icon="mail",
            action=rx.button(
                "Resend verification email",
                size="1",
                variant="soft",
                on_click=AccountState.resend_verification,
                width="fit-content",
            ),
            color_scheme="amber",
            width="100%",
        ),
    )


@public_layout
def account() -> rx.Component:
    """The profile page."""
    return account_view(
        rx.vstack(
            rx.heading("Hello, ", AccountState.greeting_name, size="8", as_="h1"),
            _verify_notice(),
            rx.card(
                rx.vstack(
                    rx.heading("Profile", size="5", as_="h2"),
                    rx.cond(AccountState.editing, _edit(), _view()),
                    spacing="4",
                ),
                width="100%",
                max_width="40rem",
            ),
            rx.hstack(
                rx.link("Order History", href=routes.ACCOUNT_ORDERS),
                rx.link("Favorites", href=routes.ACCOUNT_WISHLIST),
                spacing="5",
            ),
            spacing="5",
            align="start",
        ),
        ready=AccountState.loaded,
        signed_out=please_sign_in("You need to be logged in to view your account."),
    )
