"""/admin/square-reconcile: Reconcile with Square (docs/spec/square.md#reconcile)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.page_header import page_header
from shop_app.components.admin.product_parts import when_loaded
from shop_app.components.admin.square_reconcile import backlog, bulk_actions, differences_table
from shop_app.components.link_button import link_button
from shop_app.domain.admin_messages import ReconcileMessage as M
from shop_app.state.admin.square_reconcile import SquareReconcileState as S


def _agree() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.icon("circle-check", size=40, color=rx.color("green", 9)),
            rx.text(M.AGREE.value, weight="medium"),
            align="center",
            spacing="2",
        ),
        padding_y="3rem",
        width="100%",
    )


def square_reconcile() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        page_header(
            M.TITLE.value,
            M.INTRO.value,
            rx.flex(
                link_button(
                    rx.hstack(rx.icon("arrow-left", size=16), "Manage Products", spacing="2"),
                    routes.ADMIN_MANAGE_PRODUCTS,
                    variant="outline",
                ),
                rx.button(rx.icon("refresh-cw", size=16), M.CHECK_AGAIN.value, on_click=S.check_again),
                spacing="2",
                wrap="wrap",
            ),
        ),
        backlog(),
        rx.cond(
            S.read_error != "",
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert", size=16)),
                rx.callout.text(S.read_error),
                color_scheme="red",
                role="alert",
                width="100%",
            ),
        ),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            rx.vstack(bulk_actions(), differences_table(), spacing="3", width="100%"),
            rx.cond(S.read_error == "", _agree()),
        ),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
