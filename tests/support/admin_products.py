"""Products and orders written straight through the models, for the admin product tests."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session

from shop_app.models import Order, OrderItem, Product

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
_clock = itertools.count()
_numbers = itertools.count(1)


def add_product(session: Session, name: str, **fields: Any) -> Product:
    """A product created one minute after the previous one (so "newest first" is defined)."""
    values = {
        "base_price_cents": 2000,
        "stock_quantity": 10,
        "created_at": T0 + timedelta(minutes=next(_clock)),
        **fields,
    }
    product = Product(name=name, **values)
    session.add(product)
    session.flush()
    return product


def add_order_for(session: Session, product: Product) -> None:
    """A paid order with one line of ``product``."""
    order = Order(
        order_number=f"ORD-T{next(_numbers):05d}",
        email="buyer@example.com",
        subtotal_cents=2000,
        tax_cents=240,
        shipping_cents=1500,
        total_cents=3740,
    )
    session.add(order)
    session.flush()
    session.add(
        OrderItem(
            order_id=order.id,
            product_id=product.id,
            quantity=1,
            unit_price_cents=2000,
            total_price_cents=2000,
        )
    )
    session.flush()
