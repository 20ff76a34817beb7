"""The contact form: four labelled fields, each with its own error, and a button that shows the
sending state. The values live in the browser's inputs (kept on errors, cleared on success)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.notice import notice
from shop_app.domain.contact import MAX_MESSAGE_LENGTH
from shop_app.domain.messages import ContactText
from shop_app.state.contact import FIELD_IDS, ContactState


def _field(label: str, name: str, error: rx.Var[str], *, hint: str = "", **input_props) -> rx.Component:
    """A label, the input (``multiline``: a text area), an optional hint and the field's error."""
    input_id, error_id, hint_id = FIELD_IDS[name], f"{FIELD_IDS[name]}-error", f"{FIELD_IDS[name]}-hint"
    with_error = f"{hint_id} {error_id}" if hint else error_id
    described_by = rx.cond(error != "", with_error, hint_id if hint else "")
    multiline = input_props.pop("multiline", False)
    common = {
        # Radix draws the field's border as an inset shadow: a wrong field gets a red one.
        "box_shadow": rx.cond(error != "", "inset 0 0 0 1px var(--red-9)", ""),
        "id": input_id,
        "name": name,
        "required": True,
        "width": "100%",
        "size": "3",
        "custom_attrs": {
            "aria-invalid": rx.cond(error != "", "true", "false"),
            "aria-describedby": described_by,
        },
        **input_props,
    }
    return rx.vstack(
        rx.el.label(label, html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        rx.text_area(rows="7", resize="vertical", **common) if multiline else rx.input(**common),
        rx.text(hint, id=hint_id, size="1", color_scheme="gray") if hint else rx.fragment(),
        rx.cond(
            error != "",
            rx.text(error, id=error_id, size="2", color_scheme="red", class_name="contact-field-error"),
        ),
        spacing="1",
        width="100%",
    )


def contact_form() -> rx.Component:
    """The 'Send us a message' form."""
    S = ContactState
    return rx.form(
        rx.vstack(
            rx.heading("Send Us a Message", size="5", as_="h2"),
            rx.cond(
                S.thanked_name != "",
                notice(
                    rx.text.strong("Thank you, ", S.thanked_name, "!"),
                    " Your message has reached us, and we will reply within one to two business days.",
                    icon="circle_check",
                    color_scheme="green",
                    role="status",
                    width="100%",
                ),
            ),
            rx.cond(
                S.error != "",
                rx.callout(S.error, icon="triangle_alert", color_scheme="red", role="alert", width="100%"),
            ),
            rx.grid(
                _field("Name", "name", S.name_error, auto_complete="name"),
                _field("Email", "email", S.email_error, type="email", auto_complete="email"),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="4",
                width="100%",
            ),
            _field("Subject", "subject", S.subject_error),
            _field(
                "Message",
                "message",
                S.message_error,
                multiline=True,
                hint=f"Up to {MAX_MESSAGE_LENGTH:,} characters.",
            ),
            rx.button(
                rx.cond(S.sending, rx.spinner(size="2"), rx.icon("send", size=18)),
                rx.cond(S.sending, ContactText.SENDING.value, ContactText.SEND.value),
                type="submit",
                size="3",
                disabled=S.sending,
                width=rx.breakpoints(initial="100%", sm="auto"),
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=S.submit,
        reset_on_submit=False,
        no_validate=True,
        aria_label="Contact form",
        width="100%",
    )
