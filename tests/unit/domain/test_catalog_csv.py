"""The catalogue CSV format: formula guarding, the file checks, each row's checks, and the round
trip (what is exported reads back as the same products)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shop_app.domain.catalog_csv import (
    COLUMNS,
    FORMULA_STARTS,
    MAX_BYTES,
    MAX_ROWS,
    PRODUCT_TYPES,
    CsvFileError,
    CsvIssue,
    CsvMessage,
    guard_cell,
    parse_row,
    read_csv,
    record_cells,
    unguard_cell,
    version_of,
    write_csv,
)

HEADER = ",".join(COLUMNS)
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
STRIPPED = TEXT.map(str.strip)
WORD = STRIPPED.filter(bool)
ITEM = WORD.map(lambda s: s.replace(";", ",").strip()).filter(bool)


def _limited(limit: int) -> st.SearchStrategy[str]:
    return WORD.filter(lambda s: len(s) <= limit)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    base = draw(st.integers(0, 10**8))
    sale = draw(st.none() | st.integers(1, base - 1)) if base > 1 else None
    return {
        "id": draw(st.none() | st.integers(1, 10**9)),
        "name": draw(_limited(255)),
        "description": draw(STRIPPED),
        "sku": draw(st.none() | _limited(64)),
        "category": draw(st.none() | WORD),
        "subcategory": draw(st.none() | WORD),
        "product_type": draw(st.none() | st.sampled_from(PRODUCT_TYPES)),
        "base_price": base,
        "sale_price": sale,
        "cost_price": draw(st.none() | st.integers(0, 10**8)),
        "stock_quantity": draw(st.integers(0, 10**6)),
        "is_active": draw(st.booleans()),
        "is_featured": draw(st.booleans()),
        "is_new_arrival": draw(st.booleans()),
        "weight_oz": draw(st.none() | st.integers(0, 99_999_999).map(lambda n: Decimal(n).scaleb(-2))),
        "dimensions": draw(st.none() | _limited(255)),
        "care_instructions": draw(st.none() | WORD),
        "ingredients": draw(st.none() | st.lists(ITEM, min_size=1, max_size=4)),
        "tags": draw(st.none() | st.lists(ITEM, min_size=1, max_size=4)),
        "image_urls": draw(st.lists(ITEM.map(lambda s: "/media/" + s), max_size=3)),
    }


@given(TEXT)
def test_guarding_a_cell_is_undone_by_reading_it(text: str) -> None:
    assert unguard_cell(guard_cell(text)) == text
    assert not guard_cell(text).startswith(FORMULA_STARTS)


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), min_size=1, max_size=5))
def test_export_then_import_gives_the_same_products(products: list[dict[str, Any]]) -> None:
    rows = read_csv(write_csv(products).encode("utf-8"))

    parsed = [parse_row(line, cells) for line, cells in rows]

    assert [line for line, _ in rows] == list(range(2, len(products) + 2))
    assert [issues for _, issues in parsed] == [[]] * len(products)
    assert [values for values, _ in parsed] == [{**p, "version": version_of(p)} for p in products]


@settings(max_examples=60, deadline=None)
@given(records(), st.sampled_from([c for c in COLUMNS if c not in ("id", "version")]), st.data())
def test_a_products_version_changes_with_any_exported_cell_and_only_then(
    product: dict[str, Any], column: str, data: st.DataObject
) -> None:
    other = data.draw(records())
    changed = {**product, column: other[column]}
    same_cells = record_cells(changed)[1:-1] == record_cells(product)[1:-1]

    assert (version_of(changed) == version_of(product)) == same_cells
    assert version_of({**product, "id": 99}) == version_of(product)  # the id is not part of it


def test_a_version_cell_must_be_what_the_export_wrote() -> None:
    base = {"name": "Fig", "base_price": "24.50"}

    assert parse_row(2, {**base, "version": "0123456789ABCDEF"})[0]["version"] == "0123456789abcdef"
    assert parse_row(2, {**base, "version": ""})[0]["version"] is None
    for wrong in ("0123", "0123456789abcdeg", "=cmd|'/C calc'!A0"):
        assert parse_row(2, {**base, "version": wrong})[1] == [CsvIssue(2, "version", CsvMessage.NOT_VERSION)]


def test_dangerous_cells_are_written_as_text() -> None:
    record = {"name": '=HYPERLINK("http://evil")', "description": "@SUM(1)", "base_price": 100, "sku": "-1"}

    cells = dict(zip(COLUMNS, record_cells(record), strict=True))

    assert cells["name"].startswith("'=") and cells["description"] == "'@SUM(1)" and cells["sku"] == "'-1"
    assert cells["base_price"] == "1.00" and cells["is_active"] == "false" and cells["image_urls"] == ""


def test_the_file_starts_with_a_byte_order_mark_and_the_header() -> None:
    text = write_csv([])

    assert text == "\ufeff" + HEADER + "\r\n"


def _file_issues(data: bytes) -> list[CsvIssue]:
    with pytest.raises(CsvFileError) as caught:
        read_csv(data)
    return caught.value.issues


def test_file_level_problems() -> None:
    assert (
        _file_issues(b"x" * (MAX_BYTES + 1))[0].message
        == "The file is larger than 2 MB. Split it into smaller files."
    )
    assert _file_issues("name,base_price\nCaf\xe9,1".encode("latin-1"))[0].message.startswith(
        "The file is not UTF-8"
    )
    assert _file_issues(b"")[0].message == "The file has no header row."
    assert _file_issues(b"name,base_price\n\n , \n")[0] == CsvIssue(2, "", "The file has no products.")
    assert _file_issues(b"name,base_price\nA,1,surprise\n")[0] == CsvIssue(
        2, "", "This row has more cells than the header."
    )
    assert "NUL" in _file_issues(b"name,base_price\nA\x00,1\n")[0].message
    assert _file_issues(b'name,base_price\n"A,1\n')[0].message.startswith(
        "The file is not a readable CSV file"
    )


def test_header_problems_are_all_reported() -> None:
    issues = _file_issues(b"Name,colour,colour,sku\nA,red,red,S\n")

    assert issues == [
        CsvIssue(1, "colour", "Unknown column 'colour'."),
        CsvIssue(1, "colour", "Unknown column 'colour'."),
        CsvIssue(1, "colour", "The column 'colour' appears twice."),
        CsvIssue(1, "base_price", "The column 'base_price' is missing."),
    ]


def test_too_many_rows() -> None:
    data = ("name,base_price\n" + "A,1\n" * (MAX_ROWS + 1)).encode()

    assert (
        _file_issues(data)[0].message
        == f"The file has more than {MAX_ROWS} products. Split it into smaller files."
    )
    assert len(read_csv(("name,base_price\n" + "A,1\n" * MAX_ROWS).encode())) == MAX_ROWS


def test_a_spreadsheets_extras_are_tolerated() -> None:
    data = "\ufeffName , BASE_PRICE,,\r\n Fig ,$1,234.5,,\r\n\r\n".encode()

    ((line, cells),) = read_csv(data.replace(b"$1,234.5", b'"$1,234.5"'))

    assert line == 2 and cells == {"name": "Fig", "base_price": "$1,234.5"}
    assert parse_row(line, cells) == ({"name": "Fig", "base_price": 123450}, [])


def test_missing_optional_columns_are_left_out_and_empty_cells_take_defaults() -> None:
    cells = dict.fromkeys(COLUMNS, "")
    cells |= {"name": "Fig", "base_price": "5"}

    values, issues = parse_row(2, cells)

    assert issues == []
    assert values["id"] is None and values["sku"] is None and values["description"] == ""
    assert (values["is_active"], values["is_featured"], values["is_new_arrival"]) == (True, False, False)
    assert values["stock_quantity"] == 0 and values["ingredients"] is None and values["image_urls"] == []


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("name", "", "A value is required."),
        ("name", "x" * 256, "At most 255 characters."),
        ("base_price", "", "A value is required."),
        ("base_price", "-1", "Amount cannot be negative"),
        ("base_price", "1.234", "at most 2 decimal places"),
        ("base_price", "12 dollars", "valid amount"),
        ("sale_price", "0", "A sale price must be greater than 0 (leave it empty for none)."),
        ("sale_price", "10", "Sale price must be less than regular price"),
        ("cost_price", "-0.01", "Amount cannot be negative"),
        ("stock_quantity", "1.5", "Must be a whole number of 0 or more."),
        ("stock_quantity", "-3", "Must be a whole number of 0 or more."),
        ("stock_quantity", "٣", "Must be a whole number of 0 or more."),
        ("id", "abc", "Must be a product id (a whole number), or empty for a new product."),
        ("id", "0", "Must be a product id (a whole number), or empty for a new product."),
        ("is_active", "maybe", "Must be true or false."),
        ("weight_oz", "1.234", "Must be a number of ounces of 0 or more with at most 2 decimals."),
        ("weight_oz", "NaN", "Must be a number of ounces of 0 or more with at most 2 decimals."),
        ("weight_oz", "1e9", "Must be a number of ounces of 0 or more with at most 2 decimals."),
        ("product_type", "soap", "Must be one of: candles, body-care, home-fragrance."),
        ("sku", "S" * 65, "At most 64 characters."),
        ("ingredients", "soy;;wax", "An item of this list is empty."),
        ("image_urls", "https://evil.example/x.png", "Each image must be a path on this shop"),
        ("image_urls", "//evil.example/x.png", "Each image must be a path on this shop"),
        ("image_urls", "; ".join(["/a"] * 21), "At most 20 images."),
    ],
)
def test_each_bad_cell_is_reported_with_its_row_and_column(column: str, value: str, message: str) -> None:
    cells = {"name": "Fig", "base_price": "10.00", column: value}

    values, issues = parse_row(7, cells)

    assert len(issues) == 1
    assert (issues[0].row, issues[0].column) == (7, column)
    assert message.lower() in issues[0].message.lower()
    assert column not in values or column == "sale_price"


def test_every_problem_of_a_row_is_reported() -> None:
    _, issues = parse_row(3, {"name": "", "base_price": "x", "stock_quantity": "-1", "is_featured": "?"})

    assert [issue.column for issue in issues] == ["name", "base_price", "stock_quantity", "is_featured"]
