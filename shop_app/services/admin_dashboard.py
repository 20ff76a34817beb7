"""Figures and the list of administrators for the back office's dashboard."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.domain.orders import OrderStatus
from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.models import AdminRole, Order, Product, Subscriber, User


@dataclass(frozen=True, slots=True)
class StoreCounts:
    """How the shop stands."""

    products: int
    active_products: int
    low_stock: int
    paid_orders: int
    customers: int
    verified_customers: int
    subscribers: int


def store_counts(session: Session) -> StoreCounts:
    """Count products, paid orders, customers (non-admin accounts) and subscribers."""

    def count(model: type, *conditions: sa.ColumnElement[bool]) -> int:
        return session.execute(select(sa.func.count()).select_from(model).where(*conditions)).scalar_one()

    admins = select(AdminRole.user_id).where(AdminRole.is_active)
    return StoreCounts(
        products=count(Product),
        active_products=count(Product, Product.is_active),
        low_stock=count(Product, Product.is_active, Product.stock_quantity <= LOW_STOCK_THRESHOLD),
        paid_orders=count(Order, Order.status != OrderStatus.AWAITING_PAYMENT),
        customers=count(User, User.id.not_in(admins)),
        verified_customers=count(User, User.id.not_in(admins), User.email_confirmed_at.is_not(None)),
        subscribers=count(Subscriber, Subscriber.unsubscribed_at.is_(None)),
    )


@dataclass(frozen=True, slots=True)
class AdminMember:
    """A current administrator as the Admin Management tab lists them."""

    user_id: int
    first_name: str
    last_name: str
    email: str
    role: str
    granted_at: datetime


def current_admins(session: Session) -> list[AdminMember]:
    """The active admin roles with their accounts, most recently granted first (seed 001 §7).

    A role's account always exists (the role is deleted with it), so no "Unknown User" stands in.
    """
    rows = session.execute(
        select(
            AdminRole.user_id,
            AdminRole.role,
            AdminRole.granted_at,
            User.first_name,
            User.last_name,
            User.email,
        )
        .join(User, User.id == AdminRole.user_id)
        .where(AdminRole.is_active)
        .order_by(AdminRole.granted_at.desc(), AdminRole.id.desc())
    ).all()
    return [
        AdminMember(
            user_id=row.user_id,
            first_name=row.first_name,
            last_name=row.last_name,
            email=row.email,
            role=row.role,
            granted_at=row.granted_at,
        )
        for row in rows
    ]
