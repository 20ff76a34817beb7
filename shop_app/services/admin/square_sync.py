"""Keeping the local catalogue and Square's in step: "Sync from Square" and the inventory push.

``sync_from_square`` pulls: Square is where the owner may rename or reprice an item at the till,
so a Square item updates the local product linked to it (by ``square_item_id``, else by SKU,
which then links it) **when only Square changed it**: each product keeps a fingerprint of what
Square held after they last agreed (``domain.square_agreement``), and a product the shop changed
since (or both did, or one never known to agree) keeps the shop's name, description and price;
the sync lists those (``SquareSync.kept``) instead of silently undoing the owner's edit.
Items the shop does not know become new local products that are
**inactive**: they arrive without category, images or stock, so the owner reviews and activates
them before they show in the shop. Stock is not pulled: the shop's stock is authoritative (orders
decrement it atomically, docs/architecture.md#orders-and-payment) and ``sync_inventory`` pushes it to Square
instead.

A product Square agrees with (same name, description and price) is left as it is, ``updated_at``
included: syncing the catalogue the shop itself pushed (``services.square.catalog_push``) changes
nothing.

Price rule: Square's price is what the item sells for (the shop sends the sale price when there is
one, docs/spec/square.md#catalog). When it equals the local selling price (the sale price, else the base
price) nothing changes; otherwise it becomes the base price and the sale price is dropped, because a
local discount that Square does not charge would be a lie on the product page.

Neither function commits: the caller's session decides (``session_scope``), so a failure leaves
nothing half-synced.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.grouping import group_key
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.square_agreement import Agreement, decide, fingerprint
from shop_app.models.base import column_length, utcnow
from shop_app.models.catalog import Product
from shop_app.models.square_outbox import SKIP_FLAG
from shop_app.services.catalog.search import refresh_vocabulary_on_commit
from shop_app.services.square.catalog_sync import CatalogError, SquareCatalog, SquareItem

logger = logging.getLogger(__name__)

NAME_MAX: int = column_length(Product, "name")
SKU_MAX: int = column_length(Product, "sku")


class SquareSyncError(Exception):
    """A sync that did not happen; ``str(exc)`` completes 'Sync failed: {message}'."""


@dataclass(frozen=True)
class SquareSync:
    """What a sync did: Square's items read, and the products that kept the shop's values."""

    synced: int
    kept: tuple[str, ...] = ()
    """Names of linked products the shop changed since Square last had them (not overwritten)."""


def sync_from_square(session: Session, catalog: SquareCatalog) -> SquareSync:
    """Pull every Square item into the local catalogue.

    A linked or SKU-matched product gets Square's name, description and price when only Square
    changed them (module docstring; the price rule below); unknown items become new **inactive**
    products for the owner to review. Raises ``SquareSyncError`` when Square cannot be read or the
    result cannot be saved.
    """
    try:
        items = catalog.list_items()
    except CatalogError as exc:
        raise SquareSyncError(str(exc)) from exc
    linked = {
        p.square_item_id: p
        for p in session.exec(select(Product).where(col(Product.square_item_id).is_not(None)))
    }
    skus = {item.sku for item in items if item.sku}
    by_sku = (
        {p.sku: p for p in session.exec(select(Product).where(col(Product.sku).in_(skus)))} if skus else {}
    )
    created, kept = 0, []
    for item in items:
        product = linked.get(item.item_id)
        if product is None and item.sku:
            candidate = by_sku.get(item.sku)
            if candidate is not None and candidate.square_item_id is None:
                product = candidate
        if product is None:
            product = new_product(item, sku_taken=item.sku in by_sku)
            session.add(product)
            created += 1
        elif not _update(product, item):
            kept.append(product.name)
        linked[item.item_id] = product
        if product.sku:
            by_sku[product.sku] = product
    session.info[SKIP_FLAG] = True  # these values came from Square: nothing to send back
    try:
        session.flush()
    except sa.exc.SQLAlchemyError as exc:
        logger.exception("Saving the products synced from Square failed")
        raise SquareSyncError("the synced products could not be saved") from exc
    finally:
        session.info.pop(SKIP_FLAG, None)
    refresh_vocabulary_on_commit(session)
    logger.info(
        "Synced %d Square items (%d new, inactive; %d kept the shop's values)", len(items), created, len(kept)
    )
    return SquareSync(synced=len(items), kept=tuple(kept))


def agreed_fingerprint(name: str, description: str, price_cents: int | None) -> str:
    """The fingerprint to store once Square holds these values (a push, or a sync)."""
    return fingerprint(name.strip()[:NAME_MAX], description, price_cents)


def _update(product: Product, item: SquareItem) -> bool:
    """Take Square's name, description and price when only Square changed them; False when the
    shop's were kept. ``updated_at`` moves only when a value changed."""
    product.square_item_id = item.item_id
    product.square_variation_id = item.variation_id
    selling = display_price_cents(product.base_price_cents, product.sale_price_cents)
    shop = agreed_fingerprint(product.name, product.description, selling)
    square = agreed_fingerprint(
        item.name, item.description, item.price_cents if item.price_cents is not None else selling
    )
    agreement = decide(shop=shop, square=square, known=product.square_fingerprint)
    if agreement is Agreement.KEEP_SHOPS:
        return False
    product.square_fingerprint = square
    if agreement is Agreement.EQUAL:
        return True
    changed = False
    name = item.name.strip()[:NAME_MAX]
    if name and name != product.name:
        product.name = name
        product.group_key = group_key(name)
        changed = True
    if item.description != product.description:
        product.description = item.description
        changed = True
    if item.price_cents is not None and item.price_cents != display_price_cents(
        product.base_price_cents, product.sale_price_cents
    ):
        product.base_price_cents = item.price_cents
        product.sale_price_cents = None
        changed = True
    if changed:
        product.updated_at = utcnow()
    return True


