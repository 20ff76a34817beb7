"""Stock texts, low-stock flags, card badges, discount and margin (docs/spec/storefront.md#stock, #badges;
docs/spec/admin.md#dashboard-products; docs/spec/admin-products.md#wizard)."""

from __future__ import annotations

import itertools

import pytest

from shop_app.domain.badges import Badge, card_badge, discount_percent, profit_margin
from shop_app.domain.stock import (
    LOW_STOCK_THRESHOLD,
    admin_status_badge,
    is_low_stock,
    is_low_stock_admin,
    is_out_of_stock,
    stock_badge,
    stock_text,
)


@pytest.mark.parametrize(
    ("quantity", "text"),
    [
        (-3, "Out of Stock"),
        (0, "Out of Stock"),
        (1, "Only 1 left"),
        (5, "Only 5 left"),
        (6, "6 in stock"),
        (120, "120 in stock"),
    ],
)
def test_stock_text(quantity: int, text: str) -> None:
    assert stock_text(quantity) == text


@pytest.mark.parametrize(
    ("quantity", "out", "low", "low_admin"),
    [
        (-1, True, False, True),
        (0, True, False, True),
        (1, False, True, True),
        (5, False, True, True),
        (6, False, False, False),
    ],
)
def test_stock_flags(quantity: int, out: bool, low: bool, low_admin: bool) -> None:
    assert LOW_STOCK_THRESHOLD == 5
    assert is_out_of_stock(quantity) is out
    assert is_low_stock(quantity) is low
    assert is_low_stock_admin(quantity) is low_admin


def test_grouped_view_stock_badge() -> None:
    assert stock_badge(0) == "Out of Stock"
    assert stock_badge(1) == "In Stock"


@pytest.mark.parametrize(
    ("is_new", "sale", "badge"),
    [
        (True, 1500, "New"),
        (True, None, "New"),
        (False, 1500, "Sale"),
        (False, None, "Active"),
        (False, 0, "Active"),
    ],
)
def test_admin_status_badge(is_new: bool, sale: int | None, badge: str) -> None:
    assert admin_status_badge(is_new, sale) == badge


def _expected_badge(on_sale: bool, is_new: bool, is_featured: bool) -> Badge | None:
    """The seed's table (docs/spec/storefront.md#stock), written as a lookup rather than as the rule."""
    table = {
        (True, True, True): Badge.ON_SALE,
        (True, True, False): Badge.ON_SALE,
        (True, False, True): Badge.ON_SALE,
        (True, False, False): Badge.ON_SALE,
        (False, True, True): Badge.NEW,
        (False, True, False): Badge.NEW,
        (False, False, True): Badge.FEATURED,
        (False, False, False): None,
    }
    return table[(on_sale, is_new, is_featured)]


@pytest.mark.parametrize(
    ("on_sale", "is_new", "is_featured"), list(itertools.product([True, False], repeat=3))
)
def test_card_badge_precedence_all_eight_combinations(on_sale: bool, is_new: bool, is_featured: bool) -> None:
    sale = 1500 if on_sale else None
    assert card_badge(
        base_cents=2000, sale_cents=sale, is_new=is_new, is_featured=is_featured
    ) == _expected_badge(on_sale, is_new, is_featured)


@pytest.mark.parametrize("sale", [None, 0, 2000, 2500])
def test_a_sale_price_that_is_no_discount_gives_no_sale_badge(sale: int | None) -> None:
    assert card_badge(base_cents=2000, sale_cents=sale, is_new=True, is_featured=False) == Badge.NEW


def test_badge_labels() -> None:
    assert [b.value for b in Badge] == ["On Sale", "New", "Featured"]


@pytest.mark.parametrize(
    ("base", "sale", "percent"),
    [
        (2000, 1500, 25),
        (3000, 2000, 33),  # 33.33
        (300, 100, 67),  # 66.67
        (200, 199, 1),  # 0.5 -> 1 (half up)
        (1000, 995, 1),  # 0.5 -> 1 (half up)
        (1000, 996, 0),  # 0.4
        (2000, None, 0),
        (2000, 2000, 0),
        (2000, 2500, 0),
        (2000, 0, 0),
    ],
)
def test_discount_percent(base: int, sale: int | None, percent: int) -> None:
    assert discount_percent(base, sale) == percent


@pytest.mark.parametrize(
    ("price", "cost", "expected"),
    [
        (2000, 800, (1200, 60)),
        (1500, 1000, (500, 33)),
        (2000, 1990, (10, 1)),  # 0.5 % rounds up
        (1000, 1500, (-500, -50)),
        (1000, 1000, (0, 0)),
        (0, 500, (-500, 0)),
    ],
)
def test_profit_margin(price: int, cost: int, expected: tuple[int, int]) -> None:
    assert profit_margin(price, cost) == expected
