"""Form fields shared by the sign-in dialog and the /auth page."""

from __future__ import annotations

from typing import Any

import reflex as rx


def field(
    label: str,
    name: str,
    *,
    type_: str = "text",
    required: bool = True,
    auto_complete: str = "",
    id_prefix: str = "auth",
    default: str = "",
    invalid: rx.Var[bool] | None = None,
    on_blur: Any = None,
) -> rx.Component:
    """A labelled input (``invalid``: while true, marked ``aria-invalid`` with a red border and
    described by the form's error, ``{id_prefix}-error``; ``on_blur``: told the value when the
    field is left)."""
    input_id = f"{id_prefix}-{name}"
    marks: dict = {} if on_blur is None else {"on_blur": on_blur}
    if invalid is not None:
        marks |= {
            "custom_attrs": {
                "aria-invalid": rx.cond(invalid, "true", "false"),
                "aria-describedby": rx.cond(invalid, f"{id_prefix}-error", ""),
            },
            # Radix draws the field's border as an inset shadow: a wrong field gets a red one.
            "box_shadow": rx.cond(invalid, "inset 0 0 0 1px var(--red-9)", ""),
        }
    return rx.vstack(
        rx.el.label(label, html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        rx.input(
            id=input_id,
            name=name,
            type=type_,
            required=required,
            auto_complete=auto_complete or None,
            default_value=default,
            size="3",
            width="100%",
            **marks,
        ),
        spacing="1",
        width="100%",
    )


def password_field(
    label: str,
    name: str,
    *,
    state: type[rx.State],
    auto_complete: str,
    id_prefix: str = "auth",
) -> rx.Component:
    """A password input with a show/hide toggle (``state`` has ``show_password`` and ``toggle_password``)."""
    shown, on_toggle = state.show_password, state.toggle_password
    input_id = f"{id_prefix}-{name}"
    return rx.vstack(
        rx.el.label(label, html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        rx.input(
            rx.input.slot(
                rx.icon_button(
                    rx.cond(shown, rx.icon("eye-off", size=16), rx.icon("eye", size=16)),
                    type="button",
                    variant="ghost",
                    size="1",
                    color_scheme="gray",
                    aria_label=rx.cond(shown, "Hide password", "Show password"),
                    aria_pressed=shown,
                    on_click=on_toggle,
                ),
                side="right",
            ),
            id=input_id,
            name=name,
            type=rx.cond(shown, "text", "password"),
            required=True,
            auto_complete=auto_complete,
            size="3",
            width="100%",
        ),
        spacing="1",
        width="100%",
    )


def checkbox(label: str, name: str, *, default: bool = False) -> rx.Component:
    """A labelled checkbox that submits "on" when ticked."""
    return rx.el.label(
        rx.hstack(
            rx.checkbox(name=name, default_checked=default),
            rx.text(label, size="2"),
            align="center",
            spacing="2",
        ),
    )


def error_text(message: rx.Var[str]) -> rx.Component:
    """The latest error, announced to screen readers."""
    return rx.cond(
        message != "",
        rx.callout(message, icon="triangle_alert", color_scheme="red", role="alert", width="100%"),
    )


def submit_button(label: str, busy_label: str, busy: rx.Var[bool]) -> rx.Component:
    """The form's full-width submit button: ``busy_label`` and disabled while ``busy``."""
    return rx.button(rx.cond(busy, busy_label, label), type="submit", size="3", width="100%", disabled=busy)


def name_fields(id_prefix: str) -> rx.Component:
    """First name and Last name, side by side."""
    return rx.hstack(
        field("First name", "first_name", auto_complete="given-name", id_prefix=id_prefix),
        field("Last name", "last_name", auto_complete="family-name", id_prefix=id_prefix),
        width="100%",
    )


def new_password_fields(state: type[rx.State], id_prefix: str) -> tuple[rx.Component, rx.Component]:
    """A new password and its confirmation (Sign Up), to unpack into the form."""
    return (
        password_field(
            "Password", "password", state=state, auto_complete="new-password", id_prefix=id_prefix
        ),
        password_field(
            "Confirm password",
            "confirm_password",
            state=state,
            auto_complete="new-password",
            id_prefix=id_prefix,
        ),
    )


def email_field(id_prefix: str) -> rx.Component:
    """The account's e-mail address."""
    return field("Email", "email", type_="email", auto_complete="email", id_prefix=id_prefix)


def sign_in_fields(state: type[rx.State], id_prefix: str) -> tuple[rx.Component, rx.Component]:
    """E-mail and current password (Sign In), to unpack into the form."""
    return (
        email_field(id_prefix),
        password_field(
            "Password", "password", state=state, auto_complete="current-password", id_prefix=id_prefix
        ),
    )
