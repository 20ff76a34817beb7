"""Free text reaches the database through the one sanitiser, with the same result on SQLite and
PostgreSQL (which refuses NUL in text where SQLite would store it): checkout addresses, order
notes, account names and contact messages (docs/security.md, "Input")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.contact import ContactForm
from shop_app.models import ContactMessage, Order, OrderAddress, Product, User
from shop_app.services import auth, cart, checkout, contact
from shop_app.services.cart import CartOwner
from shop_app.settings import get_settings
from tests.support.checkout import FORM

RLO, NUL = "\u202e", "\x00"


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_a_checkout_address_and_note_are_stored_clean(session: Session, engine: Engine) -> None:
    candle = Product(name="Candle", base_price_cents=2000, stock_quantity=3)
    session.add(candle)
    session.commit()
    owner = CartOwner(token="nasty")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    form = dataclasses.replace(
        FORM,
        first_name=f"Ada{NUL}",
        address=f"12 Cedar{RLO} Lane\u2066",
        city=f"Vic{NUL}toria",
        special_instructions=f"Leave at the door.{RLO}\r\nRing twice{NUL}.",
        gift_message=f"Happy birthday,{RLO} Mum!\r\n<b>Love</b>{NUL}",
        gift_wrap="on",
    )

    placed = checkout.place_order(owner=owner, user_id=None, form=form, engine=engine)

    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        address = fresh.exec(select(OrderAddress).where(OrderAddress.order_id == order.id)).one()
    assert (address.first_name, address.address_line1, address.city) == ("Ada", "12 Cedar Lane", "Victoria")
    assert order.notes == "Leave at the door.\nRing twice."
    assert (order.gift_message, order.gift_wrap) == ("Happy birthday, Mum!\n<b>Love</b>", True)  # text


def test_account_names_are_stored_clean_and_too_long_is_a_clear_refusal(session: Session) -> None:
    user = User(email="mia@example.com", password_hash="x", first_name="Mia", last_name="Chen")
    session.add(user)
    session.commit()

    auth.update_profile(
        session, user_id=user.id, first_name=f"{RLO}Mia{NUL}", last_name="Chen\u200f", phone=""
    )
    session.commit()
    assert (user.first_name, user.last_name) == ("Mia", "Chen")

    with pytest.raises(auth.AuthError, match="First name can be at most 100 characters long"):
        auth.update_profile(session, user_id=user.id, first_name="M" * 101, last_name="Chen", phone="")
    with pytest.raises(auth.AuthError, match="Please fill in all required fields"):
        auth.update_profile(session, user_id=user.id, first_name=f"{NUL}{RLO}", last_name="Chen", phone="")


def test_a_contact_message_is_stored_clean(app_env: Callable[..., None], session: Session) -> None:
    form = ContactForm(
        name=f"Ben{RLO}", email="ben@example.com", subject=f"Hi{NUL}", message=f"Line 1{RLO}\nLine 2"
    )

    contact.send_message(session, form=form, client="203.0.113.9")
    session.commit()

    stored = session.exec(select(ContactMessage)).one()
    assert (stored.name, stored.subject, stored.message) == ("Ben", "Hi", "Line 1\nLine 2")
