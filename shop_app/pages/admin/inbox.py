"""/admin/inbox: contact messages and order inquiries in one list, with read state and replies."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.inbox_detail import inbox_detail_dialog
from shop_app.components.admin.inbox_list import inbox_empty, inbox_filters, inbox_pager, inbox_table
from shop_app.state.admin.inbox import InboxState as S


def _header() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.heading("Inbox", size="7", as_="h1"),
            rx.badge(
                rx.cond(S.unread > 0, S.unread.to_string() + " unread", "All read"),
                color_scheme=rx.cond(S.unread > 0, "accent", "gray"),
                size="2",
                radius="full",
            ),
            align="center",
            spacing="3",
        ),
        rx.text(
            "Contact messages and custom, bulk and wholesale order inquiries, newest first.",
            color_scheme="gray",
            size="2",
        ),
        spacing="1",
    )


def inbox() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        _header(),
        inbox_filters(),
        rx.cond(
            S.loaded,
            rx.cond(S.entries.length() > 0, inbox_table(), inbox_empty()),
            rx.center(rx.spinner(size="3"), padding_y="4rem", width="100%"),
        ),
        inbox_pager(),
        inbox_detail_dialog(),
        spacing="5",
        width="100%",
    )
