"""Loading the demo catalogue and synthetic catalogues into the database."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image
from sqlmodel import Session, select

from shop_app.components.search_popover import SUGGESTIONS
from shop_app.demo import demo_catalog
from shop_app.domain.custom_candle import STANDARD_VESSELS
from shop_app.domain.grouping import group_key
from shop_app.domain.tax import CANADA_TAXES, table_from_json
from shop_app.models import Category, Product, ProductImage, StoreSettings, User, WebsiteImage
from shop_app.services import catalog
from shop_app.services.accounts import is_admin
from shop_app.services.seeding import load_demo, load_synthetic


@pytest.fixture(scope="module")
def demo_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One media folder for the module: images already rendered are not drawn again."""
    return tmp_path_factory.mktemp("demo-media")


def _count(session: Session, model: type) -> int:
    return session.execute(select(sa.func.count()).select_from(model)).scalar_one()


def test_demo_catalogue_fills_an_empty_shop(session: Session, demo_media: Path) -> None:
    report = load_demo(session, media_dir=demo_media)
    session.commit()

    assert not report.skipped
    assert report.vessels == len(STANDARD_VESSELS)  # the custom candle builder's, not listed
    assert _count(session, Product) == len(demo_catalog.PRODUCTS) + len(STANDARD_VESSELS)
    assert len(demo_catalog.PRODUCTS) >= 40
    assert _count(session, Category) == len(demo_catalog.CATEGORIES)
    assert {w.image_type for w in session.exec(select(WebsiteImage))} == {
        "hero",
        "category_candles",
        "category_bodycare",
        "category_fragrance",
        "mission",
        "about",
    }
    assert table_from_json(session.get(StoreSettings, 1).tax_table) == CANADA_TAXES
    admin = session.exec(select(User).where(User.email == demo_catalog.DEMO_ADMIN_EMAIL)).one()
    assert is_admin(session, admin.id)


def test_every_demo_product_has_a_rendered_primary_image_and_its_group_key(
    session: Session, demo_media: Path
) -> None:
    load_demo(session, media_dir=demo_media)
    session.commit()

    for product in session.exec(select(Product)):
        image = session.exec(select(ProductImage).where(ProductImage.product_id == product.id)).one()
        assert image.is_primary
        assert image.image_url.startswith("/media/products/")
        with Image.open(demo_media / image.image_url.removeprefix("/media/")) as picture:
            assert picture.format == "WEBP"
            assert picture.size == (800, 800)
        assert product.group_key == group_key(product.name)
        assert product.category_id is not None


def test_subcategories_hang_under_their_main_category(session: Session, demo_media: Path) -> None:
    load_demo(session, media_dir=demo_media)
    session.commit()
    by_id = {c.id: c for c in session.exec(select(Category))}

    for spec in demo_catalog.CATEGORIES:
        category = next(c for c in by_id.values() if c.name == spec.name)
        parent = by_id.get(category.parent_id)
        assert (parent.name if parent else None) == spec.parent


def test_demo_catalogue_is_not_loaded_twice(session: Session, demo_media: Path) -> None:
    load_demo(session, media_dir=demo_media)
    session.commit()

    again = load_demo(session, media_dir=demo_media)

    assert again.skipped
    assert _count(session, Product) == len(demo_catalog.PRODUCTS) + len(STANDARD_VESSELS)


def test_synthetic_catalogue_adds_exactly_n_products_sharing_a_few_images(
    session: Session, media_dir: Path
) -> None:
    report = load_synthetic(session, count=1500, media_dir=media_dir, seed=7)
    session.commit()

    assert report.products == 1500
    assert _count(session, Product) == 1500
    assert _count(session, ProductImage) == 1500
    largest = [p for p in (media_dir / "synthetic").iterdir() if not p.stem.endswith("w")]  # not -320w
    assert report.images == len(largest) < 100
    keys = session.exec(select(Product.group_key).distinct()).all()
    assert 1 < len(keys) < 1500  # variations share groups


def test_every_search_chip_and_category_name_finds_demo_products(session: Session, demo_media: Path) -> None:
    """Issue 15: the "Gift Sets" chip found nothing, nor did "bodycare" (the category "Body Care")."""
    load_demo(session, media_dir=demo_media)
    session.commit()
    queries = [*SUGGESTIONS, "bodycare", "body-care", "homefragrance", "Room Fragrance"]

    found = {query: catalog.shop_page(session, catalog.ShopQuery(search=query)).total for query in queries}

    assert all(found.values()), found
