"""The catalogue as a CSV file: columns, cell formats, and the checks one row needs alone.

Format (UTF-8 with a byte-order mark so spreadsheet programs read accents right; a header row):
money in dollars with 2 decimals (``12.50``); booleans ``true``/``false`` (``yes``/``no``,
``1``/``0`` are read too); ``ingredients``, ``tags`` and ``image_urls`` are lists joined by
``"; "`` (so an item cannot contain ``;``); an empty cell is "none" (null). Categories are named by
slug.

Spreadsheet formula injection (OWASP "CSV Injection"): a cell starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return is written with a leading ``'``, which spreadsheets show as
text. A cell starting with ``'`` gets one too, so reading strips exactly one quote in front of
those characters and ``read(write(x)) == x`` for every text (see :func:`guard_cell`).

Each exported row ends with the product's ``version``: a fingerprint of every other cell of that
row as exported (:func:`version_of`). An import compares it with the product as it is now, so a
file exported before a sale, a restock or an edit cannot bring back the old stock or undo the
edit: that row is refused and nothing is written. A row with an empty ``version`` (a file made by
hand) is taken as it is.

What needs the database (does the category exist, is the SKU someone else's, does the id
exist, has the product changed since the export) is checked by ``services.admin.catalog_csv``;
everything else is here.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, Final

from shop_app.domain.admin_messages import ProductFormMessage
from shop_app.domain.money import format_plain, parse_dollars

COLUMNS: Final = (
    "id",
    "name",
    "description",
    "sku",
    "category",
    "subcategory",
    "product_type",
    "base_price",
    "sale_price",
    "cost_price",
    "stock_quantity",
    "is_active",
    "is_featured",
    "is_new_arrival",
    "weight_oz",
    "dimensions",
    "care_instructions",
    "ingredients",
    "tags",
    "image_urls",
    "version",
)
REQUIRED_COLUMNS: Final = ("name", "base_price")
LIST_COLUMNS: Final = frozenset({"ingredients", "tags", "image_urls"})
LIST_SEPARATOR: Final = "; "
MAX_BYTES: Final = 2 * 1024 * 1024
MAX_ROWS: Final = 5000
# docs/spec/admin-products.md#types-and-collections
PRODUCT_TYPES: Final = ("candles", "body-care", "home-fragrance")
TEXT_LIMITS: Final = {"name": 255, "sku": 64, "dimensions": 255, "product_type": 50}
IMAGE_URL_MAX: Final = 1024
MAX_IMAGES: Final = 20
WEIGHT_MAX: Final = Decimal("999999.99")  # the column holds 8 digits, 2 of them decimals
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
_TRUE = frozenset({"true", "yes", "y", "1"})
_FALSE = frozenset({"false", "no", "n", "0"})
_BOOLEAN_DEFAULTS: Final = {"is_active": True, "is_featured": False, "is_new_arrival": False}


class CsvMessage(StrEnum):
    """Texts of the CSV import and export (ours: the seed has no CSV). Placeholders in braces."""

    TOO_LARGE = "The file is larger than 2 MB. Split it into smaller files."
    TOO_MANY_ROWS = "The file has more than {limit} products. Split it into smaller files."
    NOT_UTF8 = "The file is not UTF-8 text. Save it as 'CSV UTF-8' and try again."
    NOT_CSV = "The file is not a readable CSV file: {detail}"
    EMPTY = "The file has no header row."
    NO_ROWS = "The file has no products."
    MISSING_COLUMN = "The column '{column}' is missing."
    UNKNOWN_COLUMN = "Unknown column '{column}'."
    DUPLICATE_COLUMN = "The column '{column}' appears twice."
    EXTRA_CELLS = "This row has more cells than the header."
    REQUIRED = "A value is required."
    TOO_LONG = "At most {limit} characters."
    NOT_WHOLE_NUMBER = "Must be a whole number of 0 or more."
    NOT_ID = "Must be a product id (a whole number), or empty for a new product."
    NOT_BOOLEAN = "Must be true or false."
    NOT_WEIGHT = "Must be a number of ounces of 0 or more with at most 2 decimals."
    SALE_NOT_POSITIVE = "A sale price must be greater than 0 (leave it empty for none)."
    NOT_PRODUCT_TYPE = "Must be one of: candles, body-care, home-fragrance."
    BAD_LIST_ITEM = "An item of this list is empty."
    NOT_IMAGE_PATH = "Each image must be a path on this shop starting with '/' (such as /media/...)."
    TOO_MANY_IMAGES = "At most {limit} images."
    UNKNOWN_ID = "No product has the id {value}."
    DUPLICATE_ID = "The id {value} is also on row {row}."
    DUPLICATE_SKU = "The SKU {value} is also on row {row}."
    SKU_TAKEN = "The SKU {value} belongs to another product (id {other})."
    UNKNOWN_CATEGORY = "No main category has the slug '{value}'."
    UNKNOWN_SUBCATEGORY = "No subcategory of '{category}' has the slug '{value}'."
    SUBCATEGORY_NEEDS_CATEGORY = "A subcategory needs its main category in the category column."
    NOT_VERSION = "Must be the version the export wrote (16 letters and digits), or empty."
    CHANGED_SINCE_EXPORT = (
        "{name} has changed in the shop since this file was exported (a sale, a restock or an edit). "
        "Export the products again and make your changes in the new file."
    )


@dataclass(frozen=True)
class CsvIssue:
    """One problem: the file's line number (the header is line 1), the column, the message."""

    row: int
    column: str
    message: str


