"""Catalogue queries for the storefront: one page of products at a time, never the whole table."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.models import Category, Product, ProductImage

DEFAULT_PAGE_SIZE = 24
FEATURED_LIMIT = 12


@dataclass(frozen=True, slots=True)
class ProductSummary:
    """What a product card needs; prices in cents, the image as a URL ('' when none)."""

    id: int
    name: str
    description: str
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int
    is_new: bool
    is_featured: bool
    image_url: str


@dataclass(frozen=True, slots=True)
class ProductPage:
    """One page of a product listing and the number of matches in all."""

    items: list[ProductSummary]
    total: int


def _primary_image_url() -> sa.ScalarSelect[str]:
    """Correlated subquery: the primary image, else the first by display order."""
    return (
        select(ProductImage.image_url)
        .where(ProductImage.product_id == Product.id)
        .order_by(ProductImage.is_primary.desc(), ProductImage.display_order, ProductImage.id)
        .limit(1)
        .correlate(Product)
        .scalar_subquery()
    )


def _summaries(session: Session, statement: sa.Select) -> list[ProductSummary]:
    rows = session.execute(statement.add_columns(_primary_image_url().label("image_url"))).all()
    return [
        ProductSummary(
            id=product.id,
            name=product.name,
            description=product.description,
            base_price_cents=product.base_price_cents,
            sale_price_cents=product.sale_price_cents,
            stock_quantity=product.stock_quantity,
            is_new=product.is_new_arrival,
            is_featured=product.is_featured,
            image_url=image_url or "",
        )
        for product, image_url in rows
    ]


def list_products(
    session: Session,
    *,
    category_slug: str | None = None,
    search: str | None = None,
    limit: int = DEFAULT_PAGE_SIZE,
    offset: int = 0,
) -> ProductPage:
    """Active products, newest first, optionally in a category (main or sub) or matching a search.

    The search matches case-insensitively on name, description, category and subcategory names.
    """
    conditions: list[sa.ColumnElement[bool]] = [Product.is_active]
    if category_slug:
        category_ids = select(Category.id).where(Category.slug == category_slug).scalar_subquery()
        conditions.append(
            sa.or_(Product.category_id.in_(category_ids), Product.subcategory_id.in_(category_ids))
        )
    if search and search.strip():
        pattern = f"%{_escape_like(search.strip().lower())}%"
        matching_categories = select(Category.id).where(
            sa.func.lower(Category.name).like(pattern, escape="\\")
        )
        conditions.append(
            sa.or_(
                sa.func.lower(Product.name).like(pattern, escape="\\"),
                sa.func.lower(Product.description).like(pattern, escape="\\"),
                Product.category_id.in_(matching_categories),
                Product.subcategory_id.in_(matching_categories),
            )
        )
    total = session.execute(select(sa.func.count()).select_from(Product).where(*conditions)).scalar_one()
    statement = (
        select(Product)
        .where(*conditions)
        .order_by(Product.created_at.desc(), Product.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return ProductPage(items=_summaries(session, statement), total=total)


def featured_products(session: Session, *, limit: int = FEATURED_LIMIT) -> list[ProductSummary]:
    """Active featured products, newest first (the home page shows at most 12)."""
    statement = (
        select(Product)
        .where(Product.is_active, Product.is_featured)
        .order_by(Product.created_at.desc(), Product.id.desc())
        .limit(limit)
    )
    return _summaries(session, statement)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
