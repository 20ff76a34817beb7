"""The orders CSV for the accountant: its columns, one row per item with the order's figures on
each, the tax columns, shop time, and the guard against spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.money import parse_dollars
from shop_app.domain.order_export import (
    COLUMNS,
    TAX_CODES,
    TAX_COLUMNS,
    ExportLine,
    ExportOrder,
    order_rows,
    shop_time,
    tax_columns,
    write_csv,
)
from shop_app.domain.tax import TaxLine, tax_lines, taxes_for

VANCOUVER = ZoneInfo("America/Vancouver")
BC_TAXES = tax_lines(7400, 1500, taxes_for("Canada", "BC"))  # GST 4.45, PST 6.23


def _order(**changes: object) -> ExportOrder:
    values: dict[str, object] = {
        "order_number": "CE-20261121-7K3QX9",
        "placed_at": datetime(2026, 11, 21, 18, 5, tzinfo=UTC),
        "status": "pending",
        "payment_status": "completed",
        "customer_name": "Ada Lovelace",
        "email": "ada@example.com",
        "province": "BC",
        "country": "Canada",
        "subtotal_cents": 7400,
        "shipping_cents": 1500,
        "tax_cents": 1068,
        "tax_lines": BC_TAXES,
        "total_cents": 9968,
        "refunded_cents": 0,
        "currency": "CAD",
        "lines": (
            ExportLine("8oz Amber Soy Candle", "Vanilla Bean", 2, 2800, 5600),
            ExportLine("Hand & Body Lotion", "", 1, 1800, 1800),
        ),
    }
    values.update(changes)
    return ExportOrder(**values)  # type: ignore[arg-type]


def _read(text: str) -> list[dict[str, str]]:
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:], newline="")))


def test_the_columns_name_every_canadian_tax_and_the_order_figures() -> None:
    assert TAX_CODES == ("GST", "HST", "PST", "QST", "RST")
    assert TAX_COLUMNS == ("gst", "hst", "pst", "qst", "rst", "tax_other")
    assert COLUMNS[:2] == ("order_number", "line_no") and COLUMNS[-1] == "currency"
    assert len(set(COLUMNS)) == len(COLUMNS)


def test_each_item_is_a_row_and_the_order_figures_repeat_on_each() -> None:
    text = write_csv([_order()], VANCOUVER)
    rows = _read(text)

    assert text.split("\r\n")[0] == "\ufeff" + ",".join(COLUMNS)
    assert [
        (r["line_no"], r["product"], r["options"], r["quantity"], r["unit_price"], r["line_total"])
        for r in rows
    ] == [
        ("1", "8oz Amber Soy Candle", "Vanilla Bean", "2", "28.00", "56.00"),
        ("2", "Hand & Body Lotion", "", "1", "18.00", "18.00"),
    ]
    for row in rows:
        assert (row["placed_date"], row["placed_at"]) == ("2026-11-21", "2026-11-21 10:05:00-08:00")
        assert (row["subtotal"], row["shipping"], row["gst"], row["pst"], row["hst"], row["tax_other"]) == (
            "74.00",
            "15.00",
            "4.45",
            "6.23",
            "0.00",
            "0.00",
        )
        assert (row["tax_total"], row["total"], row["refunded"], row["kept"], row["currency"]) == (
            "10.68",
            "99.68",
            "0.00",
            "99.68",
            "CAD",
        )


def test_an_order_without_items_still_has_its_row() -> None:
    (row,) = order_rows(_order(lines=()), VANCOUVER)
    cells = dict(zip(COLUMNS, row, strict=True))

    assert (cells["line_no"], cells["product"], cells["quantity"], cells["total"]) == ("1", "", "", "99.68")


def test_a_refund_is_kept_apart_and_kept_is_what_remains() -> None:
    (row, _) = _read(write_csv([_order(refunded_cents=3136, payment_status="partially_refunded")], VANCOUVER))

    assert (row["payment_status"], row["refunded"], row["kept"]) == ("partially_refunded", "31.36", "68.32")


def test_a_discount_has_its_amount_and_its_code_and_the_total_adds_up() -> None:
    """TEN (10 % off 74.00) to BC: GST and PST on 66.60 + 15.00."""
    taxes = tax_lines(6660, 1500, taxes_for("Canada", "BC"))
    order = _order(discount_cents=740, discount_code="TEN", tax_lines=taxes, tax_cents=979, total_cents=9139)

    rows = _read(write_csv([order, _order()], VANCOUVER))

    assert [(r["discount"], r["discount_code"]) for r in rows] == [("7.40", "TEN")] * 2 + [("0.00", "")] * 2
    for row in rows:
        money = {column: parse_dollars(row[column]) for column in ("subtotal", "discount", "shipping")}
        assert parse_dollars(row["total"]) == (
            money["subtotal"] - money["discount"] + money["shipping"] + parse_dollars(row["tax_total"])
        )
    assert COLUMNS.index("subtotal") < COLUMNS.index("discount") < COLUMNS.index("shipping")
    assert _read(write_csv([_order(discount_code="-SNEAKY")], VANCOUVER))[0]["discount_code"] == "'-SNEAKY"


def test_taxes_without_stored_lines_or_of_an_unknown_code_go_to_tax_other() -> None:
    assert tax_columns((), 120) == {"gst": 0, "hst": 0, "pst": 0, "qst": 0, "rst": 0, "tax_other": 120}
    odd = (TaxLine("GST", 50_000, 1000, 50), TaxLine("Eco fee", 10_000, 1000, 10))
    assert tax_columns(odd, 60) == {"gst": 50, "hst": 0, "pst": 0, "qst": 0, "rst": 0, "tax_other": 10}
    assert tax_columns(tax_lines(1000, 0, taxes_for("Canada", "ON")), 130)["hst"] == 130


@given(
    st.integers(0, 10**7), st.integers(0, 10**5), st.sampled_from(["AB", "BC", "MB", "ON", "QC", "NS", "SK"])
)
def test_the_tax_columns_always_add_up_to_the_orders_tax(goods: int, shipping: int, province: str) -> None:
    lines = tax_lines(goods, shipping, taxes_for("Canada", province))
    tax = sum(line.amount_cents for line in lines)
    (row, *_) = order_rows(_order(tax_lines=lines, tax_cents=tax), VANCOUVER)
    cells = dict(zip(COLUMNS, row, strict=True))

    assert sum(parse_dollars(cells[column]) for column in TAX_COLUMNS) == tax
    assert parse_dollars(cells["tax_other"]) == 0


def test_text_that_a_spreadsheet_would_run_is_written_as_text() -> None:
    order = _order(
        customer_name="@SUM(A1)",
        email="+1@example.com",
        lines=(ExportLine("=cmd|' /C calc'!A0", "-Lavender", 1, 100, 100),),
    )
    (row,) = _read(write_csv([order], VANCOUVER))

    assert (row["customer_name"], row["email"], row["product"], row["options"]) == (
        "'@SUM(A1)",
        "'+1@example.com",
        "'=cmd|' /C calc'!A0",
        "'-Lavender",
    )


def test_shop_time_reads_a_naive_moment_as_utc_and_follows_daylight_saving() -> None:
    assert shop_time(datetime(2026, 7, 1, 7, 0), VANCOUVER).isoformat() == "2026-07-01T00:00:00-07:00"
    assert shop_time(datetime(2026, 1, 1, 7, 0), VANCOUVER).date().isoformat() == "2025-12-31"
