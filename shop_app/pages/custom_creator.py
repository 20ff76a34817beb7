"""/custom-creator: the custom candle builder, vessel → scents → review (docs/spec/content.md#custom-creator,
#custom-creator-messages)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.builder_summary import builder_summary
from shop_app.components.layout import public_layout
from shop_app.domain.custom_candle import MAX_INSTRUCTIONS_LENGTH, MAX_INTENSITY, MIN_INTENSITY, SCENTS, Scent
from shop_app.domain.pricing import MAX_QUANTITY
from shop_app.state.custom_creator import ChosenScentRow, VesselRow
from shop_app.state.custom_creator import CustomCreatorState as S

STEP_NAMES = ("Vessel", "Scents", "Review")
INTENSITY_NAMES = {1: "1 - Subtle", 3: "3 - Balanced", 5: "5 - Strong"}


def _progress() -> rx.Component:
    return rx.vstack(
        rx.text("Step ", S.step, " of 3", size="2", color_scheme="gray"),
        rx.el.ol(
            *[
                rx.el.li(
                    rx.cond(
                        S.step == n,
                        rx.badge(f"{n}. {name}", variant="solid", size="2"),
                        rx.badge(
                            f"{n}. {name}", variant="soft", color_scheme="gray", high_contrast=True, size="2"
                        ),
                    ),
                    aria_current=rx.cond(S.step == n, "step", None),
                )
                for n, name in enumerate(STEP_NAMES, start=1)
            ],
            style={"display": "flex", "gap": "0.5rem", "list_style": "none", "padding": 0, "margin": 0},
            aria_label="Steps",
        ),
        spacing="2",
    )


def _vessel(vessel: VesselRow) -> rx.Component:
    return rx.radio_cards.item(
        rx.vstack(
            rx.text(vessel.name, weight="bold"),
            rx.text(vessel.size, size="2"),
            rx.text(vessel.price, size="3", weight="medium"),
            rx.text("Burn time: ", vessel.burn_time, size="1", color_scheme="gray"),
            rx.cond(~vessel.in_stock, rx.badge("Out of Stock", color_scheme="red")),
            spacing="1",
            align="start",
            width="100%",
        ),
        value=vessel.id.to_string(),
        disabled=~vessel.in_stock,
    )


def _step_vessel() -> rx.Component:
    return rx.vstack(
        rx.heading("Choose Your Vessel", size="5", as_="h2"),
        rx.cond(
            S.vessels.length() > 0,
            rx.radio_cards.root(
                rx.foreach(S.vessels, _vessel),
                value=S.vessel_value,
                on_value_change=S.choose_vessel,
                columns=rx.breakpoints(initial="1", sm="2"),
                width="100%",
                aria_label="Vessel",
            ),
            rx.text(
                "Custom candles are not available right now. Please check back soon.", color_scheme="gray"
            ),
        ),
        spacing="3",
        width="100%",
    )


def _scent_card(scent: Scent) -> rx.Component:
    return rx.checkbox_cards.item(
        rx.vstack(
            rx.hstack(
                rx.text(scent.name, weight="bold"),
                rx.badge(scent.category, variant="soft", color_scheme="gray"),
                align="center",
                wrap="wrap",
            ),
            rx.text(scent.description, size="2"),
            rx.text("Notes: " + ", ".join(scent.notes), size="1", color_scheme="gray"),
            spacing="1",
            align="start",
            width="100%",
        ),
        value=scent.id,
    )


def _intensity(scent: ChosenScentRow) -> rx.Component:
    select_id = "builder-intensity-" + scent.id
    return rx.hstack(
        rx.el.label("Intensity of ", scent.name, html_for=select_id, font_size="var(--font-size-2)"),
        rx.el.select(
            *[
                rx.el.option(INTENSITY_NAMES.get(level, str(level)), value=str(level))
                for level in range(MIN_INTENSITY, MAX_INTENSITY + 1)
            ],
            id=select_id,
            value=scent.intensity.to_string(),
            on_change=lambda value: S.set_intensity(scent.id, value),
            class_name="native-select",
            style={"width": "11rem"},
        ),
        align="center",
        justify="between",
        width="100%",
        wrap="wrap",
    )


def _step_scents() -> rx.Component:
    return rx.vstack(
        rx.heading("Choose Your Scents", size="5", as_="h2"),
        rx.text(
            "Pick up to 3 scents for your custom blend, then set how strong each one is.",
            size="2",
            color_scheme="gray",
        ),
        rx.checkbox_cards.root(
            *[_scent_card(scent) for scent in SCENTS],
            value=S.chosen_ids,
            on_value_change=S.set_scents,
            columns=rx.breakpoints(initial="1", sm="2"),
            width="100%",
            aria_label="Scents",
        ),
        rx.cond(
            S.chosen.length() > 0,
            rx.card(
                rx.vstack(
                    rx.heading("Your blend", size="3", as_="h3"),
                    rx.foreach(S.chosen, _intensity),
                    spacing="2",
                    width="100%",
                ),
                width="100%",
            ),
        ),
        spacing="3",
        width="100%",
    )


def _recap_scent(scent: ChosenScentRow) -> rx.Component:
    return rx.el.li(scent.name, " at intensity ", scent.intensity, " of 5")


def _step_review() -> rx.Component:
    return rx.vstack(
        rx.heading("Review Your Candle", size="5", as_="h2"),
        rx.text(
            "Check your design, choose how many you would like and add any special instructions.",
            size="2",
            color_scheme="gray",
        ),
        rx.card(
            rx.vstack(
                rx.text(S.vessel.name, " ", S.vessel.size, " · ", S.vessel.price, weight="bold"),
                rx.el.ul(rx.foreach(S.chosen, _recap_scent), style={"margin": 0, "padding_left": "1.25rem"}),
                spacing="2",
            ),
            width="100%",
        ),
        rx.hstack(
            rx.text("Quantity", weight="medium", size="2"),
            rx.icon_button(
                rx.icon("minus", size=14),
                type="button",
                variant="soft",
                aria_label="Decrease quantity",
                disabled=S.quantity <= 1,
                on_click=S.change_quantity(-1),
            ),
            rx.text(S.quantity, min_width="2ch", text_align="center", aria_live="polite"),
            rx.icon_button(
                rx.icon("plus", size=14),
                type="button",
                variant="soft",
                aria_label="Increase quantity",
                disabled=S.quantity >= MAX_QUANTITY,
                on_click=S.change_quantity(1),
            ),
            align="center",
            spacing="3",
        ),
        rx.vstack(
            rx.el.label(
                "Special instructions (optional)",
                html_for="builder-instructions",
                font_size="var(--font-size-2)",
                font_weight="500",
            ),
            rx.text(f"Up to {MAX_INSTRUCTIONS_LENGTH} characters.", size="1", color_scheme="gray"),
            rx.text_area(
                id="builder-instructions",
                default_value=S.instructions,
                on_blur=S.set_instructions,
                rows="4",
                width="100%",
            ),
            spacing="1",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def _navigation() -> rx.Component:
    return rx.vstack(
        rx.cond(
            S.error != "",
            rx.callout(S.error, icon="circle-alert", color_scheme="red", role="alert", width="100%"),
        ),
        rx.hstack(
            rx.button(
                rx.icon("arrow-left", size=16),
                "Back",
                type="button",
                variant="outline",
                disabled=S.step <= 1,
                on_click=S.back,
            ),
            rx.spacer(),
            rx.cond(
                S.step < 3,
                rx.button("Next", rx.icon("arrow-right", size=16), type="button", on_click=S.next_step),
                rx.button(
                    rx.icon("shopping-bag", size=16),
                    rx.cond(S.adding, "Adding...", "Add to Cart"),
                    type="button",
                    disabled=S.adding,
                    on_click=S.add_to_cart,
                ),
            ),
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


@public_layout
def custom_creator() -> rx.Component:
    """Design a custom candle and add it to the cart."""
    return rx.vstack(
        rx.heading("Custom Candle Creator", size="8", as_="h1"),
        rx.text(
            "Design a candle that is all yours: choose a vessel, blend up to three scents and we will "
            "hand-pour it for you in British Columbia.",
            color_scheme="gray",
            size="3",
        ),
        _progress(),
        rx.grid(
            rx.vstack(
                rx.match(S.step, (2, _step_scents()), (3, _step_review()), _step_vessel()),
                _navigation(),
                spacing="5",
                width="100%",
            ),
            builder_summary(),
            columns=rx.breakpoints(initial="1", md="3fr 2fr"),
            spacing="8",
            width="100%",
            align_items="start",
        ),
        spacing="5",
        width="100%",
    )
