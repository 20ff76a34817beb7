"""The Reconcile screen's rules (domain.square_reconcile): a difference for exactly the fields
that differ, keys that are unique and stable, values shown as the owner reads them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.product_editing import sale_blocker
from shop_app.domain.square_reconcile import (
    ABSENT,
    SHOWN_MAX,
    Field,
    ShopSide,
    SquareSide,
    compare,
    key_of,
    not_in_shop,
    not_in_square,
    shown,
)

texts = st.text(alphabet="abc xyz", max_size=8)
cents = st.integers(min_value=0, max_value=10**6)
shops = st.builds(ShopSide, st.integers(1, 10**6), texts, texts, cents, st.booleans(), st.integers(-5, 500))
squares = st.builds(
    SquareSide,
    st.text("ABC123", min_size=1, max_size=6),
    texts,
    texts,
    st.none() | cents,
    st.booleans(),
    st.none() | st.integers(0, 500),
)


@given(shops, squares)
def test_a_difference_for_exactly_the_fields_that_differ(shop: ShopSide, square: SquareSide) -> None:
    fields = {d.field for d in compare(shop, square)}

    assert (Field.NAME in fields) == (shop.name.strip() != square.name.strip())
    assert (Field.DESCRIPTION in fields) == (shop.description != square.description)
    assert (Field.PRICE in fields) == (shop.price_cents != square.price_cents)
    assert (Field.FOR_SALE in fields) == (shop.for_sale == square.archived)
    assert (Field.STOCK in fields) == (max(0, shop.stock) != (square.stock or 0))


@given(shops)
def test_a_product_compared_with_its_own_copy_has_no_difference(shop: ShopSide) -> None:
    copy = SquareSide(
        "I1", shop.name, shop.description, shop.price_cents, not shop.for_sale, max(0, shop.stock)
    )

    assert compare(shop, copy) == []


@given(shops, squares)
def test_keys_are_unique_and_name_the_product_and_field(shop: ShopSide, square: SquareSide) -> None:
    found = compare(shop, square)

    assert len({d.key for d in found}) == len(found)
    assert all(d.key == key_of(d.field, product_id=shop.product_id) for d in found)


def test_one_side_only() -> None:
    shop = ShopSide(7, "Fig Jar", "Warm.", 2450, True, 3)
    square = SquareSide("ITEM7", "Till Tin", "", None, False, None)

    missing, extra = not_in_square(shop), not_in_shop(square)

    assert (missing.key, missing.shop, missing.square, missing.can_use_squares) == (
        "p7:not_in_square",
        "$24.50, 3 in stock",
        ABSENT,
        False,
    )
    assert (extra.key, extra.label, extra.shop, extra.square, extra.can_use_squares) == (
        "iITEM7:not_in_shop",
        "Till Tin",
        ABSENT,
        "—, for sale",
        True,
    )


@given(st.text(max_size=400))
def test_shown_values_are_one_line_and_short(text: str) -> None:
    value = shown(text)

    assert "\n" not in value and 1 <= len(value) <= SHOWN_MAX


@given(shops, squares)
def test_a_product_whose_edit_waits_never_offers_squares_value(shop: ShopSide, square: SquareSide) -> None:
    waiting = ShopSide(
        shop.product_id, shop.name, shop.description, shop.price_cents, shop.for_sale, shop.stock, True
    )

    assert all(d.waiting and not d.can_use_squares for d in compare(waiting, square))
    assert not not_in_square(waiting).can_use_squares


def test_a_product_is_put_on_sale_only_with_a_category_and_a_price() -> None:
    assert sale_blocker(category_id=None, base_price_cents=2400) == "Category is required"
    assert sale_blocker(category_id=4, base_price_cents=0) == "Price must be greater than 0"
    assert sale_blocker(category_id=4, base_price_cents=1) is None
