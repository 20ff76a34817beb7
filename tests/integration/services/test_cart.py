"""The cart: identity of lines, quantities, stock, options, prices from the database."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from shop_app.models import Product, User
from shop_app.services import cart
from shop_app.services.cart import CartError, CartOwner

GUEST = CartOwner(token="guest-cookie-value")
OTHER = CartOwner(token="someone-else")


def _product(session: Session, **fields: object) -> Product:
    values = {"name": "8oz Amber Soy Candle - Vanilla Bean", "base_price_cents": 2800, "stock_quantity": 10}
    product = Product(**{**values, **fields})
    session.add(product)
    session.flush()
    return product


def test_adding_the_same_product_and_options_adds_to_the_line(session: Session) -> None:
    candle = _product(session)

    cart.add_item(session, GUEST, product_id=candle.id, quantity=2)
    view, message = cart.add_item(session, GUEST, product_id=candle.id, quantity=3)

    assert [(line.name, line.quantity) for line in view.lines] == [(candle.name, 5)]
    assert view.count == 5
    assert message == "Added 3 8oz Amber Soy Candle - Vanilla Bean to your cart"


def test_different_options_are_different_lines_and_named_in_the_message(session: Session) -> None:
    melt = _product(
        session, name="Wax Melt - Sampler", variants={"scents": ["Rose", "Cedar"]}, stock_quantity=20
    )

    cart.add_item(session, GUEST, product_id=melt.id, selected_options={"scent": "Rose"})
    view, message = cart.add_item(
        session, GUEST, product_id=melt.id, quantity=2, selected_options={"Scent": " Cedar "}
    )

    assert [(line.options_label, line.quantity) for line in view.lines] == [("Rose", 1), ("Cedar", 2)]
    assert message == "Added 2 Wax Melt - Sampler to your cart (Cedar)"


def test_a_product_with_scent_options_needs_a_scent_and_only_an_offered_one(session: Session) -> None:
    melt = _product(session, name="Wax Melt - Sampler", variants={"scents": ["Rose"]})

    with pytest.raises(CartError, match=r"^Select a Scent$"):
        cart.add_item(session, GUEST, product_id=melt.id)
    with pytest.raises(CartError, match="offered options"):
        cart.add_item(session, GUEST, product_id=melt.id, selected_options={"scent": "Gasoline"})

    assert cart.view_cart(session, GUEST).lines == []


def test_prices_come_from_the_database_with_the_domain_rules(session: Session) -> None:
    custom = _product(
        session,
        name="Custom Candle - Your Blend",
        base_price_cents=3000,
        sale_price_cents=3900,
        variants={"sizes": ["16oz"], "wraps": ["Gift Wrap"]},
        pricing={"16oz": 4500, "Gift Wrap": 500},
    )

    view, _ = cart.add_item(
        session,
        GUEST,
        product_id=custom.id,
        quantity=2,
        selected_options={"size": "16oz", "wrap": "Gift Wrap"},
    )

    (line,) = view.lines
    assert line.unit_price_cents == 3900  # 45.00 + 5.00 = 50.00, the 39.00 sale price is lower
    assert line.line_total_cents == 7800
    assert view.subtotal_cents == 7800

    custom.sale_price_cents = None
    session.flush()
    assert cart.view_cart(session, GUEST).subtotal_cents == 10000


def test_more_than_the_stock_is_refused_with_the_seed_message(session: Session) -> None:
    candle = _product(session, stock_quantity=3)
    cart.add_item(session, GUEST, product_id=candle.id, quantity=2)

    with pytest.raises(CartError) as error:
        cart.add_item(session, GUEST, product_id=candle.id, quantity=2)

    assert str(error.value) == f'Insufficient stock for "{candle.name}". Available: 3, Requested: 4'
    assert cart.view_cart(session, GUEST).count == 2


def test_stock_counts_every_line_of_the_product(session: Session) -> None:
    melt = _product(
        session, name="Wax Melt - Sampler", variants={"scents": ["Rose", "Cedar"]}, stock_quantity=3
    )
    cart.add_item(session, GUEST, product_id=melt.id, quantity=2, selected_options={"scent": "Rose"})

    with pytest.raises(CartError, match="Available: 3, Requested: 4"):
        cart.add_item(session, GUEST, product_id=melt.id, quantity=2, selected_options={"scent": "Cedar"})


def test_quantities_stay_between_1_and_99(session: Session) -> None:
    candle = _product(session, stock_quantity=500)

    view, _ = cart.add_item(session, GUEST, product_id=candle.id, quantity=150)
    assert view.lines[0].quantity == 99
    view, _ = cart.add_item(session, GUEST, product_id=candle.id, quantity=5)
    assert view.lines[0].quantity == 99
    view = cart.set_quantity(session, GUEST, line_id=view.lines[0].line_id, quantity=1000)
    assert view.lines[0].quantity == 99


def test_setting_zero_or_less_removes_the_line(session: Session) -> None:
    candle = _product(session)
    view, _ = cart.add_item(session, GUEST, product_id=candle.id, quantity=2)

    view = cart.set_quantity(session, GUEST, line_id=view.lines[0].line_id, quantity=-1)

    assert view.lines == []


def test_a_shopper_cannot_touch_another_cart(session: Session) -> None:
    candle = _product(session)
    mine, _ = cart.add_item(session, GUEST, product_id=candle.id, quantity=2)
    cart.add_item(session, OTHER, product_id=candle.id, quantity=1)

    cart.remove_line(session, OTHER, line_id=mine.lines[0].line_id)
    cart.set_quantity(session, OTHER, line_id=mine.lines[0].line_id, quantity=7)

    assert cart.view_cart(session, GUEST).lines[0].quantity == 2
    assert cart.view_cart(session, OTHER).count == 1


def test_archived_or_unknown_products_cannot_be_added_and_drop_out_of_the_cart(session: Session) -> None:
    candle = _product(session)
    cart.add_item(session, GUEST, product_id=candle.id)

    candle.is_active = False
    session.flush()

    assert cart.view_cart(session, GUEST).lines == []
    with pytest.raises(CartError, match="no longer available"):
        cart.add_item(session, GUEST, product_id=candle.id)
    with pytest.raises(CartError, match="no longer available"):
        cart.add_item(session, GUEST, product_id=987654)


def test_a_cookie_without_a_cart_sees_an_empty_cart_and_only_its_hash_is_stored(session: Session) -> None:
    candle = _product(session)
    token = cart.new_token()

    assert cart.view_cart(session, CartOwner(token=token)).lines == []
    cart.add_item(session, CartOwner(token=token), product_id=candle.id)

    stored = cart.find_cart(session, CartOwner(token=token))
    assert stored.token_hash != token
    assert len(stored.token_hash) == 64
    assert len(token) >= 43  # 256 bits, url-safe base64


def test_clear_empties_the_cart(session: Session) -> None:
    candle = _product(session)
    cart.add_item(session, GUEST, product_id=candle.id, quantity=2)

    cart.clear(session, GUEST)

    assert cart.view_cart(session, GUEST).count == 0


def test_signing_in_merges_the_guest_cart_into_the_customer_cart(session: Session) -> None:
    candle = _product(session, stock_quantity=5)
    lotion = _product(session, name="8oz Hand & Body Lotion - Coconut Lime", stock_quantity=9)
    archived = _product(session, name="Room Spray - Old", stock_quantity=9)
    user = User(email="fan@example.com", password_hash="x")
    session.add(user)
    session.flush()
    customer = CartOwner(user_id=user.id)
    cart.add_item(session, customer, product_id=candle.id, quantity=3)
    cart.add_item(session, GUEST, product_id=candle.id, quantity=4)
    cart.add_item(session, GUEST, product_id=lotion.id, quantity=2)
    cart.add_item(session, GUEST, product_id=archived.id, quantity=1)
    archived.is_active = False
    session.flush()

    cart.merge_guest_cart(session, token=GUEST.token, user_id=user.id)

    lines = {line.name: line.quantity for line in cart.view_cart(session, customer).lines}
    assert lines == {candle.name: 5, lotion.name: 2}  # 3 + 4 capped at the stock of 5
    assert cart.find_cart(session, GUEST) is None
