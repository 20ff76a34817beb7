"""Changes to send to Square: the outbox of the catalogue (docs/architecture.md#square-outbox)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.orm import Session
from sqlmodel import Field, SQLModel

from shop_app.models.base import utcnow
from shop_app.models.catalog import Product


class SquareChangeKind(StrEnum):
    """What Square must be told about a product."""

    ITEM = "item"
    """Its name, description, price or whether it is for sale (created when not in Square yet)."""
    STOCK = "stock"
    """Its stock count."""
    DELETE = "delete"
    """It is gone: delete ``square_item_id``."""


class SquareChange(SQLModel, table=True):
    """One change of a product to send to Square, written in the transaction that made it.

    The row says *what* changed, not the values: the push reads the product as it is then, so
    several rows for one product are sent as one. ``done_at`` is set once Square took it;
    ``lease_until`` keeps two pushers off the same product; a failure sets ``last_error`` and
    ``next_attempt_at`` (backing off), and the change waits for the next try.
    """

    __tablename__ = "square_outbox"
    __table_args__ = (sa.Index("ix_square_outbox_pending", "done_at", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    product_id: int = Field(index=True)
    """The product (no foreign key: a deleted product's deletion still has to reach Square)."""
    kind: str = Field(max_length=10)
    square_item_id: str | None = Field(default=None, max_length=64)
    """The item to delete (``DELETE`` only: the product row is gone by then)."""
    created_at: datetime = Field(default_factory=utcnow)
    next_attempt_at: datetime = Field(default_factory=utcnow)
    lease_until: datetime | None = Field(default=None)
    attempts: int = Field(default=0)
    last_error: str | None = Field(default=None, max_length=500)
    done_at: datetime | None = Field(default=None)


# -- writing the outbox --------------------------------------------------------------------------
# Every change of a product's Square fields is recorded in the transaction that makes it, so it
# reaches Square if and only if it is committed. ORM changes are found by the flush listener
# below; Core statements that move stock (an order, a cancelled payment, a refund) call
# ``record_stock`` themselves (a structural test holds every such statement to it).

ITEM_FIELDS: Final = ("name", "description", "base_price_cents", "sale_price_cents", "is_active", "sku")
"""Product columns Square holds on the item (``is_active``: ``is_archived``)."""
STOCK_FIELDS: Final = ("stock_quantity",)

SKIP_FLAG: Final = "square_outbox_skip"
"""``session.info`` key: this session's product changes came *from* Square (a sync), send nothing."""
_RECORDED: Final = "square_outbox_recorded"

_wakers: list[Callable[[], None]] = []


def on_commit_of_changes(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback`` (from the committing thread) as a transaction that recorded changes
    commits; returns the function that stops it."""
    _wakers.append(callback)
    return lambda: _wakers.remove(callback)


def _rows(
    kind: SquareChangeKind, product_ids: Iterable[int], item_id: str | None = None
) -> list[dict[str, Any]]:
    now = utcnow()
    return [
        {
            "product_id": product_id,
            "kind": kind.value,
            "square_item_id": item_id,
            "created_at": now,
            "next_attempt_at": now,
            "attempts": 0,
        }
        for product_id in sorted(set(product_ids))
    ]


def _insert(connection: sa.Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        connection.execute(sa.insert(SquareChange.__table__), rows)  # type: ignore[attr-defined]
        connection.info[_RECORDED] = True


def record_stock(connection: sa.Connection | Session, product_ids: Iterable[int]) -> None:
    """Record that these products' stock moved (callers of Core ``UPDATE products`` statements)."""
    _insert(
        connection if isinstance(connection, sa.Connection) else connection.connection(),
        _rows(SquareChangeKind.STOCK, product_ids),
    )


def record_deletion(session: Session, product_id: int, square_item_id: str | None) -> None:
    """Record that a product linked to ``square_item_id`` is deleted (Core ``DELETE`` callers)."""
    if square_item_id:
        _insert(session.connection(), _rows(SquareChangeKind.DELETE, [product_id], square_item_id))


def _changed(product: Any, fields: tuple[str, ...]) -> bool:
    state = sa.inspect(product)
    return any(state.attrs[name].history.has_changes() for name in fields)


@sa.event.listens_for(Session, "after_flush")
def _record_flushed_products(session: Session, _context: Any) -> None:
    """Record the products this flush created, changed or deleted (their ids are known now)."""
    if session.info.get(SKIP_FLAG):
        return
    items: set[int] = set()
    stock: set[int] = set()
    rows: list[dict[str, Any]] = []
    for product in session.new:
        if isinstance(product, Product) and product.id is not None:
            items.add(product.id)  # the item is created with its stock count
    for product in session.dirty:
        if isinstance(product, Product) and product.id is not None:
            if _changed(product, ITEM_FIELDS):
                items.add(product.id)
            if _changed(product, STOCK_FIELDS):
                stock.add(product.id)
    for product in session.deleted:
        if isinstance(product, Product) and product.id is not None and product.square_item_id:
            rows += _rows(SquareChangeKind.DELETE, [product.id], product.square_item_id)
    rows += _rows(SquareChangeKind.ITEM, items) + _rows(SquareChangeKind.STOCK, stock - items)
    _insert(session.connection(), rows)


@sa.event.listens_for(sa.Engine, "commit")
def _wake_pushers(connection: sa.Connection) -> None:
    """Tell the pushers a transaction with recorded changes is committing (they re-read shortly)."""
    if connection.info.pop(_RECORDED, False):
        for wake in _wakers:
            wake()


@sa.event.listens_for(sa.Engine, "rollback")
def _forget(connection: sa.Connection) -> None:
    connection.info.pop(_RECORDED, None)
