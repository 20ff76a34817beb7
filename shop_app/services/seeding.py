"""Loads the demo catalogue (and synthetic catalogues for benchmarks) into the database.

The data lives in ``shop_app/demo/`` as plain records; this module maps it onto the tables,
renders the artwork, stores it through the upload pipeline (``services.media``: WebP renditions,
random names, dimensions recorded on the rows) and creates the demo administrator. The custom
candle builder's vessels (``services.custom_candles``) are created with the demo catalogue, after
its products, and by :func:`load_custom_vessels` in any shop that lacks them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.demo import demo_catalog
from shop_app.demo.artwork import DemoImageSpec, ImageKind
from shop_app.demo.demo_catalog import DemoCategory, DemoProduct
from shop_app.demo.synthetic import synthetic_products
from shop_app.domain.grouping import group_key
from shop_app.domain.slugs import category_slug
from shop_app.models import Category, Product, ProductImage, StoreSettings, WebsiteImage
from shop_app.models.base import saved_id
from shop_app.services.accounts import create_admin
from shop_app.services.artwork_cache import encoded_artwork
from shop_app.services.custom_candles import ensure_vessels
from shop_app.services.media import MEDIA_URL, StoredImage, store_encoded
from shop_app.services.store_settings import SETTINGS_ID
from shop_app.settings import get_settings

PRODUCT_IMAGE_SIZE = (800, 800)
HERO_SIZE = (2100, 900)
BANNER_SIZE = (1200, 900)
_BATCH = 1000

# Artwork this process has already stored, by (media folder, sub-folder, spec, size). Stored names
# are random, so a file's existence can no longer say "already drawn"; this keeps loads into fresh
# databases that share a media folder (the tests, repeated benchmark runs in one process) from
# drawing and encoding the same artwork again. A new process draws afresh; that only happens when
# the catalogue is empty (load_demo) or on purpose (load_synthetic).
_stored_artwork: dict[tuple[Path, str, DemoImageSpec, tuple[int, int]], StoredImage] = {}


class ShopDetails(TypedDict):
    """The store settings the demo fills in (columns of ``StoreSettings``)."""

    company_name: str
    email: str
    phone: str
    address: str
    instagram: str
    facebook: str


DEMO_STORE: ShopDetails = {
    "company_name": "Cedar & Ember Candle Co.",
    "email": "hello@cedarandember.ca",
    "phone": "(250) 555-0142",
    "address": "1120 Fort Street, Victoria, BC V8V 3K8, Canada",
    "instagram": "https://www.instagram.com/cedarandembercandles/",
    "facebook": "https://www.facebook.com/cedarandembercandles",
}
"""The demo shop's details (the owner replaces them in the back office: /admin/settings)."""


@dataclass(frozen=True)
class SeedReport:
    """What a seeding run did."""

    categories: int = 0
    products: int = 0
    images: int = 0
    skipped: bool = False
    vessels: int = 0  # custom candle builder vessels created


def catalogue_is_empty(session: Session) -> bool:
    """Whether the shop has no product at all."""
    return session.execute(select(sa.func.count()).select_from(Product)).scalar_one() == 0


def load_demo(session: Session, *, media_dir: Path, admin_password: str | None = None) -> SeedReport:
    """Load the demo catalogue, site images, store settings and demo admin into an empty shop.

    Does nothing (and says so) when products already exist, so it is safe to run on every start.
    """
    if not catalogue_is_empty(session):
        return SeedReport(skipped=True)
    categories = _ensure_categories(session, demo_catalog.CATEGORIES)
    rendered = 0
    for product in demo_catalog.PRODUCTS:
        stored = _store_artwork(product.image, media_dir, "products", PRODUCT_IMAGE_SIZE)
        rendered += 1
        row = _product_row(product, categories)
        session.add(row)
        session.flush()
        session.add(ProductImage(**_primary_image(saved_id(row), product.name, stored)))
    vessels = load_custom_vessels(session, media_dir=media_dir)
    rendered += vessels
    for slot in demo_catalog.WEBSITE_IMAGES:
        size = HERO_SIZE if slot.image_type == "hero" else BANNER_SIZE
        stored = _store_artwork(slot.spec, media_dir, "site", size)
        rendered += 1
        session.add(
            WebsiteImage(
                image_type=slot.image_type,
                image_url=stored.url,
                width=stored.width,
                height=stored.height,
                alt_text=slot.alt_text,
            )
        )
    if session.get(StoreSettings, SETTINGS_ID) is None:
        session.add(StoreSettings(id=SETTINGS_ID, **DEMO_STORE))
    create_admin(
        session,
        email=demo_catalog.DEMO_ADMIN_EMAIL,
        password=admin_password or demo_catalog.DEMO_ADMIN_PASSWORD,
    )
    session.flush()
    return SeedReport(
        categories=len(categories), products=len(demo_catalog.PRODUCTS), images=rendered, vessels=vessels
    )


# The builder vessels' artwork by SKU (domain.custom_candle.STANDARD_VESSELS): kind and colour.
_VESSEL_ARTWORK: dict[str, tuple[ImageKind, str]] = {
    "CUSTOM-TIN-4": ("tin", "#c9c6c0"),
    "CUSTOM-TUMBLER-8": ("jar", "#f1eee9"),
    "CUSTOM-AMBER-12": ("jar", "#a1571c"),
    "CUSTOM-FROSTED-16": ("jar", "#dde5ea"),
}


