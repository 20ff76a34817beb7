"""Manage Admins' parts: the admin table, Add Admin, the Remove confirmation, 'Your Session'."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import action_button, confirm_dialog, select
from shop_app.components.admin.table import data_table
from shop_app.domain.admin_messages import AdminLabel
from shop_app.state.admin.admins import REMEMBERED_NOTE, SESSION_NOTE, AdminRowView
from shop_app.state.admin.admins import ManageAdminsState as S

YOU = "You"  # docs/spec/admin-people.md#admins: the current user is tagged 'You'/'Current User'
CURRENT_USER = "Current User"
ADD_FORM_ID = "add-admin-form"
SESSION_HEADING_ID = "your-session-heading"


def _row(row: AdminRowView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.hstack(
                rx.text(row.name, weight="medium"),
                rx.cond(row.is_you, rx.badge(YOU, color_scheme="blue")),
                spacing="2",
                align="center",
            )
        ),
        rx.table.cell(row.email),
        rx.table.cell(rx.badge(row.role, variant="soft")),
        rx.table.cell(row.granted_at, white_space="nowrap"),
        rx.table.cell(rx.cond(row.granted_by != "", row.granted_by, "—")),
        rx.table.cell(
            rx.cond(
                row.is_active,
                rx.badge(AdminLabel.STATUS_ACTIVE.value, color_scheme="green"),
                rx.badge("Inactive", color_scheme="gray"),
            )
        ),
        rx.table.cell(
            rx.cond(
                row.is_you,
                rx.text(CURRENT_USER, size="2", color_scheme="gray"),
                action_button("user-minus", "Remove " + row.name, S.ask_remove(row.role_id), color="red"),
            )
        ),
        align="center",
    )


def admin_table() -> rx.Component:
    """The admins, most recently granted first."""
    headers = ("Admin", "Email", "Role", "Granted", "Granted by", "Status", "Actions")
    return data_table(headers, S.rows, _row)


def add_admin_dialog() -> rx.Component:
    """Add Admin: the user's e-mail (their account must exist) and the role (only admin)."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.form(
                rx.vstack(
                    rx.dialog.title("Add Admin", margin="0"),
                    rx.dialog.description(
                        "Give an existing account full access to this back office. The person must "
                        "have created an account on the shop first.",
                        size="2",
                        color_scheme="gray",
                    ),
                    rx.el.label(
                        rx.vstack(
                            rx.text("User email", size="2", weight="medium"),
                            rx.input(
                                name="email",
                                type="email",
                                placeholder="name@example.com",
                                auto_complete="off",
                                max_length=254,
                                width="100%",
                            ),
                            spacing="1",
                            width="100%",
                        ),
                        width="100%",
                    ),
                    rx.vstack(
                        rx.text("Role", size="2", weight="medium"),
                        select(
                            "Role",
                            S.add_role,
                            S.set_add_role,
                            rx.foreach(S.roles, lambda r: rx.select.item(r, value=r)),
                        ),
                        spacing="1",
                        width="100%",
                    ),
                    rx.cond(
                        S.add_error != "",
                        rx.callout(
                            S.add_error, icon="circle-alert", color_scheme="red", role="alert", width="100%"
                        ),
                    ),
                    rx.flex(
                        rx.dialog.close(
                            rx.button("Cancel", variant="soft", color_scheme="gray", type="button")
                        ),
                        rx.button("Add Admin", type="submit"),
                        spacing="3",
                        justify="end",
                        width="100%",
                    ),
                    spacing="4",
                    width="100%",
                ),
                id=ADD_FORM_ID,
                on_submit=S.save_add,
                reset_on_submit=False,
            ),
            max_width="30rem",
        ),
        open=S.add_open,
        on_open_change=S.set_add_open,
    )


def remove_admin_dialog() -> rx.Component:
    """The Remove confirmation."""
    return confirm_dialog(
        title="Remove Admin",
        question=S.remove_question,
        action="Remove",
        on_confirm=S.confirm_remove,
        open_=S.remove_id != 0,
        on_open_change=S.set_remove_open,
    )


def _fact(label: str, value: rx.Var[str]) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray"),
        rx.text(value, size="2", weight="medium"),
        spacing="0",
    )


def session_card() -> rx.Component:
    """'Your Session': who is signed in here, with which role, since and until when."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.icon("shield-check", size=18),
                rx.heading("Your Session", size="4", as_="h2", id=SESSION_HEADING_ID),
                spacing="2",
            ),
            _fact("Name", S.me_name),
            _fact("Email", S.me_email),
            _fact("Role", S.me_role),
            _fact("Signed in since", S.me_since),
            _fact("Session expires", S.me_expires),
            rx.text(
                rx.cond(S.me_remembered, REMEMBERED_NOTE, SESSION_NOTE),
                size="1",
                color_scheme="gray",
            ),
            spacing="3",
        ),
        role="region",
        custom_attrs={"aria-labelledby": SESSION_HEADING_ID},
        width="100%",
    )
