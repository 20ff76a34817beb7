"""Creating a product from the wizard or the full-page form: all or nothing, then Square
(docs/spec/admin-products.md#creation, #one-editor).

:func:`create_product` does, in order:

1. copy the staged uploads into the product folder (``product_images.adopt``);
2. in **one** transaction: hold the draft to the editors' one rule set with the categories as they
   are now (``domain.product_editing.product_values``, :func:`category_tree`; a refused draft raises
   its ``DraftInvalid`` with every problem), check the SKU is free, insert the product (active; the
   SKU defaults to a name slug, a timestamp and random text, docs/spec/admin-products.md#creation)
   and its image rows (display order, the first primary, alt text "{name} Image N"). Any failure
   rolls the transaction back and removes the files copied in step 1, so neither a row nor a file
   of the product is left; the error is ``ProductCreationError`` with the seed's
   "Failed to create product: {message}" ("Unknown error" for failures we cannot explain to an
   administrator, which are logged);
3. after the commit: delete the staged originals and refresh the storefront's search
   vocabulary, so the new name is found (and corrected towards) at once;
4. send the product's outbox row at once (``services.square.outbox``: the item and its "Regular"
   variation, priced at the sale price when it is a discount, else the base price, and its stock
   count), which stores its item and variation ids. Square failing (or not configured) leaves
   the product as created, without Square ids, and its change waiting in the outbox, which
   sends it when Square answers: the seed's second success text says the sync will be handled
   separately. The outbox's claim keeps the shop's own pusher from creating it a second time.

The SDK call blocks: callers on an event loop run this in a worker thread.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import BackendMessage, ProductAdminMessage, ProductDraftText
from shop_app.domain.grouping import group_key
from shop_app.domain.product_draft import NewProduct, default_sku, image_alt_text, product_type_for
from shop_app.domain.product_editing import (
    CategoryTree,
    DraftInvalid,
    MainCategory,
    ProductDraft,
    product_values,
)
from shop_app.models import Category, Product, ProductImage
from shop_app.services.admin.product_images import (
    ImageGoneError,
    ImageRef,
    adopt,
    discard_all_staged,
    remove_files,
)
from shop_app.services.catalog.search import refresh_vocabulary
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.outbox import push_pending

logger = logging.getLogger(__name__)


class ProductProblem(Exception):
    """A reason the product cannot be written, worded for the administrator."""


class ProductCreationError(Exception):
    """The product was not created; ``str(error)`` is the seed's failure text."""


@dataclass(frozen=True, slots=True)
class CreatedProduct:
    """A product that now exists; ``message`` is the seed's success text for the Square outcome."""

    product_id: int
    sku: str
    square_item_id: str | None
    message: str


@dataclass(frozen=True, slots=True)
class CategoryChoice:
    """A main category and its collections (subcategories), as the screens offer them."""

    id: int
    name: str
    slug: str
    collections: tuple[tuple[int, str], ...]


def category_choices(session: Session, *, include: Iterable[int | None] = ()) -> list[CategoryChoice]:
    """Active main categories in sort order, each with its active collections
    (docs/spec/admin-products.md#calls).

    ``include`` names categories to offer even when inactive (the ones an edited product has).
    """
    wanted = {i for i in include if i}
    rows = session.exec(
        select(Category)
        .where(sa.or_(col(Category.is_active), col(Category.id).in_(wanted) if wanted else sa.false()))
        .order_by(col(Category.sort_order), col(Category.name))
    ).all()
    collections: dict[int, list[tuple[int, str]]] = {}
    for row in rows:
        if row.parent_id is not None and row.id is not None:
            collections.setdefault(row.parent_id, []).append((row.id, row.name))
    return [
        CategoryChoice(row.id, row.name, row.slug, tuple(collections.get(row.id, ())))
        for row in rows
        if row.parent_id is None and row.id is not None
    ]


def category_tree(session: Session) -> CategoryTree:
    """Every main category with its collections, as the editors' rules see them
    (``domain.product_editing.MainCategory``): active or not, since a product may stay where it is."""
    rows = session.execute(
        select(col(Category.id), col(Category.slug), col(Category.parent_id), col(Category.is_active))
    ).all()
    slugs = {row.id: row.slug for row in rows if row.parent_id is None}
    collections: dict[int, set[int]] = {}
    offering: set[int] = set()
    for row in rows:
        if row.parent_id in slugs:
            collections.setdefault(row.parent_id, set()).add(row.id)
            if row.is_active:
                offering.add(row.parent_id)
    return {
        main_id: MainCategory(slug, frozenset(collections.get(main_id, ())), main_id in offering)
        for main_id, slug in slugs.items()
    }


def insert_product_images(session: Session, product_id: int, name: str, images: Sequence[ImageRef]) -> None:
    """Insert the gallery rows of a product: in order, the first primary, "{name} Image N"."""
    if not images:
        return
    session.execute(
        sa.insert(ProductImage),
        [
            {
                "product_id": product_id,
                "image_url": image.url,
                "width": image.width,
                "height": image.height,
                "display_order": position,
                "is_primary": position == 0,
                "alt_text": image_alt_text(name, position + 1),
            }
            for position, image in enumerate(images)
        ],
    )


