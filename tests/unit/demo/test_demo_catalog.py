"""The demo catalogue: counts, naming pattern, money, categories and website images."""

from __future__ import annotations

import ast
import pathlib
import re
from collections import Counter
from dataclasses import FrozenInstanceError, replace

import pytest

import shop_app.demo as seed_package
import shop_app.demo.demo_catalog as demo_catalog_module
from shop_app.demo.artwork import CARD_IMAGE_SIZE, HERO_IMAGE_SIZE, DemoImageSpec
from shop_app.demo.demo_catalog import (
    CATEGORIES,
    DEMO_ADMIN_EMAIL,
    DEMO_ADMIN_PASSWORD,
    MAIN_CATEGORIES,
    PRODUCT_TYPES,
    PRODUCTS,
    VESSEL_COLOURS,
    VESSEL_PHRASES,
    WEBSITE_IMAGES,
    DemoCategory,
    DemoProduct,
    format_for,
)
from shop_app.demo.demo_vessels import VESSEL_CODES
from shop_app.domain.product_names import VESSELS, parse_product_name, split_scent

SUBCATEGORIES = {
    "Signature Candle Collection": "Candles",
    "Summer Collection": "Candles",
    "Fall Candle Collection": "Candles",
    "Mandles": "Candles",
    "Holiday Collection": "Candles",
    "Hand & Body Lotion": "Body Care",
    "Room Fragrance": "Home Fragrance",
}

# [size ][vessel ]type words - scent
NAME = re.compile(
    r"^(?:(?P<size>\d+(?:\.\d+)?(?:oz|ml)) )?"
    r"(?:(?P<vessel>" + "|".join(re.escape(v) for v in VESSELS) + r") )?"
    r"(?P<type>[A-Z][A-Za-z&' ]*[a-z]) - (?P<scent>\S.*\S)$"
)


def _by_name() -> dict[str, DemoCategory]:
    return {c.name: c for c in CATEGORIES}


# --------------------------------------------------------------------------- categories


def test_main_categories_and_subcategories_exist_with_the_right_parents() -> None:
    cats = _by_name()
    for main in ("Candles", "Body Care", "Home Fragrance", "Custom"):
        assert cats[main].parent is None
    for sub, parent in SUBCATEGORIES.items():
        assert cats[sub].parent == parent
    assert set(MAIN_CATEGORIES) == {c.name for c in CATEGORIES if c.parent is None}


def test_category_names_unique_and_every_parent_exists() -> None:
    names = [c.name for c in CATEGORIES]
    assert len(names) == len(set(names))
    for c in CATEGORIES:
        if c.parent is not None:
            assert c.parent in names
            assert _by_name()[c.parent].parent is None  # two levels only


def test_category_descriptions_are_real_sentences() -> None:
    for c in CATEGORIES:
        assert c.description.endswith(".")
        assert 30 <= len(c.description) <= 160
        assert isinstance(c.sort_order, int) and c.sort_order >= 0


# --------------------------------------------------------------------------- counts


def test_at_least_48_products_over_all_types() -> None:
    assert len(PRODUCTS) >= 48
    assert {p.product_type for p in PRODUCTS} == set(PRODUCT_TYPES)


def test_every_subcategory_has_at_least_three_products() -> None:
    counts = Counter(p.subcategory for p in PRODUCTS)
    for sub in SUBCATEGORIES:
        assert counts[sub] >= 3, sub


def test_flags_and_stock_levels() -> None:
    assert sum(p.is_featured for p in PRODUCTS) >= 12
    assert sum(p.is_new for p in PRODUCTS) >= 3
    on_sale = [p for p in PRODUCTS if p.sale_price_cents is not None]
    assert len(on_sale) >= 3
    assert all(0 < p.sale_price_cents < p.base_price_cents for p in on_sale)
    stocks = [p.stock_quantity for p in PRODUCTS]
    assert stocks.count(0) >= 2
    assert sum(1 <= s <= 5 for s in stocks) >= 2
    assert all(0 <= s <= 60 for s in stocks)
    # Featured products can actually be bought.
    assert all(p.stock_quantity > 0 for p in PRODUCTS if p.is_featured)


# --------------------------------------------------------------------------- names and identity


def test_names_and_skus_are_unique() -> None:
    names = [p.name for p in PRODUCTS]
    skus = [p.sku for p in PRODUCTS]
    assert len(names) == len(set(names))
    assert len(skus) == len(set(skus))
    assert all(re.fullmatch(r"[A-Z0-9]+(-[A-Z0-9]+)+", s) for s in skus)