class CsvFileError(ValueError):
    """The file as a whole cannot be read (size, encoding, header, row count)."""

    def __init__(self, issues: Sequence[CsvIssue]) -> None:
        super().__init__("; ".join(issue.message for issue in issues))
        self.issues = list(issues)


def guard_cell(text: str) -> str:
    """A cell as written: a leading ``'`` when a spreadsheet could take it for a formula.

    Examples:
        >>> guard_cell("=HYPERLINK(1)"), guard_cell("-5"), guard_cell("'a"), guard_cell("Fig")
        ("'=HYPERLINK(1)", "'-5", "''a", 'Fig')
    """
    return f"'{text}" if text.startswith((*FORMULA_STARTS, "'")) else text


def unguard_cell(text: str) -> str:
    """A cell as read: the inverse of :func:`guard_cell` (a lone ``'`` before text stays).

    Examples:
        >>> unguard_cell("'=1"), unguard_cell("''a"), unguard_cell("'a")
        ('=1', "'a", "'a")
    """
    return text[1:] if text.startswith("'") and text[1:].startswith((*FORMULA_STARTS, "'")) else text


def _list_cell(values: Iterable[str] | None) -> str:
    return LIST_SEPARATOR.join(values or [])


def _bool_cell(value: bool) -> str:
    return "true" if value else "false"


def _money_cell(cents: int | None) -> str:
    return "" if cents is None else format_plain(cents)


VERSION_LENGTH: Final = 16
_FINGERPRINTED: Final = tuple(column for column in COLUMNS if column not in ("id", "version"))


def version_of(record: Mapping[str, Any]) -> str:
    """The fingerprint of a product as the export writes it (every cell but ``id`` and ``version``).

    Examples:
        >>> a = {"name": "Fig", "base_price": 2450, "stock_quantity": 36}
        >>> version_of(a) == version_of(dict(a)), version_of(a) == version_of({**a, "stock_quantity": 34})
        (True, False)
    """
    cells = dict(zip(COLUMNS, _cells(record), strict=True))
    text = "\x1f".join(cells[column] for column in _FINGERPRINTED)
    return hashlib.sha256(text.encode()).hexdigest()[:VERSION_LENGTH]


def record_cells(record: Mapping[str, Any]) -> list[str]:
    """One product (the field names of :data:`COLUMNS`, money in cents) as guarded CSV cells, its
    ``version`` (:func:`version_of`) last."""
    return [*_cells(record)[:-1], version_of(record)]


