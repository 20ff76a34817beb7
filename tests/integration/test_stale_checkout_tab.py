"""A checkout tab showing an old cart never orders the current one (finding: a second tab showed
one line and "Place Order · $53.08" but charged $91.16 for the two lines another tab had).

``place_order(shown=…)`` compares, inside the order's transaction, the cart it reads with what
the tab's summary showed (``Quote.shown``); any difference refuses with ``CartChangedError``
before anything is written: no order, no stock taken, nothing to charge.
"""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from shop_app.domain.messages import CheckoutMessage
from shop_app.models import Order, Product
from shop_app.services import cart, checkout
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CartChangedError
from tests.support.checkout import FORM

OWNER = CartOwner(token="one-guest-cookie-two-tabs")


def _product(session: Session, name: str, price_cents: int) -> Product:
    product = Product(name=name, base_price_cents=price_cents, stock_quantity=10)
    session.add(product)
    session.flush()
    return product


def _orders(session: Session) -> int:
    return session.exec(select(func.count()).select_from(Order)).one()


def _place(engine: Engine, shown: str) -> checkout.PlacedOrder:
    return checkout.place_order(owner=OWNER, user_id=None, form=FORM, shown=shown, engine=engine)


@pytest.fixture
def candle_and_soap(session: Session) -> tuple[Product, Product]:
    return _product(session, "Cedar Candle", 3240), _product(session, "Oat Soap", 3400)


def test_a_line_added_in_another_tab_refuses_the_stale_tab_and_takes_nothing(
    session: Session, engine: Engine, candle_and_soap: tuple[Product, Product]
) -> None:
    candle, soap = candle_and_soap
    cart.add_item(session, OWNER, product_id=candle.id)
    session.commit()
    stale = checkout.quote(session, OWNER)  # tab B's summary: one line
    cart.add_item(session, OWNER, product_id=soap.id)  # tab A adds another
    session.commit()

    with pytest.raises(CartChangedError, match=CheckoutMessage.CART_CHANGED.value):
        _place(engine, stale.shown)

    session.expire_all()
    assert _orders(session) == 0
    assert (session.get(Product, candle.id).stock_quantity, session.get(Product, soap.id).stock_quantity) == (
        10,
        10,
    )
    fresh = checkout.quote(session, OWNER)  # the tab refreshed: it shows both and places them
    placed = _place(engine, fresh.shown)
    assert placed.total_cents == fresh.totals.total_cents != stale.totals.total_cents


@pytest.mark.parametrize("change", ["quantity", "price", "removed"])
def test_any_change_to_what_is_charged_refuses(
    session: Session, engine: Engine, candle_and_soap: tuple[Product, Product], change: str
) -> None:
    candle, soap = candle_and_soap
    cart.add_item(session, OWNER, product_id=candle.id)
    view, _ = cart.add_item(session, OWNER, product_id=soap.id)
    session.commit()
    stale = checkout.quote(session, OWNER)
    if change == "quantity":
        cart.set_quantity(session, OWNER, line_id=view.lines[0].line_id, quantity=2)
    elif change == "price":
        session.get(Product, candle.id).base_price_cents = 2999
    else:
        cart.remove_line(session, OWNER, line_id=view.lines[1].line_id)
    session.commit()

    with pytest.raises(CartChangedError):
        _place(engine, stale.shown)
    assert _orders(session) == 0


def test_a_cart_already_ordered_in_another_tab_says_it_changed_not_only_empty(
    session: Session, engine: Engine, candle_and_soap: tuple[Product, Product]
) -> None:
    candle, _ = candle_and_soap
    cart.add_item(session, OWNER, product_id=candle.id)
    session.commit()
    shown = checkout.quote(session, OWNER).shown
    cart.clear(session, OWNER)  # what paying in tab A does (the cart is emptied)
    session.commit()

    with pytest.raises(CartChangedError):
        _place(engine, shown)


def test_the_summary_a_tab_shows_is_the_cart_an_order_places(
    session: Session, engine: Engine, candle_and_soap: tuple[Product, Product]
) -> None:
    candle, soap = candle_and_soap
    cart.add_item(session, OWNER, product_id=candle.id, quantity=2)
    cart.add_item(session, OWNER, product_id=soap.id, quantity=3)
    session.commit()

    placed = _place(engine, checkout.quote(session, OWNER).shown)

    assert placed.total_cents == checkout.quote(session, OWNER).totals.total_cents
