"""The Store Settings form's "Taxes by Province" table (issue 19, docs/tax.md).

One row per tax of each province or territory (:data:`~shop_app.domain.store_settings.TAX_ROWS`):
its rate, a percentage typed as text, and a "Collect" switch. The inputs are uncontrolled, like
the rest of the form: a failed save keeps what was typed and shows the rate's error in a row of
its own under it, as wide as the table, so it stays readable on a phone.
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.store_settings import TAX_ROWS, TaxRow
from shop_app.state.admin.store_settings import StoreSettingsState as S

ID_PREFIX = "settings"
HINT = (
    "Exports to the United States and other countries are zero-rated: no tax is charged. "
    "Manitoba's RST, Saskatchewan's PST and Quebec's QST are collected only once you register "
    "for them: turn Collect on when you do."
)


def _rate(row: TaxRow, error: rx.Var[str]) -> rx.Component:
    input_id = f"{ID_PREFIX}-{row.rate_field}"
    return rx.fragment(
        rx.el.label(f"{row.province} {row.code} rate (%)", html_for=input_id, class_name="sr-only"),
        rx.input(
            id=input_id,
            name=row.rate_field,
            default_value=S.values.get(row.rate_field, ""),
            input_mode="decimal",
            auto_complete="off",
            size="2",
            width="5.5rem",
            box_shadow=rx.cond(error != "", "inset 0 0 0 1px var(--red-9)", ""),
            custom_attrs={
                "aria-invalid": rx.cond(error != "", "true", "false"),
                "aria-describedby": rx.cond(error != "", f"{input_id}-error", ""),
            },
        ),
    )


def _collect(row: TaxRow) -> rx.Component:
    switch_id = f"{ID_PREFIX}-{row.collect_field}"
    return rx.fragment(
        rx.el.label(f"Collect {row.province} {row.code}", html_for=switch_id, class_name="sr-only"),
        rx.switch(
            id=switch_id,
            name=row.collect_field,
            default_checked=S.tax_collected.contains(row.collect_field),
        ),
    )


def _rows(row: TaxRow) -> rx.Component:
    """The tax's row and, after a failed save, its error."""
    error = S.errors.get(row.rate_field, "")
    return rx.fragment(
        rx.table.row(
            rx.table.row_header_cell(
                rx.text(row.region, weight="bold", size="2"),
                rx.text(row.province, size="1", color_scheme="gray"),
            ),
            rx.table.cell(row.code),
            rx.table.cell(_rate(row, error)),
            rx.table.cell(_collect(row)),
            align="center",
        ),
        rx.cond(
            error != "",
            rx.table.row(
                rx.table.cell(
                    rx.text(error, id=f"{ID_PREFIX}-{row.rate_field}-error", size="1", color_scheme="red"),
                    col_span=4,
                )
            ),
        ),
    )


def tax_table() -> rx.Component:
    """The hint, then the table: province, tax, rate (%), collect."""
    return rx.vstack(
        rx.text(HINT, size="2", color_scheme="gray"),
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell("Province"),
                    rx.table.column_header_cell("Tax"),
                    rx.table.column_header_cell("Rate (%)"),
                    rx.table.column_header_cell("Collect"),
                )
            ),
            rx.table.body(*(_rows(row) for row in TAX_ROWS)),
            variant="surface",
            size="1",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )
