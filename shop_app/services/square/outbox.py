"""Sending the shop's product changes to Square after they commit (docs/architecture.md#square-outbox).

The shop owns names, descriptions, prices, whether a product is for sale, and stock
(docs/spec/square.md#sync). Every change of those is recorded in ``square_outbox`` in the very
transaction that makes it (``models.square_outbox``: the flush listener for ORM changes,
``record_stock``/``record_deletion`` for Core statements), so an edit is never blocked or lost by
Square: it commits here first, and reaches Square when Square answers.

``push_pending`` sends what is waiting, product by product:

1. **Claim** the product's pending rows (``lease_until``, one conditional UPDATE): two pushers, in
   two workers, never send one product at the same time, so an older reading cannot overtake a
   newer one on the way.
2. **Read the product as it is now** (not as it was when the row was written) and send it:
   - ``DELETE``: DeleteCatalogObject of the recorded item (one Square no longer has counts as
     deleted);
   - ``ITEM`` of a product not in Square yet (or whose item Square lost): the catalogue push
     creates it with its stock (``catalog_push.push_catalog``); an inactive product that was
     never in Square has nothing to send;
   - ``ITEM`` of a linked product: UpsertCatalogObject of its item and variation with the shop's
     values (``is_archived`` when not active), then the agreed fingerprint is stored so a later
     "Sync from Square" knows Square holds the shop's values;
   - ``STOCK``: a PHYSICAL_COUNT of the stock read in step 2, counted at the time it was read.
3. **Settle**: every claimed row is done when Square took all of it; otherwise each gets one more
   attempt, Square's reason (``last_error``) and its next try after a back-off of 5 s doubling up
   to an hour (``retry_delay``). Rows recorded while the push ran are not claimed and go next time.

Nothing here raises for Square: a product Square refuses waits, the others go on. A push that
fails on the shop's side (its database) settles its claim as a failed attempt before it raises,
so the product is not held for the lease's two minutes. No transaction
is open during a Square call. The SDK call blocks: callers on an event loop run this in a worker
thread (``api.square_outbox`` runs it for the shop, woken by each commit that records changes).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope, wait_for_quiet, write_transaction
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.square_agreement import fingerprint
from shop_app.models import Product, SquareChange, SquareChangeKind
from shop_app.models.base import utcnow
from shop_app.services.square.catalog_push import push_catalog
from shop_app.services.square.catalog_sync import CatalogError, ItemDraft, SquareCatalog

logger = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
"""How long a claim keeps other pushers off a product (a pusher that died gives it up then)."""
FIRST_RETRY_S = 5
LAST_RETRY_S = 3600
PRODUCTS_PER_ROUND = 200
KEEP_DONE = timedelta(days=7)
"""Sent changes are kept this long (to see what went to Square), then removed."""
ERROR_MAX = 500
_pause = time.sleep  # (a test answers for the other pusher here)
WAIT_FOR_PUSHER = timedelta(seconds=30)
"""How long a push asked for now (the wizard, "Send now") waits for another pusher's answer."""


def retry_delay(attempts: int) -> timedelta:
    """The wait before the next try after ``attempts`` failed ones: 5 s, 10 s, 20 s … 1 hour.

    >>> [int(retry_delay(n).total_seconds()) for n in (1, 2, 3, 20)]
    [5, 10, 20, 3600]
    """
    return timedelta(seconds=min(LAST_RETRY_S, FIRST_RETRY_S * 2 ** max(0, min(attempts - 1, 20))))


@dataclass(frozen=True)
class OutboxReport:
    """What one ``push_pending`` did, in products."""

    sent: int = 0
    failed: int = 0
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Waiting:
    """What still waits for Square, for the back office."""

    products: int
    failing: int
    """Of those, products whose last try failed."""
    last_error: str | None


@dataclass(frozen=True)
class _Claim:
    product_id: int
    row_ids: tuple[int, ...]
    kinds: frozenset[SquareChangeKind]
    deleted_items: tuple[str, ...]
    attempts: int


_background = threading.local()


