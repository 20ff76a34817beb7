"""The inbox's list: type filter, "Unread only", the entries, the pager.

Every visitor text is a plain var rendered as a text node (React escapes it): never markup.
"""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import switch
from shop_app.state.admin.inbox import FILTERS, InboxEntryView
from shop_app.state.admin.inbox import InboxState as S


def _filter_button(value: str, label: str) -> rx.Component:
    chosen = S.kind == value
    return rx.button(
        label,
        on_click=S.set_kind(value),
        variant=rx.cond(chosen, "solid", "soft"),
        color_scheme=rx.cond(chosen, "accent", "gray"),
        custom_attrs={"aria-pressed": rx.cond(chosen, "true", "false")},
        size="2",
    )


def inbox_filters() -> rx.Component:
    """The type filter (All, Messages, Custom, Bulk, Wholesale) and the Unread only switch."""
    return rx.flex(
        rx.flex(
            *(_filter_button(value, label) for value, label in FILTERS),
            spacing="2",
            wrap="wrap",
            custom_attrs={"role": "group", "aria-label": "Show"},
        ),
        switch("Unread only", S.unread_only, S.set_unread_only),
        justify="between",
        align="center",
        wrap="wrap",
        gap="1rem",
        width="100%",
    )


def _unread_mark(entry: InboxEntryView) -> rx.Component:
    return rx.cond(
        entry.read,
        rx.text("Read", class_name="sr-only"),
        rx.box(
            rx.text("Unread", class_name="sr-only"),
            width="0.6rem",
            height="0.6rem",
            border_radius="50%",
            background=rx.color("accent", 9),
        ),
    )


def _row(entry: InboxEntryView) -> rx.Component:
    weight = rx.cond(entry.read, "regular", "bold")
    return rx.table.row(
        rx.table.cell(_unread_mark(entry), width="1.5rem"),
        rx.table.cell(
            rx.badge(
                entry.type_label, color_scheme=rx.cond(entry.is_message, "blue", "amber"), variant="soft"
            )
        ),
        rx.table.row_header_cell(
            rx.vstack(
                rx.text(entry.name, weight=weight, word_break="break-word"),
                rx.text(entry.email, size="1", color_scheme="gray", word_break="break-all"),
                spacing="0",
            )
        ),
        rx.table.cell(
            rx.vstack(
                rx.el.button(
                    rx.text(entry.title, as_="span", weight=weight, color=rx.color("accent", 11)),
                    on_click=S.open_entry(entry.source, entry.id),
                    type="button",
                    background="none",
                    border="none",
                    padding="0",
                    cursor="pointer",
                    text_align="left",
                    word_break="break-word",
                ),
                rx.text(entry.preview, size="1", color_scheme="gray", word_break="break-word"),
                spacing="1",
            ),
            max_width="32rem",
        ),
        rx.table.cell(rx.text(entry.received, size="2", white_space="nowrap")),
        align="center",
        background=rx.cond(entry.read, "transparent", rx.color("accent", 2)),
    )


def inbox_table() -> rx.Component:
    """The entries of the page on show."""
    return rx.table.root(
        rx.table.header(
            rx.table.row(
                rx.table.column_header_cell(rx.text("Status", class_name="sr-only")),
                *(rx.table.column_header_cell(label) for label in ("Type", "From", "Subject", "Received")),
            )
        ),
        rx.table.body(rx.foreach(S.entries, _row)),
        variant="surface",
        width="100%",
    )


def inbox_empty() -> rx.Component:
    """What the list shows when nothing matches."""
    return rx.center(
        rx.vstack(
            rx.icon("inbox", size=40, color=rx.color("gray", 9)),
            rx.heading(rx.cond(S.unread_only, "No unread messages", "No messages"), size="4", as_="h2"),
            rx.text(
                "Contact messages and order inquiries from the shop's pages appear here.",
                color_scheme="gray",
                text_align="center",
            ),
            align="center",
            spacing="2",
        ),
        padding_y="4rem",
        width="100%",
    )


def inbox_pager() -> rx.Component:
    """Newer and Older, with where the page is in the list."""
    return rx.cond(
        S.has_previous | S.has_next,
        rx.flex(
            rx.text(S.range_text, size="2", color_scheme="gray"),
            rx.hstack(
                rx.button("Newer", on_click=S.previous_page, disabled=~S.has_previous, variant="soft"),
                rx.button("Older", on_click=S.next_page, disabled=~S.has_next, variant="soft"),
                spacing="2",
            ),
            justify="between",
            align="center",
            width="100%",
        ),
    )
