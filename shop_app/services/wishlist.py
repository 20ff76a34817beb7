"""Favourites ("wishlist"): the products a signed-in customer hearted (docs/spec/account.md#wishlist,
#records, #wishlist-messages).

Every function takes the ``user_id`` the caller has already authenticated
(docs/architecture.md#access-control); nothing here trusts anything else from the browser. Only active
products are listed or counted: an archived product disappears from the favourites (its row stays, and comes
back if the product is re-activated). Functions flush but never commit; the caller owns the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from shop_app.domain.messages import CartMessage, OrderMessage, WishlistMessage
from shop_app.domain.pricing import display_price_cents, effective_sale_price
from shop_app.models import Category, Product, WishlistItem
from shop_app.services.catalog.filters import primary_image_url, primary_image_width

ResultKind = Literal["success", "info"]


class WishlistError(ValueError):
    """A wishlist change was refused; the message is for the shopper."""


@dataclass(frozen=True, slots=True)
class WishlistResult:
    """Outcome of a change: the toast text, its kind, and whether the product is now favourited."""

    message: str
    kind: ResultKind
    in_wishlist: bool


@dataclass(frozen=True, slots=True)
class WishlistEntry:
    """A favourited product as the favourites popover and page show it (docs/spec/account.md#records)."""

    product_id: int
    name: str
    base_price_cents: int
    sale_price_cents: int | None  # the sale price only when it counts (0 < sale < base), else None
    price_cents: int  # the price shown: the sale price if it counts, else the base price
    category: str  # the main category's name, "" when none
    category_slug: str
    image_url: str  # primary image, else the first by display order, else ""
    image_width: int | None
    stock_quantity: int
    in_stock: bool  # whether Add to Cart can be offered
    created_at: datetime


def list_entries(session: Session, *, user_id: int) -> list[WishlistEntry]:
    """The user's favourites, newest first, active products only (one query)."""
    rows = session.execute(
        sa.select(
            WishlistItem,
            Product,
            col(Category.name),
            col(Category.slug),
            primary_image_url(col(Product.id)).label("image_url"),
            primary_image_width(col(Product.id)).label("image_width"),
        )
        .join(Product, col(Product.id) == col(WishlistItem.product_id))
        .outerjoin(Category, col(Category.id) == col(Product.category_id))
        .where(col(WishlistItem.user_id) == user_id, col(Product.is_active))
        .order_by(col(WishlistItem.created_at).desc(), col(WishlistItem.id).desc())
    ).all()
    return [_entry(row) for row in rows]


def _entry(row: sa.Row) -> WishlistEntry:  # Row[WishlistItem, Product, str, str, str, int | None]
    item, product, category_name, category_slug, image_url, image_width = row
    base = product.base_price_cents or 0
    return WishlistEntry(
        product_id=product.id,
        name=product.name or OrderMessage.UNKNOWN_PRODUCT.value,
        base_price_cents=base,
        sale_price_cents=effective_sale_price(base, product.sale_price_cents),
        price_cents=display_price_cents(base, product.sale_price_cents),
        category=category_name or "",
        category_slug=category_slug or "",
        image_url=image_url or "",
        image_width=image_width,
        stock_quantity=product.stock_quantity or 0,
        in_stock=(product.stock_quantity or 0) > 0,
        created_at=item.created_at,
    )


def product_ids(session: Session, *, user_id: int) -> set[int]:
    """Ids of the user's favourited active products (to draw filled hearts)."""
    query = (
        select(col(WishlistItem.product_id))
        .join(Product, col(Product.id) == col(WishlistItem.product_id))
        .where(col(WishlistItem.user_id) == user_id, col(Product.is_active))
    )
    return set(session.exec(query).all())


def count(session: Session, *, user_id: int) -> int:
    """Number of favourites shown (active products), for the header badge."""
    query = (
        select(sa.func.count())
        .select_from(WishlistItem)
        .join(Product, col(Product.id) == col(WishlistItem.product_id))
        .where(col(WishlistItem.user_id) == user_id, col(Product.is_active))
    )
    return int(session.execute(query).scalar_one())


def contains(session: Session, *, user_id: int, product_id: int) -> bool:
    """Whether the user has a wishlist row for the product (active or not)."""
    return _row(session, user_id, product_id) is not None


def _row(session: Session, user_id: int, product_id: int) -> WishlistItem | None:
    return session.exec(
        select(WishlistItem).where(WishlistItem.user_id == user_id, WishlistItem.product_id == product_id)
    ).first()


def add(session: Session, *, user_id: int, product_id: int) -> WishlistResult:
    """Favourite a product: "Added to wishlist", or the info "Item is already in your wishlist".

    Safe against a double click racing itself: a row inserted meanwhile by another request
    trips the unique constraint, which is read as "already there".

    Raises:
        WishlistError: With :attr:`CartMessage.PRODUCT_UNAVAILABLE` when the product does not
            exist, is archived or is not listed (a custom candle builder's vessel).
    """
    product = session.get(Product, product_id)
    if product is None or not product.is_active or not product.is_listed:
        raise WishlistError(CartMessage.PRODUCT_UNAVAILABLE.value)
    if _row(session, user_id, product_id) is not None:
        return _already()
    try:
        with session.begin_nested():
            session.add(WishlistItem(user_id=user_id, product_id=product_id))
    except IntegrityError:
        if _row(session, user_id, product_id) is None:
            raise  # not the unique constraint (e.g. an unknown user): a real error
        return _already()
    return WishlistResult(WishlistMessage.ADDED.value, "success", in_wishlist=True)


def _already() -> WishlistResult:
    return WishlistResult(WishlistMessage.ALREADY_IN_WISHLIST.value, "info", in_wishlist=True)


def remove(session: Session, *, user_id: int, product_id: int) -> WishlistResult:
    """Un-favourite a product: "Removed from wishlist" (also when it was not there)."""
    session.execute(
        sa.delete(WishlistItem).where(
            col(WishlistItem.user_id) == user_id, col(WishlistItem.product_id) == product_id
        )
    )
    session.flush()
    return WishlistResult(WishlistMessage.REMOVED.value, "success", in_wishlist=False)


def toggle(session: Session, *, user_id: int, product_id: int) -> WishlistResult:
    """The heart button: remove the product if it is favourited, otherwise add it.

    Raises:
        WishlistError: When adding a product that does not exist or is archived.
    """
    if contains(session, user_id=user_id, product_id=product_id):
        return remove(session, user_id=user_id, product_id=product_id)
    return add(session, user_id=user_id, product_id=product_id)
