"""Small pieces the two Manage Products screens share: stats cards, fields, selects, confirmations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx


def stat_card(label: str, value: rx.Var[int], icon: str, color: str = "accent") -> rx.Component:
    """A stats card: an icon, the figure and its label."""
    return rx.card(
        rx.hstack(
            rx.center(
                rx.icon(icon, size=20),
                background=rx.color(color, 3),
                color=rx.color(color, 11),
                border_radius="var(--radius-3)",
                padding="0.6rem",
            ),
            rx.vstack(
                rx.text(label, size="2", color_scheme="gray"),
                rx.text(value, size="6", weight="bold"),
                spacing="0",
            ),
            align="center",
            spacing="3",
        ),
        width="100%",
    )


def figure_card(label: str, value: rx.Var[int]) -> rx.Component:
    """A stats card without an icon: the label, the figure below it."""
    return rx.card(
        rx.vstack(
            rx.text(label, size="2", color_scheme="gray"),
            rx.text(value, size="7", weight="bold", as_="p"),
            spacing="1",
        )
    )


def stats_grid(*cards: rx.Component) -> rx.Component:
    """The row of stats cards."""
    return rx.grid(*cards, columns=rx.breakpoints(initial="2", md="4"), spacing="4", width="100%")


def field(label: str, control: rx.Component, *, hint: str = "") -> rx.Component:
    """A labelled form control (the label wraps the control, so it names it)."""
    return rx.el.label(
        rx.vstack(
            rx.text(label, size="2", weight="medium"),
            control,
            *([rx.text(hint, size="1", color_scheme="gray")] if hint else []),
            spacing="1",
            width="100%",
        ),
        width="100%",
    )


def text_input(
    value: rx.Var[str], on_change: Callable[[Any], Any], *, input_type: str = "text", **props: Any
) -> rx.Component:
    """A controlled text input (money inputs take ``input_type="number"`` with a 0.01 step)."""
    return rx.input(value=value, on_change=on_change, type=input_type, width="100%", **props)


def search_input(
    value: rx.Var[str], on_change: Any, *, placeholder: str, label: str, **props: Any
) -> rx.Component:
    """A list's search box: a magnifier, the controlled value, ``label`` for screen readers."""
    return rx.input(
        rx.input.slot(rx.icon("search", size=16)),
        value=value,
        on_change=on_change,
        placeholder=placeholder,
        aria_label=label,
        **props,
    )


def money_input(value: rx.Var[str], on_change: Callable[[Any], Any], **props: Any) -> rx.Component:
    """A price input: a number with a 0.01 step, never below 0."""
    return text_input(value, on_change, input_type="number", step="0.01", min="0", **props)


def two_columns(*fields: rx.Component) -> rx.Component:
    """Two form fields side by side."""
    return rx.grid(*fields, columns="2", spacing="3", width="100%")


def select(
    label: str,
    value: rx.Var[str],
    on_change: Any,
    items: rx.Component,
    *,
    placeholder: str = "",
    width: str = "100%",
) -> rx.Component:
    """A select; ``items`` are its ``rx.select.item`` children (the trigger carries the label)."""
    return rx.select.root(
        # Select.Trigger drops aria_label: pass the attribute through.
        rx.select.trigger(custom_attrs={"aria-label": label}, placeholder=placeholder, width=width),
        rx.select.content(items),
        value=value,
        on_change=on_change,
    )


def switch(label: str, checked: rx.Var[bool], on_change: Callable[[Any], Any]) -> rx.Component:
    """A labelled switch."""
    return rx.el.label(
        rx.hstack(
            rx.switch(checked=checked, on_change=on_change),
            rx.text(label, size="2"),
            align="center",
            spacing="2",
        ),
    )


def confirm_dialog(
    *,
    title: str,
    question: rx.Var[str] | str,
    action: str,
    on_confirm: Any,
    open_: rx.Var[bool],
    on_open_change: Any,
    color: str = "red",
) -> rx.Component:
    """A confirmation (Cancel or ``action``), controlled by ``open_``."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(question, size="2"),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(rx.button(action, color_scheme=color, on_click=on_confirm)),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="28rem",
        ),
        open=open_,
        on_open_change=on_open_change,
    )


def dialog_buttons(action: str, on_click: Any, *, disabled: rx.Var[bool] | bool = False) -> rx.Component:
    """Cancel (closes) and the dialog's action."""
    return rx.flex(
        rx.dialog.close(rx.button("Cancel", variant="soft", color_scheme="gray", type="button")),
        rx.button(action, on_click=on_click, disabled=disabled, type="button"),
        spacing="3",
        justify="end",
        width="100%",
    )


