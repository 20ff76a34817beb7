"""Where the shop ships and what an address must be, enforced by the services (not only the form).

A forged checkout (a request no page sends, straight to ``place_order``) to a country the store
settings do not ship to, or with a province or postal code that does not exist, is refused with
the field's message and writes nothing: no order, address or payment row, stock and cart as they
were. Accepted addresses are stored normalised (province code, postal code with its space, phone).
A signed-in customer's saved address fills the form, or, in a country no longer shipped to,
gives a clear notice instead of a crash.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
import sqlalchemy as sa
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.messages import AddressMessage, CheckoutMessage
from shop_app.models import Cart, Order, OrderAddress, Payment, Product, StoreSettings, User
from shop_app.services import auth, cart, checkout, sessions
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CheckoutError
from shop_app.state.auth import AuthState
from shop_app.state.checkout import CheckoutState
from tests.support.checkout import FORM
from tests.support.shipping import ships_to

GUEST = CartOwner(token="shipping-address-cart")
NOT_SHIPPED = "Country: we ship to Canada and the United States only. Please choose one of them."
US_FORM = replace(FORM, city="Seattle", state="washington", zip_code="98101 1234", country="united states")


def _candle(session: Session, owner: CartOwner = GUEST) -> Product:
    product = Product(name="8oz Amber Soy Candle - Cedar", base_price_cents=3200, stock_quantity=4)
    session.add(product)
    session.flush()
    cart.add_item(session, owner, product_id=product.id, quantity=2)
    session.commit()
    return product


def _written(engine: Engine) -> dict[str, int]:
    with Session(engine) as fresh:
        return {
            model.__name__: fresh.execute(select(sa.func.count()).select_from(model)).scalar_one()
            for model in (Order, OrderAddress, Payment)
        }


def _stock_and_cart(engine: Engine, product_id: int) -> tuple[int, Any]:
    with Session(engine) as fresh:
        stock = fresh.get(Product, product_id).stock_quantity
        return stock, fresh.exec(select(Cart.updated_at)).one()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"country": "France"}, NOT_SHIPPED),
        ({"country": "Atlantis"}, CheckoutMessage.UNKNOWN_COUNTRY),
        ({"state": "Nowhere"}, AddressMessage.PROVINCE_INVALID),
        ({"zip_code": "ABCDEFG"}, AddressMessage.POSTAL_CODE_INVALID),
        ({"zip_code": "M5V 2T6"}, "Postal code: M5V 2T6 is not in British Columbia."),
        ({"country": "United States", "state": "BC"}, AddressMessage.STATE_INVALID),
        ({"country": "United States", "state": "WA", "zip_code": "V8V 1A1"}, AddressMessage.ZIP_CODE_INVALID),
        ({"phone": "not a phone !!!"}, AddressMessage.PHONE_INVALID),
    ],
    ids=["france", "unknown-country", "province", "postal-code", "wrong-province", "state", "zip", "phone"],
)
def test_a_forged_checkout_is_refused_and_writes_nothing(
    changes: dict[str, str], message: str, session: Session, engine: Engine
) -> None:
    candle = _candle(session)
    before = _stock_and_cart(engine, candle.id)

    with pytest.raises(CheckoutError) as refused:
        checkout.place_order(owner=GUEST, user_id=None, form=replace(FORM, **changes), engine=engine)

    assert str(refused.value).startswith(message.split(".", maxsplit=1)[0])
    assert _written(engine) == {"Order": 0, "OrderAddress": 0, "Payment": 0}
    assert _stock_and_cart(engine, candle.id) == before  # stock untaken, the cart's claim undone


def test_an_accepted_address_is_stored_normalised(session: Session, engine: Engine) -> None:
    _candle(session)
    typed = replace(FORM, state="british columbia", zip_code="v8v1a1", phone="+1 (250) 555.0100 ext 7")

    placed = checkout.place_order(owner=GUEST, user_id=None, form=typed, engine=engine)

    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        address = fresh.exec(select(OrderAddress).where(OrderAddress.order_id == order.id)).one()
    assert (address.country, address.state, address.zip_code) == ("Canada", "BC", "V8V 1A1")
    assert address.phone == order.phone == "250-555-0100 ext. 7"


def test_a_us_order_goes_through_with_its_state_and_zip_code(session: Session, engine: Engine) -> None:
    _candle(session)

    placed = checkout.place_order(owner=GUEST, user_id=None, form=US_FORM, engine=engine)

    with Session(engine) as fresh:
        address = fresh.exec(select(OrderAddress).where(OrderAddress.order_id == placed.order_id)).one()
    assert (address.country, address.state, address.zip_code) == ("United States", "WA", "98101-1234")


def test_the_store_settings_decide_where_orders_may_go(session: Session, engine: Engine) -> None:
    _candle(session)
    session.add(StoreSettings(shipping_zones=ships_to("United States")))
    session.commit()

    with pytest.raises(CheckoutError, match=r"^Country: we ship to the United States only\."):
        checkout.place_order(owner=GUEST, user_id=None, form=FORM, engine=engine)
    assert _written(engine)["Order"] == 0
    assert checkout.place_order(owner=GUEST, user_id=None, form=US_FORM, engine=engine).order_id


def test_the_saved_default_address_is_the_normalised_one(session: Session) -> None:
    user = User(email="saver@example.com", password_hash="x")
    session.add(user)
    session.commit()
    typed = replace(US_FORM, phone="206 555 0100")

    auth.save_default_address(session, user_id=user.id, form=typed)
    session.commit()

    session.refresh(user)
    assert (user.country, user.state, user.zip_code, user.phone) == (
        "United States",
        "WA",
        "98101-1234",
        "206-555-0100",
    )


# --- the checkout page's state ---------------------------------------------------------------


@pytest.fixture
def customer(app_env: Callable[..., None], session: Session) -> tuple[User, str]:
    """A signed-in customer with a saved address (change it per test) and their session key."""
    user = User(
        email="regular@example.com",
        password_hash="x",
        first_name="Ana",
        last_name="Silva",
        phone="604-555-0100",
        address="12 Cedar Lane",
        city="Victoria",
        state="BC",
        zip_code="V8V 1A1",
        country="Canada",
    )
    session.add(user)
    session.commit()
    started = sessions.start(session, user=user, remember_me=False)
    session.commit()
    return user, started.state_key


async def _checkout(session_key: str) -> CheckoutState:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key
    page = await root.get_state(CheckoutState)
    await page.load()
    return page


async def test_a_saved_address_fills_the_form(customer: tuple[User, str]) -> None:
    page = await _checkout(customer[1])

    prefill = page.prefill
    assert (prefill.first_name, prefill.address, prefill.state, prefill.zip_code, prefill.country) == (
        "Ana",
        "12 Cedar Lane",
        "BC",
        "V8V 1A1",
        "Canada",
    )
    assert page.address_notice == ""
    assert page.countries == ["United States", "Canada"]


async def test_a_saved_address_in_a_country_no_longer_shipped_to_gets_a_notice(
    customer: tuple[User, str], session: Session
) -> None:
    user, key = customer
    user.country, user.city, user.state, user.zip_code = "france", "Paris", "Île-de-France", "75008"
    session.add(user)
    session.commit()

    page = await _checkout(key)

    assert page.address_notice == (
        "Your saved address is in France, where we no longer ship. "
        "Please enter an address in Canada and the United States."
    )
    prefill = page.prefill
    assert (prefill.first_name, prefill.email, prefill.phone) == (
        "Ana",
        "regular@example.com",
        "604-555-0100",
    )
    assert (prefill.address, prefill.city, prefill.zip_code) == ("", "", "")  # not the French address
    assert prefill.country == "United States"  # one the list offers


async def test_without_the_united_states_the_form_starts_with_the_first_country_shipped_to(
    customer: tuple[User, str], session: Session
) -> None:
    user, key = customer
    user.country = ""
    session.add_all([user, StoreSettings(shipping_zones=ships_to("Canada", "United Kingdom"))])
    session.commit()

    page = await _checkout(key)

    assert page.countries == ["Canada", "United Kingdom"]
    assert page.prefill.country == "Canada"
    assert page.address_notice == ""
