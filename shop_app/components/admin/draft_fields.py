"""Labelled inputs of the product wizard and the local product form, each with its message.

``state`` is a ``state.admin.product_draft.ProductDraftMixin`` state: every input shows
``state.form[name]``, sends what is typed to ``state.set_field`` and shows ``state.errors[name]``
under itself (linked with ``aria-describedby``, ``aria-invalid`` while it has one).
"""

from __future__ import annotations

from typing import Any

import reflex as rx


def _label(text: str, html_for: str, *, required: bool) -> rx.Component:
    return rx.el.label(
        text,
        rx.el.span(" *", color=rx.color("red", 10)) if required else rx.fragment(),
        html_for=html_for,
        font_size="var(--font-size-2)",
        font_weight="500",
    )


def field_error(state: Any, name: str, error_id: str) -> rx.Component:
    """The message of one field, when it has one."""
    return rx.cond(
        state.errors.contains(name),
        rx.text(state.errors[name], id=error_id, color_scheme="red", size="2"),
        rx.fragment(),
    )


def _described(state: Any, name: str, error_id: str) -> dict[str, Any]:
    invalid = state.errors.contains(name)
    return {"aria-invalid": rx.cond(invalid, "true", "false"), "aria-describedby": error_id}


def draft_input(
    state: Any,
    label: str,
    name: str,
    *,
    id_prefix: str,
    required: bool = False,
    multiline: bool = False,
    hint: str | rx.Var[str] = "",
    read_only: bool | rx.Var[bool] = False,
    **props: Any,
) -> rx.Component:
    """A labelled text input (or text area) bound to ``state.form[name]``."""
    input_id, error_id = f"{id_prefix}-{name}", f"{id_prefix}-{name}-error"
    common = {
        "id": input_id,
        "value": state.form[name],
        "on_change": lambda value: state.set_field(name, value),
        "read_only": read_only,
        "width": "100%",
        "custom_attrs": _described(state, name, error_id),
    }
    control = (
        rx.text_area(rows="4", **common, **props) if multiline else rx.input(size="3", **common, **props)
    )
    return rx.vstack(
        _label(label, input_id, required=required),
        control,
        rx.text(hint, size="1", color_scheme="gray") if isinstance(hint, rx.Var) or hint else rx.fragment(),
        field_error(state, name, error_id),
        spacing="1",
        width="100%",
    )


def money_input(state: Any, label: str, name: str, *, id_prefix: str, required: bool = False) -> rx.Component:
    """A dollar amount: decimals with step 0.01, minimum 0 (docs/spec/admin-products.md#wizard-validation;
    docs/spec/limits.md#back-office)."""
    return draft_input(
        state,
        label,
        name,
        id_prefix=id_prefix,
        required=required,
        type="number",
        step="0.01",
        min="0",
        input_mode="decimal",
        placeholder="0.00",
    )


def draft_select(
    state: Any,
    label: str,
    name: str,
    options: rx.Var,
    *,
    id_prefix: str,
    on_change: Any,
    placeholder: str,
    required: bool = False,
) -> rx.Component:
    """A native select of ``options`` (``Choice``-like: value, label), bound to ``state.form[name]``."""
    select_id, error_id = f"{id_prefix}-{name}", f"{id_prefix}-{name}-error"
    return rx.vstack(
        _label(label, select_id, required=required),
        rx.el.select(
            rx.el.option(placeholder, value=""),
            rx.foreach(options, lambda option: rx.el.option(option.label, value=option.value)),
            id=select_id,
            value=state.form[name],
            on_change=on_change,
            class_name="native-select",
            custom_attrs=_described(state, name, error_id),
        ),
        field_error(state, name, error_id),
        spacing="1",
        width="100%",
    )


def flag(label: str, checked: rx.Var[bool], on_change: Any) -> rx.Component:
    """A labelled checkbox."""
    return rx.el.label(
        rx.hstack(
            rx.checkbox(checked=checked, on_change=on_change),
            rx.text(label, size="2"),
            align="center",
            spacing="2",
        ),
    )