def form_dialog(
    title: str,
    description: tuple[Any, ...],
    *fields: rx.Component,
    action: str,
    on_save: Any,
    open_: rx.Var[bool],
    on_open_change: Any,
    disabled: rx.Var[bool] | bool = False,
    max_width: str = "30rem",
) -> rx.Component:
    """A dialog of form fields: title, a grey description, the fields, Cancel and ``action``."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(title),
            rx.dialog.description(*description, size="2", color_scheme="gray"),
            rx.vstack(
                *fields,
                dialog_buttons(action, on_save, disabled=disabled),
                spacing="3",
                margin_top="0.5rem",
            ),
            max_width=max_width,
        ),
        open=open_,
        on_open_change=on_open_change,
    )


def when_loaded(
    loaded: rx.Var[bool], found: rx.Var[bool], content: rx.Component, otherwise: rx.Component
) -> rx.Component:
    """A spinner until the screen's data has ``loaded``, then ``content`` if anything was
    ``found`` (rows, the order), else ``otherwise`` (an empty state)."""
    return rx.cond(
        ~loaded,
        rx.center(rx.spinner(size="3"), padding_y="3rem", width="100%"),
        rx.cond(found, content, otherwise),
    )


def empty_state(title: str, text: rx.Var[str] | str) -> rx.Component:
    """What a list shows when nothing matches."""
    return rx.center(
        rx.vstack(
            rx.icon("package-open", size=40, color=rx.color("gray", 9)),
            rx.heading(title, size="4", as_="h2"),
            rx.text(text, color_scheme="gray"),
            align="center",
            spacing="2",
        ),
        padding_y="4rem",
        width="100%",
    )


def action_button(icon: str, label: rx.Var[str] | str, on_click: Any, *, color: str = "gray") -> rx.Component:
    """A row action: an icon with its name for screen readers and as a tooltip."""
    return rx.tooltip(
        rx.icon_button(
            rx.icon(icon, size=16),
            on_click=on_click,
            variant="ghost",
            color_scheme=color,
            size="2",
            aria_label=label,
        ),
        content=label,
    )


def delete_or_archive_dialogs(state: Any) -> rx.Component:
    """Delete Product, and the archive-instead question when the product has been ordered.

    ``state`` mixes in ``state.admin.product_delete.DeleteOrArchiveMixin`` (the dashboard's
    Product Management tab, Manage Products' ``ProductDeleteState``).
    """
    return rx.fragment(
        confirm_dialog(
            title="Delete Product",
            question=rx.Var.create("Are you sure you want to delete \u201c")
            + state.delete_name
            + "\u201d? This cannot be undone.",
            action="Delete",
            on_confirm=state.confirm_delete,
            open_=state.delete_id != 0,
            on_open_change=state.set_delete_open,
        ),
        confirm_dialog(
            title="Archive Product",
            question=state.archive_question,
            action="Archive",
            on_confirm=state.confirm_archive,
            open_=state.archive_id != 0,
            on_open_change=state.set_archive_open,
            color="amber",
        ),
    )


def pager(page: rx.Var[int], pages: rx.Var[int], text: rx.Var[str], go_to: Any) -> rx.Component:
    """Previous and Next around the page line ("Page 2 of 5 · 93 products"), as the orders list has
    them; ``go_to`` is the list's ``go_to_page`` handler."""
    return rx.el.nav(
        rx.hstack(
            rx.button(
                rx.icon("chevron-left", size=16),
                "Previous",
                on_click=go_to(page - 1),
                disabled=page <= 1,
                variant="soft",
            ),
            rx.text(text, size="2", color_scheme="gray", aria_live="polite"),
            rx.button(
                "Next",
                rx.icon("chevron-right", size=16),
                on_click=go_to(page + 1),
                disabled=page >= pages,
                variant="soft",
            ),
            spacing="3",
            align="center",
            justify="center",
            width="100%",
        ),
        aria_label="Pages",
        width="100%",
    )
