"""One product with everything its page needs: images, categories and its sibling variations."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shop_app.domain.grouping import base_product_name, parse_product_name
from shop_app.models import Category, Product, ProductImage

MAX_SIBLINGS = 500


@dataclass(frozen=True, slots=True)
class Image:
    """An image of the gallery (width and height None when unknown)."""

    url: str
    alt: str
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True, slots=True)
class Sibling:
    """Another variation of the same grouped product (or the product itself)."""

    id: int
    scent: str
    vessel: str
    in_stock: bool


@dataclass(frozen=True, slots=True)
class ProductDetail:
    """A product page's data. Prices in cents."""

    id: int
    name: str
    group_title: str
    description: str
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int
    is_new: bool
    is_featured: bool
    scent: str
    vessel: str
    category_name: str
    category_slug: str
    subcategory_name: str
    subcategory_slug: str
    images: tuple[Image, ...]
    details: dict[str, str]
    scent_notes: tuple[str, ...]
    ingredients: tuple[str, ...]
    care_instructions: str
    option_scents: tuple[str, ...]  # scents offered as an option of this product (variants.scents)
    pricing: dict[str, int]
    siblings: tuple[Sibling, ...] = field(default=())
    seo_title: str = ""
    seo_description: str = ""
    updated_at: datetime | None = None

    @property
    def has_scent_choice(self) -> bool:
        """Whether the shopper must pick a scent option before adding to the cart."""
        return bool(self.option_scents)


def get_product(session: Session, product_id: int) -> ProductDetail | None:
    """The active, listed product ``product_id`` with its page data, or None.

    The custom candle builder's vessels (not listed) have no product page.
    """
    main, sub = aliased(Category), aliased(Category)
    row = session.execute(
        sa.select(Product, col(main.name), col(main.slug), col(sub.name), col(sub.slug))
        .outerjoin(main, col(main.id) == col(Product.category_id))
        .outerjoin(sub, col(sub.id) == col(Product.subcategory_id))
        .where(col(Product.id) == product_id, col(Product.is_active), col(Product.is_listed))
    ).first()
    if row is None:
        return None
    product, category_name, category_slug, subcategory_name, subcategory_slug = row
    images = session.exec(
        select(ProductImage)
        .where(col(ProductImage.product_id) == product.id)
        .order_by(col(ProductImage.is_primary).desc(), col(ProductImage.display_order), col(ProductImage.id))
    ).all()
    parsed = parse_product_name(product.name)
    details = {key: str(value) for key, value in (product.details or {}).items() if value}
    return ProductDetail(
        id=product.id,
        name=product.name,
        group_title=base_product_name(product.name),
        description=product.description,
        base_price_cents=product.base_price_cents,
        sale_price_cents=product.sale_price_cents,
        stock_quantity=product.stock_quantity,
        is_new=product.is_new_arrival,
        is_featured=product.is_featured,
        scent=parsed.scent or "",
        vessel=parsed.vessel or "",
        category_name=category_name or "",
        category_slug=category_slug or "",
        subcategory_name=subcategory_name or "",
        subcategory_slug=subcategory_slug or "",
        images=tuple(Image(i.image_url, i.alt_text or product.name, i.width, i.height) for i in images),
        details=details,
        scent_notes=tuple(product.scent_notes or ()),
        ingredients=tuple(product.ingredients or ()),
        care_instructions=product.care_instructions or "",
        option_scents=tuple(str(s) for s in (product.variants or {}).get("scents", []) if str(s).strip()),
        pricing=dict(product.pricing or {}),
        siblings=_siblings(session, product),
        seo_title=product.seo_title or "",
        seo_description=product.seo_description or "",
        updated_at=product.updated_at,
    )


def _siblings(session: Session, product: Product) -> tuple[Sibling, ...]:
    rows = session.execute(
        select(col(Product.id), col(Product.name), col(Product.stock_quantity))
        .where(col(Product.group_key) == product.group_key, col(Product.is_active), col(Product.is_listed))
        .order_by(col(Product.name), col(Product.id))
        .limit(MAX_SIBLINGS)
    ).all()
    siblings = []
    for sibling_id, name, stock in rows:
        parsed = parse_product_name(name)
        siblings.append(Sibling(sibling_id, parsed.scent or "", parsed.vessel or "", stock > 0))
    return tuple(siblings)
