"""The orders as a CSV file for the owner's accountant (issue 19, acceptance 5): columns and cells.

One row per line item of an order, newest order first, its lines in the order they were bought.
The order's own figures (subtotal, shipping, each tax, total, refunds) are repeated on every row
of that order; ``line_no`` numbers the order's rows from 1, so **sum the order columns over the
rows with ``line_no`` = 1** (one per order) and the line columns over every row. An order without
items (never made by checkout) still has one row, its line cells empty, so its money is not lost.

Format (as the catalogue export, ``domain.catalog_csv``): UTF-8 with a byte-order mark, a header
row, CRLF line ends; money as plain dollars with 2 decimals from integer cents (``12.34``, no
``$``, no thousands separator); the same guard against spreadsheet formulas (a text cell starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``,
:func:`~shop_app.domain.catalog_csv.guard_cell`). Amounts are never guarded: they are written by
this module and a refund is never negative here.

Times: ``placed_date`` is the shop's calendar day (British Columbia), the day the dashboard's
sales overview counts the order on; ``placed_at`` the moment in the shop's time zone, ISO 8601
with its UTC offset (``2026-11-21 10:05:00-08:00``).

Taxes: one column per tax code Canada's table knows (:data:`TAX_CODES`: GST, HST, PST, QST, RST),
from the tax lines the order stored when it was placed. What those columns cannot hold goes to
``tax_other``: the whole tax of an order placed before tax lines were kept, or a code the table
does not know. So ``tax_total`` (the order's stored tax) is always the sum of the tax columns.

Discounts: ``discount`` is the amount a discount code took off the goods, before tax, written
as a positive amount (``0.00`` without one), and ``discount_code`` the code (empty without one);
so ``total`` = ``subtotal`` - ``discount`` + ``shipping`` + ``tax_total`` on every order.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Final

from shop_app.domain.catalog_csv import guard_cell
from shop_app.domain.money import format_plain, require_cents
from shop_app.domain.order_numbers import SHOP_TIME_ZONE
from shop_app.domain.tax import CANADA_TAXES, TaxLine

TAX_CODES: Final = tuple(sorted({rate.code for rates in CANADA_TAXES.values() for rate in rates}))
"""Every tax code of Canada's table, alphabetically: ``GST``, ``HST``, ``PST``, ``QST``, ``RST``."""
TAX_OTHER: Final = "tax_other"
TAX_COLUMNS: Final = (*(code.lower() for code in TAX_CODES), TAX_OTHER)

LINE_COLUMNS: Final = ("product", "options", "quantity", "unit_price", "line_total")
ORDER_MONEY_COLUMNS: Final = (
    "subtotal",
    "discount",
    "shipping",
    *TAX_COLUMNS,
    "tax_total",
    "total",
    "refunded",
    "kept",
)
COLUMNS: Final = (
    "order_number",
    "line_no",
    "placed_date",
    "placed_at",
    "status",
    "payment_status",
    "customer_name",
    "email",
    "ship_province",
    "ship_country",
    *LINE_COLUMNS,
    *ORDER_MONEY_COLUMNS,
    "discount_code",
    "currency",
)
"""The header row. ``kept`` is ``total`` less ``refunded``: what the customer paid and kept paid,
the figure the dashboard's sales overview adds up for the orders it counts."""


@dataclass(frozen=True, slots=True)
class ExportLine:
    """One item of an order as bought (name and options from its snapshot)."""

    product: str
    options: str
    quantity: int
    unit_price_cents: int
    total_cents: int


@dataclass(frozen=True, slots=True)
class ExportOrder:
    """An order's own figures, in integer cents, and its items."""

    order_number: str
    placed_at: datetime  # a naive value (SQLite) is read as UTC
    status: str
    payment_status: str  # as the list shows it ("partially_refunded" included)
    customer_name: str
    email: str
    province: str  # the shipping address's province or state
    country: str
    subtotal_cents: int
    shipping_cents: int
    tax_cents: int
    tax_lines: tuple[TaxLine, ...]
    total_cents: int
    refunded_cents: int
    currency: str
    lines: tuple[ExportLine, ...] = ()
    discount_cents: int = 0  # a discount code's amount off the goods, before tax
    discount_code: str = ""  # "" without one