def _cells(record: Mapping[str, Any]) -> list[str]:
    cells: list[str] = []
    for column in COLUMNS:
        value = record.get(column)
        if column in LIST_COLUMNS:
            text = _list_cell(value)
        elif column in _BOOLEAN_DEFAULTS:
            text = _bool_cell(bool(value))
        elif column in ("base_price", "sale_price", "cost_price"):
            text = _money_cell(value)
        elif column == "weight_oz":
            text = "" if value is None else f"{Decimal(value):f}"
        else:
            text = "" if value is None else str(value)
        cells.append(guard_cell(text))
    return cells


def write_csv(records: Iterable[Mapping[str, Any]]) -> str:
    """The whole file: a byte-order mark, the header and one line per record (CRLF, as RFC 4180)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for record in records:
        writer.writerow(record_cells(record))
    return out.getvalue()


def _file_error(message: str, column: str = "", row: int = 1) -> CsvFileError:
    return CsvFileError([CsvIssue(row, column, message)])


def read_csv(data: bytes) -> list[tuple[int, dict[str, str]]]:
    """The data rows as (line number, {column: unguarded, trimmed cell}); raises ``CsvFileError``.

    Checks the size, the encoding, the header (``name`` and ``base_price`` present, no unknown or
    repeated column) and the number of rows; blank lines are skipped.
    """
    if len(data) > MAX_BYTES:
        raise _file_error(CsvMessage.TOO_LARGE)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _file_error(CsvMessage.NOT_UTF8) from None
    if "\x00" in text:
        raise _file_error(CsvMessage.NOT_CSV.format(detail="it contains NUL characters"))
    try:
        lines = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as exc:
        raise _file_error(CsvMessage.NOT_CSV.format(detail=exc)) from None
    if not lines or not any(cell.strip() for cell in lines[0]):
        raise _file_error(CsvMessage.EMPTY)
    header = [cell.strip().lower() for cell in lines[0]]  # an empty name: a column to ignore
    issues = [
        CsvIssue(1, c, CsvMessage.UNKNOWN_COLUMN.format(column=c)) for c in header if c and c not in COLUMNS
    ]
    issues += [
        CsvIssue(1, c, CsvMessage.DUPLICATE_COLUMN.format(column=c))
        for c in dict.fromkeys(header)
        if c and header.count(c) > 1
    ]
    issues += [
        CsvIssue(1, c, CsvMessage.MISSING_COLUMN.format(column=c))
        for c in REQUIRED_COLUMNS
        if c not in header
    ]
    if issues:
        raise CsvFileError(issues)
    rows: list[tuple[int, dict[str, str]]] = []
    for number, cells in enumerate(lines[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        if any(cell.strip() for cell in cells[len(header) :]):
            raise _file_error(CsvMessage.EXTRA_CELLS, row=number)
        named = {c: unguard_cell(cell).strip() for c, cell in zip(header, cells, strict=False) if c}
        rows.append((number, named))
        if len(rows) > MAX_ROWS:
            raise _file_error(CsvMessage.TOO_MANY_ROWS.format(limit=MAX_ROWS))
    if not rows:
        raise _file_error(CsvMessage.NO_ROWS, row=2)
    return rows


class _Row:
    """Parses the cells of one row, collecting every problem instead of stopping at the first."""

    def __init__(self, line: int, cells: Mapping[str, str]) -> None:
        self.line = line
        self.cells = cells
        self.issues: list[CsvIssue] = []
        self.values: dict[str, Any] = {}

    def problem(self, column: str, message: str) -> None:
        self.issues.append(CsvIssue(self.line, column, message))

    def parse(self, column: str) -> None:
        if column not in self.cells:
            return
        text = self.cells[column]
        try:
            self.values[column] = self._value(column, text)
        except ValueError as exc:
            self.problem(column, str(exc))

    def _value(self, column: str, text: str) -> Any:
        if column in _BOOLEAN_DEFAULTS:
            return _boolean(text, _BOOLEAN_DEFAULTS[column])
        if column in LIST_COLUMNS:
            return _list(column, text)
        if column in ("base_price", "sale_price", "cost_price"):
            return _money(column, text)
        parser = {"id": _id, "stock_quantity": _stock, "weight_oz": _weight, "version": _version}.get(column)
        return parser(text) if parser else _text(column, text)


def _id(text: str) -> int | None:
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise ValueError(CsvMessage.NOT_ID)
    return int(text)


def _version(text: str) -> str | None:
    if not text:
        return None
    if len(text) != VERSION_LENGTH or any(c not in "0123456789abcdef" for c in text.lower()):
        raise ValueError(CsvMessage.NOT_VERSION)
    return text.lower()


def _money(column: str, text: str) -> int | None:
    if not text:
        if column == "base_price":
            raise ValueError(CsvMessage.REQUIRED)
        return None
    cents = parse_dollars(text)
    if column == "sale_price" and cents == 0:
        raise ValueError(CsvMessage.SALE_NOT_POSITIVE)
    return cents


def _stock(text: str) -> int:
    if not text:
        return 0
    if not text.isascii() or not text.isdigit():
        raise ValueError(CsvMessage.NOT_WHOLE_NUMBER)
    return int(text)


def _boolean(text: str, default: bool) -> bool:
    if not text:
        return default
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    raise ValueError(CsvMessage.NOT_BOOLEAN)


def _weight(text: str) -> Decimal | None:
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(CsvMessage.NOT_WEIGHT) from None
    exponent = value.as_tuple().exponent
    if (
        not value.is_finite()
        or value < 0
        or value > WEIGHT_MAX
        or not isinstance(exponent, int)
        or exponent < -2
    ):
        raise ValueError(CsvMessage.NOT_WEIGHT)
    return value


def _list(column: str, text: str) -> list[str] | None:
    if not text:
        return [] if column == "image_urls" else None
    items = [item.strip() for item in text.split(";")]
    if any(not item for item in items):
        raise ValueError(CsvMessage.BAD_LIST_ITEM)
    if column == "image_urls":
        if len(items) > MAX_IMAGES:
            raise ValueError(CsvMessage.TOO_MANY_IMAGES.format(limit=MAX_IMAGES))
        if any(not i.startswith("/") or i.startswith("//") or len(i) > IMAGE_URL_MAX for i in items):
            raise ValueError(CsvMessage.NOT_IMAGE_PATH)
    return items


def _text(column: str, text: str) -> str | None:
    if column == "name" and not text:
        raise ValueError(CsvMessage.REQUIRED)
    limit = TEXT_LIMITS.get(column)
    if limit is not None and len(text) > limit:
        raise ValueError(CsvMessage.TOO_LONG.format(limit=limit))
    if column == "product_type" and text and text not in PRODUCT_TYPES:
        raise ValueError(CsvMessage.NOT_PRODUCT_TYPE)
    if column == "description":
        return text
    return text or None


def parse_row(line: int, cells: Mapping[str, str]) -> tuple[dict[str, Any], list[CsvIssue]]:
    """The typed values of the columns present in a row, and every problem found in it alone.

    Values: ``id`` int or None; money in cents (``sale_price``/``cost_price`` None when empty);
    ``stock_quantity`` int (empty is 0); booleans (empty is the column's default: active, not
    featured, not new); ``weight_oz`` Decimal or None; ``ingredients``/``tags`` a list or None,
    ``image_urls`` a list; ``description`` text; ``version`` lower-case text or None; other texts
    None when empty.
    """
    row = _Row(line, cells)
    for column in COLUMNS:
        row.parse(column)
    base, sale = row.values.get("base_price"), row.values.get("sale_price")
    if isinstance(base, int) and isinstance(sale, int) and sale >= base:
        row.problem("sale_price", ProductFormMessage.SALE_NOT_BELOW_PRICE)
    return row.values, row.issues
