"""The Reconcile screen's parts: the outbox's backlog, the bulk actions and the table of
differences (docs/spec/square.md#reconcile)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.table import data_table
from shop_app.domain.admin_messages import ReconcileMessage as M
from shop_app.state.admin.square_reconcile import DifferenceView
from shop_app.state.admin.square_reconcile import SquareReconcileState as S

COLUMNS = ("Product", "Field", "The shop", "Square", "")


def _waiting_text() -> rx.Var[str]:
    """ReconcileMessage.WAITING with the state's count in place of ``{products}``."""
    before, after = M.WAITING.value.split("{products}")
    return before + S.waiting.to(str) + after


def backlog() -> rx.Component:
    """How many products wait to be sent to Square, why the last try failed, and "Send now"."""
    return rx.cond(
        S.waiting > 0,
        rx.callout.root(
            rx.callout.icon(rx.icon("clock", size=16)),
            rx.flex(
                rx.vstack(
                    rx.callout.text(_waiting_text()),
                    rx.cond(S.waiting_error != "", rx.callout.text(S.waiting_error, size="1")),
                    spacing="1",
                ),
                rx.button(M.SEND_NOW.value, on_click=S.send_now, size="1", variant="soft"),
                justify="between",
                align="center",
                gap="3",
                wrap="wrap",
                width="100%",
            ),
            color_scheme=rx.cond(S.waiting_error != "", "amber", "blue"),
            width="100%",
        ),
    )


def bulk_actions() -> rx.Component:
    """Settle every listed difference one way."""
    return rx.flex(
        rx.button(M.ALL_SHOPS.value, on_click=S.use_shops_for_all, variant="outline"),
        rx.button(M.ALL_SQUARES.value, on_click=S.use_squares_for_all, variant="outline"),
        spacing="2",
        wrap="wrap",
    )


def _actions(row: DifferenceView) -> rx.Component:
    """ "Use the shop's" and, unless the shop's edit is on its way, "Use Square's"."""
    return rx.flex(
        rx.button(
            M.USE_SHOPS.value,
            on_click=S.use_shops(row.key),
            size="1",
            aria_label=f"{M.USE_SHOPS.value} " + row.field.lower() + " for " + row.product,
        ),
        rx.cond(
            row.can_use_squares,
            rx.button(
                M.USE_SQUARES.value,
                on_click=S.use_squares(row.key),
                size="1",
                variant="outline",
                aria_label=f"{M.USE_SQUARES.value} " + row.field.lower() + " for " + row.product,
            ),
        ),
        spacing="2",
        wrap="wrap",
    )


def _field(row: DifferenceView) -> rx.Component:
    return rx.flex(
        rx.badge(row.field, variant="soft"),
        rx.cond(row.waiting, rx.badge(M.WAITING_ROW.value, color_scheme="amber", variant="soft")),
        spacing="1",
        wrap="wrap",
    )


def _row(row: DifferenceView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(row.product),
        rx.table.cell(_field(row)),
        rx.table.cell(rx.text(row.shop, size="2")),
        rx.table.cell(rx.text(row.square, size="2")),
        rx.table.cell(_actions(row)),
        align="center",
    )


def _card(row: DifferenceView) -> rx.Component:
    """A difference on a phone: the same facts and buttons, stacked."""
    return rx.el.li(
        rx.card(
            rx.vstack(
                rx.text(row.product, weight="medium"),
                _field(row),
                rx.text(rx.text.strong("The shop: "), row.shop, size="2"),
                rx.text(rx.text.strong("Square: "), row.square, size="2"),
                _actions(row),
                spacing="2",
            ),
            width="100%",
        ),
        list_style="none",
    )


def differences_table() -> rx.Component:
    """One row per product and field on which the shop and Square disagree: a table, or a list
    of cards on a phone (a five-column table does not fit there)."""
    return rx.fragment(
        rx.tablet_and_desktop(data_table(COLUMNS, S.rows, _row), width="100%"),
        rx.mobile_only(
            rx.el.ul(
                rx.foreach(S.rows, _card),
                aria_label="Differences",
                display="flex",
                flex_direction="column",
                gap="0.75rem",
                padding="0",
                margin="0",
            ),
            width="100%",
        ),
    )
