"""Manage Products (docs/spec/admin-products.md#manage, #delete): the admin product list, status and
deletion. (Edits of the Edit Product dialog are saved by ``services.admin.product_form.update_product``,
like the full-page form's.)

The list is the whole catalogue, newest first (the seed's ``SELECT products … created_at
descending``), read once per action; the screens filter it in memory with :func:`filter_rows`
while the admin types, so a keystroke never costs a query.

Mutations flush and leave the commit to the caller, except :func:`delete_product`, which
commits itself: a product's image files may only be removed once its deletion is durable.
Every function trusts that the caller has already checked the admin role.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shop_app.domain.grouping import group_key
from shop_app.domain.pricing import effective_sale_price
from shop_app.domain.product_editing import sale_blocker
from shop_app.domain.stock import admin_status_badge, is_low_stock_admin
from shop_app.models import Category, OrderItem, Product, ProductImage
from shop_app.models.base import utcnow
from shop_app.models.square_outbox import record_deletion
from shop_app.services import media
from shop_app.services.catalog.filters import primary_image_url, primary_image_width
from shop_app.services.catalog.search import refresh_vocabulary_on_commit
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.settings import get_settings

log = logging.getLogger(__name__)


class ProductNotFoundError(LookupError):
    """The product no longer exists (deleted in another tab, for instance)."""


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class AdminProductRow:
    """One product as the admin lists show it (individual view, grouped view, dashboard)."""

    id: int
    name: str
    description: str
    sku: str | None
    image_url: str  # primary image, else the first by display order, else ""
    image_width: int | None
    category_id: int | None
    category_name: str  # "" when none
    subcategory_id: int | None
    subcategory_name: str  # "" when none
    product_type: str | None
    base_price_cents: int
    sale_price_cents: int | None  # as stored
    stock_quantity: int
    is_active: bool
    is_featured: bool
    is_new_arrival: bool
    created_at: datetime
    square_item_id: str | None

    @property
    def on_sale(self) -> bool:
        """Whether the list strikes the base price through: the sale price is a real discount."""
        return effective_sale_price(self.base_price_cents, self.sale_price_cents) is not None

    @property
    def low_stock(self) -> bool:
        """The individual view's low-stock warning: 5 units or fewer (docs/spec/limits.md#back-office)."""
        return is_low_stock_admin(self.stock_quantity)

    @property
    def status_badge(self) -> str:
        """The dashboard's badge: New, else Sale, else Active (docs/spec/admin.md#dashboard-products)."""
        return admin_status_badge(self.is_new_arrival, self.sale_price_cents)


def admin_products(
    session: Session,
    *,
    search: str = "",
    category_id: int | None = None,
    subcategory_id: int | None = None,
) -> list[AdminProductRow]:
    """Every product, active or archived, newest first, narrowed as :func:`filter_rows` says.

    The whole catalogue: the screens read one page at a time instead
    (``services.admin.product_listing``); this is the reference their queries are tested against.
    """
    rows = session.execute(
        _rows_select().order_by(col(Product.created_at).desc(), col(Product.id).desc())
    ).all()
    products = [_row(row) for row in rows]
    return filter_rows(products, search=search, category_id=category_id, subcategory_id=subcategory_id)


# What a list row shows of a product: its columns, not the whole entity (the JSON columns and
# the long texts a row never shows cost more to decode than the page's statements to run).
_ROW_COLUMNS = (
    "id",
    "name",
    "description",
    "sku",
    "category_id",
    "subcategory_id",
    "product_type",
    "base_price_cents",
    "sale_price_cents",
    "stock_quantity",
    "is_active",
    "is_featured",
    "is_new_arrival",
    "created_at",
    "square_item_id",
)


@cache
def _rows_select() -> sa.Select[Any]:
    """The list rows' statement, built once: statements are immutable (``where`` and ``order_by``
    return new ones), and building this one took longer than running it for a page."""
    subcategory = aliased(Category)
    table = Product.__table__  # type: ignore[attr-defined]
    return (
        sa.select(
            *(table.c[name] for name in _ROW_COLUMNS),
            col(Category.name).label("category_name"),
            col(subcategory.name).label("subcategory_name"),
            primary_image_url(col(Product.id)).label("image_url"),
            primary_image_width(col(Product.id)).label("image_width"),
        )
        .select_from(Product)
        .outerjoin(Category, col(Category.id) == col(Product.category_id))
        .outerjoin(subcategory, col(subcategory.id) == col(Product.subcategory_id))
    )