def sku_in_use(session: Session, sku: str, *, other_than: int | None = None) -> bool:
    """Whether another product already has this SKU."""
    query = select(Product.id).where(Product.sku == sku)
    if other_than is not None:
        query = query.where(Product.id != other_than)
    return session.exec(query).first() is not None


def json_list(items: Sequence[str] | None) -> Any:
    """A list for a JSON column, or SQL NULL when empty (a plain ``None`` would store JSON null)."""
    return list(items) if items else sa.null()


def _new_row(draft: NewProduct, sku: str, product_type: str | None) -> Product:
    return Product(
        name=draft.name,
        description=draft.description,
        sku=sku,
        category_id=draft.category_id,
        subcategory_id=draft.subcategory_id,
        product_type=product_type,
        group_key=group_key(draft.name),
        base_price_cents=draft.base_price_cents,
        sale_price_cents=draft.sale_price_cents,
        cost_price_cents=draft.cost_price_cents,
        stock_quantity=draft.stock_quantity,
        is_active=True,
        is_featured=draft.is_featured,
        is_new_arrival=draft.is_new_arrival,
        scent_notes=list(draft.scent_notes),
        details=dict(draft.details),
        ingredients=json_list(draft.ingredients),
        tags=json_list(draft.tags),
        care_instructions=draft.care_instructions,
        weight_oz=draft.weight_oz,
        dimensions=draft.dimensions,
        seo_title=draft.seo_title,
        seo_description=draft.seo_description,
    )


def failure_text(error: BaseException, *, sku: str = "") -> str:
    """What to tell the administrator about ``error`` (its own words only when they are ours)."""
    if isinstance(error, ProductProblem | ImageGoneError):
        return str(error)
    if isinstance(error, sa.exc.IntegrityError) and sku and "sku" in str(error.orig).lower():
        return ProductDraftText.SKU_TAKEN.format(sku=sku)  # a race with another admin's save
    return BackendMessage.UNKNOWN_ERROR.value


def _new_sku(name: str) -> str:
    return default_sku(name, timestamp_ms=time.time_ns() // 1_000_000, token=secrets.token_hex(3))


def create_product(
    draft: ProductDraft,
    images: Sequence[ImageRef],
    *,
    media_dir: Path,
    catalog: SquareCatalog | None,
    engine: Engine | None = None,
    new_sku: Callable[[str], str] = _new_sku,
) -> CreatedProduct:
    """Create the product and its images in one transaction, then on Square (module docstring).

    Raises:
        DraftInvalid: The draft breaks the editors' rules (nothing was written).
        ProductCreationError: Anything else kept the product from being created.
    """
    try:
        adopted = adopt(images, media_dir)
    except Exception as error:
        logger.warning("product images could not be adopted: %r", error)
        raise ProductCreationError(
            ProductAdminMessage.CREATE_FAILED.format(message=failure_text(error))
        ) from error
    sku = ""
    try:
        with write_transaction(engine) as session:
            categories = category_tree(session)
            values = product_values(draft, categories)
            sku = values.sku or new_sku(values.name)
            if sku_in_use(session, sku):
                raise ProductProblem(ProductDraftText.SKU_TAKEN.format(sku=sku))
            main = categories[values.category_id] if values.category_id is not None else None
            product = _new_row(values, sku, product_type_for(main.slug if main else None))
            session.add(product)
            session.flush()
            product_id = int(product.id or 0)
            insert_product_images(session, product_id, values.name, adopted)
    except Exception as error:
        remove_files((image.url for image in adopted if image not in images), media_dir)
        if isinstance(error, DraftInvalid):
            raise
        if not isinstance(error, ProductProblem):
            logger.exception("creating product %r failed", draft.name)
        message = failure_text(error, sku=sku)
        raise ProductCreationError(ProductAdminMessage.CREATE_FAILED.format(message=message)) from error
    discard_all_staged(images, media_dir)
    refresh_vocabulary()
    item_id = _send_to_square(catalog, engine, product_id)
    if item_id:
        return CreatedProduct(product_id, sku, item_id, ProductAdminMessage.CREATED_EVERYWHERE.value)
    return CreatedProduct(product_id, sku, None, ProductAdminMessage.CREATED_LOCALLY.value)


def _send_to_square(catalog: SquareCatalog | None, engine: Engine | None, product_id: int) -> str | None:
    """Send the new product's outbox row now (item, variation, stock); its Square item id, or None
    when Square did not take it yet (the outbox tries again: docs/architecture.md#square-outbox)."""
    if catalog is None:
        return None
    try:
        push_pending(catalog, engine=engine, product_ids=[product_id])
        with session_scope(engine) as session:
            linked = select(col(Product.square_item_id)).where(col(Product.id) == product_id)
            return session.exec(linked).first()
    except Exception:
        logger.exception("sending new product %s to Square failed; the outbox tries again", product_id)
        return None
