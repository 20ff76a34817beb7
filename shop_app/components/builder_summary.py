"""The custom candle builder's sticky order summary: the design so far and its live price."""

from __future__ import annotations

import reflex as rx

from shop_app.state.custom_creator import ChosenScentRow
from shop_app.state.custom_creator import CustomCreatorState as S


def _row(label: str, value: rx.Component) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"), rx.spacer(), value, width="100%", align="start"
    )


def _scent(scent: ChosenScentRow) -> rx.Component:
    return rx.text(scent.name, " (intensity ", scent.intensity, "/5)", size="2")


def builder_summary() -> rx.Component:
    """Vessel, scents, quantity and total, updated as the shopper chooses."""
    return rx.card(
        rx.vstack(
            rx.heading("Order Summary", size="4", as_="h2"),
            _row(
                "Vessel",
                rx.cond(
                    S.vessel_id != 0,
                    rx.vstack(
                        rx.text(S.vessel.name, " ", S.vessel.size, size="2", weight="medium"),
                        rx.text(S.vessel.price, size="2"),
                        align="end",
                        spacing="0",
                    ),
                    rx.text("Not selected", size="2", color_scheme="gray"),
                ),
            ),
            rx.cond(
                S.vessel_id != 0, _row("Burn time", rx.text(S.vessel.burn_time, size="2")), rx.fragment()
            ),
            _row(
                "Scents",
                rx.cond(
                    S.chosen.length() > 0,
                    rx.vstack(rx.foreach(S.chosen, _scent), align="end", spacing="0"),
                    rx.text("Not selected", size="2", color_scheme="gray"),
                ),
            ),
            _row("Quantity", rx.text(S.quantity, size="2")),
            rx.separator(),
            rx.hstack(
                rx.text("Total", weight="bold"),
                rx.spacer(),
                rx.text(S.total, weight="bold", aria_live="polite", data_testid="builder-total"),
                width="100%",
            ),
            rx.text("Hand-poured to order within 5 to 7 business days.", size="1", color_scheme="gray"),
            spacing="3",
            width="100%",
        ),
        width="100%",
        position=rx.breakpoints(initial="static", md="sticky"),
        top="5rem",
        aria_label="Order Summary",
    )
