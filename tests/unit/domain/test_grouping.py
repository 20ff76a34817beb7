"""Product name parsing, storefront grouping and the admin renames (docs/spec/storefront.md#grouping;
docs/spec/admin-products.md#convert-to-variant, #convert-to-single)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.grouping import (
    ParsedName,
    ProductSummary,
    base_product_name,
    convert_to_single_name,
    convert_to_variant_name,
    group_by_vessel,
    group_key,
    group_products,
    parse_product_name,
    scent_variants_label,
    variation_name,
    vessel_group_name,
)


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        (
            "8oz Matte White Soy Candle - Lavender Fields",
            ParsedName("8oz", "Matte White", "Soy Candle", "Lavender Fields", "8oz Matte White Soy Candle"),
        ),
        (
            "8 oz matte   black Soy Candle -  Vanilla Bean ",
            ParsedName("8oz", "Matte Black", "Soy Candle", "Vanilla Bean", "8 oz matte black Soy Candle"),
        ),
        (
            "16OZ AMBER Soy Candle - Fireside",
            ParsedName("16oz", "Amber", "Soy Candle", "Fireside", "16OZ AMBER Soy Candle"),
        ),
        (
            "250ml Hand & Body Lotion - Coconut",
            ParsedName("250ml", None, "Hand & Body Lotion", "Coconut", "250ml Hand & Body Lotion"),
        ),
        ("Reed Diffuser", ParsedName(None, None, "Reed Diffuser", None, "Reed Diffuser")),
        ("Room Spray - Rose", ParsedName(None, None, "Room Spray", "Rose", "Room Spray")),
        ("Frosted Wax Melt", ParsedName(None, "Frosted", "Wax Melt", None, "Frosted Wax Melt")),
        ("Soy Candle Glossy", ParsedName(None, "Glossy", "Soy Candle", None, "Soy Candle Glossy")),
        ("Matte White - Lavender", ParsedName(None, "Matte White", "", "Lavender", "Matte White")),
        (
            "Spring-Summer Candle",
            ParsedName(None, None, "Spring-Summer Candle", None, "Spring-Summer Candle"),
        ),
        ("8oz Soy Candle - ", ParsedName("8oz", None, "Soy Candle", None, "8oz Soy Candle")),
    ],
)
def test_parse_product_name(name: str, parsed: ParsedName) -> None:
    assert parse_product_name(name) == parsed


def test_vessel_words_only_match_whole_words() -> None:
    # "Amberly" and "Blushing" contain vessel words but are not vessels.
    assert parse_product_name("Amberly Candle").vessel is None
    assert parse_product_name("Blushing Rose Candle").vessel is None
    # A size-like prefix must end at a word boundary.
    assert parse_product_name("8ozCandle").size is None
    assert parse_product_name("3 Glossy Candles").size is None


def test_only_the_first_separator_splits_the_scent() -> None:
    assert parse_product_name("Soy Candle - Rose - Limited").scent == "Rose - Limited"


def test_vessel_in_the_scent_is_not_a_vessel() -> None:
    parsed = parse_product_name("8oz Soy Candle - Amber Musk")
    assert (parsed.vessel, parsed.scent) == (None, "Amber Musk")


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("8oz Matte White Soy Candle - Lavender", "8oz|soy candle"),
        ("8 OZ Amber soy candle - Vanilla", "8oz|soy candle"),
        ("16oz Matte White Soy Candle - Lavender", "16oz|soy candle"),
        ("Reed Diffuser - Cedar", "|reed diffuser"),
        ("Amber - Vanilla", "|amber"),
    ],
)
def test_group_key(name: str, key: str) -> None:
    assert group_key(name) == key


def test_names_and_renames() -> None:
    assert base_product_name("8oz Matte White Soy Candle - Lavender") == "8oz Soy Candle"
    assert base_product_name("Reed Diffuser") == "Reed Diffuser"
    assert base_product_name("Blush - Rose") == "Blush"
    assert vessel_group_name("8oz Matte White Soy Candle - Lavender") == "8oz Matte White Soy Candle"
    assert vessel_group_name("Reed Diffuser") == "Reed Diffuser"
    assert variation_name("8oz Soy Candle ", " Lavender") == "8oz Soy Candle - Lavender"
    assert convert_to_variant_name("Matte White", "Lavender") == "Matte White - Lavender"


@pytest.mark.parametrize(
    ("name", "single"),
    [
        ("Matte White - Lavender", "Matte Lavender White"),
        ("Matte Black Tumbler - Cedar & Sage", "Matte Cedar & Sage Black Tumbler"),
        ("Amber - Vanilla Bean", "Amber Vanilla Bean"),
        ("8oz Blush Soy Candle - Rose", "8oz Rose Blush Soy Candle"),
        ("Reed Diffuser", "Reed Diffuser (Standalone)"),
        ("Reed Diffuser (Standalone)", "Reed Diffuser (Standalone)"),
        ("Spring-Summer Candle", "Spring-Summer Candle (Standalone)"),
    ],
)
def test_convert_to_single_name(name: str, single: str) -> None:
    assert convert_to_single_name(name) == single


def candle(
    pid: int, name: str, base: int = 2800, sale: int | None = None, scents: tuple[str, ...] = ()
) -> ProductSummary:
    return ProductSummary(id=pid, name=name, base_price_cents=base, sale_price_cents=sale, scents=scents)


def test_vessels_times_scents_form_one_group() -> None:
    products = [
        candle(1, "8oz Matte White Soy Candle - Lavender"),
        candle(2, "8oz Matte White Soy Candle - Vanilla"),
        candle(3, "8oz Amber Soy Candle - Lavender", base=3000),
        candle(4, "8oz Amber Soy Candle - Fireside", base=3000, sale=2500),
        candle(5, "8oz Blush Soy Candle - Vanilla", base=2900),
    ]
    [group] = group_products(products)
    assert group.group_key == "8oz|soy candle"
    assert group.base_product_name == "8oz Soy Candle"
    assert [p.id for p in group.variations] == [1, 2, 3, 4, 5]
    assert group.scents == ("Lavender", "Vanilla", "Fireside")
    assert group.vessels == ("Matte White", "Amber", "Blush")
    assert group.sizes == ("8oz",)
    assert group.base_price_cents == 2500  # lowest effective price: the sale of #4


def test_groups_keep_first_appearance_order_and_separate_sizes_and_types() -> None:
    products = [
        candle(1, "Reed Diffuser - Cedar", base=3200),
        candle(2, "8oz Glossy Soy Candle - Rose"),
        candle(3, "16oz Glossy Soy Candle - Rose", base=4200),
        candle(4, "Reed Diffuser - Eucalyptus", base=3200),
        candle(5, "8oz Frosted Soy Candle - Cedar"),
    ]
    groups = group_products(products)
    assert [g.group_key for g in groups] == ["|reed diffuser", "8oz|soy candle", "16oz|soy candle"]
    assert [[p.id for p in g.variations] for g in groups] == [[1, 4], [2, 5], [3]]
    assert groups[0].base_product_name == "Reed Diffuser"
    assert groups[0].vessels == () and groups[0].sizes == ()


def test_scents_from_variants_list_take_precedence_over_the_name() -> None:
    [group] = group_products(
        [
            candle(1, "Room Spray - Rose", scents=("Peony", " ", "Rose", "peony")),
            candle(2, "Room Spray - Citrus"),
        ]
    )
    assert group.scents == ("Peony", "Rose", "Citrus")


def test_a_lone_variation_without_scents_has_none() -> None:
    [group] = group_products([candle(7, "Gift Card", base=5000, sale=5000)])
    assert group.scents == ()
    assert group.vessels == ()
    assert group.base_price_cents == 5000  # a sale equal to base is not a discount
    assert group.base_product_name == "Gift Card"


def test_empty_input_has_no_groups() -> None:
    assert group_products([]) == []


names = st.builds(
    lambda size, vessel, kind, scent: (
        " ".join(p for p in (size, vessel, kind) if p) + (f" - {scent}" if scent else "")
    ),
    st.sampled_from(["", "8oz", "8 oz", "16oz", "100ml"]),
    st.sampled_from(["", "Matte White", "amber", "Blush", "Frosted"]),
    st.sampled_from(["Soy Candle", "Reed Diffuser", "Room Spray", "Wax Melt", ""]),
    st.sampled_from(["", "Lavender", "Vanilla", "Cedar & Sage"]),
)


@given(st.lists(st.one_of(names, st.text(max_size=30)), max_size=25))
def test_group_products_partitions_its_input(product_names: list[str]) -> None:
    products = [candle(i, name) for i, name in enumerate(product_names)]
    groups = group_products(products)
    seen = [p.id for g in groups for p in g.variations]
    assert sorted(seen) == list(range(len(products)))  # each product in exactly one group
    assert len({g.group_key for g in groups}) == len(groups)
    for g in groups:
        assert all(group_key(p.name) == g.group_key for p in g.variations)
        ids = [p.id for p in g.variations]
        assert ids == sorted(ids)  # input order kept
    firsts = [g.variations[0].id for g in groups]
    assert firsts == sorted(firsts)  # groups in order of first appearance


@given(names)
def test_parsed_parts_come_from_the_name(name: str) -> None:
    parsed = parse_product_name(name)
    assert parsed.product_type in parsed.base_name
    if parsed.scent is not None:
        assert name.endswith(parsed.scent)
    assert group_key(name) == group_key(name.upper())


def test_admin_grouped_view_groups_by_vessel_name() -> None:
    products = [
        candle(1, "8oz Matte White Soy Candle - Lavender"),
        candle(2, "8oz Amber Soy Candle - Lavender"),
        candle(3, "8oz matte white soy candle - Vanilla"),
        candle(4, "Reed Diffuser"),
    ]
    groups = group_by_vessel(products)
    assert [(g.base_name, [p.id for p in g.variations], g.scents) for g in groups] == [
        ("8oz Matte White Soy Candle", [1, 3], ("Lavender", "Vanilla")),
        ("8oz Amber Soy Candle", [2], ("Lavender",)),
        ("Reed Diffuser", [4], ()),
    ]


@pytest.mark.parametrize(
    ("count", "has_scent", "label"),
    [(1, False, "Single product"), (1, True, "1 scent variant"), (3, True, "3 scent variants")],
)
def test_scent_variants_label(count: int, has_scent: bool, label: str) -> None:
    assert scent_variants_label(count, has_scent=has_scent) == label
