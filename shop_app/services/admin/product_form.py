"""Editing a product: read it for the full-page form, and save an edit of either edit screen (the
full-page form and Manage Products' Edit Product dialog) in one transaction
(docs/spec/admin-products.md#one-editor, #edit).

Adding goes through ``product_creation.create_product`` like the wizard. Saving an edit
(:func:`update_product`) holds the draft to the editors' one rule set
(``domain.product_editing``) with the categories as they are now, then changes the fields the
editor has (a field the draft leaves ``None`` keeps its value) and, for the form, its gallery
together: images removed from the form lose their rows, new uploads (staged) are copied into the
product folder and get rows, and every image's order, primary flag and alt text follow the form's
order. The SKU (the form's Product ID) is never changed here. The stock is written only when the
administrator changed it (``domain.product_editing.stock_to_write``): an editor opened before a
sale does not put the sold units back, and a stock typed in an editor opened before the stock
changed (a sale, another admin) is refused rather than written over it. Every other field is
guarded by the product's content version (:func:`content_version`), read when the editor
opened: a save whose product changed since (another tab, another admin, a sync from Square, a
CSV import) is refused with ``CHANGED_ELSEWHERE`` and writes nothing, instead of silently
putting the old values back.

Files: new copies are removed again when the transaction fails; the files of removed images are
deleted only after the commit, and only when no other product still shows the same file (Add
Scent copies a group's images by URL).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import ProductAdminMessage, ProductDraftText
from shop_app.domain.grouping import group_key
from shop_app.domain.product_draft import NewProduct, image_alt_text, product_type_for
from shop_app.domain.product_editing import (
    CategoryTree,
    DraftInvalid,
    ProductDraft,
    product_values,
    stock_changed_meanwhile,
    stock_to_write,
)
from shop_app.models import Product, ProductImage
from shop_app.models.base import utcnow
from shop_app.services.admin.product_creation import (
    ProductProblem,
    category_tree,
    failure_text,
    json_list,
)
from shop_app.services.admin.product_images import ImageRef, adopt, discard_all_staged, remove_files
from shop_app.services.admin.products import AdminProductRow
from shop_app.services.catalog.search import refresh_vocabulary

logger = logging.getLogger(__name__)


class ProductUpdateError(Exception):
    """The product was not changed; ``str(error)`` is the text to show."""


class ProductChangedElsewhere(ProductUpdateError):
    """The product changed since the editor read it: the editor must read it again."""


NOT_CONTENT = frozenset(
    {
        "id",
        "stock_quantity",  # guarded by stock_to_write: orders move it while an editor is open
        "search_text",  # derived from the name and description
        "vessel_key",
        "name_folded",
        "square_item_id",  # written by the Square pusher, not by an editor
        "square_variation_id",
        "square_fingerprint",
        "low_stock_alerted_at",
        "created_at",
        "updated_at",
    }
)
"""The product's columns that are not what an editor shows and saves."""


