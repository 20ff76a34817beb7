"""The dashboard's Admin Management tab: who can open the back office (changed on Manage Admins)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.table import data_table
from shop_app.components.link_button import link_button
from shop_app.state.admin.dashboard import AdminDashboardState as S
from shop_app.state.admin.dashboard import AdminMemberRow

YOU = "You"  # the seed tags the current user 'You'/'Current User' (docs/spec/admin-people.md#admins)
NOTE = "These people can open this back office and change the shop. Add and remove admins on Manage Admins."


def _row(member: AdminMemberRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.hstack(
                rx.text(rx.cond(member.name != "", member.name, "—"), weight="medium"),
                rx.cond(member.is_you, rx.badge(YOU, color_scheme="blue")),
                spacing="2",
                align="center",
            )
        ),
        rx.table.cell(member.email),
        rx.table.cell(rx.badge(member.role, variant="soft")),
        rx.table.cell(member.granted_on),
        align="center",
    )


def admin_management() -> rx.Component:
    """The tab's content."""
    headers = ("Name", "Email", "Role", "Admin since")
    return rx.vstack(
        rx.flex(
            rx.callout(NOTE, icon="info", color_scheme="gray", flex="1", min_width="16rem"),
            link_button(
                rx.hstack(rx.icon("shield-check", size=16), "Manage Admins", spacing="2"),
                routes.ADMIN_MANAGE_ADMINS,
                variant="outline",
            ),
            spacing="3",
            align="center",
            wrap="wrap",
            width="100%",
        ),
        data_table(headers, S.admins, _row),
        spacing="4",
        width="100%",
    )
