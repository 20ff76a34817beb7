"""The Reconcile screen's reads and writes: the shop against Square, field by field
(docs/spec/square.md#reconcile).

``differences`` reads both sides now (the products, Square's items and stock counts, and which
products still have a change on its way to Square) and lists where they disagree
(``domain.square_reconcile``). ``settle`` settles the differences the owner chose, each from both
sides read again at that moment: one that is gone, or whose values are no longer the ones the
owner saw (an edit in another tab, a till sale), is skipped and counted in ``changed``: a choice
is never applied from a stale screen. "Use Square's" is refused for a product whose shop edit is
still waiting in the outbox (it would undo that edit).

- **Use the shop's**: Square gets the shop's value. Item fields go in one UpsertCatalogObject per
  product that keeps Square's other fields as they are (the owner settles field by field), the
  stock as a PHYSICAL_COUNT; a product Square does not have is created (``catalog_push``); an
  item no product is linked to is archived in Square (never deleted: that is the owner's call, in
  Square).
- **Use Square's**: the shop takes Square's value (a price becomes the base price, without a
  sale, as Sync from Square does); an item no product is linked to becomes an inactive product
  for the owner to review (``square_sync.new_product``). A product is put on sale only if the
  editors' rules allow it (a category, a price above zero: ``sale_blocker``). Nothing of it is
  sent back to Square (``SKIP_FLAG``).

When a product's every field then agrees, the agreed fingerprint is stored (Sync from Square
then knows both sides hold these values). The Square calls block: callers on an event loop run
these in a worker thread.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope
from shop_app.domain.grouping import group_key
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.product_editing import sale_blocker
from shop_app.domain.square_agreement import fingerprint
from shop_app.domain.square_reconcile import (
    ITEM_FIELDS,
    Difference,
    Field,
    ShopSide,
    SquareSide,
    compare,
    not_in_shop,
    not_in_square,
)
from shop_app.models.base import utcnow
from shop_app.models.catalog import Product
from shop_app.models.square_outbox import SKIP_FLAG, SquareChange
from shop_app.services.admin.square_sync import NAME_MAX, new_product
from shop_app.services.catalog.search import refresh_vocabulary_on_commit
from shop_app.services.square.catalog_push import push_catalog
from shop_app.services.square.catalog_sync import ItemDraft, SquareCatalog, SquareItem

logger = logging.getLogger(__name__)

KEYS_MAX = 5000
"""At most this many differences settled in one go (a bulk action sends what the screen lists)."""


class Choice(StrEnum):
    """Which side's value wins."""

    SHOPS = "shops"
    SQUARES = "squares"


@dataclass(frozen=True)
class Settled:
    """What ``settle`` did."""

    settled: int = 0
    changed: int = 0
    """Chosen differences that are gone or no longer show the values the owner saw: not applied."""
    failed: int = 0
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Pair:
    product: Product | None
    item: SquareItem | None
    stock: int | None
    waiting: bool = False


def differences(catalog: SquareCatalog, *, engine: Engine | None = None) -> list[Difference]:
    """Every difference between the shop and Square, product by product (raises
    ``CatalogError`` when Square cannot be read)."""
    return [diff for pair in _pairs(catalog, engine) for diff in _differences_of(pair)]


def settle(
    catalog: SquareCatalog,
    chosen: Mapping[str, tuple[str, str]],
    choice: Choice,
    *,
    engine: Engine | None = None,
) -> Settled:
    """Settle the chosen differences (key → the shop's and Square's values as the owner saw
    them) with ``choice``'s values (see the module docstring)."""
    wanted = dict(list(chosen.items())[:KEYS_MAX])
    settled = failed = 0
    errors: list[str] = []
    for pair in _pairs(catalog, engine):
        found = [diff for diff in _differences_of(pair) if diff.key in wanted]
        chosen_now = [diff for diff in found if diff.shown == wanted[diff.key]]
        if choice is Choice.SQUARES:
            chosen_now = [diff for diff in chosen_now if diff.can_use_squares]
        for diff in chosen_now:
            del wanted[diff.key]
        if not chosen_now:
            continue
        if choice is Choice.SHOPS:
            error = _use_shops(catalog, engine, pair, chosen_now)
        else:
            error = _use_squares(engine, pair, chosen_now)
        if error is None:
            settled += len(chosen_now)
        else:
            failed += len(chosen_now)
            errors.append(error)
    return Settled(settled=settled, changed=len(wanted), failed=failed, errors=tuple(errors))