def product_rows(session: Session, ids: Sequence[int]) -> list[AdminProductRow]:
    """The products ``ids`` as list rows, in the order of ``ids`` (a missing one is left out)."""
    if not ids:
        return []
    selected = session.execute(_rows_select().where(col(Product.id).in_(list(ids)))).all()
    found = {row.id: row for row in map(_row, selected)}
    return [found[i] for i in ids if i in found]


def _row(row: Any) -> AdminProductRow:
    return AdminProductRow(
        id=row.id,
        name=row.name,
        description=row.description or "",
        sku=row.sku,
        image_url=row.image_url or "",
        image_width=row.image_width,
        category_id=row.category_id,
        category_name=row.category_name or "",
        subcategory_id=row.subcategory_id,
        subcategory_name=row.subcategory_name or "",
        product_type=row.product_type,
        base_price_cents=row.base_price_cents or 0,
        sale_price_cents=row.sale_price_cents,
        stock_quantity=row.stock_quantity or 0,
        is_active=row.is_active,
        is_featured=row.is_featured,
        is_new_arrival=row.is_new_arrival,
        created_at=row.created_at,
        square_item_id=row.square_item_id,
    )


def filter_rows(
    rows: Iterable[AdminProductRow],
    *,
    search: str = "",
    category_id: int | None = None,
    subcategory_id: int | None = None,
) -> list[AdminProductRow]:
    """Rows matching the search and the filters, order kept (pure; the screens call it per keystroke).

    The search matches, case-insensitively, a part of the name, of the id, or of the category
    name (docs/spec/admin-products.md#manage); blank matches everything. The filters compare ids.
    """
    needle = " ".join(search.split()).casefold()
    return [
        row
        for row in rows
        if (category_id is None or row.category_id == category_id)
        and (subcategory_id is None or row.subcategory_id == subcategory_id)
        and (
            not needle
            or needle in row.name.casefold()
            or needle in str(row.id)
            or needle in row.category_name.casefold()
        )
    ]


@dataclass(frozen=True, slots=True)
class ProductStats:
    """The individual view's cards: Total Products, Active, Featured, Low Stock."""

    total: int
    active: int
    featured: int
    low_stock: int


def product_stats(rows: Sequence[AdminProductRow]) -> ProductStats:
    """Count the rows for the stats cards (low stock: 5 units or fewer, docs/spec/limits.md#back-office)."""
    return ProductStats(
        total=len(rows),
        active=sum(row.is_active for row in rows),
        featured=sum(row.is_featured for row in rows),
        low_stock=sum(row.low_stock for row in rows),
    )


@dataclass(frozen=True, slots=True)
class CategoryChoice:
    """A category the filters and the edit dialog offer; ``parent_id`` is None for a main one."""

    id: int
    name: str
    parent_id: int | None


def category_choices(session: Session) -> list[CategoryChoice]:
    """Every category, in the shop's order (sort order, then name), active or not.

    Inactive categories are offered too: a product may still sit in one, and the filter must
    be able to find it.
    """
    rows = session.execute(
        select(col(Category.id), col(Category.name), col(Category.parent_id)).order_by(
            col(Category.sort_order), col(Category.name), col(Category.id)
        )
    ).all()
    return [CategoryChoice(id=row.id, name=row.name, parent_id=row.parent_id) for row in rows]


# --------------------------------------------------------------------------- renames and status


def _product(session: Session, product_id: int) -> Product:
    product = session.get(Product, product_id)
    if product is None:
        raise ProductNotFoundError(product_id)
    return product


def rename(product: Product, name: str) -> None:
    """Give a product a new name, keeping what is derived from the name (its storefront group)."""
    product.name = name
    product.group_key = group_key(name)
    product.updated_at = utcnow()


class NotForSaleError(ValueError):
    """The product cannot be put on sale as it is; ``str(exc)`` says why (the editors' words)."""


def set_active(session: Session, product_id: int, active: bool) -> str:
    """Archive (``False``) or activate a product; return its name for the messages.

    Raises:
        NotForSaleError: Activating a product the editors would refuse to publish (no category,
            no price: one Sync from Square brought in, say); it stays archived.
    """
    product = _product(session, product_id)
    if active and not product.is_active:
        blocker = sale_blocker(category_id=product.category_id, base_price_cents=product.base_price_cents)
        if blocker is not None:
            raise NotForSaleError(blocker)
    product.is_active = active
    product.updated_at = utcnow()
    session.flush()
    refresh_vocabulary_on_commit(session)
    return product.name