@pytest.mark.parametrize("product", PRODUCTS, ids=lambda p: p.name)
def test_name_follows_the_grouping_pattern(product: DemoProduct) -> None:
    assert " - " in product.name
    m = NAME.match(product.name)
    assert m, product.name
    scent = m.group("scent")
    assert scent and scent == product.scent
    # The scent never contains a vessel word, so grouping cannot mistake it.
    for vessel in VESSELS:
        assert vessel.lower() not in scent.lower()
    assert split_scent(product.name) == (product.base_name, scent)


def test_examples_from_the_brief_are_present() -> None:
    names = {p.name for p in PRODUCTS}
    for expected in (
        "8oz Matte White Soy Candle - Lavender Fields",
        "8oz Amber Soy Candle - Vanilla Bean",
        "16oz Frosted Soy Candle - Cedar & Sage",
        "8oz Hand & Body Lotion - Coconut Lime",
        "100ml Reed Diffuser - Fresh Linen",
        "4oz Room Spray - Eucalyptus Mint",
        "Mandle - Whiskey & Tobacco",
    ):
        assert expected in names


def test_8oz_soy_candle_comes_in_several_vessels_and_scents() -> None:
    group = [NAME.match(p.name) for p in PRODUCTS if p.name.startswith("8oz ") and "Soy Candle" in p.name]
    vessels = {m.group("vessel") for m in group}
    scents = {m.group("scent") for m in group}
    assert 3 <= len(vessels) <= 4
    assert 4 <= len(scents) <= 6
    assert len(group) < len(vessels) * len(scents)  # not every combination


# --------------------------------------------------------------------------- money and fields


def test_prices_are_positive_integer_cents() -> None:
    for p in PRODUCTS:
        assert type(p.base_price_cents) is int and p.base_price_cents > 0
        assert p.sale_price_cents is None or type(p.sale_price_cents) is int
        assert p.price_cents == (p.sale_price_cents or p.base_price_cents)


def test_prices_are_realistic() -> None:
    for p in PRODUCTS:
        assert 500 <= p.base_price_cents <= 6000, p.name
        if p.name.startswith("8oz ") and p.name.split(" - ")[0].endswith("Soy Candle"):
            assert 2800 <= p.base_price_cents <= 3400
        if p.name.startswith("16oz ") and "Soy Candle" in p.name:
            assert 4200 <= p.base_price_cents <= 4800
        if p.name.startswith("8oz Hand & Body Lotion"):
            assert 1800 <= p.base_price_cents <= 2200


def test_categories_referenced_by_products_exist() -> None:
    cats = _by_name()
    for p in PRODUCTS:
        assert p.category in cats and cats[p.category].parent is None
        if p.subcategory is not None:
            assert cats[p.subcategory].parent == p.category
        else:
            assert p.category == "Custom"
        assert p.product_type in PRODUCT_TYPES


def test_product_type_matches_main_category() -> None:
    expected = {
        "Candles": "candles",
        "Body Care": "body-care",
        "Home Fragrance": "home-fragrance",
        "Custom": "candles",
    }
    for p in PRODUCTS:
        assert p.product_type == expected[p.category]


def test_descriptions_sound_real() -> None:
    for p in PRODUCTS:
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", p.description) if s]
        assert 1 <= len(sentences) <= 3, p.description
        assert p.description[0].isupper() and p.description.endswith(".")
    assert sum(len(p.description) > 80 for p in PRODUCTS) >= 10
    assert any("British Columbia" in p.description for p in PRODUCTS)


def test_details_are_filled_in() -> None:
    for p in PRODUCTS:
        assert p.size
        assert p.ingredients and all(isinstance(i, str) and i for i in p.ingredients)
        assert p.care_instructions
        assert p.weight_oz is not None and re.fullmatch(r"\d+(\.\d+)?", p.weight_oz)
        assert p.dimensions
        if p.scent != "Unscented":
            assert p.scent_notes
        if p.product_type == "candles":
            assert p.burn_time and re.fullmatch(r"\d+-\d+ hours", p.burn_time)
            assert "soy wax" in " ".join(p.ingredients)
            assert "1/4 inch" in p.care_instructions and "2 to 3 hours" in p.care_instructions


def test_custom_category_holds_the_custom_candle() -> None:
    custom = [p for p in PRODUCTS if p.category == "Custom"]
    assert len(custom) == 1 and custom[0].name.startswith("Custom Candle - ")


def test_image_specs_match_product_types() -> None:
    kinds = {
        "candles": {"jar", "tin"},
        "body-care": {"pump", "bottle"},
        "home-fragrance": {"diffuser", "spray", "melt"},
    }
    for p in PRODUCTS:
        assert isinstance(p.image, DemoImageSpec)
        assert p.image.kind in kinds[p.product_type]
        assert p.image.label


