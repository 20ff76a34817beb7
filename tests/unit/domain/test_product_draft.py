"""The editors' input parsing and the wizard's own helpers: steps, readiness, preview. (The one rule set
of the three editors: test_product_editing.py.)"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.money import format_plain
from shop_app.domain.product_draft import (
    MAX_AMOUNT_CENTS,
    MAX_STOCK,
    STEP_COUNT,
    DraftError,
    DraftField,
    PricePreview,
    clamp_step,
    default_sku,
    image_alt_text,
    parse_id,
    parse_list,
    parse_price,
    parse_stock,
    parse_weight,
    percent_complete,
    price_preview,
    product_type_for,
    publish_ready,
    step_of,
)

F = DraftField

# ----------------------------------------------------------------------------- values


@given(st.integers(min_value=0, max_value=MAX_AMOUNT_CENTS))
def test_every_price_in_range_reads_back_as_its_cents(cents: int) -> None:
    assert parse_price(format_plain(cents), F.BASE_PRICE) == cents


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-1", "The amount cannot be negative"),
        ("1.005", "The amount can have at most 2 decimal places"),
        ("abc", "Please enter a valid amount, for example 12.50"),
        ("1e3", "Please enter a valid amount, for example 12.50"),
        ("1000000.01", "The amount can be at most $1,000,000.00"),
    ],
)
def test_bad_prices_say_why(text: str, message: str) -> None:
    with pytest.raises(DraftError) as refused:
        parse_price(text, F.SALE_PRICE)
    assert (refused.value.field, refused.value.message) == (F.SALE_PRICE, message)


def test_an_empty_price_is_none_unless_required() -> None:
    assert parse_price("  ", F.SALE_PRICE) is None
    with pytest.raises(DraftError, match="Please enter an amount"):
        parse_price("", F.BASE_PRICE, required=True)


@given(st.integers(min_value=0, max_value=MAX_STOCK))
def test_stock_is_a_whole_number(quantity: int) -> None:
    assert parse_stock(f" {quantity} ") == quantity


@pytest.mark.parametrize("text", ["", "-1", "2.5", "1e2", "١٢", str(MAX_STOCK + 1), "five"])
def test_stock_refusals(text: str) -> None:
    with pytest.raises(DraftError) as refused:
        parse_stock(text)
    assert refused.value.message == "Stock quantity must be a whole number from 0 to 1,000,000"


@given(st.integers(min_value=0, max_value=999_999))
def test_weights_in_tenths_are_accepted(tenths: int) -> None:
    assert parse_weight(f"{tenths // 10}.{tenths % 10}") == Decimal(tenths) / 10


@pytest.mark.parametrize("text", ["2.55", "-1", "abc", "1e2", "100000", ".", "nan"])
def test_weights_off_the_step_or_range_are_refused(text: str) -> None:
    with pytest.raises(DraftError) as refused:
        parse_weight(text)
    assert refused.value.field == F.WEIGHT
    assert refused.value.message == "Weight must be a number from 0 to 99999.9, in steps of 0.1"


def test_weight_forms() -> None:
    assert (parse_weight(""), parse_weight(" 8 "), parse_weight("2.50"), parse_weight(".5")) == (
        None,
        Decimal("8.0"),
        Decimal("2.5"),
        Decimal("0.5"),
    )


@given(st.lists(st.text(alphabet="abc ,\n", max_size=8), max_size=6))
def test_lists_are_trimmed_unique_and_none_when_empty(parts: list[str]) -> None:
    result = parse_list(",".join(parts))
    if result is None:
        return
    assert result and all(item == item.strip() and item for item in result)
    assert len({item.casefold() for item in result}) == len(result)


def test_ids_from_selects() -> None:
    assert (parse_id("12"), parse_id(""), parse_id("0"), parse_id("x1"), parse_id(None)) == (
        12,
        None,
        None,
        None,
        None,
    )


def test_product_types_are_the_seeds() -> None:
    assert [product_type_for(s) for s in ("candles", "body-care", "home-fragrance", "custom", None)] == [
        "candles",
        "body-care",
        "home-fragrance",
        None,
        None,
    ]


@given(st.text(max_size=300), st.integers(min_value=0, max_value=9_999_999_999_999))
def test_the_default_sku_fits_the_column_and_keeps_its_parts(name: str, timestamp: int) -> None:
    sku = default_sku(name, timestamp_ms=timestamp, token="a1b2c3")
    assert len(sku) <= 64 and sku.endswith(f"-{timestamp}-a1b2c3")
    assert sku == sku.lower() and " " not in sku


def test_alt_texts_fit_their_column() -> None:
    assert image_alt_text("Rose", 1) == "Rose Image 1"
    assert len(image_alt_text("x" * 255, 12)) == 255 and image_alt_text("x" * 255, 12).endswith(" Image 12")


# ----------------------------------------------------------------------------- wizard


@given(st.integers(min_value=-5, max_value=12))
def test_steps_stay_within_one_to_six(step: int) -> None:
    assert 1 <= clamp_step(step) <= STEP_COUNT
    assert 0 < percent_complete(step) <= 100


def test_percent_complete_per_step() -> None:
    assert [percent_complete(s) for s in range(1, 7)] == [17, 33, 50, 67, 83, 100]


def test_errors_lead_to_their_step() -> None:
    assert [step_of(f) for f in (F.NAME, F.IMAGES, F.SALE_PRICE, F.CATEGORY, F.STOCK, F.SEO_TITLE)] == [
        1,
        2,
        3,
        4,
        5,
        5,
    ]


@given(st.lists(st.sampled_from(["", " ", "x"]), min_size=5, max_size=5))
def test_publish_needs_the_five_fields(values: list[str]) -> None:
    name, description, base, stock, category = values
    ready = publish_ready(
        name=name, description=description, base_price=base, stock_quantity=stock, category=category
    )
    assert ready == all(v.strip() for v in values)


def test_the_preview_shows_only_a_real_discount() -> None:
    assert price_preview("20", "15", "6") == PricePreview(25, 900, 60)
    assert price_preview("20", "15", "16") == PricePreview(25, -100, -7)
    assert price_preview("20", "20", "6") is None
    assert price_preview("20", "", "6") is None
    assert price_preview("x", "15", "") is None
    assert price_preview("20", "0", "") is None
    assert price_preview("20", "15", "zz") is None


@given(
    st.integers(min_value=2, max_value=100_000),
    st.integers(min_value=1, max_value=100_000),
    st.integers(min_value=0, max_value=100_000),
)
def test_the_preview_discount_is_between_0_and_100(base: int, sale: int, cost: int) -> None:
    preview = price_preview(format_plain(base), format_plain(sale), format_plain(cost))
    if sale >= base:
        assert preview is None
        return
    assert preview is not None and 0 <= preview.discount_percent <= 100
    assert preview.margin_cents == sale - cost