# --------------------------------------------------------------------------- deletion


SQUARE_UNAVAILABLE = "Square is not configured"
"""Why a linked product stayed on Square when no catalogue was given (its settings are incomplete)."""


class SquareDeletion(StrEnum):
    """What happened on Square when a product was deleted."""

    NOT_LINKED = "not_linked"  # no Square id: nothing to do there
    DELETED = "deleted"
    FAILED = "failed"  # the seed continues with the local deletion


@dataclass(frozen=True, slots=True)
class DeleteOutcome:
    """The result of :func:`delete_product`.

    ``referenced_by_orders``: nothing was deleted (not even on Square) because order lines
    point at the product; the screens offer to archive it instead.
    """

    name: str
    deleted: bool
    square: SquareDeletion = SquareDeletion.NOT_LINKED
    square_error: str = ""
    referenced_by_orders: bool = False


def is_ordered(session: Session, product_id: int) -> bool:
    """Whether any order line refers to the product (it can then only be archived)."""
    return session.execute(select(sa.exists().where(col(OrderItem.product_id) == product_id))).scalar_one()


def delete_product(
    session: Session,
    product_id: int,
    *,
    square: SquareCatalog | None,
    media_dir: Path | None = None,
) -> DeleteOutcome:
    """Delete a product: on Square first, then here; then its image files
    (docs/spec/admin-products.md#delete).

    A product that has been ordered is not deleted anywhere (order lines keep it with ON DELETE
    RESTRICT); the check runs before Square is asked, and the RESTRICT violation of an order
    placed in between is caught too. Square failing does not stop the local deletion; neither
    does ``square=None`` (Square not configured), which counts as a failure for a linked
    product. The transaction is committed here; image files are removed only afterwards, and
    only those no other product's images still use (Add Scent shares them).

    Raises:
        ProductNotFoundError: The product is gone.
    """
    product = _product(session, product_id)
    name, item_id = product.name, product.square_item_id
    if is_ordered(session, product_id):
        return DeleteOutcome(name=name, deleted=False, referenced_by_orders=True)
    images = select(ProductImage.image_url).where(ProductImage.product_id == product_id)
    urls = list(session.execute(images).scalars())
    # End the read before Square is asked: no transaction stays open during a network call, and
    # the delete below starts with its write (on SQLite a read that later writes fails at once
    # when another write committed in between, e.g. the Square outbox's).
    session.expunge(product)  # it is going: nothing below reads it again
    session.rollback()
    square_state, square_error = SquareDeletion.NOT_LINKED, ""
    if item_id and square is None:
        square_state, square_error = SquareDeletion.FAILED, SQUARE_UNAVAILABLE
    elif item_id and square is not None:
        result = square.delete_item(item_id)
        square_state = SquareDeletion.DELETED if result.ok else SquareDeletion.FAILED
        square_error = "" if result.ok else result.error
    try:
        session.execute(sa.delete(Product).where(col(Product.id) == product_id))
        refresh_vocabulary_on_commit(session)
        if square_state is not SquareDeletion.DELETED:  # Square keeps trying until it is gone
            record_deletion(session, product_id, item_id)
        session.commit()
    except IntegrityError:
        session.rollback()
        if not is_ordered(session, product_id):
            raise
        return DeleteOutcome(name=name, deleted=False, referenced_by_orders=True)
    _remove_unused_files(session, urls, media_dir or get_settings().media_dir)
    return DeleteOutcome(name=name, deleted=True, square=square_state, square_error=square_error)


def _remove_unused_files(session: Session, urls: Sequence[str], media_dir: Path) -> None:
    """Remove the stored files of ``urls`` that no product image refers to any more."""
    if not urls:
        return
    still_used = set(
        session.execute(
            select(col(ProductImage.image_url)).where(col(ProductImage.image_url).in_(set(urls)))
        ).scalars()
    )
    session.commit()  # end the read transaction the check opened
    for url in set(urls) - still_used:
        try:
            media.remove_image(url, media_dir)
        except OSError:
            log.warning("could not remove the image files of %s", url, exc_info=True)
