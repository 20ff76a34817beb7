"""Rules the database itself enforces (docs/architecture.md#rules, #orders-and-payment; issue 2 acceptance 3).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.models import (
    Cart,
    CartLine,
    Category,
    Order,
    OrderItem,
    Product,
    WebsiteImage,
    WishlistItem,
)
from shop_app.models.accounts import User


def _product(session: Session, **overrides: object) -> Product:
    product = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=3)
    for key, value in overrides.items():
        setattr(product, key, value)
    session.add(product)
    session.commit()
    return product


def _order(session: Session) -> Order:
    order = Order(
        order_number="ORD-1",
        email="a@example.com",
        subtotal_cents=2800,
        tax_cents=336,
        shipping_cents=1500,
        total_cents=4636,
    )
    session.add(order)
    session.commit()
    return order


def test_stock_can_never_go_below_zero(session: Session) -> None:
    product = _product(session)

    with pytest.raises(sa.exc.IntegrityError):
        session.execute(
            sa.update(Product)
            .where(Product.id == product.id)
            .values(stock_quantity=Product.stock_quantity - 4)
        )
        session.commit()


def test_conditional_decrement_takes_stock_only_when_enough_is_left(session: Session) -> None:
    product = _product(session)
    take = (
        sa.update(Product)
        .where(Product.id == product.id, Product.stock_quantity >= 2)
        .values(stock_quantity=Product.stock_quantity - 2)
    )

    assert session.execute(take).rowcount == 1
    assert session.execute(take).rowcount == 0  # only 1 left
    session.commit()
    assert session.get(Product, product.id).stock_quantity == 1


def test_an_ordered_product_cannot_be_deleted(session: Session) -> None:
    product = _product(session)
    order = _order(session)
    session.add(
        OrderItem(
            order_id=order.id,
            product_id=product.id,
            quantity=1,
            unit_price_cents=2800,
            total_price_cents=2800,
            product_snapshot={"name": product.name},
        )
    )
    session.commit()

    with pytest.raises(sa.exc.IntegrityError):
        session.execute(sa.delete(Product).where(Product.id == product.id))
        session.commit()
    session.rollback()

    assert session.get(Product, product.id) is not None


def test_deleting_a_product_removes_it_from_carts_and_wishlists(session: Session) -> None:
    product = _product(session)
    user = User(email="fan@example.com", password_hash="x")
    session.add(user)
    session.commit()
    cart = Cart(user_id=user.id)
    session.add(cart)
    session.commit()
    session.add_all(
        [
            CartLine(cart_id=cart.id, product_id=product.id, quantity=2),
            WishlistItem(user_id=user.id, product_id=product.id),
        ]
    )
    session.commit()

    session.execute(sa.delete(Product).where(Product.id == product.id))
    session.commit()

    assert session.exec(select(CartLine)).all() == []
    assert session.exec(select(WishlistItem)).all() == []


@pytest.mark.parametrize("quantity", [0, 100])
def test_cart_line_quantity_stays_between_1_and_99(session: Session, quantity: int) -> None:
    product = _product(session)
    cart = Cart(token_hash="h" * 64)
    session.add(cart)
    session.commit()

    with pytest.raises(sa.exc.IntegrityError):
        session.add(CartLine(cart_id=cart.id, product_id=product.id, quantity=quantity))
        session.commit()


def test_same_product_and_options_cannot_be_two_cart_lines(session: Session) -> None:
    product = _product(session)
    cart = Cart(token_hash="c" * 64)
    session.add(cart)
    session.commit()
    session.add(CartLine(cart_id=cart.id, product_id=product.id, options_key="scent=Vanilla"))
    session.commit()

    with pytest.raises(sa.exc.IntegrityError):
        session.add(CartLine(cart_id=cart.id, product_id=product.id, options_key="scent=Vanilla"))
        session.commit()


def test_order_total_must_add_up(session: Session) -> None:
    with pytest.raises(sa.exc.IntegrityError):
        session.add(
            Order(
                order_number="ORD-X",
                email="a@example.com",
                subtotal_cents=1000,
                tax_cents=120,
                shipping_cents=1500,
                total_cents=9999,
            )
        )
        session.commit()


def test_category_slug_and_website_image_type_are_unique(session: Session) -> None:
    session.add(Category(name="Candles", slug="candles"))
    session.commit()
    with pytest.raises(sa.exc.IntegrityError):
        session.add(Category(name="Candles again", slug="candles"))
        session.commit()
    session.rollback()

    session.add(WebsiteImage(image_type="hero", image_url="/media/site/hero.webp"))
    session.commit()
    with pytest.raises(sa.exc.IntegrityError):
        session.add(WebsiteImage(image_type="hero", image_url="/media/site/other.webp"))
        session.commit()


def test_timestamps_come_back_timezone_aware_utc(session: Session) -> None:
    vancouver = timezone(timedelta(hours=-8))
    placed = datetime(2026, 11, 20, 16, 30, tzinfo=vancouver)
    order = _order(session)
    order.paid_at = placed
    session.commit()
    session.expire_all()

    stored = session.get(Order, order.id).paid_at

    assert stored.tzinfo is not None
    assert stored == placed
    assert stored.utcoffset() == timedelta(0)
    assert stored == datetime(2026, 11, 21, 0, 30, tzinfo=UTC)
