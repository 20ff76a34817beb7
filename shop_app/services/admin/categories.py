"""Manage Categories (docs/spec/admin-categories.md#screen): list, create, update and delete categories.

The rules are ``domain.categories``'; here they are applied inside one write transaction each,
against the rows as they are at that moment (another administrator may have changed them since
the screen loaded). Every refusal raises :class:`CategoryError` with the message to show.

Products follow their category when it moves: a product's ``category_id`` is its main category
and its ``subcategory_id`` a subcategory under it, and the shop's filters rely on that pairing
(``/shop?category=candles&subcategory=fall`` needs both). So when an edit changes a category's
parent, the products filed under it are re-filed to match (:func:`_refile_products`).

The storefront reads categories on every page load (``services.catalog.listing``); only the
search vocabulary is cached, and it is refreshed after every change.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import write_transaction
from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import (
    CategoryError,
    CategoryInput,
    CategoryRecord,
    check_deletable,
    check_parent,
)
from shop_app.models import Category, Product
from shop_app.models.base import saved_id, utcnow
from shop_app.services.catalog.search import refresh_vocabulary

__all__ = [
    "CategoryError",
    "CategoryUsage",
    "category_usage",
    "create_category",
    "delete_category",
    "list_categories",
    "update_category",
]


@dataclass(frozen=True, slots=True)
class CategoryUsage:
    """What a category holds: what its deletion would have to leave behind."""

    subcategories: int
    products: int  # active and archived, in it as main category or as subcategory


def list_categories(session: Session) -> list[CategoryRecord]:
    """Every category, active or not (docs/spec/admin-categories.md#screen: "SELECT all categories")."""
    rows = session.exec(
        select(Category).order_by(col(Category.sort_order), col(Category.name), col(Category.id))
    ).all()
    return [_record(row) for row in rows]


def category_usage(session: Session, category_id: int) -> CategoryUsage:
    """How many subcategories and products are filed under the category."""
    subcategories = session.execute(
        select(sa.func.count()).select_from(Category).where(Category.parent_id == category_id)
    ).scalar_one()
    products = session.execute(
        select(sa.func.count())
        .select_from(Product)
        .where(sa.or_(col(Product.category_id) == category_id, col(Product.subcategory_id) == category_id))
    ).scalar_one()
    return CategoryUsage(subcategories=subcategories, products=products)


def create_category(data: CategoryInput, *, engine: Engine | None = None) -> CategoryRecord:
    """Store a new main category or subcategory.

    Raises:
        CategoryError: the parent is missing or not a main category, or the slug is taken.
    """
    try:
        with write_transaction(engine) as session:
            _check_parent(session, data, category_id=None, has_subcategories=False)
            _check_slug_free(session, data.slug, category_id=None)
            row = Category(
                name=data.name,
                slug=data.slug,
                description=data.description,
                parent_id=data.parent_id,
                sort_order=data.sort_order,
                is_active=data.is_active,
            )
            session.add(row)
            session.flush()
            created = _record(row)
    except sa.exc.IntegrityError:  # the same slug stored at the same moment
        raise CategoryError(CategoryMessage.SLUG_TAKEN.format(slug=data.slug)) from None
    refresh_vocabulary()
    return created


def update_category(category_id: int, data: CategoryInput, *, engine: Engine | None = None) -> CategoryRecord:
    """Change a category; the slug follows the new name (docs/spec/admin-categories.md#records).

    Raises:
        CategoryError: the category is gone, it would be its own parent, the parent is missing
            or not a main category, it has subcategories and would become one, or the slug is
            taken by another category.
    """
    try:
        with write_transaction(engine) as session:
            row = session.get(Category, category_id)
            if row is None:
                raise CategoryError(CategoryMessage.NOT_FOUND)
            has_subcategories = category_usage(session, category_id).subcategories > 0
            _check_parent(session, data, category_id=category_id, has_subcategories=has_subcategories)
            _check_slug_free(session, data.slug, category_id=category_id)
            old_parent_id = row.parent_id
            row.name, row.slug, row.description = data.name, data.slug, data.description
            row.parent_id, row.sort_order, row.is_active = data.parent_id, data.sort_order, data.is_active
            row.updated_at = utcnow()
            session.add(row)
            session.flush()
            if old_parent_id != data.parent_id:
                _refile_products(session, category_id, data.parent_id)
            updated = _record(row)
    except sa.exc.IntegrityError:
        raise CategoryError(CategoryMessage.SLUG_TAKEN.format(slug=data.slug)) from None
    refresh_vocabulary()
    return updated


def delete_category(category_id: int, *, engine: Engine | None = None) -> None:
    """Delete a category that holds no subcategory and no product (see ``check_deletable``).

    Raises:
        CategoryError: the category is gone, or it still holds subcategories or products.
    """
    with write_transaction(engine) as session:
        row = session.get(Category, category_id)
        if row is None:
            raise CategoryError(CategoryMessage.NOT_FOUND)
        usage = category_usage(session, category_id)
        check_deletable(name=row.name, subcategories=usage.subcategories, products=usage.products)
        session.delete(row)
    refresh_vocabulary()


def _check_parent(
    session: Session, data: CategoryInput, *, category_id: int | None, has_subcategories: bool
) -> None:
    parent = session.get(Category, data.parent_id) if data.parent_id is not None else None
    check_parent(
        category_id=category_id,
        parent=_record(parent) if parent is not None else None,
        parent_id=data.parent_id,
        has_subcategories=has_subcategories,
        name=data.name,
    )


def _check_slug_free(session: Session, slug: str, *, category_id: int | None) -> None:
    query = select(Category.id).where(Category.slug == slug)
    if category_id is not None:
        query = query.where(Category.id != category_id)
    if session.exec(query).first() is not None:
        raise CategoryError(CategoryMessage.SLUG_TAKEN.format(slug=slug))


def _refile_products(session: Session, category_id: int, parent_id: int | None) -> None:
    """Keep products paired with the hierarchy after ``category_id`` moved under ``parent_id``.

    Now a subcategory of ``parent_id``: every product filed under it (as its main category or
    its subcategory) is in ``parent_id`` / ``category_id``. Now a main category: products that
    had it as their subcategory have it as their main category, with no subcategory.
    """
    now = utcnow()
    in_category = sa.or_(col(Product.category_id) == category_id, col(Product.subcategory_id) == category_id)
    if parent_id is not None:
        values = {"category_id": parent_id, "subcategory_id": category_id, "updated_at": now}
        session.execute(sa.update(Product).where(in_category).values(**values))
    else:
        values = {"category_id": category_id, "subcategory_id": None, "updated_at": now}
        session.execute(sa.update(Product).where(col(Product.subcategory_id) == category_id).values(**values))


def _record(row: Category) -> CategoryRecord:
    return CategoryRecord(
        id=saved_id(row),
        name=row.name,
        slug=row.slug,
        description=row.description or "",
        parent_id=row.parent_id,
        is_active=row.is_active,
        sort_order=row.sort_order,
    )
