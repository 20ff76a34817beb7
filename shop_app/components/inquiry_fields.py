"""Labelled fields of the order-inquiry forms, bound to ``CustomOrdersState``.

The fields are uncontrolled: each starts from the state's value (so going back to the order
types and forward again finds what was typed) and reports it with ``set_field`` when left or
changed; it also has a ``name``, so the submitted form data carries what is in the field at the
moment of submitting.
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx

from shop_app.state.custom_orders import CustomOrdersState as S

ID_PREFIX = "inquiry"


def _label(text: str, field: str, *, required: bool) -> rx.Component:
    label = rx.el.label(
        text, html_for=f"{ID_PREFIX}-{field}", font_size="var(--font-size-2)", font_weight="500"
    )
    if not required:
        return label
    # The marker stays outside the label: the field's name is the label's text alone.
    return rx.hstack(
        label, rx.text("*", aria_hidden="true", color=rx.color("red", 11), size="2"), spacing="1"
    )


def inquiry_input(
    label: str,
    field: str,
    *,
    type_: str = "text",
    required: bool = False,
    auto_complete: str = "",
    **props,
) -> rx.Component:
    """A labelled one-line input for the state field ``field``."""
    return rx.vstack(
        _label(label, field, required=required),
        rx.input(
            id=f"{ID_PREFIX}-{field}",
            name=field,
            type=type_,
            default_value=getattr(S, field),
            on_blur=lambda value: S.set_field(field, value),
            auto_complete=auto_complete or None,
            aria_required=required,
            size="3",
            width="100%",
            **props,
        ),
        spacing="1",
        width="100%",
    )


def inquiry_textarea(label: str, field: str, *, required: bool = False, hint: str = "") -> rx.Component:
    """A labelled text area for the state field ``field``."""
    return rx.vstack(
        _label(label, field, required=required),
        *([rx.text(hint, size="1", color_scheme="gray")] if hint else []),
        rx.text_area(
            id=f"{ID_PREFIX}-{field}",
            name=field,
            default_value=getattr(S, field),
            on_blur=lambda value: S.set_field(field, value),
            aria_required=required,
            rows="4",
            width="100%",
        ),
        spacing="1",
        width="100%",
    )


def inquiry_select(label: str, field: str, choices: Sequence[str], *, placeholder: str) -> rx.Component:
    """A labelled, required native select of ``choices`` for the state field ``field``."""
    return rx.vstack(
        _label(label, field, required=True),
        rx.el.select(
            rx.el.option(placeholder, value=""),
            *[rx.el.option(choice, value=choice) for choice in choices],
            id=f"{ID_PREFIX}-{field}",
            name=field,
            default_value=getattr(S, field),
            on_change=lambda value: S.set_field(field, value),
            aria_required=True,
            class_name="native-select",
        ),
        spacing="1",
        width="100%",
    )


def inquiry_error() -> rx.Component:
    """The form's latest problem, announced to screen readers."""
    return rx.cond(
        S.error != "",
        rx.callout(S.error, icon="circle-alert", color_scheme="red", role="alert", width="100%"),
    )