def _courtesy(engine: Engine | None) -> None:
    """The shop's background pusher commits only at a quiet moment (``db.wait_for_quiet``: on
    SQLite a commit inside a click's read-then-write transaction makes that click fail); a push
    someone asked for (the wizard, "Send now", a test) goes at once."""
    if getattr(_background, "polite", False):
        wait_for_quiet(engine)


def push_pending(
    catalog: SquareCatalog,
    *,
    engine: Engine | None = None,
    product_ids: Iterable[int] | None = None,
    now: datetime | None = None,
    background: bool = False,
) -> OutboxReport:
    """Send the changes whose time has come (all of ``product_ids``' when given: the caller asks
    for them now). ``background``: the shop's own pusher (``_courtesy``). See the module
    docstring."""
    _background.polite = background
    try:
        return _push_pending(catalog, engine=engine, product_ids=product_ids, now=now)
    finally:
        _background.polite = False


def _push_pending(
    catalog: SquareCatalog,
    *,
    engine: Engine | None,
    product_ids: Iterable[int] | None,
    now: datetime | None,
) -> OutboxReport:
    moment = now or utcnow()
    wanted = None if product_ids is None else sorted(set(product_ids))
    sent = failed = 0
    errors: list[str] = []
    for product_id in _due_products(engine, moment, wanted):
        if wanted is None:
            claim = _claim(engine, product_id, moment, due_only=True)
        else:  # asked for now: wait for a pusher that holds the product, then send what is left
            claim = _claim_when_free(engine, product_id)
        if claim is None:
            continue
        try:
            error = _send(catalog, engine, claim)
        except Exception as failure:  # not Square's answer (the database, a bug): give the claim up
            _give_up(engine, claim, failure)
            raise
        _settle(engine, claim, error, utcnow())
        if error is None:
            sent += 1
        else:
            failed += 1
            errors.append(error)
    if wanted is None:
        _forget_sent(engine, moment)
    return OutboxReport(sent=sent, failed=failed, errors=tuple(errors))


def push_waiting_now(catalog: SquareCatalog, *, engine: Engine | None = None) -> OutboxReport:
    """Send every waiting change now, whatever its back-off says (the owner's "Send now")."""
    with session_scope(engine) as session:
        pending = select(col(SquareChange.product_id)).where(col(SquareChange.done_at).is_(None)).distinct()
        product_ids = [int(product_id) for product_id in session.exec(pending)]
    return push_pending(catalog, engine=engine, product_ids=product_ids) if product_ids else OutboxReport()


def waiting(session: Session) -> Waiting:
    """How many products wait for Square, how many of them failed last time, and why."""
    pending = col(SquareChange.done_at).is_(None)
    products = session.exec(
        select(sa.func.count(sa.distinct(col(SquareChange.product_id)))).where(pending)
    ).one()
    failing = session.exec(
        select(sa.func.count(sa.distinct(col(SquareChange.product_id)))).where(
            pending, col(SquareChange.attempts) > 0
        )
    ).one()
    last_error = session.exec(
        select(col(SquareChange.last_error))
        .where(pending, col(SquareChange.last_error).is_not(None))
        .order_by(col(SquareChange.id).desc())
        .limit(1)
    ).first()
    return Waiting(products=int(products), failing=int(failing), last_error=last_error)


def has_due(engine: Engine | None = None, now: datetime | None = None) -> bool:
    """Whether any change is due (a cheap, indexed look for the pusher's loop)."""
    with session_scope(engine) as session:
        return (
            session.exec(select(col(SquareChange.id)).where(*_due(now or utcnow())).limit(1)).first()
            is not None
        )


def mark_sent_before(moment: datetime, *, engine: Engine | None = None) -> int:
    """Mark every change recorded before ``moment`` sent: a full push that began then (local mode's
    start-up push) already sent the products as they were. Returns how many rows it marked."""
    _courtesy(engine)
    with session_scope(engine) as session:
        return int(
            session.exec(
                sa.update(SquareChange)
                .where(col(SquareChange.done_at).is_(None), col(SquareChange.created_at) < moment)
                .values(done_at=utcnow(), lease_until=None)
                .execution_options(synchronize_session=False)
            ).rowcount
        )


