"""The wizard's and the local form's input rules: parsing, steps, readiness, preview, message order."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import ProductFormMessage as M
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
    parse_wizard,
    percent_complete,
    price_preview,
    product_type_for,
    publish_ready,
    step_of,
)
from shop_app.domain.product_form import FormInvalid, add_scent_note, parse_product_form

F = DraftField

WIZARD = {
    "name": "  Lavender Candle ",
    "description": " Calm. ",
    "sku": "",
    "base_price": "28",
    "sale_price": "",
    "cost_price": "",
    "category": "3",
    "subcategory": "",
    "tags": "",
    "stock_quantity": "5",
    "weight": "",
    "dimensions": "",
    "care_instructions": "",
    "ingredients": "",
    "seo_title": "",
    "seo_description": "",
}


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


def test_the_wizard_gives_a_trimmed_product_with_nulls_for_empties() -> None:
    draft = parse_wizard(WIZARD, is_featured=True, is_new_arrival=False)

    assert (draft.name, draft.description, draft.base_price_cents, draft.stock_quantity) == (
        "Lavender Candle",
        "Calm.",
        2800,
        5,
    )
    assert draft.category_id == 3 and draft.is_featured and not draft.is_new_arrival
    assert (draft.sku, draft.sale_price_cents, draft.cost_price_cents, draft.weight_oz) == (None,) * 4
    assert (draft.dimensions, draft.care_instructions, draft.ingredients, draft.tags) == (None,) * 4
    assert (draft.subcategory_id, draft.seo_title, draft.seo_description) == (None,) * 3


def test_a_sale_price_of_zero_is_no_sale_price_and_a_high_one_is_kept() -> None:
    assert (
        parse_wizard({**WIZARD, "sale_price": "0"}, is_featured=False, is_new_arrival=False).sale_price_cents
        is None
    )
    high = parse_wizard({**WIZARD, "sale_price": "30"}, is_featured=False, is_new_arrival=False)
    # kept as typed: simply no discount (docs/spec/admin-products.md#wizard-validation)
    assert high.sale_price_cents == 3000


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": " "}, F.NAME),
        ({"description": ""}, F.DESCRIPTION),
        ({"sku": "x" * 65}, F.SKU),
        ({"base_price": "1.234"}, F.BASE_PRICE),
        ({"cost_price": "-2"}, F.COST_PRICE),
        ({"category": "abc"}, F.CATEGORY),
        ({"stock_quantity": "1.5"}, F.STOCK),
        ({"weight": "0.05"}, F.WEIGHT),
        ({"seo_description": "x" * 501}, F.SEO_DESCRIPTION),
    ],
)
def test_the_wizard_names_the_field_in_error(changes: dict[str, str], field: DraftField) -> None:
    with pytest.raises(DraftError) as refused:
        parse_wizard({**WIZARD, **changes}, is_featured=False, is_new_arrival=False)
    assert refused.value.field == field


def test_the_wizard_reports_the_first_problem_in_step_order() -> None:
    with pytest.raises(DraftError) as refused:
        parse_wizard(
            {**WIZARD, "stock_quantity": "x", "base_price": "y"}, is_featured=False, is_new_arrival=False
        )
    assert refused.value.field == F.BASE_PRICE


# ----------------------------------------------------------------------------- local form


FORM = {"name": "Rose Jar", "sku": "RJ-1", "description": "Soft.", "base_price": "20", "sale_price": ""}


def problems(
    form: dict[str, str], *, images: int = 1, notes: tuple[str, ...] = ("Rose",), locked: bool = False
):
    try:
        parse_product_form(
            form,
            image_count=images,
            scent_notes=notes,
            is_featured=False,
            is_new_arrival=False,
            id_locked=locked,
        )
    except FormInvalid as invalid:
        return list(invalid.problems)
    return []


def test_an_empty_form_lists_the_seed_messages_in_the_seed_order() -> None:
    assert problems({}, images=0, notes=()) == [
        (F.NAME, M.NAME_REQUIRED),
        (F.SKU, M.ID_REQUIRED),
        (F.DESCRIPTION, M.DESCRIPTION_REQUIRED),
        (F.BASE_PRICE, M.PRICE_NOT_POSITIVE),
        (F.IMAGES, M.IMAGE_REQUIRED),
        (F.SCENT_NOTES, M.SCENT_NOTE_REQUIRED),
    ]
    assert str(FormInvalid(problems({}, images=0, notes=()))) == "Product name is required"


@given(
    st.fixed_dictionaries(
        {
            k: st.sampled_from(["", " ", "x", "0", "5", "25", "abc"])
            for k in ("name", "sku", "description", "base_price", "sale_price")
        }
    ),
    st.integers(min_value=0, max_value=2),
    st.lists(st.sampled_from(["", " ", "Rose"]), max_size=2),
)
def test_problems_always_come_in_the_seed_order(form: dict[str, str], images: int, notes: list[str]) -> None:
    order = [F.NAME, F.SKU, F.DESCRIPTION, F.BASE_PRICE, F.SALE_PRICE, F.IMAGES, F.SCENT_NOTES]
    fields = [field for field, _ in problems(form, images=images, notes=tuple(notes))]
    assert fields == sorted(fields, key=order.index)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"base_price": "0"}, [(F.BASE_PRICE, M.PRICE_NOT_POSITIVE)]),
        ({"base_price": "abc"}, [(F.BASE_PRICE, "Please enter a valid amount, for example 12.50")]),
        ({"sale_price": "20"}, [(F.SALE_PRICE, M.SALE_NOT_BELOW_PRICE)]),
        ({"sale_price": "25.00"}, [(F.SALE_PRICE, M.SALE_NOT_BELOW_PRICE)]),
        ({"sale_price": "0"}, []),
        ({"sale_price": "19.99"}, []),
        ({"size": "x" * 101}, [(F.SIZE, "Size can be at most 100 characters")]),
    ],
)
def test_price_rules_of_the_form(changes: dict[str, str], expected: list) -> None:
    assert problems({**FORM, **changes}) == expected


def test_the_id_is_not_checked_or_changed_when_locked() -> None:
    assert problems({**FORM, "sku": ""}, locked=True) == []
    draft = parse_product_form(
        {
            **FORM,
            "sku": "OTHER",
            "size": " 8 oz ",
            "burn_time": "",
            "ingredients": "soy, wick",
            "sale_price": "0",
        },
        image_count=1,
        scent_notes=[" Rose ", ""],
        is_featured=True,
        is_new_arrival=True,
        id_locked=True,
    )
    assert draft.sku is None and draft.scent_notes == ("Rose",) and draft.details == (("size", "8 oz"),)
    assert (
        draft.ingredients == ("soy", "wick") and draft.sale_price_cents is None and draft.stock_quantity == 0
    )


@given(st.lists(st.text(max_size=6), max_size=8))
def test_scent_notes_are_trimmed_and_never_repeat(entries: list[str]) -> None:
    notes: tuple[str, ...] = ()
    for entry in entries:
        notes = add_scent_note(notes, entry)
    assert all(note == note.strip() and note for note in notes)
    assert len({note.casefold() for note in notes}) == len(notes)
