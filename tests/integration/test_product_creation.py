"""Creating a product (wizard and local form) on the real database, the media folder and Square's
simulator through the SDK (its exchanges checked against Square's OpenAPI subset): all or nothing.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import ProductAdminMessage, ProductDraftText
from shop_app.domain.product_draft import DraftField
from shop_app.domain.product_editing import DraftInvalid, ProductDraft, draft_from_form
from shop_app.models import Category, Product, ProductImage
from shop_app.models.base import utcnow
from shop_app.services.admin import product_creation
from shop_app.services.admin.product_creation import (
    CreatedProduct,
    ProductCreationError,
    category_choices,
    create_product,
)
from shop_app.services.admin.product_images import STAGING_FOLDER, ImageRef, stage_upload
from shop_app.services.catalog.search import search_terms
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.outbox import push_pending, waiting
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import checked_catalog

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")

SKU_PATTERN = re.compile(r"lavender-fields-soy-candle-\d{13}-[0-9a-f]{6}")


def png(colour: tuple[int, int, int] = (200, 120, 40), size: tuple[int, int] = (400, 300)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


def staged(media_dir: Path, *colours: tuple[int, int, int]) -> list[ImageRef]:
    return [
        stage_upload(io.BytesIO(data), filename=f"photo{i}.png", size=len(data), media_dir=media_dir)
        for i, data in enumerate(png(c) for c in colours)
    ]


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.webp")) if folder.is_dir() else []


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def catalog(ledger: SimulatorLedger) -> SquareCatalog:
    return checked_catalog(ledger)


@pytest.fixture
def create(engine: Engine, media_dir: Path, catalog: SquareCatalog) -> Callable[..., CreatedProduct]:
    """``create_product`` on the test database, media folder and simulator (``catalog=`` overrides)."""

    def run(draft: ProductDraft, images: list[ImageRef], **options: object) -> CreatedProduct:
        kwargs: dict = {"media_dir": media_dir, "catalog": catalog, "engine": engine, **options}
        return create_product(draft, images, **kwargs)

    return run


@pytest.fixture
def categories(session: Session) -> dict[str, int]:
    candles = Category(name="Candles", slug="candles", sort_order=1)
    custom = Category(name="Custom", slug="custom", sort_order=4)
    hidden = Category(name="Retired", slug="retired", sort_order=2, is_active=False)
    session.add_all([candles, custom, hidden])
    session.flush()
    summer = Category(name="Summer Collection", slug="summer-collection", parent_id=candles.id, sort_order=2)
    signature = Category(
        name="Signature Candle Collection",
        slug="signature-candle-collection",
        parent_id=candles.id,
        sort_order=1,
    )
    session.add_all([summer, signature])
    session.commit()
    return {
        "candles": candles.id,
        "custom": custom.id,
        "retired": hidden.id,
        "summer": summer.id,
        "signature": signature.id,
    }


def wizard_draft(categories: dict[str, int], **fields: str) -> ProductDraft:
    form = {
        "name": "Lavender Fields Soy Candle",
        "description": "Hand-poured soy wax with lavender.",
        "base_price": "28.00",
        "sale_price": "22.50",
        "cost_price": "9",
        "category": str(categories["candles"]),
        "subcategory": str(categories["summer"]),
        "stock_quantity": "12",
        "weight": "9.5",
        "dimensions": "3 x 3 x 4 in",
        "care_instructions": "Trim the wick to 1/4 inch.",
        "ingredients": "soy wax, cotton wick",
        "tags": "lavender, calm",
        **fields,
    }
    return draft_from_form(form, is_featured=True, is_new_arrival=False)


def all_products(session: Session) -> list[Product]:
    session.commit()  # a fresh snapshot: the services write through their own connections
    return list(session.exec(select(Product).order_by(Product.id)))


def test_categories_offer_active_main_categories_in_order_with_their_collections(
    session: Session, categories: dict[str, int]
) -> None:
    choices = category_choices(session)

    assert [c.name for c in choices] == ["Candles", "Custom"]
    assert choices[0].collections == (
        (categories["signature"], "Signature Candle Collection"),
        (categories["summer"], "Summer Collection"),
    )
    assert "Retired" in [c.name for c in category_choices(session, include=[categories["retired"]])]


def test_a_product_its_images_and_its_square_item_are_created(
    session: Session,
    media_dir: Path,
    create: Callable[..., CreatedProduct],
    categories: dict[str, int],
    ledger: SimulatorLedger,
) -> None:
    images = staged(media_dir, (200, 30, 30), (30, 30, 200))

    created = create(wizard_draft(categories), images)

    assert created.message == ProductAdminMessage.CREATED_EVERYWHERE
    (product,) = all_products(session)
    assert product.id == created.product_id and product.is_active and product.is_featured
    assert SKU_PATTERN.fullmatch(product.sku or "")
    assert (product.base_price_cents, product.sale_price_cents, product.cost_price_cents) == (2800, 2250, 900)
    assert (product.category_id, product.subcategory_id) == (categories["candles"], categories["summer"])
    assert product.product_type == "candles" and product.stock_quantity == 12
    assert str(product.weight_oz) == "9.50" and product.ingredients == ["soy wax", "cotton wick"]
    assert product.tags == ["lavender", "calm"] and product.group_key
    rows = session.exec(select(ProductImage).order_by(ProductImage.display_order)).all()
    assert [(r.display_order, r.is_primary, r.alt_text) for r in rows] == [
        (0, True, "Lavender Fields Soy Candle Image 1"),
        (1, False, "Lavender Fields Soy Candle Image 2"),
    ]
    assert all(r.image_url.startswith("/media/products/") and "staging" not in r.image_url for r in rows)
    for row in rows:
        assert (media_dir / row.image_url.removeprefix("/media/")).is_file()
    assert files(media_dir / STAGING_FOLDER) == []
    # Square: the item, its variation at the sale price, and the stock count.
    assert product.square_item_id == created.square_item_id and product.square_variation_id
    stored = {o["id"]: o for o in ledger.catalog_objects()}
    assert stored[product.square_item_id]["item_data"]["name"] == "Lavender Fields Soy Candle"
    variation = stored[product.square_variation_id]["item_variation_data"]
    assert variation["price_money"] == {"amount": 2250, "currency": "CAD"} and variation["sku"] == product.sku
    assert [(c["catalog_object_id"], c["quantity"]) for c in ledger.inventory_counts()] == [
        (product.square_variation_id, "12")
    ]


def test_empty_optional_values_are_stored_as_null(
    session: Session, create: Callable[..., CreatedProduct], categories: dict[str, int]
) -> None:
    draft = wizard_draft(
        categories,
        sku="",
        sale_price="",
        cost_price="",
        subcategory="",
        category=str(categories["custom"]),
        weight=" ",
        dimensions="",
        care_instructions="  ",
        ingredients=" , ",
        tags="",
    )

    create(draft, [])

    row = session.execute(
        sa.text(
            "SELECT sale_price_cents IS NULL, cost_price_cents IS NULL, weight_oz IS NULL,"
            " dimensions IS NULL, care_instructions IS NULL, product_type IS NULL,"
            " ingredients IS NULL, tags IS NULL, subcategory_id IS NULL, seo_title IS NULL FROM products"
        )
    ).one()
    assert all(row), row


def test_a_failing_image_insert_rolls_back_the_product_and_removes_its_files(
    session: Session,
    media_dir: Path,
    create: Callable[..., CreatedProduct],
    categories: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    images = staged(media_dir, (10, 200, 10), (10, 10, 200))
    uploads = files(media_dir / STAGING_FOLDER)
    real_insert = product_creation.insert_product_images

    def insert_then_fail(db: Session, product_id: int, name: str, refs: list[ImageRef]) -> None:
        real_insert(db, product_id, name, refs)  # the rows are written, then the database refuses one
        db.execute(sa.insert(ProductImage), [{"product_id": product_id + 1000, "image_url": "/x"}])

    monkeypatch.setattr(product_creation, "insert_product_images", insert_then_fail)

    with pytest.raises(ProductCreationError) as failure:
        create(wizard_draft(categories), images)

    assert str(failure.value) == "Failed to create product: Unknown error"
    assert all_products(session) == [] and session.exec(select(ProductImage)).all() == []
    assert files(media_dir / "products") == []  # the product's copies are gone …
    assert files(media_dir / STAGING_FOLDER) == uploads  # … the uploads stay for another try

    # Publishing again (the wizard still holds its uploads) works.
    monkeypatch.setattr(product_creation, "insert_product_images", real_insert)
    create(wizard_draft(categories), images)
    assert len(all_products(session)) == 1 and len(session.exec(select(ProductImage)).all()) == 2


def test_square_is_only_asked_once_the_product_exists(
    create: Callable[..., CreatedProduct],
    categories: dict[str, int],
    ledger: SimulatorLedger,
) -> None:
    with pytest.raises(DraftInvalid) as refused:
        create(wizard_draft(categories, category="999999"), [])

    assert refused.value.problems == ((DraftField.CATEGORY, ProductDraftText.CATEGORY_NOT_FOUND.value),)
    assert ledger.catalog_objects() == [] and ledger.requests() == []


def test_when_square_is_down_the_product_is_created_without_square_ids(
    session: Session,
    media_dir: Path,
    create: Callable[..., CreatedProduct],
    categories: dict[str, int],
    ledger: SimulatorLedger,
) -> None:
    ledger.fail_next("/v2/catalog/batch-upsert", kind="drop_connection")

    created = create(wizard_draft(categories), staged(media_dir, (1, 2, 3)))

    assert created.message == ProductAdminMessage.CREATED_LOCALLY
    (product,) = all_products(session)
    assert product.is_active and (product.square_item_id, product.square_variation_id) == (None, None)
    assert len(session.exec(select(ProductImage)).all()) == 1
    # The change waits in the outbox, and reaches Square once it answers again.
    assert waiting(session).products == 1
    push_pending(checked_catalog(ledger), engine=session.get_bind(), now=utcnow() + timedelta(hours=2))
    session.expire_all()
    assert all_products(session)[0].square_item_id in {o["id"] for o in ledger.catalog_objects()}


def test_without_square_the_product_is_created_locally(
    session: Session, create: Callable[..., CreatedProduct], categories: dict[str, int]
) -> None:
    created = create(wizard_draft(categories), [], catalog=None)

    assert created.message == "Product created successfully! (Square sync will be handled separately)"
    assert all_products(session)[0].square_item_id is None


def test_a_taken_sku_or_a_foreign_collection_is_refused_with_nothing_left_behind(
    session: Session, media_dir: Path, create: Callable[..., CreatedProduct], categories: dict[str, int]
) -> None:
    session.add(Product(name="Old", sku="LAV-8", base_price_cents=100))
    other = Category(name="Body Care", slug="body-care", sort_order=2)
    session.add(other)
    session.commit()
    images = staged(media_dir, (9, 9, 9))

    with pytest.raises(ProductCreationError) as taken:
        create(wizard_draft(categories, sku="LAV-8"), images)
    with pytest.raises(DraftInvalid) as foreign:
        create(wizard_draft(categories, category=str(other.id)), images)

    assert str(taken.value) == 'Failed to create product: Another product already uses the SKU "LAV-8"'
    assert foreign.value.problems == (
        (DraftField.SUBCATEGORY, "The chosen collection is not part of the chosen category"),
    )
    assert [p.name for p in all_products(session)] == ["Old"]
    assert files(media_dir / "products") == [] and files(media_dir / STAGING_FOLDER)


def test_a_new_name_is_searchable_at_once(
    session: Session, create: Callable[..., CreatedProduct], categories: dict[str, int]
) -> None:
    session.add(Product(name="Amber Candle", base_price_cents=100))
    session.commit()
    assert search_terms(session, "zanzibr")[0].alternatives == ()  # read (and cached) before

    create(wizard_draft(categories, name="Zanzibar Spice Candle"), [], catalog=None)

    session.commit()  # a fresh snapshot: see the new row
    (term,) = search_terms(session, "zanzibr")  # one typo away: corrected towards the new word
    assert term.alternatives == ("zanzibar",)
