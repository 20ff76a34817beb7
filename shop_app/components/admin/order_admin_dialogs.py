"""The order page's dialogs: Mark as Shipped (carrier, tracking number, note), the confirmation
of a cancel (what happens to the money and the stock, a note) and Refund (items with a quantity
each, an amount, or everything left; "Return items to stock"; the amount shown before it is
refunded)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import field
from shop_app.domain.order_status import NOTE_MAX, TRACKING_NUMBER_MAX
from shop_app.domain.refunds import RefundMode
from shop_app.domain.tracking import CARRIERS
from shop_app.state.admin.order_detail import AdminOrderState as S
from shop_app.state.admin.order_detail import RefundLineView


def _note(
    value: rx.Var[str], on_change, label: str = "Note (optional, only for the order's history)"
) -> rx.Component:
    return field(
        label,
        rx.text_area(value=value, on_change=on_change, rows="2", max_length=NOTE_MAX, width="100%"),
    )


def order_admin_ship_dialog() -> rx.Component:
    """Mark as Shipped: both the carrier and the tracking number are required."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Mark as Shipped"),
            rx.dialog.description(
                "The customer gets an e-mail with the carrier's tracking link.", size="2", color_scheme="gray"
            ),
            rx.vstack(
                field(
                    "Carrier",
                    rx.select.root(
                        rx.select.trigger(
                            custom_attrs={"aria-label": "Carrier"},  # Select.Trigger drops aria_label
                            placeholder="Choose the carrier",
                            width="100%",
                            # Radix's placeholder grey is below WCAG AA contrast on white.
                            style={"& .rt-SelectTriggerInner": {"color": rx.color("gray", 11)}},
                        ),
                        rx.select.content(*(rx.select.item(name, value=name) for name in CARRIERS)),
                        value=S.ship_carrier,
                        on_change=lambda v: S.set_ship_field("carrier", v),
                    ),
                ),
                field(
                    "Tracking number",
                    rx.input(
                        value=S.ship_tracking,
                        on_change=lambda v: S.set_ship_field("tracking", v),
                        max_length=TRACKING_NUMBER_MAX + 20,  # spaces are removed when saved
                        autocomplete="off",
                        width="100%",
                    ),
                ),
                _note(S.ship_note, lambda v: S.set_ship_field("note", v)),
                rx.cond(
                    S.ship_error != "",
                    rx.callout(
                        S.ship_error, icon="triangle-alert", color_scheme="red", role="alert", width="100%"
                    ),
                ),
                rx.flex(
                    rx.dialog.close(rx.button("Cancel", variant="soft", color_scheme="gray", type="button")),
                    rx.button(
                        rx.cond(S.busy, "Saving...", "Mark as Shipped"),
                        on_click=S.save_ship,
                        disabled=S.busy,
                        type="button",
                    ),
                    spacing="3",
                    justify="end",
                    width="100%",
                ),
                spacing="3",
                margin_top="1rem",
                width="100%",
            ),
            max_width="30rem",
        ),
        open=S.ship_open,
        on_open_change=S.set_ship_open,
    )


