"""/admin/manage-admins: Manage Admins (docs/spec/admin-people.md#admins): stats, search, the list, Add Admin,
Remove, and the 'Your Session' side card."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.page_header import page_header
from shop_app.components.admin.people_admins import (
    add_admin_dialog,
    admin_table,
    remove_admin_dialog,
    session_card,
)
from shop_app.components.admin.product_parts import empty_state, search_input, stat_card, when_loaded
from shop_app.state.admin.admins import ManageAdminsState as S


def _header() -> rx.Component:
    return page_header(
        "Manage Admins",
        "Who can open this back office. Changes take effect at once.",
        rx.button(rx.icon("user-plus", size=16), "Add Admin", on_click=S.open_add),
    )


def _list() -> rx.Component:
    return rx.vstack(
        search_input(
            S.search,
            S.set_search,
            placeholder="Search admins by name, email or role...",
            label="Search admins",
            width="100%",
        ),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            admin_table(),
            empty_state("No admins found", "Try another name, email or role."),
        ),
        spacing="4",
        width="100%",
    )


def manage_admins() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        _header(),
        rx.grid(
            stat_card("Total Admins", S.total, "shield"),
            stat_card("Active Admins", S.active, "shield-check", "green"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="4",
            width="100%",
            max_width="40rem",
        ),
        rx.grid(
            _list(),
            session_card(),
            columns=rx.breakpoints(initial="1", lg="minmax(0, 1fr) 20rem"),
            spacing="5",
            width="100%",
            align_items="start",
        ),
        add_admin_dialog(),
        remove_admin_dialog(),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
