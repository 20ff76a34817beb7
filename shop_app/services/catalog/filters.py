"""SQL building blocks shared by the catalogue queries: filters and the card image."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.domain.search import Term
from shop_app.domain.slugs import resolve_category_slug
from shop_app.models import Category, Product, ProductImage


@dataclass(frozen=True, slots=True)
class CategoryFilter:
    """The category and subcategory a listing is narrowed to, resolved to ids.

    ``unknown`` is set when the URL names a category that does not exist: nothing matches.
    """

    category_id: int | None = None
    subcategory_id: int | None = None
    unknown: bool = False


def resolve_categories(session: Session, *, category: str | None, subcategory: str | None) -> CategoryFilter:
    """Resolve the URL's category codes (slugs or the storefront's legacy codes) to ids."""
    wanted = [resolve_category_slug(code) for code in (category, subcategory) if code]
    if not wanted:
        return CategoryFilter()
    found = dict(session.execute(select(Category.slug, Category.id).where(Category.slug.in_(wanted))).all())
    category_id = found.get(resolve_category_slug(category)) if category else None
    subcategory_id = found.get(resolve_category_slug(subcategory)) if subcategory else None
    unknown = (category is not None and category_id is None) or (
        subcategory is not None and subcategory_id is None
    )
    return CategoryFilter(category_id, subcategory_id, unknown)


def product_conditions(
    *, categories: CategoryFilter = CategoryFilter(), terms: list[Term] | None = None
) -> list[sa.ColumnElement[bool]]:
    """WHERE conditions: active products in the categories matching every search term.

    A category id matches a product's main category or its subcategory, so a subcategory code
    given as ``category`` still works. A term matches, case-insensitively, the product name,
    description, or the name of its category or subcategory, in any of its spellings.
    """
    conditions: list[sa.ColumnElement[bool]] = [Product.is_active]
    if categories.unknown:
        conditions.append(sa.false())
    if categories.category_id is not None:
        conditions.append(
            sa.or_(
                Product.category_id == categories.category_id,
                Product.subcategory_id == categories.category_id,
            )
        )
    if categories.subcategory_id is not None:
        conditions.append(Product.subcategory_id == categories.subcategory_id)
    for term in terms or []:
        conditions.append(sa.or_(*(_matches(spelling) for spelling in term.spellings)))
    return conditions


def _matches(word: str) -> sa.ColumnElement[bool]:
    pattern = f"%{escape_like(word)}%"
    category_ids = select(Category.id).where(sa.func.lower(Category.name).like(pattern, escape="\\"))
    return sa.or_(
        sa.func.lower(Product.name).like(pattern, escape="\\"),
        sa.func.lower(Product.description).like(pattern, escape="\\"),
        Product.category_id.in_(category_ids),
        Product.subcategory_id.in_(category_ids),
    )


def escape_like(text: str) -> str:
    """Make LIKE wildcards in ``text`` literal (escape character: backslash)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def primary_image_url(product_id: sa.ColumnElement[int]) -> sa.ScalarSelect[str]:
    """Correlated subquery: the primary image, else the first by display order."""
    return _primary_image_column(ProductImage.image_url, product_id)


def primary_image_width(product_id: sa.ColumnElement[int]) -> sa.ScalarSelect[int]:
    """Correlated subquery: the stored width of that same image (None when unknown)."""
    return _primary_image_column(ProductImage.width, product_id)


def _primary_image_column(column: sa.ColumnElement, product_id: sa.ColumnElement[int]) -> sa.ScalarSelect:
    return (
        select(column)
        .where(ProductImage.product_id == product_id)
        .order_by(ProductImage.is_primary.desc(), ProductImage.display_order, ProductImage.id)
        .limit(1)
        .scalar_subquery()
    )