def load_custom_vessels(session: Session, *, media_dir: Path) -> int:
    """Create the custom candle builder's missing vessels, each with its artwork; return how many."""
    created = ensure_vessels(session)
    for product in created:
        kind, colour = _VESSEL_ARTWORK.get(product.sku or "", ("jar", "#f1eee9"))
        stored = _store_artwork(
            DemoImageSpec(kind, colour, "#e9c46a", "Custom"), media_dir, "products", PRODUCT_IMAGE_SIZE
        )
        session.add(ProductImage(**_primary_image(saved_id(product), product.name, stored)))
    session.flush()
    return len(created)


def load_synthetic(session: Session, *, count: int, media_dir: Path, seed: int = 0) -> SeedReport:
    """Add ``count`` synthetic products (benchmarks).

    Artwork is shared: one unlabelled image (with its renditions) per vessel kind and colour
    keeps seeding fast.
    """
    categories = _ensure_categories(session, demo_catalog.CATEGORIES)
    urls: dict[tuple[str, str], StoredImage] = {}
    products: list[DemoProduct] = []
    added = 0
    for product in synthetic_products(count, seed=seed):
        key = _artwork_key(product.image)
        if key not in urls:
            artwork = dataclasses.replace(product.image, label="")
            urls[key] = _store_artwork(artwork, media_dir, "synthetic", PRODUCT_IMAGE_SIZE)
        products.append(product)
        if len(products) == _BATCH:
            added += _insert_batch(session, products, categories, urls)
            products = []
    added += _insert_batch(session, products, categories, urls)
    return SeedReport(categories=len(categories), products=added, images=len(urls))


def _insert_batch(
    session: Session,
    products: list[DemoProduct],
    categories: dict[str, Category],
    urls: dict[tuple[str, str], StoredImage],
) -> int:
    if not products:
        return 0
    rows = [_product_row(product, categories) for product in products]
    session.add_all(rows)
    session.flush()
    stored = [urls[_artwork_key(product.image)] for product in products]
    session.execute(
        sa.insert(ProductImage),
        [
            _primary_image(saved_id(row), product.name, image)
            for row, product, image in zip(rows, products, stored, strict=True)
        ],
    )
    return len(rows)


def _ensure_categories(session: Session, wanted: Iterable[DemoCategory]) -> dict[str, Category]:
    """Create the categories that do not exist yet (by slug); return them all by name."""
    by_name: dict[str, Category] = {}
    for spec in sorted(wanted, key=lambda c: c.parent is not None):  # parents first
        slug = category_slug(spec.name)
        category = session.exec(select(Category).where(Category.slug == slug)).first()
        if category is None:
            parent = by_name.get(spec.parent) if spec.parent else None
            category = Category(
                name=spec.name,
                slug=slug,
                description=spec.description,
                sort_order=spec.sort_order,
                parent_id=parent.id if parent else None,
            )
            session.add(category)
            session.flush()
        by_name[spec.name] = category
    return by_name


def _product_row(product: DemoProduct, categories: dict[str, Category]) -> Product:
    details = {
        key: value
        for key, value in (
            ("size", product.size),
            ("burn_time", product.burn_time),
            ("volume", product.volume),
        )
        if value
    }
    return Product(
        name=product.name,
        description=product.description,
        sku=product.sku,
        category_id=categories[product.category].id,
        subcategory_id=categories[product.subcategory].id if product.subcategory else None,
        product_type=product.product_type,
        group_key=group_key(product.name),
        base_price_cents=product.base_price_cents,
        sale_price_cents=product.sale_price_cents,
        stock_quantity=product.stock_quantity,
        is_featured=product.is_featured,
        is_new_arrival=product.is_new,
        scent_notes=list(product.scent_notes),
        details=details,
        variants={"scents": list(product.option_scents)} if product.option_scents else {},
        ingredients=list(product.ingredients) or None,
        care_instructions=product.care_instructions,
        weight_oz=Decimal(product.weight_oz) if product.weight_oz else None,
        dimensions=product.dimensions,
    )


def _primary_image(product_id: int, name: str, image: StoredImage) -> dict[str, Any]:
    """The product's one (primary) image row, as ``ProductImage`` values."""
    return {
        "product_id": product_id,
        "image_url": image.url,
        "width": image.width,
        "height": image.height,
        "display_order": 0,
        "is_primary": True,
        "alt_text": f"{name} Image 1",
    }


def _artwork_key(spec: DemoImageSpec) -> tuple[str, str]:
    return (spec.kind, spec.colour)


def _store_artwork(spec: DemoImageSpec, media_dir: Path, folder: str, size: tuple[int, int]) -> StoredImage:
    """Draw ``spec`` and store it under ``media_dir/folder`` with its renditions.

    Reuses what this process already stored for the same spec and size while its file exists, and
    the encoded files of ``DEMO_ARTWORK_CACHE`` when set (``services.artwork_cache``).
    """
    key = (Path(media_dir).resolve(), folder, spec, size)
    stored = _stored_artwork.get(key)
    if stored is None or not (Path(media_dir) / stored.url.removeprefix(f"{MEDIA_URL}/")).is_file():
        encoded = encoded_artwork(spec, size, get_settings().demo_artwork_cache)
        stored = store_encoded(encoded, media_dir=media_dir, folder=folder)
        _stored_artwork[key] = stored
    return stored
