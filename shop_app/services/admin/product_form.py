"""The local product form's edit mode: read a product for the form, save it in one transaction.

Adding goes through ``product_creation.create_product`` like the wizard. Saving an edit
(:func:`update_product`) changes the product's fields and its gallery together: images removed
from the form lose their rows, new uploads (staged) are copied into the product folder and get
rows, and every image's order, primary flag and alt text follow the form's order. The SKU (the
form's Product ID) and the stock are never changed here.

Files: new copies are removed again when the transaction fails; the files of removed images are
deleted only after the commit, and only when no other product still shows the same file (Add
Scent copies a group's images by URL).
"""

from __future__ import annotations

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
from shop_app.models import Product, ProductImage
from shop_app.models.base import utcnow
from shop_app.services.admin.product_creation import (
    ProductProblem,
    failure_text,
    json_list,
    main_category_slug,
)
from shop_app.services.admin.product_images import ImageRef, adopt, discard_all_staged, remove_files
from shop_app.services.catalog.search import refresh_vocabulary

logger = logging.getLogger(__name__)

FORM_DETAILS = ("size", "burn_time")  # the form's details; others (volume …) are kept as they are


class ProductUpdateError(Exception):
    """The product was not changed; ``str(error)`` is the text to show."""


@dataclass(frozen=True, slots=True)
class ProductForEdit:
    """What the local form shows for an existing product."""

    product_id: int
    sku: str
    name: str
    description: str
    category_id: int | None
    subcategory_id: int | None
    base_price_cents: int
    sale_price_cents: int | None
    images: tuple[ImageRef, ...]
    scent_notes: tuple[str, ...]
    size: str
    burn_time: str
    ingredients: tuple[str, ...]
    is_featured: bool
    is_new_arrival: bool


def product_for_edit(session: Session, product_id: int) -> ProductForEdit | None:
    """The product and its gallery in display order, or ``None`` when there is no such product."""
    product = session.get(Product, product_id)
    if product is None or product.id is None:
        return None
    rows = session.exec(
        select(ProductImage)
        .where(col(ProductImage.product_id) == product_id)
        .order_by(col(ProductImage.display_order), col(ProductImage.id))
    ).all()
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
        images=tuple(ImageRef(row.image_url, row.width, row.height) for row in rows),
        scent_notes=tuple(product.scent_notes or ()),
        size=str(details.get("size") or ""),
        burn_time=str(details.get("burn_time") or ""),
        ingredients=tuple(product.ingredients or ()),
        is_featured=product.is_featured,
        is_new_arrival=product.is_new_arrival,
    )


def _apply(product: Product, draft: NewProduct, product_type: str | None) -> None:
    details = {key: value for key, value in (product.details or {}).items() if key not in FORM_DETAILS}
    details.update(dict(draft.details))
    product.name = draft.name
    product.group_key = group_key(draft.name)
    product.description = draft.description
    product.category_id = draft.category_id
    product.subcategory_id = draft.subcategory_id
    product.product_type = product_type
    product.base_price_cents = draft.base_price_cents
    product.sale_price_cents = draft.sale_price_cents
    product.scent_notes = list(draft.scent_notes)
    product.details = details
    product.ingredients = json_list(draft.ingredients)
    product.is_featured = draft.is_featured
    product.is_new_arrival = draft.is_new_arrival
    product.updated_at = utcnow()


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
    draft: NewProduct,
    images: Sequence[ImageRef],
    *,
    media_dir: Path,
    engine: Engine | None = None,
) -> None:
    """Save the edited product and its gallery in one transaction (see the module docstring)."""
    try:
        adopted = adopt(images, media_dir)
    except Exception as error:
        logger.warning("product images could not be adopted: %r", error)
        raise ProductUpdateError(failure_text(error)) from error
    new_copies = [image.url for image in adopted if image not in images]
    try:
        with write_transaction(engine) as session:
            product = session.get(Product, product_id)
            if product is None:
                raise ProductProblem(ProductDraftText.PRODUCT_NOT_FOUND.value)
            main_slug = main_category_slug(session, draft.category_id, draft.subcategory_id)
            _apply(product, draft, product_type_for(main_slug))
            removed = _sync_gallery(session, product_id, draft.name, adopted)
    except Exception as error:
        remove_files(new_copies, media_dir)
        if isinstance(error, ProductProblem):
            raise ProductUpdateError(str(error)) from error
        logger.exception("updating product %s failed", product_id)
        raise ProductUpdateError(ProductAdminMessage.UPDATE_FAILED.value) from error
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
