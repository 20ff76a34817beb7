"""Shopping: carts (keyed by a durable cookie or the user) and wishlists."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import JSONType, utcnow


class Cart(SQLModel, table=True):
    """A cart. Guests are identified by the hash of their cart cookie, customers by user id."""

    __tablename__ = "carts"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str | None = Field(default=None, max_length=64, unique=True)
    user_id: int | None = Field(default=None, foreign_key="users.id", ondelete="CASCADE", unique=True)
    # A discount code entered in the cart or at checkout (checked again whenever it is priced).
    discount_code: str | None = Field(default=None, max_length=32)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class CartLine(SQLModel, table=True):
    """One line of a cart. Identity = product + selected options (``options_key``).

    No price is stored: lines are priced from the database every time they are shown or ordered.
    """

    __tablename__ = "cart_lines"
    __table_args__ = (
        sa.UniqueConstraint("cart_id", "product_id", "options_key", name="uq_cart_lines_identity"),
        sa.CheckConstraint("quantity BETWEEN 1 AND 99", name="ck_cart_lines_quantity"),
    )

    id: int | None = Field(default=None, primary_key=True)
    cart_id: int = Field(foreign_key="carts.id", ondelete="CASCADE", index=True)
    product_id: int = Field(foreign_key="products.id", ondelete="CASCADE", index=True)
    quantity: int = Field(default=1)
    options_key: str = Field(default="", max_length=512)
    selected_options: dict[str, str] = Field(default_factory=dict, sa_type=JSONType)
    custom_note: str = Field(default="", max_length=1000)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class WishlistItem(SQLModel, table=True):
    """A product a customer marked as favourite."""

    __tablename__ = "wishlist_items"
    __table_args__ = (sa.UniqueConstraint("user_id", "product_id", name="uq_wishlist_user_product"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    product_id: int = Field(foreign_key="products.id", ondelete="CASCADE", index=True)
    created_at: datetime = Field(default_factory=utcnow)
