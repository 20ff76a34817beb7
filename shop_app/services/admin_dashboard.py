"""Figures for the back office's dashboard (its admin list comes from ``services.admin.admins``)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.models import AdminRole, Order, Product, Subscriber, User
from shop_app.services.order_history import paid_orders


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
    """Count products, paid orders, customers (non-admin accounts) and subscribers.

    Paid orders are ``services.order_history.paid_orders``: the orders the Orders screen lists by
    default, the simulated PayPal's (not charged) left out.
    """

    def count(model: type, *conditions: sa.SQLColumnExpression[bool]) -> int:
        return session.execute(select(sa.func.count()).select_from(model).where(*conditions)).scalar_one()

    admins = select(AdminRole.user_id).where(AdminRole.is_active)
    return StoreCounts(
        products=count(Product),
        active_products=count(Product, col(Product.is_active)),
        low_stock=count(Product, col(Product.is_active), col(Product.stock_quantity) <= LOW_STOCK_THRESHOLD),
        paid_orders=count(Order, paid_orders()),  # the orders the Orders screen lists
        customers=count(User, col(User.id).not_in(admins)),
        verified_customers=count(
            User, col(User.id).not_in(admins), col(User.email_confirmed_at).is_not(None)
        ),
        subscribers=count(Subscriber, col(Subscriber.unsubscribed_at).is_(None)),
    )
