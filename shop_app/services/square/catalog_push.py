"""Putting the shop's products into Square's catalogue in bulk, and filling the local Square at
start-up (docs/architecture.md#square-catalogue-push).

``push_catalog(catalog)`` makes Square hold every product it should, through the real SDK
(``SquareCatalog``): each **active** product without ``square_item_id``, and each **linked**
product (active or not) whose item Square no longer has, gets one ITEM with its "Regular"
variation (the wizard's shape, ``catalog_sync.item_object``: the price in cents, CAD, is the sale
price when it is a discount, else the base price), then its stock as a PHYSICAL_COUNT of
IN_STOCK. The ids Square answers are stored on the products (``square_item_id``,
``square_variation_id``). Products whose item Square has are left alone, so a rerun changes
nothing. ``product_ids`` narrows it to some products (the outbox of products made by Add Scent or
CSV import can hand over its own).

How it talks to Square:

- Square's catalogue is read (ListCatalog) only when some products are linked, and only *after*
  the products were read: a second process pushing at the same moment has then either linked
  them already (and Square has their items) or sends the very same batch (below).
- Items go in batches of ``ITEMS_PER_BATCH`` (500 products: Square takes 1,000 objects per batch
  of BatchUpsertCatalogObjects, and each item brings its variation), one batch per request, all
  or nothing. A batch's idempotency key is derived from what it sends (the products' ids, names,
  descriptions, SKUs and prices, and the item each one had before), so two workers starting
  together, or a retry after the ids could not be stored, get Square's first answer again
  instead of a second set of items. Counts go 100 per BatchChangeInventory (Square's limit), with
  the stock as it is after the items were linked.
- The ids are stored per batch, each with a conditional update (only a product still linked to
  what the push saw), in a short transaction after Square answered: no transaction is open
  during a Square call. A product deleted or linked to another item meanwhile keeps what it has
  (one linked meanwhile to the very item this push got, by a second worker, counts as pushed).
- A batch Square refuses, or a Square that cannot be reached, leaves its products as they were
  (counted in ``failed``, Square's reason in ``errors``); the other batches go on. Nothing here
  raises for Square; database errors do.

``push_at_start(settings)`` is the start-up step of **local mode only**: the simulator's ledger
lives in memory (``shop_app.square_simulator``), so every start of the shop begins with an empty
Square, and the shop fills it from its database, through the same public API as everything else
(no back door into the simulator, no ids chosen by the shop): on the first start the demo
catalogue gets its items and stock; on every later start the linked products' items are made
again, under new ids the push stores. The database is the one source of truth, so a reset or
restored database can never meet a Square that remembers other products. The shop registers it
as the first step of a lifespan task (``api.square_outbox.keep_square_in_step``) that runs it in a
worker thread, so the server answers at once and the push follows (the demo's 64 products: two
or three requests, in-process, about a second of the SDK's CPU). Several workers each run it
against the one shared simulator process (``SQUARE_SIMULATOR_URL``): the derived keys make them
agree. Any failure is logged and the shop
starts anyway; the next start tries again. In ``sandbox`` and ``production`` it does nothing:
Square keeps its catalogue there, and the owner pushes with ``python -m shop_app
push-catalogue`` when they choose to.

The SDK call blocks: callers on an event loop run this in a worker thread.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.square_agreement import fingerprint
from shop_app.models.catalog import Product
from shop_app.services.square.catalog_sync import (
    COUNTS_PER_REQUEST,
    ITEMS_PER_BATCH,
    CatalogError,
    ItemDraft,
    SquareCatalog,
    square_catalog,
)
from shop_app.settings import Settings, SquareEnvironment

logger = logging.getLogger(__name__)

KEY_PREFIX = "catalog-push-"


@dataclass(frozen=True)
class PushReport:
    """What ``push_catalog`` did, in products."""

    pushed: int = 0
    """Products that got a new item in Square (and were linked to it)."""
    counted: int = 0
    """Of those, products whose stock Square counted."""
    present: int = 0
    """Linked products whose item Square already has (left alone)."""
    failed: int = 0
    """Products Square did not take (or whose link could not be kept); tried again next time."""
    errors: tuple[str, ...] = ()
    """Square's reasons, one per failed request."""

    @property
    def complete(self) -> bool:
        """Square holds every product it should, with its stock."""
        return self.failed == 0 and self.counted == self.pushed


@dataclass(frozen=True)
class _Row:
    """A product as the push reads it."""

    id: int
    draft: ItemDraft
    item_id: str | None
    """The item the product was linked to (None: never pushed)."""


def push_catalog(
    catalog: SquareCatalog, *, engine: Engine | None = None, product_ids: Iterable[int] | None = None
) -> PushReport:
    """Put into Square every product it should hold (see the module docstring)."""
    rows = _candidates(engine, None if product_ids is None else sorted(set(product_ids)))
    linked = [row for row in rows if row.item_id]
    present: set[str] = set()
    if linked:
        try:
            present = {item.item_id for item in catalog.list_items()}
        except CatalogError as exc:
            return PushReport(failed=len(rows), errors=(str(exc),))
    wanted = [row for row in rows if row.item_id not in present]
    pushed = counted = failed = 0
    errors: list[str] = []
    for start in range(0, len(wanted), ITEMS_PER_BATCH):
        batch = wanted[start : start + ITEMS_PER_BATCH]
        drafts = {str(row.id): row.draft for row in batch}
        created = catalog.create_items(drafts, idempotency_key=_batch_key(batch))
        if not created.ok:
            logger.warning("Square did not take %d products: %s", len(batch), created.error)
            failed += len(batch)
            errors.append(created.error)
            continue
        ids = {row.id: created.ids[str(row.id)] for row in batch}
        stored = _link(engine, batch, ids)
        pushed += len(stored)
        failed += len(batch) - len(stored)
        counts, count_errors = _count(engine, catalog, {ids[product_id][1] for product_id in stored})
        counted += counts
        errors.extend(count_errors)
    in_square = sum(1 for row in linked if row.item_id in present)
    return PushReport(pushed=pushed, counted=counted, present=in_square, failed=failed, errors=tuple(errors))