# -- reading both sides ---------------------------------------------------------------------------


def _pairs(catalog: SquareCatalog, engine: Engine | None) -> list[_Pair]:
    """Each product the shop sells or has linked, with its item and stock count in Square; then
    each item no product is linked to. Square is read after the products (a product linked
    meanwhile shows its item)."""
    with session_scope(engine) as session:
        products = list(
            session.exec(
                select(Product)
                .where((col(Product.is_active)) | (col(Product.square_item_id).is_not(None)))
                .order_by(col(Product.name), col(Product.id))
            )
        )
        waiting = set(
            session.exec(select(col(SquareChange.product_id)).where(col(SquareChange.done_at).is_(None)))
        )
    items = {item.item_id: item for item in catalog.list_items()}
    counts = catalog.stock_counts([item.variation_id for item in items.values() if item.variation_id])
    pairs: list[_Pair] = []
    linked: set[str] = set()
    for product in products:
        item = items.get(product.square_item_id or "")
        if item is not None:
            linked.add(item.item_id)
        stock = counts.get(item.variation_id or "") if item else None
        pairs.append(_Pair(product, item, stock, waiting=product.id in waiting))
    for item_id, item in sorted(items.items(), key=lambda pair: (pair[1].name, pair[0])):
        if item_id not in linked:
            pairs.append(_Pair(None, item, counts.get(item.variation_id or "")))
    return pairs


def _shop_side(product: Product, *, waiting: bool = False) -> ShopSide:
    return ShopSide(
        product_id=int(product.id or 0),
        name=product.name,
        description=product.description or "",
        price_cents=display_price_cents(product.base_price_cents, product.sale_price_cents),
        for_sale=product.is_active,
        stock=product.stock_quantity,
        waiting=waiting,
    )


def _square_side(item: SquareItem, stock: int | None) -> SquareSide:
    return SquareSide(
        item_id=item.item_id,
        name=item.name,
        description=item.description,
        price_cents=item.price_cents,
        archived=item.archived,
        stock=stock,
    )


def _differences_of(pair: _Pair) -> list[Difference]:
    if pair.product is not None and pair.item is not None:
        return compare(_shop_side(pair.product, waiting=pair.waiting), _square_side(pair.item, pair.stock))
    if pair.product is not None:
        shop = _shop_side(pair.product, waiting=pair.waiting)
        return [not_in_square(shop)] if pair.product.is_active else []
    assert pair.item is not None  # an item archived in Square and not in the shop: neither sells it
    return [] if pair.item.archived else [not_in_shop(_square_side(pair.item, pair.stock))]


# -- use the shop's ---------------------------------------------------------------------------------


def _use_shops(
    catalog: SquareCatalog, engine: Engine | None, pair: _Pair, chosen: Sequence[Difference]
) -> str | None:
    fields = {diff.field for diff in chosen}
    product, item = pair.product, pair.item
    if Field.NOT_IN_SQUARE in fields and product is not None:
        report = push_catalog(catalog, engine=engine, product_ids=[int(product.id or 0)])
        return None if report.complete else "; ".join(report.errors) or "Square did not take the product"
    if item is None or not item.variation_id:
        return "Square's item has no variation"
    if Field.NOT_IN_SHOP in fields:
        outcome = catalog.update_item(
            item.item_id, item.variation_id, _draft(item), archived=True, idempotency_key=str(uuid.uuid4())
        )
        return None if outcome.ok else outcome.error
    assert product is not None
    shop = _shop_side(product)
    if fields & ITEM_FIELDS:
        draft = _draft(item)
        if Field.NAME in fields:
            draft = replace(draft, name=shop.name)
        if Field.DESCRIPTION in fields:
            draft = replace(draft, description=shop.description)
        if Field.PRICE in fields:
            draft = replace(draft, price_cents=shop.price_cents)
        archived = not shop.for_sale if Field.FOR_SALE in fields else item.archived
        outcome = catalog.update_item(
            item.item_id, item.variation_id, draft, archived=archived, idempotency_key=str(uuid.uuid4())
        )
        if not outcome.ok:
            return outcome.error
        item = replace(item, name=draft.name, description=draft.description, price_cents=draft.price_cents)
    if Field.STOCK in fields:
        counted = catalog.set_stock(item.variation_id or "", max(0, shop.stock))
        if not counted.ok:
            return counted.error
    _remember_agreement(engine, shop, item)
    return None


