"""Vessel groups and scent variants: Convert to Variant, Convert to Single Product, Add Scent.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from sqlmodel import Session, select

from shop_app.models import Category, Product, ProductImage
from shop_app.services import media
from shop_app.services.admin import variants
from shop_app.services.admin.products import ProductNotFoundError, admin_products, delete_product
from shop_app.services.admin.variants import NEW_GROUP, NewScent, VariantError
from shop_app.services.catalog import ShopQuery, shop_page
from shop_app.services.catalog.search import refresh_vocabulary
from tests.support.admin_products import add_product


def _names(session: Session) -> set[str]:
    session.expire_all()
    return set(session.exec(select(Product.name)).all())


# --------------------------------------------------------------------------- Convert to Variant


def test_convert_to_variant_in_an_existing_group(session: Session) -> None:
    add_product(session, "Matte White - Lavender")
    loose = add_product(session, "Cedar Candle", description="kept", stock_quantity=4)

    group = variants.convert_to_variant(
        session, loose.id, group="matte white", new_vessel="", scent=" Cedar "
    )

    assert group == "Matte White"
    saved = session.get(Product, loose.id)
    assert (saved.name, saved.description, saved.stock_quantity) == ("Matte White - Cedar", "kept", 4)
    assert saved.group_key == "|matte white"


def test_convert_to_variant_in_a_new_group(session: Session) -> None:
    loose = add_product(session, "Cedar Candle")

    group = variants.convert_to_variant(
        session, loose.id, group=NEW_GROUP, new_vessel="  Amber   Jar ", scent="Cedar"
    )

    assert group == "Amber Jar"
    assert session.get(Product, loose.id).name == "Amber Jar - Cedar"


@pytest.mark.parametrize(
    ("group", "new_vessel", "scent", "message"),
    [
        ("", "", "Cedar", "Please select or create a vessel group and provide a scent name"),
        ("Matte White", "", "  ", "Please select or create a vessel group and provide a scent name"),
        (NEW_GROUP, " ", "Cedar", "Please provide a name for the new vessel"),
        ("Gone Vessel", "", "Cedar", "Selected vessel group not found"),
    ],
)
def test_convert_to_variant_refusals_change_nothing(
    session: Session, group: str, new_vessel: str, scent: str, message: str
) -> None:
    add_product(session, "Matte White - Lavender")
    loose = add_product(session, "Cedar Candle")

    with pytest.raises(VariantError, match=message):
        variants.convert_to_variant(session, loose.id, group=group, new_vessel=new_vessel, scent=scent)
    assert session.get(Product, loose.id).name == "Cedar Candle"


# --------------------------------------------------------------------------- Convert to Single


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Matte White - Lavender", "Matte Lavender White"),
        ("Reed Diffuser", "Reed Diffuser (Standalone)"),
    ],
)
def test_convert_to_single_renames_and_activates(session: Session, name: str, expected: str) -> None:
    product = add_product(session, name, is_active=False)

    assert variants.convert_to_single(session, product.id) == expected
    saved = session.get(Product, product.id)
    assert saved.is_active and saved.name == expected


def test_converting_a_missing_product_says_so(session: Session) -> None:
    with pytest.raises(ProductNotFoundError):
        variants.convert_to_single(session, 777_777)
    with pytest.raises(ProductNotFoundError):
        variants.convert_to_variant(session, 777_777, group=NEW_GROUP, new_vessel="Jar", scent="Rose")


# --------------------------------------------------------------------------- Add Scent


@pytest.fixture
def group(session: Session, media_dir: Path) -> dict[str, object]:
    """A two-variant group; its newest variation has a category, a subcategory and two images."""
    candles = Category(name="Candles", slug="candles")
    session.add(candles)
    session.flush()
    summer = Category(name="Summer Collection", slug="summer", parent_id=candles.id)
    session.add(summer)
    session.flush()
    add_product(session, "Sunshine Jar - Old", base_price_cents=1000, description="old one")
    newest = add_product(
        session,
        "Sunshine Jar - Citrus",
        base_price_cents=3200,
        sale_price_cents=2800,
        description="Bright",
        category_id=candles.id,
        subcategory_id=summer.id,
        product_type="candles",
        is_featured=True,
        is_new_arrival=True,
    )
    urls = [
        media.store_pil_image(Image.new("RGB", (300, 300), c), media_dir=media_dir, folder="products").url
        for c in ("red", "blue")
    ]
    session.add_all(
        [
            ProductImage(product_id=newest.id, image_url=urls[0], display_order=0, is_primary=True),
            ProductImage(product_id=newest.id, image_url=urls[1], display_order=1),
        ]
    )
    session.commit()
    return {"model": newest, "urls": urls, "candles": candles, "summer": summer}


def test_add_scent_copies_the_first_variation(session: Session, group: dict[str, object]) -> None:
    model = group["model"]

    created = variants.add_scent(session, "sunshine jar", NewScent(scent=" Sea  Salt ", stock_quantity="12"))
    session.commit()

    saved = session.get(Product, created.id)
    assert saved.name == "Sunshine Jar - Sea Salt"
    assert (saved.description, saved.category_id, saved.subcategory_id, saved.product_type) == (
        "Bright",
        model.category_id,
        model.subcategory_id,
        "candles",
    )
    assert (saved.base_price_cents, saved.sale_price_cents, saved.stock_quantity) == (3200, None, 12)
    assert (saved.is_active, saved.is_featured, saved.is_new_arrival) == (True, False, False)
    images = session.exec(
        select(ProductImage).where(ProductImage.product_id == created.id).order_by(ProductImage.display_order)
    ).all()
    assert [i.image_url for i in images] == group["urls"]
    assert [i.is_primary for i in images] == [True, False]
    assert [i.alt_text for i in images] == [
        "Sunshine Jar - Sea Salt Image 1",
        "Sunshine Jar - Sea Salt Image 2",
    ]


def test_add_scent_keeps_a_typed_price_and_a_positive_sale_price(
    session: Session, group: dict[str, object]
) -> None:
    created = variants.add_scent(
        session, "Sunshine Jar", NewScent(scent="Mint", price="18.50", sale_price="15")
    )

    assert (created.base_price_cents, created.sale_price_cents) == (1850, 1500)
    other = variants.add_scent(session, "Sunshine Jar", NewScent(scent="Basil", price="0", sale_price="-2"))
    # Mint is now the group's newest, so its first variation: Basil takes Mint's price.
    assert (other.base_price_cents, other.sale_price_cents) == (1850, None)


def test_add_scent_needs_a_scent_and_an_existing_group(session: Session, group: dict[str, object]) -> None:
    before = _names(session)

    with pytest.raises(VariantError, match="Please fill in all required fields"):
        variants.add_scent(session, "Sunshine Jar", NewScent(scent="   "))
    with pytest.raises(ProductNotFoundError):
        variants.add_scent(session, "No Such Jar", NewScent(scent="Rose"))
    assert _names(session) == before


def test_the_new_scent_is_in_the_shop_search(session: Session, group: dict[str, object]) -> None:
    variants.add_scent(session, "Sunshine Jar", NewScent(scent="Grapefruit Zest"))
    session.commit()
    refresh_vocabulary()

    page = shop_page(session, ShopQuery(search="grapefruit", grouped=False))

    assert [v.name for card in page.cards for v in card.variations] == ["Sunshine Jar - Grapefruit Zest"]


def test_deleting_the_model_keeps_the_files_the_new_scent_shows(
    session: Session, group: dict[str, object], media_dir: Path
) -> None:
    created = variants.add_scent(session, "Sunshine Jar", NewScent(scent="Rose"))
    session.commit()

    delete_product(session, group["model"].id, square=None, media_dir=media_dir)

    for url in group["urls"]:
        assert (media_dir / url.removeprefix(f"{media.MEDIA_URL}/")).exists()
    delete_product(session, created.id, square=None, media_dir=media_dir)
    for url in group["urls"]:
        assert not (media_dir / url.removeprefix(f"{media.MEDIA_URL}/")).exists()


# --------------------------------------------------------------------------- grouped view figures


def test_groups_labels_and_stats(session: Session) -> None:
    add_product(session, "Reed Diffuser", stock_quantity=0)
    add_product(session, "Amber - Vanilla", stock_quantity=3)
    add_product(session, "Blush - Rose", stock_quantity=5)
    add_product(session, "Blush - Oud", stock_quantity=9)
    add_product(session, "blush - Fig", stock_quantity=1)

    groups = variants.vessel_groups(admin_products(session))

    assert [(g.base_name, g.label, g.expandable) for g in groups] == [
        ("blush", "3 scent variants", True),
        ("Amber", "1 scent variant", False),
        ("Reed Diffuser", "Single product", False),
    ]
    assert [variants.scent_of(v.name) for v in groups[0].variations] == ["Fig", "Oud", "Rose"]
    assert variants.grouped_stats(groups) == variants.GroupedStats(
        groups=3, variants=5, in_stock=4, low_stock=3
    )
    assert [g.base_name for g in variants.search_groups(groups, "OUD")] == ["blush"]
    assert [g.base_name for g in variants.search_groups(groups, "amb")] == ["Amber"]
    assert len(variants.search_groups(groups, " ")) == 3
