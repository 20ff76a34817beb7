"""The order page's dialogs: Mark as Shipped (carrier, tracking number, note) and the
confirmation of a cancel or refund (what happens to the money and the stock, a note)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import field
from shop_app.domain.order_status import NOTE_MAX, TRACKING_NUMBER_MAX
from shop_app.domain.tracking import CARRIERS
from shop_app.state.admin.order_detail import AdminOrderState as S


def _note(value: rx.Var[str], on_change) -> rx.Component:
    return field(
        "Note (optional, only for the order's history)",
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
    """Cancel Order or Refund Order, after saying what happens to the money and the stock."""
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