def _draft(item: SquareItem) -> ItemDraft:
    """Square's item as it is, to send back with some fields changed."""
    return ItemDraft(
        name=item.name, description=item.description, sku=item.sku, price_cents=item.price_cents or 0
    )


def _remember_agreement(engine: Engine | None, shop: ShopSide, item: SquareItem) -> None:
    """Store the agreed fingerprint when the product's shared fields now agree."""
    if (shop.name.strip(), shop.description, shop.price_cents) != (
        item.name.strip(),
        item.description,
        item.price_cents,
    ):
        return
    with session_scope(engine) as session:
        product = session.get(Product, shop.product_id)
        if product is not None and product.square_item_id == item.item_id:
            product.square_fingerprint = fingerprint(shop.name, shop.description, shop.price_cents)


# -- use Square's ---------------------------------------------------------------------------------


class _Refused(Exception):
    """Square's values would break the editors' rules: nothing of them is taken."""


def _use_squares(engine: Engine | None, pair: _Pair, chosen: Sequence[Difference]) -> str | None:
    fields = {diff.field for diff in chosen}
    item = pair.item
    if item is None:
        return "Square has nothing to take"
    try:
        with session_scope(engine) as session:
            session.info[SKIP_FLAG] = True  # Square's values: nothing to send back
            if Field.NOT_IN_SHOP in fields:
                _import(session, item, pair.stock)
                return None
            product = session.get(Product, pair.product.id if pair.product else None)
            if product is None or product.square_item_id != item.item_id:
                return "The product changed meanwhile; check again"
            was_active = product.is_active
            _take(session, product, item, pair.stock, fields)
            if product.is_active and not was_active:  # put on sale: only as the editors would allow
                blocker = sale_blocker(
                    category_id=product.category_id, base_price_cents=product.base_price_cents
                )
                if blocker is not None:
                    raise _Refused(f"{product.name}: {blocker}")
    except _Refused as refused:
        return str(refused)
    return None


def _import(session: Session, item: SquareItem, stock: int | None) -> None:
    """An item the shop does not have becomes an inactive product for the owner to review."""
    taken = (
        session.exec(select(Product.sku).where(col(Product.sku) == item.sku)).first() if item.sku else None
    )
    imported = new_product(item, sku_taken=taken is not None)
    imported.stock_quantity = stock or 0  # Square counts it: the shop's stock starts there
    session.add(imported)
    refresh_vocabulary_on_commit(session)


def _take(
    session: Session, product: Product, item: SquareItem, stock: int | None, fields: set[Field]
) -> None:
    if Field.NAME in fields and item.name.strip():
        product.name = item.name.strip()[:NAME_MAX]
        product.group_key = group_key(product.name)
    if Field.DESCRIPTION in fields:
        product.description = item.description
    if Field.PRICE in fields and item.price_cents is not None:
        product.base_price_cents, product.sale_price_cents = item.price_cents, None
    if Field.FOR_SALE in fields:
        product.is_active = not item.archived
    if Field.STOCK in fields:
        product.stock_quantity = stock or 0
    product.updated_at = utcnow()
    selling = display_price_cents(product.base_price_cents, product.sale_price_cents)
    if (product.name, product.description, selling) == (
        item.name.strip()[:NAME_MAX],
        item.description,
        item.price_cents,
    ):
        product.square_fingerprint = fingerprint(product.name, product.description, selling)
    refresh_vocabulary_on_commit(session)
