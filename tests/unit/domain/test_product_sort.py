"""The dashboard list's sort options: each order, ties broken by id, unknown values ignored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from shop_app.domain.product_sort import DEFAULT_SORT, SORT_LABELS, ProductSort, parse_sort, sort_products

T0 = datetime(2026, 11, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Row:
    id: int
    name: str
    created_at: datetime
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int


ROWS = [
    Row(1, "beeswax Taper", T0, 1200, None, 40),
    Row(2, "Amber Jar", T0 + timedelta(days=1), 2800, 2000, 3),  # pays 20.00
    Row(3, "cedar Spray", T0 + timedelta(days=2), 1600, None, 0),
    Row(4, "Amber jar", T0 + timedelta(days=2), 2000, 2500, 3),  # no discount: pays 20.00
]


def _ids(order: ProductSort) -> list[int]:
    return [row.id for row in sort_products(ROWS, order)]


@pytest.mark.parametrize(
    ("order", "ids"),
    [
        (ProductSort.NEWEST, [4, 3, 2, 1]),  # same moment: the higher id is newer
        (ProductSort.OLDEST, [1, 2, 3, 4]),
        (ProductSort.NAME_ASC, [2, 4, 1, 3]),  # case-insensitive, then id
        (ProductSort.NAME_DESC, [3, 1, 4, 2]),
        (ProductSort.PRICE_ASC, [1, 3, 2, 4]),  # what the customer pays: a sale only when below base
        (ProductSort.PRICE_DESC, [4, 2, 3, 1]),
        (ProductSort.STOCK_ASC, [3, 2, 4, 1]),
    ],
)
def test_each_option_orders_the_rows(order: ProductSort, ids: list[int]) -> None:
    assert _ids(order) == ids


def test_newest_first_is_the_default_and_the_input_is_left_alone() -> None:
    rows = list(ROWS)

    assert [r.id for r in sort_products(rows)] == _ids(ProductSort.NEWEST)
    assert rows == ROWS and DEFAULT_SORT == ProductSort.NEWEST


def test_every_option_has_a_label_and_unknown_values_fall_back_to_the_default() -> None:
    assert set(SORT_LABELS) == set(ProductSort)
    assert parse_sort("price-asc") == ProductSort.PRICE_ASC
    assert parse_sort("DROP TABLE") == parse_sort("") == DEFAULT_SORT