def _due(moment: datetime) -> tuple[sa.ColumnElement[bool], ...]:
    return (
        col(SquareChange.done_at).is_(None),
        col(SquareChange.next_attempt_at) <= moment,
        sa.or_(col(SquareChange.lease_until).is_(None), col(SquareChange.lease_until) < moment),
    )


def _due_products(engine: Engine | None, moment: datetime, wanted: list[int] | None) -> list[int]:
    query = select(col(SquareChange.product_id))
    if wanted is None:
        query = query.where(*_due(moment))
    else:
        query = query.where(col(SquareChange.done_at).is_(None), col(SquareChange.product_id).in_(wanted))
    query = query.group_by(col(SquareChange.product_id)).order_by(sa.func.min(col(SquareChange.id)))
    with session_scope(engine) as session:
        return [int(product_id) for product_id in session.exec(query.limit(PRODUCTS_PER_ROUND))]


def _claim_when_free(engine: Engine | None, product_id: int) -> _Claim | None:
    """Claim the product's pending rows, waiting up to ``WAIT_FOR_PUSHER`` while another pusher
    sends them (its answer settles them, or leaves what failed for this claim)."""
    deadline = time.monotonic() + WAIT_FOR_PUSHER.total_seconds()
    while True:
        moment = utcnow()
        claim = _claim(engine, product_id, moment, due_only=False)
        if claim is not None or not _held(engine, product_id, moment) or time.monotonic() > deadline:
            return claim
        _pause(0.2)


def _held(engine: Engine | None, product_id: int, moment: datetime) -> bool:
    """Whether another pusher holds some of the product's pending rows."""
    with session_scope(engine) as session:
        held = select(col(SquareChange.id)).where(
            col(SquareChange.product_id) == product_id,
            col(SquareChange.done_at).is_(None),
            col(SquareChange.lease_until) >= moment,
        )
        return session.exec(held.limit(1)).first() is not None


def _claim(engine: Engine | None, product_id: int, moment: datetime, *, due_only: bool) -> _Claim | None:
    """Take the product's pending rows for this push, or None when another pusher holds them."""
    free = sa.or_(col(SquareChange.lease_until).is_(None), col(SquareChange.lease_until) < moment)
    pending = [col(SquareChange.product_id) == product_id, col(SquareChange.done_at).is_(None)]
    if due_only:
        pending.append(col(SquareChange.next_attempt_at) <= moment)
    _courtesy(engine)
    with write_transaction(engine) as session:  # SQLite: a read that then writes takes the lock first
        rows = session.exec(select(SquareChange).where(*pending).order_by(col(SquareChange.id))).all()
        if not rows:
            return None
        ids = [int(row.id or 0) for row in rows]
        taken = session.exec(
            sa.update(SquareChange)
            .where(col(SquareChange.id).in_(ids), col(SquareChange.done_at).is_(None), free)
            .values(lease_until=moment + LEASE)
            .execution_options(synchronize_session=False)
        ).rowcount
        if taken != len(ids):  # another pusher has some of them: leave the product to it
            session.rollback()
            return None
        return _Claim(
            product_id=product_id,
            row_ids=tuple(ids),
            kinds=frozenset(SquareChangeKind(row.kind) for row in rows),
            deleted_items=tuple(
                row.square_item_id
                for row in rows
                if row.kind == SquareChangeKind.DELETE and row.square_item_id
            ),
            attempts=max(row.attempts for row in rows),
        )


def _send(catalog: SquareCatalog, engine: Engine | None, claim: _Claim) -> str | None:
    """Send one product's changes; None when Square took all of them, else Square's reason."""
    for item_id in claim.deleted_items:
        outcome = catalog.delete_item(item_id)
        if not outcome.ok:
            return outcome.error
    product = _read(engine, claim.product_id)
    if product is None:
        return None  # deleted: its deletion (if it was in Square) is the rows above
    if not product.item_id or not product.variation_id:
        if not product.active:
            return None  # never in Square and not for sale: nothing to send until it is
        return _create(catalog, engine, claim.product_id)
    return _update(catalog, engine, claim, product)


@dataclass(frozen=True)
class _Product:
    """A product as the push reads it, and when."""

    draft: ItemDraft
    active: bool
    stock: int
    item_id: str | None
    variation_id: str | None
    read_at: datetime