def order_admin_confirm_dialog() -> rx.Component:
    """Cancel Order, after saying what happens to the money and the stock."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(S.confirm_title),
            rx.alert_dialog.description(S.confirm_text, size="2"),
            rx.box(_note(S.confirm_note, S.set_confirm_note), margin_top="1rem", width="100%"),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Keep Order", variant="soft", color_scheme="gray")),
                rx.button(S.confirm_title, color_scheme="red", on_click=S.confirm, disabled=S.busy),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="30rem",
        ),
        open=S.confirm_open,
        on_open_change=S.set_confirm_open,
    )


def _mode(value: str, label: rx.Var[str] | str) -> rx.Component:
    return rx.el.label(
        rx.hstack(rx.radio_group.item(value=value), rx.text(label, size="2"), align="center", spacing="2")
    )


def _refund_line(line: RefundLineView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.vstack(
                rx.text(line.name, weight="medium", size="2"),
                rx.cond(line.options != "", rx.text(line.options, size="1", color_scheme="gray")),
                spacing="0",
            )
        ),
        rx.table.cell(line.unit_price, size="2"),
        rx.table.cell(
            rx.cond(
                line.refundable > 0,
                rx.hstack(
                    rx.input(
                        value=line.chosen,
                        on_change=lambda v: S.set_refund_quantity(line.item_id, v),
                        type="number",
                        min=0,
                        max=line.refundable,
                        step=1,
                        input_mode="numeric",
                        aria_label="Quantity to refund: " + line.name,
                        width="4.5rem",
                    ),
                    rx.text("of ", line.refundable, size="1", color_scheme="gray", white_space="nowrap"),
                    align="center",
                    spacing="2",
                ),
                rx.text("Refunded", size="1", color_scheme="gray"),
            )
        ),
        align="center",
    )


def _refund_items() -> rx.Component:
    return rx.vstack(
        rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *(rx.table.column_header_cell(label) for label in ("Item", "Unit price", "Refund"))
                    )
                ),
                rx.table.body(rx.foreach(S.refund_lines, _refund_line)),
                variant="ghost",
                size="1",
                width="100%",
            ),
            overflow_x="auto",
            width="100%",
        ),
        rx.text(
            "Each item comes back less its share of any discount, with its share of the tax; "
            "shipping comes back only as an amount or with everything left.",
            size="1",
            color_scheme="gray",
        ),
        spacing="2",
        width="100%",
    )


def _refund_amount() -> rx.Component:
    return field(
        "Amount to refund ($)",
        rx.input(
            value=S.refund_amount_text,
            on_change=S.set_refund_amount,
            input_mode="decimal",
            autocomplete="off",
            placeholder="0.00",
            width="100%",
        ),
        hint="An amount returns no items to stock.",
    )


def _refund_restock() -> rx.Component:
    return rx.cond(
        S.refund_mode != RefundMode.AMOUNT.value,
        rx.vstack(
            rx.el.label(
                rx.hstack(
                    rx.checkbox(
                        checked=S.refund_restock,
                        on_change=S.set_refund_restock,
                        disabled=~S.holds_stock,
                        # axe names a checkbox button by its own attributes, not by the wrapping label
                        custom_attrs={"aria-label": "Return items to stock"},
                    ),
                    rx.text("Return items to stock", size="2"),
                    align="center",
                    spacing="2",
                )
            ),
            rx.text(
                rx.cond(
                    S.holds_stock,
                    "Ticked before shipping; unticked once shipped, when the items are with the customer.",
                    "The items of a cancelled order are back in stock already.",
                ),
                size="1",
                color_scheme="gray",
            ),
            spacing="1",
            width="100%",
        ),
    )


def order_admin_refund_dialog() -> rx.Component:
    """Refund: items (a quantity per line), an amount, or everything left; the amount it comes to
    is shown before anything is refunded."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Refund"),
            rx.dialog.description(
                S.refund_remaining,
                " can still be refunded to the customer's card through Square. "
                "The customer is told by e-mail.",
                size="2",
                color_scheme="gray",
            ),
            rx.vstack(
                rx.radio_group.root(
                    rx.flex(
                        rx.cond(S.refund_has_items, _mode(RefundMode.ITEMS.value, "Items")),
                        _mode(RefundMode.AMOUNT.value, "An amount"),
                        _mode(RefundMode.REST.value, "Everything left (" + S.refund_remaining + ")"),
                        spacing="4",
                        wrap="wrap",
                    ),
                    value=S.refund_mode,
                    on_change=S.set_refund_mode,
                    aria_label="What to refund",
                ),
                rx.match(
                    S.refund_mode,
                    (RefundMode.ITEMS.value, _refund_items()),
                    (RefundMode.AMOUNT.value, _refund_amount()),
                    rx.text("Every item not refunded yet, and the shipping.", size="2"),
                ),
                _refund_restock(),
                _note(S.refund_note, S.set_refund_note, "Reason (optional, kept with the refund)"),
                rx.box(
                    rx.cond(
                        S.refund_total != "",
                        rx.vstack(
                            rx.text("Refund amount: ", rx.el.strong(S.refund_total), size="3"),
                            rx.text(
                                "Still charged after it: ", S.refund_after, size="2", color_scheme="gray"
                            ),
                            spacing="0",
                        ),
                        rx.cond(
                            S.refund_problem != "",
                            rx.text(S.refund_problem, size="2", color_scheme="red"),
                            rx.text("Choose what to refund.", size="2", color_scheme="gray"),
                        ),
                    ),
                    role="status",
                    aria_live="polite",
                    width="100%",
                ),
                rx.cond(
                    S.refund_error != "",
                    rx.callout(
                        S.refund_error, icon="triangle-alert", color_scheme="red", role="alert", width="100%"
                    ),
                ),
                rx.flex(
                    rx.dialog.close(rx.button("Cancel", variant="soft", color_scheme="gray", type="button")),
                    rx.button(
                        rx.cond(S.busy, "Refunding...", S.refund_button),
                        on_click=S.confirm_refund,
                        disabled=S.busy | (S.refund_total == ""),
                        color_scheme="red",
                        type="button",
                    ),
                    spacing="3",
                    justify="end",
                    width="100%",
                ),
                spacing="3",
                margin_top="1rem",
                width="100%",
            ),
            max_width="36rem",
        ),
        open=S.refund_open,
        on_open_change=S.set_refund_open,
    )