def _candidates(engine: Engine | None, product_ids: Sequence[int] | None) -> list[_Row]:
    """Active products not in Square yet and linked products, by id."""
    query = select(Product).where(sa.or_(col(Product.is_active), col(Product.square_item_id).is_not(None)))
    if product_ids is not None:
        query = query.where(col(Product.id).in_(product_ids))
    with session_scope(engine) as session:
        products = session.exec(query.order_by(col(Product.id))).all()
        return [
            _Row(
                id=int(product.id or 0),
                draft=ItemDraft(
                    name=product.name,
                    description=product.description or "",
                    sku=product.sku,
                    price_cents=display_price_cents(product.base_price_cents, product.sale_price_cents),
                ),
                item_id=product.square_item_id,
            )
            for product in products
        ]


def _batch_key(batch: Sequence[_Row]) -> str:
    """The idempotency key of a batch: a digest of everything it sends (module docstring)."""
    sent = [
        [row.id, row.item_id, row.draft.name, row.draft.description, row.draft.sku, row.draft.price_cents]
        for row in batch
    ]
    digest = hashlib.sha256(json.dumps(sent, separators=(",", ":")).encode()).hexdigest()
    return KEY_PREFIX + digest


def _link(engine: Engine | None, batch: Sequence[_Row], ids: dict[int, tuple[str, str]]) -> list[int]:
    """Store the new ids on the products still linked as the push saw them; those product ids."""
    stored: list[int] = []
    with session_scope(engine) as session:
        for row in batch:
            item_id, variation_id = ids[row.id]
            was = col(Product.square_item_id)
            unchanged = was.is_(None) if row.item_id is None else was == row.item_id
            linked = session.exec(
                sa.update(Product)
                .where(col(Product.id) == row.id, unchanged)
                .values(
                    square_item_id=item_id,
                    square_variation_id=variation_id,
                    # What Square now holds: a later sync tells the shop's edits from Square's.
                    square_fingerprint=fingerprint(
                        row.draft.name, row.draft.description, row.draft.price_cents
                    ),
                )
                .execution_options(synchronize_session=False)
            ).rowcount
            if linked == 1 or _linked_to(session, row.id) == item_id:  # or another worker's same answer
                stored.append(row.id)
            else:
                logger.info("Product %s changed during the push: Square item %s not linked", row.id, item_id)
    return stored


def _linked_to(session: Session, product_id: int) -> str | None:
    """The Square item a product is linked to now (None: not linked, or gone)."""
    return session.exec(select(col(Product.square_item_id)).where(col(Product.id) == product_id)).first()


def _count(engine: Engine | None, catalog: SquareCatalog, variation_ids: set[str]) -> tuple[int, list[str]]:
    """Count the stock of the products linked to ``variation_ids``, as it is now."""
    if not variation_ids:
        return 0, []
    with session_scope(engine) as session:
        stock = session.execute(
            select(col(Product.square_variation_id), col(Product.stock_quantity))
            .where(col(Product.square_variation_id).in_(variation_ids))
            .order_by(col(Product.id))
        ).all()
    counts = [(str(variation_id), max(0, int(quantity))) for variation_id, quantity in stock]
    counted, errors = 0, []
    for start in range(0, len(counts), COUNTS_PER_REQUEST):
        chunk = counts[start : start + COUNTS_PER_REQUEST]
        outcome = catalog.count_stock(chunk)
        if outcome.ok:
            counted += len(chunk)
        else:
            logger.warning("Square did not count the stock of %d products: %s", len(chunk), outcome.error)
            errors.append(outcome.error)
    return counted, errors


def push_at_start(
    settings: Settings, *, engine: Engine | None = None, catalog: SquareCatalog | None = None
) -> PushReport | None:
    """Local mode: fill the fresh simulator with the shop's catalogue (module docstring).

    Never raises: a failure is logged and the next start tries again. Returns what was done, or
    None when nothing was tried (not local mode) or it failed outright.
    """
    if settings.square_environment != SquareEnvironment.LOCAL:
        return None
    try:
        report = push_catalog(catalog or square_catalog(settings), engine=engine)
    except Exception:
        logger.exception("The catalogue could not be put into the local Square; the next start tries again")
        return None
    if not report.complete:
        logger.warning(
            "The local Square took %d of %d products and counted %d (%s); the next start tries again",
            report.pushed,
            report.pushed + report.failed,
            report.counted,
            "; ".join(report.errors) or "no reason given",
        )
    elif report.pushed:
        logger.info(
            "Put %d products and their stock into the local Square (%d were there already)",
            report.pushed,
            report.present,
        )
    return report