def _read(engine: Engine | None, product_id: int) -> _Product | None:
    with session_scope(engine) as session:
        product = session.get(Product, product_id)
        if product is None:
            return None
        draft = ItemDraft(
            name=product.name,
            description=product.description or "",
            sku=product.sku,
            price_cents=display_price_cents(product.base_price_cents, product.sale_price_cents),
        )
        return _Product(
            draft=draft,
            active=product.is_active,
            stock=max(0, product.stock_quantity),
            item_id=product.square_item_id,
            variation_id=product.square_variation_id,
            read_at=utcnow(),
        )


def _update(catalog: SquareCatalog, engine: Engine | None, claim: _Claim, product: _Product) -> str | None:
    """Send a linked product's item (the whole product) or only its stock count."""
    item_id, variation_id, draft = product.item_id or "", product.variation_id or "", product.draft
    if SquareChangeKind.ITEM in claim.kinds:
        updated = catalog.update_item(
            item_id, variation_id, draft, archived=not product.active, idempotency_key=str(uuid.uuid4())
        )
        if not updated.ok:
            return _create(catalog, engine, claim.product_id) if _gone(catalog, item_id) else updated.error
        _agreed(
            engine, claim.product_id, item_id, fingerprint(draft.name, draft.description, draft.price_cents)
        )
    counted = catalog.set_stock(variation_id, product.stock, counted_at=product.read_at)
    return None if counted.ok else counted.error


def _create(catalog: SquareCatalog, engine: Engine | None, product_id: int) -> str | None:
    """Put a product Square does not hold into Square (item, variation, stock)."""
    report = push_catalog(catalog, engine=engine, product_ids=[product_id])
    if report.complete:
        return None
    return "; ".join(report.errors) or "Square did not take the product"


def _gone(catalog: SquareCatalog, item_id: str) -> bool:
    """Whether Square no longer has the item (then the product is created again)."""
    try:
        return item_id not in {item.item_id for item in catalog.list_items()}
    except CatalogError:  # Square unreadable: the update's own error is reported
        return False


def _agreed(engine: Engine | None, product_id: int, item_id: str, sent: str) -> None:
    """Remember what Square now holds of the product (if it is still linked to that item)."""
    _courtesy(engine)
    with session_scope(engine) as session:
        session.execute(
            sa.update(Product)
            .where(col(Product.id) == product_id, col(Product.square_item_id) == item_id)
            .values(square_fingerprint=sent)
            .execution_options(synchronize_session=False)
        )


def _settle(engine: Engine | None, claim: _Claim, error: str | None, moment: datetime) -> None:
    """Mark the claimed rows sent, or schedule their next try."""
    rows = col(SquareChange.id).in_(claim.row_ids)
    if error is None:
        values: dict[str, object] = {"done_at": moment, "lease_until": None, "last_error": None}
    else:
        attempts = claim.attempts + 1
        logger.warning(
            "Square did not take the changes of product %s (attempt %d): %s",
            claim.product_id,
            attempts,
            error,
        )
        values = {
            "attempts": attempts,
            "last_error": error[:ERROR_MAX],
            "next_attempt_at": moment + retry_delay(attempts),
            "lease_until": None,
        }
    _courtesy(engine)
    with session_scope(engine) as session:
        session.execute(
            sa.update(SquareChange).where(rows).values(**values).execution_options(synchronize_session=False)
        )


def _give_up(engine: Engine | None, claim: _Claim, failure: Exception) -> None:
    """Settle a claim whose push failed on our side as one failed attempt, so that its lease does
    not keep every pusher (and the wizard waiting for one) off the product for ``LEASE``; if even
    that fails, the lease runs out as for a pusher that died."""
    try:
        _settle(engine, claim, f"The push failed here: {failure!r}", utcnow())
    except Exception:
        logger.exception("The claim of product %s could not be given up", claim.product_id)


def _forget_sent(engine: Engine | None, moment: datetime) -> None:
    _courtesy(engine)
    with session_scope(engine) as session:
        session.execute(
            sa.delete(SquareChange).where(
                col(SquareChange.done_at).is_not(None), col(SquareChange.done_at) < moment - KEEP_DONE
            )
        )