def test_dataclasses_are_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        PRODUCTS[0].name = "x"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        CATEGORIES[0].name = "x"  # type: ignore[misc]


def test_invalid_products_are_rejected() -> None:
    p = PRODUCTS[0]
    with pytest.raises(ValueError):
        replace(p, base_price_cents=30.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        replace(p, sale_price_cents=p.base_price_cents)
    with pytest.raises(ValueError):
        replace(p, name="No dash here")
    with pytest.raises(ValueError):
        replace(p, stock_quantity=-1)
    with pytest.raises(ValueError):
        replace(p, weight_oz="eleven")


# --------------------------------------------------------------------------- website images and admin


def test_website_images() -> None:
    expected = {
        "hero": "Homepage hero image",
        "category_candles": "Candles category",
        "category_bodycare": "Body care category",
        "category_fragrance": "Room fragrance category",
        "mission": "Our mission",
        "about": "About us",
    }
    assert {w.image_type: w.alt_text for w in WEBSITE_IMAGES} == expected
    assert len(WEBSITE_IMAGES) == 6
    for w in WEBSITE_IMAGES:
        assert w.spec.kind == "banner"
        assert w.spec.label == ""  # the pages set their own headings over the slot images
        assert w.size == (HERO_IMAGE_SIZE if w.image_type == "hero" else CARD_IMAGE_SIZE)
    assert HERO_IMAGE_SIZE == (2100, 900) and CARD_IMAGE_SIZE == (1200, 900)


def test_demo_admin_credentials() -> None:
    assert DEMO_ADMIN_EMAIL == "admin@example.com"
    assert DEMO_ADMIN_PASSWORD == "candlelight-admin-2026"
    assert len(DEMO_ADMIN_PASSWORD) >= 12


def _imports(tree: ast.AST) -> set[str]:
    """Absolute module names imported by a module (relative imports are left out)."""
    return {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom)) and not (isinstance(n, ast.ImportFrom) and n.level)
        for a in n.names
    }


SEED_DIR = pathlib.Path(seed_package.__file__).parent
SEED_MODULES = sorted(SEED_DIR.rglob("*.py"))
DATA_MODULES = [m for m in SEED_MODULES if m.name.startswith(("demo_", "synthetic"))]


@pytest.mark.parametrize("path", [pathlib.Path(demo_catalog_module.__file__), *DATA_MODULES], ids=str)
def test_module_is_pure_data(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    imported = _imports(tree)
    assert not any(
        m.split(".")[0] in {"reflex", "sqlmodel", "os", "pathlib", "io", "shutil"} for m in imported
    )
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "open" not in calls


@pytest.mark.parametrize("path", SEED_MODULES, ids=lambda p: str(p.relative_to(SEED_DIR)))
def test_seed_package_imports_only_the_pure_domain(path: pathlib.Path) -> None:
    """No web framework, no ORM, and nothing of the app outside the seed package but the domain."""
    for module in _imports(ast.parse(path.read_text())):
        assert module.split(".")[0] not in {"reflex", "sqlmodel", "sqlalchemy"}, module
        if module.startswith("shop_app"):
            assert module.startswith(("shop_app.domain", "shop_app.demo")), module


def test_seed_modules_stay_small() -> None:
    for path in SEED_MODULES:
        assert len(path.read_text().splitlines()) < 400, path


def test_vessel_tables_cover_exactly_the_domain_vessels() -> None:
    for table in (VESSEL_COLOURS, VESSEL_PHRASES, VESSEL_CODES):
        assert set(table) == set(VESSELS)


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ("8oz Matte White Soy Candle", ("8oz", "Matte White", "Soy Candle")),
        ("16oz Frosted Soy Candle", ("16oz", "Frosted", "Soy Candle")),
        ("100ml Reed Diffuser", ("100ml", None, "Reed Diffuser")),
        ("2.5oz Wax Melt", ("2.5oz", None, "Wax Melt")),
        ("Mandle", ("", None, "Mandle")),
    ],
)
def test_parse_base_name(base: str, expected: tuple[str, str | None, str]) -> None:
    """The catalogue's base names split into size, vessel and type with the domain's parser."""
    parsed = parse_product_name(base)
    assert (parsed.size or "", parsed.vessel, parsed.product_type) == expected


def test_every_product_has_a_known_format() -> None:
    for p in PRODUCTS:
        fmt, vessel = format_for(p.base_name)
        assert fmt.product_type == p.product_type
        assert vessel is None or vessel in VESSELS
        assert p.size == fmt.size
