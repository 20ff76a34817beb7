"""The Store Settings form's "Shipping Zones" section (issue 19; rules in
:mod:`shop_app.domain.shipping_form`).

A table of zones (name, flat rate, free from, active), the stored ones and an empty row that adds
one, then every country of the checkout's list with a select of the zone it ships in ("Not
shipped" for none). Inputs are uncontrolled like the rest of the form: a failed save keeps what
was typed and shows each error in a row of its own under its zone.
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.countries import COUNTRIES
from shop_app.domain.shipping_form import ZONES_FIELD, country_zone_field
from shop_app.state.admin.store_settings import NEW_ZONE, ZoneRow
from shop_app.state.admin.store_settings import StoreSettingsState as S

ID_PREFIX = "settings"
HINT = (
    "Checkout offers only the countries of active zones and charges each order its zone's rate; the "
    "FAQ and shipping texts follow. Leave “Free from” empty for no free shipping. To add a zone, "
    "name the last row and save, then choose it for its countries; to remove one, choose other "
    "zones for its countries and clear its name."
)
NOT_SHIPPED = "Not shipped"


def _input(
    row: ZoneRow, field: rx.Var[str], label: str, *, width: str, mode: str = "text", min_width: str = ""
) -> rx.Component:
    input_id = f"{ID_PREFIX}-" + field
    error = S.errors.get(field, "")
    return rx.fragment(
        rx.el.label(label, " (", row.label, ")", html_for=input_id, class_name="sr-only"),
        rx.input(
            id=input_id,
            name=field,
            default_value=S.values.get(field, ""),
            input_mode=mode,
            auto_complete="off",
            size="2",
            width=width,
            min_width=min_width or None,
            box_shadow=rx.cond(error != "", "inset 0 0 0 1px var(--red-9)", ""),
            custom_attrs={
                "aria-invalid": rx.cond(error != "", "true", "false"),
                "aria-describedby": rx.cond(error != "", input_id + "-error", ""),
            },
        ),
    )


def _error(field: rx.Var[str]) -> rx.Component:
    error = S.errors.get(field, "")
    return rx.cond(
        error != "",
        rx.table.row(
            rx.table.cell(
                rx.text(error, id=f"{ID_PREFIX}-" + field + "-error", size="1", color_scheme="red"),
                col_span=4,
            )
        ),
    )


def _zone(row: ZoneRow) -> rx.Component:
    switch_id = f"{ID_PREFIX}-" + row.active_field
    return rx.fragment(
        rx.table.row(
            rx.table.cell(
                _input(row, row.name_field, "Zone name", width="100%", min_width="8rem"),
                rx.cond(row.label == NEW_ZONE, rx.text("Add a zone", size="1", color_scheme="gray")),
            ),
            rx.table.cell(_input(row, row.flat_field, "Flat rate ($)", width="5.5rem", mode="decimal")),
            rx.table.cell(_input(row, row.free_field, "Free from ($)", width="5.5rem", mode="decimal")),
            rx.table.cell(
                rx.el.label("Active", " (", row.label, ")", html_for=switch_id, class_name="sr-only"),
                rx.switch(
                    id=switch_id,
                    name=row.active_field,
                    default_checked=S.zone_active.contains(row.active_field),
                ),
            ),
            align="center",
        ),
        _error(row.name_field),
        _error(row.flat_field),
        _error(row.free_field),
    )


def _country(country: str) -> rx.Component:
    """The country's select, inside its label: no ``id``, as Reflex sends the value of every
    element with an id once more with a form (the event guard takes 200 entries at most)."""
    field = country_zone_field(country)
    return rx.el.label(
        rx.text(country, size="2", flex="1"),
        rx.el.select(
            rx.el.option(NOT_SHIPPED, value=""),
            rx.foreach(S.zones, lambda row: rx.el.option(row.label, value=row.value)),
            name=field,
            default_value=S.values.get(field, ""),
            custom_attrs={"aria-label": country},  # the label's text would add the chosen zone's
            class_name="native-select native-select--small",
            width="12rem",
        ),
        display="flex",
        align_items="center",
        gap="var(--space-2)",
        width="100%",
    )


def shipping_zones() -> rx.Component:
    """The hint and the section's error, the zones' table, then each country's zone."""
    error = S.errors.get(ZONES_FIELD, "")
    return rx.vstack(
        rx.text(HINT, id=f"{ID_PREFIX}-shipping-hint", size="2", color_scheme="gray"),
        rx.cond(
            error != "",
            rx.text(error, id=f"{ID_PREFIX}-shipping-error", size="2", color_scheme="red", role="alert"),
        ),
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell("Zone"),
                    rx.table.column_header_cell("Flat rate ($)"),
                    rx.table.column_header_cell("Free from ($)"),
                    rx.table.column_header_cell("Active"),
                )
            ),
            rx.table.body(rx.foreach(S.zones, _zone)),
            variant="surface",
            size="1",
            width="100%",
        ),
        rx.el.fieldset(
            rx.el.legend("Countries", font_size="var(--font-size-2)", font_weight="500", padding="0"),
            rx.grid(
                *[_country(country) for country in COUNTRIES],
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing_x="5",
                spacing_y="2",
                width="100%",
                padding_top="0.5rem",
            ),
            border="none",
            padding="0",
            margin="0",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )
