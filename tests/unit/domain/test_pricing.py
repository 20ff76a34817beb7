"""Cart line pricing, line identity, quantities and the add-to-cart toast (docs/spec/cart.md#lines,
#pricing)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.pricing import (
    MAX_QUANTITY,
    MIN_QUANTITY,
    added_to_cart_message,
    cart_count,
    clamp_quantity,
    display_price_cents,
    effective_sale_price,
    line_total_cents,
    merged_quantity,
    options_key,
    options_label,
    options_price_cents,
    quantity_after_update,
    unit_price_cents,
)

PRICING = {"8oz": 2400, "16oz": 3800, "Gift Wrap": 300, "Wood Wick": 200}


@pytest.mark.parametrize(
    ("base", "sale", "expected"),
    [
        (2000, None, None),
        (2000, 0, None),
        (2000, -100, None),
        (2000, 2000, None),  # equal to base: not a discount
        (2000, 2500, None),  # above base
        (2000, 1999, 1999),
        (2000, 1, 1),
    ],
)
def test_effective_sale_price(base: int, sale: int | None, expected: int | None) -> None:
    assert effective_sale_price(base, sale) == expected


@pytest.mark.parametrize(
    ("base", "sale", "expected"), [(2000, None, 2000), (2000, 2000, 2000), (2000, 1500, 1500)]
)
def test_display_price(base: int, sale: int | None, expected: int) -> None:
    assert display_price_cents(base, sale) == expected


def price(selected: dict[str, str], *, sale: int | None = None, base: int = 2000) -> int:
    return unit_price_cents(base_cents=base, sale_cents=sale, pricing=PRICING, selected_options=selected)


def test_no_options_is_base_price() -> None:
    assert price({}) == 2000


def test_size_option_replaces_the_price() -> None:
    assert price({"Size": "16oz"}) == 3800


def test_size_option_name_is_case_insensitive() -> None:
    assert price({"size": "8oz"}) == 2400
    assert price({" SIZE ": "8oz"}) == 2400


def test_other_option_adds_to_the_price() -> None:
    assert price({"Wrapping": "Gift Wrap"}) == 2300
    assert price({"Wrapping": "Gift Wrap", "Wick": "Wood Wick"}) == 2500


def test_size_then_add_ons_regardless_of_selection_order() -> None:
    assert price({"Wrapping": "Gift Wrap", "Size": "16oz"}) == 4100
    assert price({"Size": "16oz", "Wrapping": "Gift Wrap"}) == 4100


def test_option_without_a_price_changes_nothing() -> None:
    assert price({"Scent": "Lavender"}) == 2000
    assert price({"Size": "32oz"}) == 2000


def test_a_value_priced_under_another_option_name_still_adds() -> None:
    # The price belongs to the value; only the size *name* replaces.
    assert price({"Scent": "16oz"}) == 5800


def test_sale_price_below_base_wins_without_options() -> None:
    assert price({}, sale=1500) == 1500


@pytest.mark.parametrize("sale", [None, 0, 2000, 2500])
def test_non_discount_sale_prices_are_ignored(sale: int | None) -> None:
    assert price({}, sale=sale) == 2000


def test_sale_wins_when_lower_than_an_option_raised_price() -> None:
    # 2500 is above the base price (2000) but below the 16oz price (3800): it is used.
    assert price({"Size": "16oz"}, sale=2500) == 2500


def test_sale_above_the_option_raised_price_is_ignored() -> None:
    assert price({"Size": "8oz"}, sale=3000) == 2400


def test_negative_add_on_cannot_make_the_price_negative() -> None:
    assert (
        unit_price_cents(
            base_cents=500,
            sale_cents=None,
            pricing={"Refill": -800},
            selected_options={"Type": "Refill"},
        )
        == 0
    )


def test_float_prices_are_refused() -> None:
    with pytest.raises(TypeError):
        unit_price_cents(
            base_cents=2000,
            sale_cents=None,
            pricing={"16oz": 38.0},  # type: ignore[dict-item]
            selected_options={"Size": "16oz"},
        )


option_names = st.sampled_from(["Size", "size", "Scent", "Wrapping", "Wick", "Color"])
option_values = st.sampled_from([*PRICING, "Lavender", "Vanilla", ""])
selections = st.dictionaries(option_names, option_values, max_size=5)


@given(
    selections,
    st.integers(min_value=0, max_value=100_000),
    st.one_of(st.none(), st.integers(min_value=-500, max_value=200_000)),
)
def test_unit_price_never_exceeds_the_computed_price(
    selected: dict[str, str], base: int, sale: int | None
) -> None:
    computed = options_price_cents(base_cents=base, pricing=PRICING, selected_options=selected)
    unit = unit_price_cents(base_cents=base, sale_cents=sale, pricing=PRICING, selected_options=selected)
    assert 0 <= unit <= computed
    if sale is not None and 0 < sale < computed:
        assert unit == sale
    else:
        assert unit == computed


@given(selections, st.integers(min_value=0, max_value=100_000), st.randoms())
def test_price_does_not_depend_on_option_order(selected: dict[str, str], base: int, rnd: object) -> None:
    items = list(selected.items())
    rnd.shuffle(items)  # type: ignore[attr-defined]
    reordered = dict(items)
    kwargs = {"base_cents": base, "sale_cents": None, "pricing": PRICING}
    assert unit_price_cents(selected_options=selected, **kwargs) == unit_price_cents(
        selected_options=reordered, **kwargs
    )


def test_line_total_and_cart_count() -> None:
    assert line_total_cents(1250, 3) == 3750
    assert line_total_cents(1250, 0) == 0
    assert cart_count([2, 1, 5]) == 8
    assert cart_count([]) == 0
    with pytest.raises(ValueError):
        line_total_cents(1250, -1)


@pytest.mark.parametrize(
    ("n", "expected"), [(-5, 1), (0, 1), (1, 1), (50, 50), (99, 99), (100, 99), (10**6, 99)]
)
def test_clamp_quantity(n: int, expected: int) -> None:
    assert (MIN_QUANTITY, MAX_QUANTITY) == (1, 99)
    assert clamp_quantity(n) == expected


def test_merging_lines_caps_at_99() -> None:
    assert merged_quantity(2, 3) == 5
    assert merged_quantity(98, 5) == 99


@pytest.mark.parametrize(("n", "expected"), [(-1, None), (0, None), (1, 1), (7, 7), (150, 99)])
def test_setting_zero_or_less_removes_the_line(n: int, expected: int | None) -> None:
    assert quantity_after_update(n) == expected


def test_options_key_is_order_independent_and_canonical() -> None:
    a = options_key({"Size": "8oz", "Scent": "Lavender"})
    b = options_key({"Scent": "Lavender", "Size": "8oz"})
    assert a == b == "Scent=Lavender|Size=8oz"


def test_options_key_distinguishes_different_selections() -> None:
    assert options_key({"Scent": "Lavender"}) != options_key({"Scent": "Vanilla"})
    assert options_key({"Scent": "Lavender"}) != options_key({"Aroma": "Lavender"})
    # Separators inside values cannot forge another selection.
    assert options_key({"a": "b|c=d"}) != options_key({"a": "b", "c": "d"})


def test_options_key_empty_and_unselected() -> None:
    assert options_key({}) == ""
    assert options_key({"Scent": "  "}) == ""
    assert options_key({" Scent ": " Lavender "}) == options_key({"Scent": "Lavender"})


def test_names_equal_once_trimmed_give_one_key_in_any_order() -> None:
    """Found by the property below: {"1": "00", "1 ": "0"} gave "1=00" or "1=0" by order."""
    assert options_key({"1": "00", "1 ": "0"}) == options_key({"1 ": "0", "1": "00"}) == "1=0"


@given(st.dictionaries(st.text(max_size=6), st.text(max_size=6), max_size=6), st.randoms())
def test_options_key_order_independence_property(selected: dict[str, str], rnd: object) -> None:
    items = list(selected.items())
    rnd.shuffle(items)  # type: ignore[attr-defined]
    assert options_key(dict(items)) == options_key(selected)


@given(
    st.dictionaries(st.text(min_size=1, max_size=6).filter(str.strip), st.text(max_size=6)),
    st.dictionaries(st.text(min_size=1, max_size=6).filter(str.strip), st.text(max_size=6)),
)
def test_options_key_equal_only_for_equal_cleaned_selections(a: dict[str, str], b: dict[str, str]) -> None:
    def cleaned(d: dict[str, str]) -> set[tuple[str, str]]:
        return {(k.strip(), v.strip()) for k, v in d.items() if v.strip()}

    if len({k.strip() for k in a}) == len(a) and len({k.strip() for k in b}) == len(b):
        assert (options_key(a) == options_key(b)) == (cleaned(a) == cleaned(b))


def test_options_label_keeps_selection_order() -> None:
    assert options_label({"Scent": "Lavender", "Size": "8oz"}) == "Lavender, 8oz"
    assert options_label({"Size": "8oz", "Scent": "Lavender"}) == "8oz, Lavender"
    assert options_label({}) == ""


def test_added_to_cart_message() -> None:
    assert added_to_cart_message(1, "Soy Candle", {}) == "Added 1 Soy Candle to your cart"
    assert (
        added_to_cart_message(2, "Soy Candle", {"Scent": "Lavender", "Size": "8oz"})
        == "Added 2 Soy Candle to your cart (Lavender, 8oz)"
    )