def new_product(item: SquareItem, *, sku_taken: bool) -> Product:
    """A local product for a Square item the shop did not know: inactive until reviewed."""
    name = item.name.strip()[:NAME_MAX] or item.item_id
    sku = item.sku if item.sku and not sku_taken and len(item.sku) <= SKU_MAX else None
    return Product(
        name=name,
        group_key=group_key(name),
        description=item.description,
        sku=sku,
        base_price_cents=item.price_cents or 0,
        stock_quantity=0,
        is_active=False,
        square_item_id=item.item_id,
        square_variation_id=item.variation_id,
        square_fingerprint=agreed_fingerprint(name, item.description, item.price_cents or 0),
    )


@dataclass(frozen=True)
class InventorySync:
    """What ``sync_inventory`` did: counts Square accepted, linked products, and the refusals."""

    updated: int
    total: int
    refused: tuple[tuple[int, str], ...] = ()
    """(product id, Square's reason) of each count Square did not take, in product order."""

    @property
    def failed(self) -> bool:
        """Square took none of the counts there were to send (e.g. it is down)."""
        return self.total > 0 and self.updated == 0


def sync_inventory(session: Session, catalog: SquareCatalog) -> InventorySync:
    """Push each linked product's stock to Square, one count per product.

    A refused count (e.g. a variation deleted on Square) does not stop the others; it is logged
    and listed in ``refused``, and left out of ``updated``.
    """
    products = session.exec(
        select(Product).where(col(Product.square_variation_id).is_not(None)).order_by(col(Product.id))
    ).all()
    updated, refused = 0, []
    for product in products:
        outcome = catalog.set_stock(product.square_variation_id or "", product.stock_quantity)
        if outcome.ok:
            updated += 1
        else:
            logger.warning("Stock of product %s not sent to Square: %s", product.id, outcome.error)
            refused.append((product.id or 0, outcome.error))
    return InventorySync(updated=updated, total=len(products), refused=tuple(refused))
