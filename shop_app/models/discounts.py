"""Discount codes and their redemptions (issue 19, acceptance 3; rules in ``domain.discounts``).

A code is never deleted once made (orders name it): the owner switches it off. ``uses`` counts
the orders that carry it; the database refuses a count above ``max_uses``
(``ck_discount_codes_uses``), so two checkouts racing for the last use can never both have it.
A redemption ties one order to the code it used, with the amount it took off and the e-mail the
per-customer limit counts by; it goes (and ``uses`` with it) when the order's payment fails.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import JSONType, utcnow


class DiscountCode(SQLModel, table=True):
    """A code the owner made in the back office."""

    __tablename__ = "discount_codes"
    __table_args__ = (
        sa.CheckConstraint(
            "uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)", name="ck_discount_codes_uses"
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=32, unique=True)  # upper case (domain.discounts.normalize_code)
    kind: str = Field(max_length=16)  # domain.discounts.DiscountKind
    value: int = Field(default=0)  # percent: basis points; fixed: cents
    min_subtotal_cents: int = Field(default=0)
    starts_at: datetime | None = Field(default=None)
    ends_at: datetime | None = Field(default=None)
    max_uses: int | None = Field(default=None)
    max_uses_per_customer: int | None = Field(default=None)
    product_ids: list[int] = Field(default_factory=list, sa_type=JSONType)
    category_ids: list[int] = Field(default_factory=list, sa_type=JSONType)
    note: str = Field(default="", max_length=200)  # the owner's own note ("Spring newsletter")
    is_active: bool = Field(default=True)
    uses: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class DiscountRedemption(SQLModel, table=True):
    """An order that used a code."""

    __tablename__ = "discount_redemptions"
    __table_args__ = (sa.Index("ix_discount_redemptions_code_email", "code_id", "email"),)

    id: int | None = Field(default=None, primary_key=True)
    code_id: int = Field(foreign_key="discount_codes.id", ondelete="RESTRICT")
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", unique=True)
    email: str = Field(max_length=254)  # normalised: the per-customer limit counts by it
    amount_cents: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)
