"""Discount Codes (/admin/discounts, issue 19, acceptance 3): every code with what it gives, its
limits, its status, its uses and its revenue; New Code, Edit, and Deactivate / Activate (codes are
never deleted: orders name their code)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.discount_dialog import discount_dialog
from shop_app.components.admin.page_header import page_header
from shop_app.components.admin.product_parts import action_button, empty_state, when_loaded
from shop_app.components.admin.table import data_table
from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.state.admin.discounts import DiscountRowView
from shop_app.state.admin.discounts import DiscountsState as S

COLUMNS = ("Code", "Status", "Gives", "Uses", "Revenue", "Limits", "Actions")
"""What matters most first: a phone shows the first columns and scrolls the table sideways."""


def _row(row: DiscountRowView) -> rx.Component:
    switch_label = rx.cond(row.is_active, "Deactivate ", "Activate ") + row.code
    return rx.table.row(
        rx.table.row_header_cell(
            rx.vstack(
                rx.code(row.code, variant="ghost", weight="bold", size="2", white_space="nowrap"),
                rx.cond(row.note != "", rx.text(row.note, size="1", color_scheme="gray")),
                spacing="1",
            ),
        ),
        rx.table.cell(rx.badge(row.status, color_scheme=row.status_colour)),
        rx.table.cell(row.gives, white_space="nowrap"),
        rx.table.cell(row.orders, text_align="right"),
        rx.table.cell(
            rx.vstack(
                rx.text(row.revenue, white_space="nowrap"),
                rx.text(row.paid_orders, " paid", size="1", color_scheme="gray", white_space="nowrap"),
                spacing="0",
                align="end",
            ),
        ),
        rx.table.cell(rx.text(row.limits, size="2"), min_width="12rem"),
        rx.table.cell(
            rx.hstack(
                action_button("pencil", "Edit " + row.code, S.open_edit(row.id)),
                rx.tooltip(
                    rx.button(
                        rx.cond(row.is_active, "Deactivate", "Activate"),
                        size="1",
                        variant="soft",
                        color_scheme=rx.cond(row.is_active, "red", "green"),
                        aria_label=switch_label,
                        on_click=S.set_active(row.id, ~row.is_active),
                    ),
                    content=M.NO_DELETE.value,
                ),
                spacing="2",
                align="center",
            ),
        ),
        align="center",
    )


def discount_codes() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        page_header(
            "Discount Codes",
            "Codes shoppers enter in the cart or at checkout. Uses are orders holding the code; "
            "revenue is what its paid orders brought in, less refunds.",
            rx.button(rx.icon("plus", size=16), "New Code", on_click=S.open_new),
        ),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            data_table(COLUMNS, S.rows, _row),
            empty_state(M.NO_CODES.value, M.NO_CODES_HINT.value),
        ),
        rx.text(M.NO_DELETE.value, size="1", color_scheme="gray"),
        discount_dialog(),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
