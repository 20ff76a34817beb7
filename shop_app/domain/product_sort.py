"""The dashboard product list's sort dropdown (docs/spec/admin-products.md#manage names the dropdown, not its
options).

Newest first is the default, as the seed's admin list query orders it (docs/spec/admin-products.md#calls).
Prices sort by what the customer pays (the sale price when it is a real discount, see
:func:`shop_app.domain.pricing.display_price_cents`). Every order ends with the id, so equal
names, prices or stock levels always come out in the same order and the list does not jump.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any, Final, Protocol, TypeVar

from shop_app.domain.pricing import display_price_cents


class Sortable(Protocol):
    """What sorting needs of a product row."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def created_at(self) -> datetime: ...

    @property
    def base_price_cents(self) -> int: ...

    @property
    def sale_price_cents(self) -> int | None: ...

    @property
    def stock_quantity(self) -> int: ...


RowT = TypeVar("RowT", bound=Sortable)


class ProductSort(StrEnum):
    """The sort dropdown's options (values go into the page, labels are what the owner reads)."""

    NEWEST = "newest"
    OLDEST = "oldest"
    NAME_ASC = "name-asc"
    NAME_DESC = "name-desc"
    PRICE_ASC = "price-asc"
    PRICE_DESC = "price-desc"
    STOCK_ASC = "stock-asc"


SORT_LABELS: Final[dict[ProductSort, str]] = {
    ProductSort.NEWEST: "Newest first",
    ProductSort.OLDEST: "Oldest first",
    ProductSort.NAME_ASC: "Name A–Z",
    ProductSort.NAME_DESC: "Name Z–A",
    ProductSort.PRICE_ASC: "Price: low to high",
    ProductSort.PRICE_DESC: "Price: high to low",
    ProductSort.STOCK_ASC: "Stock: low to high",
}
DEFAULT_SORT: Final = ProductSort.NEWEST


def _price(row: Sortable) -> int:
    return display_price_cents(row.base_price_cents, row.sale_price_cents)


_KEYS: Final[dict[ProductSort, tuple[Callable[[Sortable], Any], bool]]] = {
    ProductSort.NEWEST: (lambda r: (r.created_at, r.id), True),
    ProductSort.OLDEST: (lambda r: (r.created_at, r.id), False),
    ProductSort.NAME_ASC: (lambda r: (r.name.casefold(), r.id), False),
    ProductSort.NAME_DESC: (lambda r: (r.name.casefold(), r.id), True),
    ProductSort.PRICE_ASC: (lambda r: (_price(r), r.id), False),
    ProductSort.PRICE_DESC: (lambda r: (_price(r), r.id), True),
    ProductSort.STOCK_ASC: (lambda r: (r.stock_quantity, r.id), False),
}


def parse_sort(value: str) -> ProductSort:
    """Return the option for a dropdown value; anything unknown is the default (newest first)."""
    try:
        return ProductSort(value)
    except ValueError:
        return DEFAULT_SORT


def sort_products(rows: Iterable[RowT], order: ProductSort = DEFAULT_SORT) -> list[RowT]:
    """Return the rows in the chosen order (a new list; the input is left alone).

    Examples:
        >>> from types import SimpleNamespace as Row
        >>> from datetime import UTC
        >>> day = datetime(2026, 1, 1, tzinfo=UTC)
        >>> rows = [Row(id=1, name="b", created_at=day, base_price_cents=500, sale_price_cents=300,
        ...             stock_quantity=9),
        ...         Row(id=2, name="A", created_at=day, base_price_cents=400, sale_price_cents=None,
        ...             stock_quantity=2)]
        >>> [r.id for r in sort_products(rows)], [r.id for r in sort_products(rows, ProductSort.NAME_ASC)]
        ([2, 1], [2, 1])
        >>> [r.id for r in sort_products(rows, ProductSort.PRICE_ASC)]  # 3.00 on sale before 4.00
        [1, 2]
    """
    key, descending = _KEYS[order]
    return sorted(rows, key=key, reverse=descending)
