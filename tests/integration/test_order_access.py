"""Guests find their order again: the signed link of their mails, and the order lookup.

Orders are placed and paid through the real order flow and the Square simulator; the link is read
from the confirmation mail as a guest would. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from reflex.istate.data import ReflexURL
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.messages import OrderLookupMessage
from shop_app.domain.orders import OrderStatus
from shop_app.models import Order, OrderAccessToken, OutgoingMail, Product, User
from shop_app.models.base import utcnow
from shop_app.services import cart, checkout, order_access, rate_limit
from shop_app.services.admin.order_changes import change_status
from shop_app.services.cart import CartOwner
from shop_app.services.order_access import MAX_LOOKUPS_PER_WINDOW
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from shop_app.state.order_lookup import OrderLookupState, OrderStatusState
from tests.support.checkout import FORM

SITE = "https://shop.example"
LINK = re.compile(rf"{re.escape(SITE)}/order-status\?token=([A-Za-z0-9_-]+)")
CLIENT = "203.0.113.7"


@pytest.fixture
def env(app_env: Callable[..., None]) -> Iterator[None]:
    app_env(MAIL_BACKEND="outbox", SITE_URL=SITE, SQUARE_ENVIRONMENT="local")
    yield


@dataclasses.dataclass
class Shop:
    session: Session
    engine: Engine
    gateway: SquareGateway
    candle: Product

    def order(self, *, email: str = "ada@example.com", user: User | None = None, paid: bool = True) -> Order:
        owner = CartOwner(token=f"cart-{uuid.uuid4().hex}", user_id=user.id if user else None)
        cart.add_item(self.session, owner, product_id=self.candle.id, quantity=1)
        self.session.commit()
        form = dataclasses.replace(FORM, email=email)
        placed = checkout.place_order(owner=owner, user_id=owner.user_id, form=form, engine=self.engine)
        if paid:
            source = f"cnon:card-nonce-ok:{uuid.uuid4().hex}"
            result = checkout.pay(
                order_id=placed.order_id, source_id=source, gateway=self.gateway, engine=self.engine
            )
            assert result.succeeded
        with Session(self.engine) as fresh:
            return fresh.get(Order, placed.order_id)

    def mails(self, to: str) -> list[OutgoingMail]:
        with Session(self.engine) as fresh:
            return list(
                fresh.exec(
                    select(OutgoingMail).where(OutgoingMail.to_address == to).order_by(OutgoingMail.id)
                )
            )

    def link_token(self, to: str) -> str:
        """The secret of the newest signed link mailed to ``to``."""
        [*_, mail] = [m for m in self.mails(to) if LINK.search(m.body_text)]
        return LINK.search(mail.body_text).group(1)

    def lookup(self, email: str, number: str, client: str = CLIENT) -> order_access.LookupResult:
        with Session(self.engine) as fresh:
            result = order_access.lookup(fresh, email=email, order_number=number, client=client)
            fresh.commit()
            return result


@pytest.fixture
def shop(env: None, session: Session, engine: Engine) -> Shop:
    ledger = SimulatorLedger()
    gateway = SquareGateway(square_client_for_app(create_simulator(ledger)), location_id=ledger.location_id)
    candle = Product(name="8oz Amber Soy Candle - Cedar", base_price_cents=3200, stock_quantity=100)
    session.add(candle)
    session.commit()
    return Shop(session, engine, gateway, candle)


# --------------------------------------------------------------------------- the signed link


def test_a_guests_confirmation_carries_a_signed_link_that_opens_only_that_order(shop: Shop) -> None:
    mine = shop.order(email="guest@example.com")
    other = shop.order(email="someone@example.com")

    token = shop.link_token("guest@example.com")

    with Session(shop.engine) as session:
        found = order_access.order_by_token(session, token)
        assert found is not None and (found.id, found.order_number) == (mine.id, mine.order_number)
        assert found.status == OrderStatus.PENDING and [line.quantity for line in found.lines] == [1]
        assert found.ship_line1 == FORM.address  # the link's page shows the shipping address
        assert order_access.order_by_token(session, shop.link_token("someone@example.com")).id == other.id
        # The secret is random (not made from the order), and the database keeps only its hash.
        assert mine.order_number not in token and len(token) == 43
        rows = session.exec(select(OrderAccessToken).where(OrderAccessToken.order_id == mine.id)).all()
        assert [row.token_hash for row in rows] == [hashlib.sha256(token.encode()).hexdigest()]
        assert token not in {row.token_hash for row in session.exec(select(OrderAccessToken))}


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t[:-1],
        lambda t: t + "A",
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),
        lambda t: t.upper() if t.upper() != t else t.lower(),
        lambda t: hashlib.sha256(t.encode()).hexdigest(),  # the stored hash is no key
        lambda _t: "",
        lambda _t: "../" * 15,
        lambda _t: "\x00" * 43,
    ],
)
def test_a_changed_or_made_up_token_opens_nothing(shop: Shop, change: Callable[[str], str]) -> None:
    shop.order(email="guest@example.com")
    token = shop.link_token("guest@example.com")

    with Session(shop.engine) as session:
        assert order_access.order_by_token(session, change(token)) is None


def test_a_link_to_an_unpaid_order_opens_nothing(shop: Shop) -> None:
    unpaid = shop.order(email="guest@example.com", paid=False)
    with Session(shop.engine) as session:
        url = order_access.new_link(session, order_id=unpaid.id)
        session.commit()
        token = parse_qs(urlsplit(url).query)["token"][0]

        assert order_access.order_by_token(session, token) is None


def test_a_customers_confirmation_links_to_their_account_and_mints_no_token(shop: Shop) -> None:
    user = User(email="cora@example.com", password_hash="x", first_name="Cora")
    shop.session.add(user)
    shop.session.commit()

    order = shop.order(email=user.email, user=user)

    [mail] = shop.mails(user.email)
    assert f"{SITE}/account/orders/{order.id}" in mail.body_text and not LINK.search(mail.body_text)
    with Session(shop.engine) as session:
        assert session.exec(select(OrderAccessToken)).all() == []


def test_a_guests_status_mail_carries_a_new_signed_link_and_the_first_still_works(shop: Shop) -> None:
    admin = User(email="owner@example.com", password_hash="x", first_name="Olive")
    shop.session.add(admin)
    shop.session.commit()
    order = shop.order(email="guest@example.com")
    first = shop.link_token("guest@example.com")

    change_status(
        order_id=order.id,
        target=OrderStatus.PROCESSING,
        admin_user_id=admin.id,
        expected_status=OrderStatus.PENDING,
        engine=shop.engine,
    )

    second = shop.link_token("guest@example.com")
    assert second != first
    with Session(shop.engine) as session:
        for token in (first, second):
            found = order_access.order_by_token(session, token)
            assert found is not None and found.status == OrderStatus.PROCESSING


async def test_the_link_page_shows_the_order_and_a_bad_link_shows_nothing(shop: Shop) -> None:
    shop.order(email="guest@example.com")
    token = shop.link_token("guest@example.com")
    page = await State(_reflex_internal_init=True).get_state(OrderStatusState)

    _at(page, f"/order-status?token={token}")
    _drain(page.load())
    assert page.loaded and page.found
    assert page.order.status_label == "Pending" and page.order.ship_lines and not page.order.can_reorder

    _at(page, f"/order-status?token={token[:-2]}")
    _drain(page.load())
    assert page.loaded and not page.found and page.order.order_number == ""


# --------------------------------------------------------------------------- the lookup


def test_the_order_is_found_by_its_email_and_number(shop: Shop) -> None:
    order = shop.order(email="Guest@Example.com")

    result = shop.lookup("  guest@example.COM ", f" {order.order_number.lower()} ")

    assert result.order is not None and result.order.id == order.id and result.message == ""


def test_tracking_is_shown_with_the_carriers_link(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    with Session(shop.engine) as session:
        row = session.get(Order, order.id)
        row.status, row.tracking_number, row.carrier = OrderStatus.SHIPPED, "1Z999AA10123456784", "UPS"
        session.add(row)
        session.commit()

    found = shop.lookup("guest@example.com", order.order_number).order

    assert found is not None and found.status_label == "Shipped"
    assert found.tracking_url == "https://www.ups.com/track?tracknum=1Z999AA10123456784"


def test_a_wrong_email_and_a_wrong_number_get_the_same_answer(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    number = order.order_number
    wrong_number = number[:-1] + ("2" if number[-1] != "2" else "3")

    answers = [
        shop.lookup("other@example.com", number),
        shop.lookup("guest@example.com", wrong_number),
        shop.lookup("guest@example.com", "CE-20260101-AAAAAA"),
        shop.lookup("guest@example.com", "not a number at all"),
        shop.lookup("guest@example.com", "x" * 5000),
        shop.lookup("guest@example.co", number),
        shop.lookup("x" * 300 + "@example.com", number),
    ]

    assert answers == [order_access.LookupResult(message=OrderLookupMessage.NOT_FOUND.value)] * len(answers)


def test_another_customers_order_is_never_shown(shop: Shop) -> None:
    theirs = shop.order(email="bob@example.com")
    mine = shop.order(email="alice@example.com")

    assert shop.lookup("alice@example.com", theirs.order_number).order is None
    assert shop.lookup("bob@example.com", mine.order_number).order is None
    assert shop.lookup("alice@example.com", mine.order_number).order.id == mine.id


def test_an_unpaid_order_is_not_found(shop: Shop) -> None:
    unpaid = shop.order(email="guest@example.com", paid=False)

    assert shop.lookup("guest@example.com", unpaid.order_number).message == OrderLookupMessage.NOT_FOUND


def test_empty_fields_are_asked_for_and_not_counted(shop: Shop) -> None:
    for _ in range(MAX_LOOKUPS_PER_WINDOW + 2):
        assert shop.lookup("", " ").message == OrderLookupMessage.REQUIRED

    with Session(shop.engine) as session:
        assert rate_limit.check_submissions(session, form="order_lookup", client=CLIENT, limit=1) is None


def test_lookups_are_limited_per_client_address(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    for _ in range(MAX_LOOKUPS_PER_WINDOW):
        assert shop.lookup("guest@example.com", "CE-20260101-AAAAAA").order is None

    refused = shop.lookup("guest@example.com", order.order_number)  # even the right pair, now

    assert refused.order is None
    assert refused.message.startswith("You have sent this form several times in a short while.")
    assert shop.lookup("guest@example.com", order.order_number, client="198.51.100.9").order is not None
    # A quarter of an hour later the address may look again.
    with Session(shop.engine) as session:
        later = utcnow() + timedelta(minutes=16)
        again = order_access.lookup(
            session, email="guest@example.com", order_number=order.order_number, client=CLIENT, now=later
        )
        assert again.order is not None


def test_found_orders_count_too(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    for _ in range(MAX_LOOKUPS_PER_WINDOW):
        assert shop.lookup("guest@example.com", order.order_number).order is not None

    assert shop.lookup("guest@example.com", order.order_number).order is None


async def test_the_lookup_page_shows_status_but_no_address(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    page = await State(_reflex_internal_init=True).get_state(OrderLookupState)

    await _run(page.submit({"email": "guest@example.com", "order_number": order.order_number}))
    assert page.found and page.error == ""
    assert (page.order.order_number, page.order.status_label) == (order.order_number, "Pending")
    assert (page.order.ship_name, page.order.ship_lines, page.order.ship_phone) == ("", [], "")

    await _run(page.submit({"email": "guest@example.com", "order_number": "CE-20260101-AAAAAA"}))
    assert not page.found and page.error == OrderLookupMessage.NOT_FOUND
    assert page.order.order_number == ""

    await _run(page.submit({"email": ["not", "text"], "order_number": 7}))
    assert not page.found and page.error == OrderLookupMessage.REQUIRED


def _at(state: Any, address: str) -> None:
    state.router = dataclasses.replace(state.router, url=ReflexURL(f"http://localhost:3000{address}"))


def _drain(events: Any) -> None:
    for _ in events:
        pass


async def _run(events: Any) -> None:
    async for _ in events:
        pass