def tax_columns(lines: Iterable[TaxLine], tax_cents: int) -> dict[str, int]:
    """The tax columns of an order, in cents: each known code's lines, the rest in ``tax_other``.

    Examples:
        >>> from shop_app.domain.tax import taxes_for, tax_lines
        >>> bc = tax_lines(5000, 1500, taxes_for("Canada", "BC"))
        >>> {k: v for k, v in tax_columns(bc, 780).items() if v}
        {'gst': 325, 'pst': 455}
        >>> {k: v for k, v in tax_columns((), 120).items() if v}  # an order from before tax lines
        {'tax_other': 120}
    """
    require_cents(tax_cents, "tax_cents")
    columns = dict.fromkeys(TAX_COLUMNS, 0)
    for line in lines:
        column = line.code.strip().lower()
        if column in columns and column != TAX_OTHER:
            columns[column] += line.amount_cents
    columns[TAX_OTHER] = tax_cents - sum(columns.values())
    return columns


def shop_time(moment: datetime, zone: tzinfo = SHOP_TIME_ZONE) -> datetime:
    """A moment in the shop's time zone (a naive one is read as UTC).

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> shop_time(datetime(2026, 11, 21, 8, 5), ZoneInfo("America/Vancouver")).isoformat(sep=" ")
        '2026-11-21 00:05:00-08:00'
    """
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone)


def _money(cents: int) -> str:
    return format_plain(cents)


def order_rows(order: ExportOrder, zone: tzinfo = SHOP_TIME_ZONE) -> list[list[str]]:
    """The CSV rows of one order (cells in :data:`COLUMNS` order, guarded): one per item.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> order = ExportOrder("CE-1", datetime(2026, 11, 21, 18, 5), "pending", "completed",
        ...     "Ada L", "ada@example.com", "ON", "Canada", 2000, 1500, 455,
        ...     (TaxLine("HST", 130_000, 3500, 455),), 3955, 0, "CAD",
        ...     (ExportLine("=Fig", "", 2, 1000, 2000),))
        >>> row = dict(zip(COLUMNS, order_rows(order, ZoneInfo("America/Vancouver"))[0]))
        >>> row["line_no"], row["placed_at"], row["product"], row["hst"], row["total"], row["kept"]
        ('1', '2026-11-21 10:05:00-08:00', "'=Fig", '4.55', '39.55', '39.55')
    """
    local = shop_time(order.placed_at, zone)
    taxes = tax_columns(order.tax_lines, order.tax_cents)
    head = [
        order.order_number,
        local.date().isoformat(),
        local.isoformat(sep=" ", timespec="seconds"),
        order.status,
        order.payment_status,
        order.customer_name,
        order.email,
        order.province,
        order.country,
    ]
    money = [
        _money(order.subtotal_cents),
        _money(order.discount_cents),
        _money(order.shipping_cents),
        *(_money(taxes[column]) for column in TAX_COLUMNS),
        _money(order.tax_cents),
        _money(order.total_cents),
        _money(order.refunded_cents),
        _money(order.total_cents - order.refunded_cents),
    ]
    lines: Sequence[ExportLine | None] = order.lines or (None,)
    rows: list[list[str]] = []
    for number, line in enumerate(lines, start=1):
        items = (
            ["", "", "", "", ""]
            if line is None
            else [
                guard_cell(line.product),
                guard_cell(line.options),
                str(line.quantity),
                _money(line.unit_price_cents),
                _money(line.total_cents),
            ]
        )
        texts = [guard_cell(text) for text in head]
        code = guard_cell(order.discount_code)
        rows.append([texts[0], str(number), *texts[1:], *items, *money, code, guard_cell(order.currency)])
    return rows


def write_csv(orders: Iterable[ExportOrder], zone: tzinfo = SHOP_TIME_ZONE) -> str:
    """The whole file: a byte-order mark, the header and the rows of every order, in order."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for order in orders:
        writer.writerows(order_rows(order, zone))
    return out.getvalue()