def content_version(product: Product, image_urls: Sequence[str]) -> str:
    """A digest of what the product's editors show and save (every column but :data:`NOT_CONTENT`,
    and the gallery's images in order): it changes with every edit from anywhere, and not with a
    sale, a restock or a push to Square."""
    content = {
        column.name: getattr(product, column.name)
        for column in Product.__table__.columns  # type: ignore[attr-defined]
        if column.name not in NOT_CONTENT
    }
    content["images"] = list(image_urls)
    text = json.dumps(content, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _gallery(session: Session, product_id: int) -> list[ProductImage]:
    return list(
        session.exec(
            select(ProductImage)
            .where(col(ProductImage.product_id) == product_id)
            .order_by(col(ProductImage.display_order), col(ProductImage.id))
        ).all()
    )


@dataclass(frozen=True, slots=True)
class ProductForEdit:
    """What the full-page form shows for an existing product."""

    product_id: int
    sku: str
    name: str
    description: str
    category_id: int | None
    subcategory_id: int | None
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int
    images: tuple[ImageRef, ...]
    scent_notes: tuple[str, ...]
    size: str
    burn_time: str
    ingredients: tuple[str, ...]
    is_featured: bool
    is_new_arrival: bool
    is_active: bool
    version: str  # content_version when read: a save checks the product is still as shown


def product_for_edit(session: Session, product_id: int) -> ProductForEdit | None:
    """The product and its gallery in display order, or ``None`` when there is no such product."""
    product = session.get(Product, product_id)
    if product is None or product.id is None:
        return None
    rows = _gallery(session, product_id)
    details = product.details or {}
    return ProductForEdit(
        product_id=product.id,
        sku=product.sku or "",
        name=product.name,
        description=product.description,
        category_id=product.category_id,
        subcategory_id=product.subcategory_id,
        base_price_cents=product.base_price_cents,
        sale_price_cents=product.sale_price_cents,
        stock_quantity=product.stock_quantity,
        images=tuple(ImageRef(row.image_url, row.width, row.height) for row in rows),
        scent_notes=tuple(product.scent_notes or ()),
        size=str(details.get("size") or ""),
        burn_time=str(details.get("burn_time") or ""),
        ingredients=tuple(product.ingredients or ()),
        is_featured=product.is_featured,
        is_new_arrival=product.is_new_arrival,
        is_active=product.is_active,
        version=content_version(product, [row.image_url for row in rows]),
    )


UNKNOWN_VERSION = ""
"""The version of values not read from the product itself: a save with it is always refused."""


def edit_values_of_row(row: AdminProductRow) -> ProductForEdit:
    """What Edit Product shows of a list's row when the product itself cannot be read; its
    version is :data:`UNKNOWN_VERSION`, so that no save writes over values it did not read."""
    return ProductForEdit(
        product_id=row.id,
        sku=row.sku or "",
        name=row.name,
        description=row.description,
        category_id=row.category_id,
        subcategory_id=row.subcategory_id,
        base_price_cents=row.base_price_cents,
        sale_price_cents=row.sale_price_cents,
        stock_quantity=row.stock_quantity,
        images=(),
        scent_notes=(),
        size="",
        burn_time="",
        ingredients=(),
        is_featured=row.is_featured,
        is_new_arrival=row.is_new_arrival,
        is_active=row.is_active,
        version=UNKNOWN_VERSION,
    )


def read_product_for_edit(product_id: int, engine: Engine | None = None) -> ProductForEdit | None:
    """:func:`product_for_edit` in a session of its own."""
    with session_scope(engine) as session:
        return product_for_edit(session, product_id)


def _apply(
    product: Product,
    draft: ProductDraft,
    values: NewProduct,
    categories: CategoryTree,
    *,
    stock_seen: int | None,
) -> None:
    """Write the edited fields: those every editor has, and the others the draft has."""
    product.name = values.name
    product.group_key = group_key(values.name)
    product.description = values.description
    product.base_price_cents = values.base_price_cents
    product.sale_price_cents = values.sale_price_cents
    main = categories[values.category_id] if values.category_id is not None else None
    # The type follows a main category that names one; in another (Custom) a product keeps its
    # type unless it was moved there (the custom candles are candles).
    product_type = product_type_for(main.slug if main else None)
    if product_type is not None or values.category_id != product.category_id:
        product.product_type = product_type
    product.category_id = values.category_id
    product.subcategory_id = values.subcategory_id
    stock = stock_to_write(values.stock_quantity, seen=stock_seen)
    if stock is not None:
        product.stock_quantity = stock
    product.is_featured = values.is_featured
    product.is_new_arrival = values.is_new_arrival
    if draft.is_active is not None:
        product.is_active = draft.is_active
    if draft.scent_notes is not None:
        product.scent_notes = list(values.scent_notes)
    if draft.ingredients is not None:
        product.ingredients = json_list(values.ingredients)
    edited = {key for key, text in (("size", draft.size), ("burn_time", draft.burn_time)) if text is not None}
    if edited:  # the form's details; the others (volume, vessel …) are kept as they are
        details = {key: value for key, value in (product.details or {}).items() if key not in edited}
        details.update(dict(values.details))
        product.details = details
    _apply_wizard_fields(product, draft, values)
    product.updated_at = utcnow()


def _apply_wizard_fields(product: Product, draft: ProductDraft, values: NewProduct) -> None:
    """The fields only the wizard has, when an edit has them too."""
    if draft.cost_price is not None:
        product.cost_price_cents = values.cost_price_cents
    if draft.tags is not None:
        product.tags = json_list(values.tags)
    if draft.weight is not None:
        product.weight_oz = values.weight_oz
    if draft.dimensions is not None:
        product.dimensions = values.dimensions
    if draft.care_instructions is not None:
        product.care_instructions = values.care_instructions
    if draft.seo_title is not None:
        product.seo_title = values.seo_title
    if draft.seo_description is not None:
        product.seo_description = values.seo_description


def _sync_gallery(session: Session, product_id: int, name: str, images: Sequence[ImageRef]) -> list[str]:
    """Make the product's image rows match ``images``; return the URLs whose rows were deleted."""
    rows = {
        row.image_url: row
        for row in session.exec(select(ProductImage).where(ProductImage.product_id == product_id))
    }
    wanted = {image.url for image in images}
    removed = [url for url in rows if url not in wanted]
    for url in removed:
        session.delete(rows[url])
    session.flush()
    for position, image in enumerate(images):
        row = rows.get(image.url)
        if row is None:
            row = ProductImage(
                product_id=product_id, image_url=image.url, width=image.width, height=image.height
            )
            session.add(row)
        row.display_order = position
        row.is_primary = position == 0
        row.alt_text = image_alt_text(name, position + 1)
    return removed


def update_product(
    product_id: int,
    draft: ProductDraft,
    images: Sequence[ImageRef] | None,
    *,
    media_dir: Path,
    stock_seen: int | None = None,
    version_seen: str | None = None,
    engine: Engine | None = None,
) -> None:
    """Save an edit and, unless ``images`` is ``None`` (the dialog has no gallery), the gallery, in
    one transaction (see the module docstring). ``stock_seen`` is the stock the editor showed,
    ``version_seen`` the product's :func:`content_version` when the editor read it.

    Raises:
        DraftInvalid: The draft breaks the editors' rules (nothing was written).
        ProductUpdateError: The product is gone, or the save failed; ``str(error)`` says so.
    """
    try:
        adopted = adopt(images, media_dir) if images is not None else None
    except Exception as error:
        logger.warning("product images could not be adopted: %r", error)
        raise ProductUpdateError(failure_text(error)) from error
    new_copies = [image.url for image in adopted or () if images is not None and image not in images]
    removed: list[str] = []
    try:
        with write_transaction(engine) as session:
            # Locked (PostgreSQL) so that two saves of one version cannot both pass the check.
            product = session.get(Product, product_id, with_for_update=True)
            if product is None:
                raise ProductProblem(ProductDraftText.PRODUCT_NOT_FOUND.value)
            if version_seen is not None:
                current = content_version(product, [row.image_url for row in _gallery(session, product_id)])
                if current != version_seen:
                    raise ProductChangedElsewhere(ProductAdminMessage.CHANGED_ELSEWHERE.value)
            categories = category_tree(session)
            values = product_values(draft, categories)
            if stock_changed_meanwhile(
                values.stock_quantity, seen=stock_seen, current=product.stock_quantity
            ):
                raise ProductChangedElsewhere(ProductAdminMessage.CHANGED_ELSEWHERE.value)
            _apply(product, draft, values, categories, stock_seen=stock_seen)
            if adopted is not None:
                removed = _sync_gallery(session, product_id, values.name, adopted)
    except Exception as error:
        remove_files(new_copies, media_dir)
        if isinstance(error, DraftInvalid | ProductChangedElsewhere):
            raise
        if isinstance(error, ProductProblem):
            raise ProductUpdateError(str(error)) from error
        logger.exception("updating product %s failed", product_id)
        raise ProductUpdateError(ProductAdminMessage.UPDATE_FAILED.value) from error
    if images is not None:
        discard_all_staged(images, media_dir)
    _remove_unused(removed, media_dir, engine)
    refresh_vocabulary()


def _remove_unused(urls: Sequence[str], media_dir: Path, engine: Engine | None) -> None:
    if not urls:
        return
    with session_scope(engine) as session:
        still_used = set(
            session.exec(
                select(col(ProductImage.image_url)).where(col(ProductImage.image_url).in_(urls))
            ).all()
        )
    remove_files([url for url in urls if url not in still_used], media_dir)
