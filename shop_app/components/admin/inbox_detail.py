"""The inbox's detail dialog: every field of the entry opened, Reply by e-mail, Mark as unread.

Visitor texts are plain vars rendered as text nodes; the message keeps its line breaks
(``white-space: pre-wrap``), never its markup.
"""

from __future__ import annotations

import reflex as rx

from shop_app.components.link_button import link_button
from shop_app.domain.inbox import MESSAGE
from shop_app.domain.inquiries import OrderType
from shop_app.state.admin.inbox import InboxProductView
from shop_app.state.admin.inbox import InboxState as S

D = S.detail


def _fact(label: str, value: rx.Var, *, pre: bool = False) -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label, min_width="9rem"),
        rx.data_list.value(
            rx.text(value, white_space="pre-wrap" if pre else "normal", word_break="break-word"),
        ),
        align="start",
    )


def _optional_fact(label: str, value: rx.Var, *, pre: bool = False) -> rx.Component:
    return rx.cond(value != "", _fact(label, value, pre=pre))


def _sender() -> rx.Component:
    return rx.data_list.root(
        _fact("Type", D.type_label),
        _fact("Name", D.name),
        _fact("Email", D.email),
        _optional_fact("Phone", D.phone),
        _fact("Received", D.received),
        _optional_fact("Read", D.read_at),
        _optional_fact("Sender fingerprint", D.client),
        size="2",
    )


def _custom() -> rx.Component:
    return rx.data_list.root(
        _fact("Vessel size", D.vessel_size),
        _fact("Vessel colour", D.vessel_color),
        _fact("Scent", D.scent),
        _fact("Quantity", D.quantity),
        _optional_fact("Special requests", D.special_requests, pre=True),
        size="2",
    )


def _product_row(product: InboxProductView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(product.name),
        rx.table.cell(product.quantity, text_align="right"),
        rx.table.cell(product.price, text_align="right"),
        rx.table.cell(product.line_total, text_align="right"),
    )


def _products() -> rx.Component:
    return rx.vstack(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell("Product"),
                    *(
                        rx.table.column_header_cell(label, text_align="right")
                        for label in ("Quantity", "Unit price", "Line total")
                    ),
                )
            ),
            rx.table.body(rx.foreach(S.detail_products, _product_row)),
            variant="surface",
            size="1",
            width="100%",
        ),
        rx.data_list.root(
            _fact("Total quantity", D.total_quantity),
            _fact("Total", D.total),
            size="2",
        ),
        rx.text("Prices as they were when the inquiry was sent.", size="1", color_scheme="gray"),
        spacing="2",
        width="100%",
    )


def _message() -> rx.Component:
    return rx.cond(
        D.message != "",
        rx.vstack(
            rx.heading("Message", size="3", as_="h3"),
            rx.box(
                rx.text(D.message, white_space="pre-wrap", word_break="break-word"),
                background=rx.color("gray", 2),
                border_radius="var(--radius-3)",
                padding="0.75rem",
                width="100%",
            ),
            spacing="2",
            width="100%",
        ),
    )


def _actions() -> rx.Component:
    return rx.flex(
        link_button(
            rx.hstack(rx.icon("reply", size=16), "Reply by e-mail", spacing="2"),
            D.reply_url,
        ),
        rx.button("Mark as unread", on_click=S.mark_unread, variant="soft", type="button"),
        rx.dialog.close(rx.button("Close", variant="soft", color_scheme="gray", type="button")),
        spacing="3",
        justify="end",
        wrap="wrap",
        width="100%",
    )


def inbox_detail_dialog() -> rx.Component:
    """The dialog of the entry opened (controlled by ``InboxState.detail_open``)."""
    is_message = D.kind == MESSAGE
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(
                rx.cond(is_message, D.subject, D.type_label + " inquiry"),
                word_break="break-word",
            ),
            rx.dialog.description(
                rx.text("From ", D.name, " · ", D.received, as_="span", size="2", color_scheme="gray"),
                word_break="break-word",
            ),
            rx.vstack(
                _sender(),
                rx.cond(
                    ~is_message,
                    rx.vstack(
                        rx.heading("Order", size="3", as_="h3"),
                        rx.cond(D.kind == OrderType.CUSTOM.value, _custom(), _products()),
                        spacing="2",
                        width="100%",
                    ),
                ),
                _message(),
                _actions(),
                spacing="4",
                margin_top="1rem",
            ),
            max_width="40rem",
        ),
        open=S.detail_open,
        on_open_change=S.set_detail_open,
    )
