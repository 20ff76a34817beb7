"""The one rule set of the three product editors (docs/spec/admin-products.md#one-editor): the
wizard, the Edit Product dialog and the full-page form turn what was typed into one ProductDraft,
and one validation says what is wrong, in the seed's words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.demo import demo_catalog
from shop_app.demo.demo_types import DemoProduct
from shop_app.domain.admin_messages import ProductDraftText as T
from shop_app.domain.admin_messages import ProductFormMessage as M
from shop_app.domain.money import format_plain
from shop_app.domain.product_draft import MAX_AMOUNT_CENTS, MAX_STOCK, DraftField
from shop_app.domain.product_editing import (
    FIELD_ORDER,
    CategoryTree,
    DraftInvalid,
    MainCategory,
    ProductDraft,
    add_scent_note,
    draft_from_form,
    product_values,
    stock_to_write,
    update_enabled,
    validate,
)

F = DraftField

# The demo catalogue's categories, numbered as a database would: main categories and collections.
IDS = {category.name: number for number, category in enumerate(demo_catalog.CATEGORIES, start=1)}
DEMO_TREE: CategoryTree = {
    IDS[main.name]: MainCategory(
        main.name.lower(),
        frozenset(IDS[c.name] for c in demo_catalog.CATEGORIES if c.parent == main.name),
        any(c.parent == main.name for c in demo_catalog.CATEGORIES),
    )
    for main in demo_catalog.CATEGORIES
    if main.parent is None
}
CANDLES, SIGNATURE, CUSTOM = IDS["Candles"], IDS["Signature Candle Collection"], IDS["Custom"]
LOTION = IDS["Hand & Body Lotion"]

VALID = ProductDraft(
    name="Rose Jar",
    description="Soft.",
    base_price="20",
    sale_price="",
    category=str(CANDLES),
    collection=str(SIGNATURE),
    stock="5",
)

STOCK_MESSAGE = T.STOCK_INVALID.format(max=f"{MAX_STOCK:,}")


def _money(cents: int | None) -> str:
    return format_plain(cents) if cents else ""


def form_draft(product: DemoProduct) -> ProductDraft:
    """A demo product as the full-page form shows it (edit mode: no Product ID)."""
    return ProductDraft(
        name=product.name,
        description=product.description,
        base_price=format_plain(product.base_price_cents),
        sale_price=_money(product.sale_price_cents),
        category=str(IDS[product.category]),
        collection=str(IDS[product.subcategory]) if product.subcategory else "",
        stock=str(product.stock_quantity),
        is_featured=product.is_featured,
        is_new_arrival=product.is_new,
        scent_notes=product.scent_notes,
        ingredients=", ".join(product.ingredients),
        size=product.size or "",
        burn_time=product.burn_time or "",
    )


def dialog_draft(product: DemoProduct) -> ProductDraft:
    """A demo product as the Edit Product dialog shows it."""
    full = form_draft(product)
    return ProductDraft(
        name=full.name,
        description=full.description,
        base_price=full.base_price,
        sale_price=full.sale_price,
        category=full.category,
        collection=full.collection,
        stock=full.stock,
        is_featured=full.is_featured,
        is_new_arrival=full.is_new_arrival,
        is_active=True,
    )


def wizard_draft(product: DemoProduct) -> ProductDraft:
    """A demo product typed into the wizard."""
    full = form_draft(product)
    return draft_from_form(
        {
            "name": full.name,
            "description": full.description,
            "sku": product.sku,
            "base_price": full.base_price,
            "sale_price": full.sale_price,
            "cost_price": "",
            "category": full.category,
            "subcategory": full.collection,
            "tags": "",
            "stock_quantity": full.stock,
            "weight": product.weight_oz or "",
            "dimensions": product.dimensions or "",
            "care_instructions": product.care_instructions or "",
            "ingredients": full.ingredients or "",
            "seo_title": "",
            "seo_description": "",
        },
        is_featured=product.is_featured,
        is_new_arrival=product.is_new,
    )


EDITORS = {"form": form_draft, "dialog": dialog_draft, "wizard": wizard_draft}


# ----------------------------------------------------------------------------- the demo catalogue


@pytest.mark.parametrize("editor", EDITORS)
@pytest.mark.parametrize("product", demo_catalog.PRODUCTS, ids=lambda p: p.name)
def test_every_demo_product_is_valid_in_every_editor_and_keeps_its_values(
    product: DemoProduct, editor: str
) -> None:
    draft = EDITORS[editor](product)

    assert validate(draft, DEMO_TREE) == []
    values = product_values(draft, DEMO_TREE)
    assert (values.name, values.description, values.stock_quantity) == (
        product.name,
        product.description,
        product.stock_quantity,
    )
    assert (values.base_price_cents, values.sale_price_cents) == (
        product.base_price_cents,
        product.sale_price_cents,
    )
    assert (values.category_id, values.subcategory_id) == (
        IDS[product.category],
        IDS[product.subcategory] if product.subcategory else None,
    )
    assert (values.is_featured, values.is_new_arrival) == (product.is_featured, product.is_new)
    if editor == "form":
        assert values.scent_notes == product.scent_notes and values.ingredients == (
            product.ingredients or None
        )
        assert dict(values.details) == {
            k: v for k, v in (("size", product.size), ("burn_time", product.burn_time)) if v
        }
    if editor == "wizard":
        assert values.sku == product.sku
        assert values.weight_oz == (Decimal(product.weight_oz) if product.weight_oz else None)
        assert (values.dimensions, values.care_instructions) == (
            product.dimensions,
            product.care_instructions,
        )


def test_some_demo_products_have_no_scent_notes_and_are_valid_all_the_same() -> None:
    without = [p for p in demo_catalog.PRODUCTS if not p.scent_notes]
    assert without  # the Unscented lotion and others: scent notes are optional
    for product in without:
        assert validate(form_draft(product), DEMO_TREE) == []


def test_the_custom_category_offers_no_collection_and_needs_none() -> None:
    (custom,) = [p for p in demo_catalog.PRODUCTS if p.category == "Custom"]
    assert custom.subcategory is None and validate(form_draft(custom), DEMO_TREE) == []


# ----------------------------------------------------------------------------- the rules


def test_an_empty_draft_lists_the_required_fields_in_order() -> None:
    assert validate(ProductDraft(), DEMO_TREE) == [
        (F.NAME, M.NAME_REQUIRED),
        (F.DESCRIPTION, M.DESCRIPTION_REQUIRED),
        (F.BASE_PRICE, M.PRICE_NOT_POSITIVE),
        (F.CATEGORY, T.CATEGORY_REQUIRED),
        (F.STOCK, STOCK_MESSAGE),
    ]
    with pytest.raises(DraftInvalid, match=r"^Product name is required$") as refused:
        product_values(ProductDraft(), DEMO_TREE)
    assert list(refused.value.problems) == validate(ProductDraft(), DEMO_TREE)


@given(
    st.integers(min_value=1, max_value=MAX_AMOUNT_CENTS),
    st.integers(min_value=0, max_value=MAX_AMOUNT_CENTS),
    st.sampled_from(list(EDITORS)),
)
def test_a_sale_price_at_or_above_the_price_is_always_refused(base: int, extra: int, editor: str) -> None:
    sale = min(base + extra, MAX_AMOUNT_CENTS)
    draft = EDITORS[editor](demo_catalog.PRODUCTS[0])
    draft = ProductDraft(
        **{**_fields(draft), "base_price": format_plain(base), "sale_price": format_plain(sale)}
    )

    assert validate(draft, DEMO_TREE) == [(F.SALE_PRICE, M.SALE_NOT_BELOW_PRICE)]


@given(st.integers(min_value=2, max_value=MAX_AMOUNT_CENTS), st.data())
def test_a_sale_price_below_the_price_is_kept(base: int, data: st.DataObject) -> None:
    sale = data.draw(st.integers(min_value=1, max_value=base - 1))
    draft = ProductDraft(
        **{**_fields(VALID), "base_price": format_plain(base), "sale_price": format_plain(sale)}
    )

    assert product_values(draft, DEMO_TREE).sale_price_cents == sale


@pytest.mark.parametrize("sale", ["", " ", "0", "0.00"])
def test_an_empty_or_zero_sale_price_is_no_sale_price(sale: str) -> None:
    assert (
        product_values(ProductDraft(**{**_fields(VALID), "sale_price": sale}), DEMO_TREE).sale_price_cents
        is None
    )


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"base_price": "0"}, [(F.BASE_PRICE, M.PRICE_NOT_POSITIVE)]),
        ({"base_price": "abc"}, [(F.BASE_PRICE, "Please enter a valid amount, for example 12.50")]),
        ({"base_price": "1.005"}, [(F.BASE_PRICE, "The amount can have at most 2 decimal places")]),
        ({"base_price": "1000000.01"}, [(F.BASE_PRICE, "The amount can be at most $1,000,000.00")]),
        (
            {"base_price": "abc", "sale_price": "30"},
            [(F.BASE_PRICE, "Please enter a valid amount, for example 12.50")],
        ),
        ({"sale_price": "-1"}, [(F.SALE_PRICE, "The amount cannot be negative")]),
        ({"sale_price": "20"}, [(F.SALE_PRICE, M.SALE_NOT_BELOW_PRICE)]),
        ({"sale_price": "19.99"}, []),
        ({"cost_price": "x"}, [(F.COST_PRICE, "Please enter a valid amount, for example 12.50")]),
        ({"category": ""}, [(F.CATEGORY, T.CATEGORY_REQUIRED)]),
        ({"category": "999"}, [(F.CATEGORY, T.CATEGORY_NOT_FOUND)]),
        ({"category": "x"}, [(F.CATEGORY, T.CATEGORY_NOT_FOUND)]),
        ({"category": str(SIGNATURE)}, [(F.CATEGORY, T.CATEGORY_NOT_FOUND)]),  # a collection is no main one
        ({"collection": ""}, [(F.SUBCATEGORY, T.COLLECTION_REQUIRED)]),
        ({"collection": str(LOTION)}, [(F.SUBCATEGORY, T.COLLECTION_NOT_IN_CATEGORY)]),
        ({"category": str(CUSTOM), "collection": ""}, []),
        ({"stock": ""}, [(F.STOCK, STOCK_MESSAGE)]),
        ({"stock": "-1"}, [(F.STOCK, STOCK_MESSAGE)]),
        ({"stock": "2.5"}, [(F.STOCK, STOCK_MESSAGE)]),
        ({"stock": "١٢"}, [(F.STOCK, STOCK_MESSAGE)]),
        ({"stock": str(MAX_STOCK + 1)}, [(F.STOCK, STOCK_MESSAGE)]),
        ({"stock": str(MAX_STOCK)}, []),
        ({"stock": "0"}, []),
        ({"name": "x" * 256}, [(F.NAME, "Product name can be at most 255 characters")]),
        ({"sku": "x" * 65}, [(F.SKU, "SKU can be at most 64 characters")]),
        ({"sku": ""}, []),
        ({"weight": "0.05"}, [(F.WEIGHT, "Weight must be a number from 0 to 99999.9, in steps of 0.1")]),
        ({"size": "x" * 101}, [(F.SIZE, "Size can be at most 100 characters")]),
        (
            {"seo_description": "x" * 501},
            [(F.SEO_DESCRIPTION, "SEO description can be at most 500 characters")],
        ),
        ({"scent_notes": ()}, []),
    ],
)
def test_each_rule_names_its_field_with_its_message(changes: dict, expected: list) -> None:
    assert validate(ProductDraft(**{**_fields(VALID), **changes}), DEMO_TREE) == expected


def test_a_collection_is_required_only_where_one_is_offered() -> None:
    archived = {1: MainCategory("candles", frozenset({2}), offers_collections=False)}  # its only one archived
    draft = ProductDraft(**{**_fields(VALID), "category": "1", "collection": ""})

    assert validate(draft, archived) == []
    assert product_values(ProductDraft(**{**_fields(draft), "collection": "2"}), archived).subcategory_id == 2


TEXTS = st.sampled_from(["", " ", "x", "0", "5", "25", "2.5", "abc", "-1", str(CANDLES), str(SIGNATURE)])


@given(
    st.builds(
        ProductDraft,
        name=TEXTS,
        description=TEXTS,
        base_price=TEXTS,
        sale_price=TEXTS,
        category=TEXTS,
        collection=TEXTS,
        stock=TEXTS,
        sku=st.none() | TEXTS,
        cost_price=st.none() | TEXTS,
        weight=st.none() | TEXTS,
    )
)
def test_problems_come_once_per_field_in_one_order_and_refuse_the_draft(draft: ProductDraft) -> None:
    problems = validate(draft, DEMO_TREE)

    fields = [field for field, _ in problems]
    assert fields == sorted(set(fields), key=FIELD_ORDER.index)
    if problems:
        with pytest.raises(DraftInvalid) as refused:
            product_values(draft, DEMO_TREE)
        assert list(refused.value.problems) == problems
    else:
        values = product_values(draft, DEMO_TREE)
        assert values.base_price_cents > 0 and values.category_id in DEMO_TREE
        assert values.sale_price_cents is None or values.sale_price_cents < values.base_price_cents


def test_texts_are_trimmed_and_empties_are_none() -> None:
    draft = ProductDraft(
        **{
            **_fields(VALID),
            "name": "  Rose \n Jar ",
            "description": " Soft.\r\nWarm. ",
            "sku": " ",
            "weight": "",
            "dimensions": " ",
            "ingredients": " , ",
            "scent_notes": (" Rose ", "", "rose", "Amber"),
            "size": " 8 oz ",
            "burn_time": "",
        }
    )

    values = product_values(draft, DEMO_TREE)

    assert (values.name, values.description, values.sku) == ("Rose Jar", "Soft.\nWarm.", None)
    assert (values.weight_oz, values.dimensions, values.ingredients) == (None, None, None)
    assert values.scent_notes == ("Rose", "Amber") and values.details == (("size", "8 oz"),)


# ----------------------------------------------------------------------------- the screens' helpers


def test_a_form_key_the_screen_lacks_is_a_field_it_does_not_have() -> None:
    draft = draft_from_form(
        {"name": "Rose", "stock_quantity": "4", "weight": "", "sku": "R-1"},
        is_featured=True,
        is_new_arrival=False,
        is_active=False,
        scent_notes=["Rose"],
    )

    assert (draft.name, draft.stock, draft.description, draft.category) == ("Rose", "4", "", "")
    assert (draft.weight, draft.sku, draft.dimensions, draft.size, draft.cost_price) == (
        "",
        "R-1",
        None,
        None,
        None,
    )
    assert (draft.is_featured, draft.is_new_arrival, draft.is_active, draft.scent_notes) == (
        True,
        False,
        False,
        ("Rose",),
    )


@given(st.integers(min_value=0, max_value=MAX_STOCK), st.integers(min_value=0, max_value=MAX_STOCK))
def test_an_edit_writes_the_stock_only_when_it_was_changed(typed: int, seen: int) -> None:
    assert stock_to_write(typed, seen=seen) == (None if typed == seen else typed)
    assert stock_to_write(typed, seen=None) == typed


@pytest.mark.parametrize(
    ("name", "price", "enabled"),
    [
        ("Jar", "10", True),
        ("", "10", False),
        ("  ", "10", False),
        ("Jar", "0", False),
        ("Jar", "-3", False),
        ("Jar", "", False),
        ("Jar", "  ", False),
        # Not a price at all: Update stays enabled and says what is wrong (test_product_states).
        ("Jar", "x", True),
        ("Jar", "12.345", True),
    ],
)
def test_update_is_enabled_with_a_name_and_a_price_above_0(name: str, price: str, enabled: bool) -> None:
    assert update_enabled(name, price) is enabled


@given(st.lists(st.text(max_size=6), max_size=8))
def test_scent_notes_are_trimmed_and_never_repeat(entries: list[str]) -> None:
    notes: tuple[str, ...] = ()
    for entry in entries:
        notes = add_scent_note(notes, entry)
    assert all(note == note.strip() and note for note in notes)
    assert len({note.casefold() for note in notes}) == len(notes)


def _fields(draft: ProductDraft) -> dict:
    return {name: getattr(draft, name) for name in ProductDraft.__dataclass_fields__}
