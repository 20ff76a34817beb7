"""An order bought with a discount code (issue 19, acceptances 3 and 7): every place that shows
its money shows the row "Discount (TEN)" with the amount taken off, between the subtotal and the
shipping, from the figure stored on the order (the success page's receipt, the customer's and the
guest's order pages, the back office's order page, the confirmation mail, the invoice); and a
refund of its items gives back their price less their share of the discount, plus their taxes.

Orders are placed and paid through the real checkout services with the code on the cart, for a
BC address (GST 5% and PST 7%), on a fresh Square simulator. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select
from starlette.exceptions import StarletteDeprecationWarning

from shop_app import routes
from shop_app.api import create_api
from shop_app.models import AdminRole, DiscountCode, Order, OrderItem, OutgoingMail, Product, User
from shop_app.services import cart, checkout, discounts, order_history, sessions
from shop_app.services.admin.order_changes import refund_order
from shop_app.services.admin.orders import order_detail
from shop_app.services.cart import CartOwner
from shop_app.services.ordering.receipt import CONFIRMATION_KIND, load_receipt
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.services.square.refunds import SquareRefunds
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from shop_app.state.admin.order_detail import order_view
from shop_app.state.orders import order_card
from tests.support.checkout import FORM
from tests.support.square import spec_checker

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

_tokens = itertools.count(1)

# 2 candles at 28.00 and a lotion at 18.00 = 74.00; TEN takes 7.40 off: 66.60, shipping 15.00
# (under 100.00), GST 5% and PST 7% of 81.60 = 4.08 and 5.71; total 91.39.
SUBTOTAL, DISCOUNT, SHIPPING, GST, PST, TOTAL = 7400, 740, 1500, 408, 571, 9139


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@dataclass
class Shop:
    """An admin, a customer, two products, the code TEN, a Square simulator and the shop's API."""

    session: Session
    engine: Engine
    client: TestClient
    gateway: SquareGateway
    refunds: SquareRefunds
    admin: User
    ada: User
    cookie: str  # the admin's session
    candle: Product
    lotion: Product

    def place(self, *, user: User | None = None, code: str = "TEN") -> Order:
        """A paid order of 2 candles and a lotion to Victoria, BC, with ``code`` on the cart."""
        owner = CartOwner(token=f"cart-{next(_tokens)}", user_id=user.id if user else None)
        cart.add_item(self.session, owner, product_id=self.candle.id, quantity=2)
        cart.add_item(self.session, owner, product_id=self.lotion.id, quantity=1)
        if code:
            discounts.use_code(self.session, owner, code)
        self.session.commit()
        form = dataclasses.replace(FORM, email=user.email if user else "guest@example.com")
        placed = checkout.place_order(owner=owner, user_id=owner.user_id, form=form, engine=self.engine)
        paid = checkout.pay(
            order_id=placed.order_id,
            source_id=f"cnon:card-nonce-ok:{next(_tokens)}",
            gateway=self.gateway,
            owner=owner,
            engine=self.engine,
        )
        assert paid.succeeded
        with Session(self.engine) as fresh:
            order = fresh.get(Order, placed.order_id)
            assert order is not None
            return order

    def items(self, order: Order) -> dict[str, int]:
        """The order's item ids by unit price ("candle" 2800, "lotion" 1800)."""
        rows = self.session.exec(select(OrderItem).where(col(OrderItem.order_id) == order.id)).all()
        return {"candle" if item.unit_price_cents == 2800 else "lotion": item.id or 0 for item in rows}


@pytest.fixture
def shop(session: Session, engine: Engine, app_env: Callable[..., None]) -> Iterator[Shop]:
    client = square_client_for_app(
        create_simulator(SimulatorLedger()), timeout_s=5, event_hooks=spec_checker().hooks()
    )
    users = []
    for who in ("admin", "ada"):
        user = User(email=f"{who}@example.com", password_hash="x", first_name=who.title(), last_name="T")
        session.add(user)
        session.flush()
        users.append(user)
    session.add(AdminRole(user_id=users[0].id))
    ticket = sessions.start(session, user=users[0], remember_me=False, browser_binding="b").ticket
    exchanged = sessions.exchange_ticket(session, ticket, browser_binding="b")
    assert exchanged is not None
    candle = Product(name="8oz Amber Soy Candle", base_price_cents=2800, stock_quantity=20)
    lotion = Product(name="Hand & Body Lotion", base_price_cents=1800, stock_quantity=20)
    session.add_all([candle, lotion, DiscountCode(code="TEN", kind="percent", value=1000)])
    session.commit()
    with TestClient(create_api()) as test_client:
        yield Shop(
            session=session,
            engine=engine,
            client=test_client,
            gateway=SquareGateway(client, location_id=DEFAULT_LOCATION_ID, backoff_s=0),
            refunds=SquareRefunds(client, backoff_s=0),
            admin=users[0],
            ada=users[1],
            cookie=exchanged[0],
            candle=candle,
            lotion=lotion,
        )


def _text(html: str) -> str:
    """The page's text, tags removed, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_order_stores_the_discount_and_its_code_and_adds_up(shop: Shop) -> None:
    order = shop.place(user=shop.ada)

    assert (order.subtotal_cents, order.discount_cents, order.discount_code) == (SUBTOTAL, DISCOUNT, "TEN")
    assert (order.shipping_cents, order.tax_cents, order.total_cents) == (SHIPPING, GST + PST, TOTAL)
    assert (
        order.total_cents
        == order.subtotal_cents - order.discount_cents + order.shipping_cents + order.tax_cents
    )


def test_the_receipt_the_order_pages_and_the_back_office_show_the_discount_row(shop: Shop) -> None:
    order = shop.place(user=shop.ada)
    row = ("Discount (TEN)", "-$7.40")

    receipt = checkout.order_receipt(shop.session, order_id=order.id, order_number=order.order_number)
    assert receipt is not None and receipt.discount_rows == (("Discount (TEN)", -DISCOUNT),)

    summary = order_history.get_order(shop.session, user_id=shop.ada.id, order_id=order.id)
    guest_view = order_history.order_with_access_proven(shop.session, order_id=order.id)
    assert summary is not None and guest_view is not None
    for card in (order_card(summary), order_card(guest_view, guest=True)):
        assert [(r.label, r.amount) for r in card.discounts] == [row]
        assert (card.subtotal, card.shipping, card.total) == ("$74.00", "$15.00", "$91.39")
        assert [(t.label, t.amount) for t in card.taxes] == [("GST 5%", "$4.08"), ("PST 7%", "$5.71")]

    detail = order_detail(shop.session, order.id)
    assert detail is not None
    view = order_view(detail)
    assert [(r.label, r.amount) for r in view.discounts] == [row]
    assert (view.subtotal, view.total) == ("$74.00", "$91.39")


def test_an_order_without_a_discount_has_no_discount_row(shop: Shop) -> None:
    order = shop.place(code="")
    receipt = load_receipt(shop.session, order.id)
    summary = order_history.order_with_access_proven(shop.session, order_id=order.id)
    detail = order_detail(shop.session, order.id)

    assert receipt is not None and receipt.discount_rows == ()
    assert summary is not None and order_card(summary).discounts == []
    assert detail is not None and order_view(detail).discounts == []
    shop.client.cookies.set(sessions.COOKIE_NAME, shop.cookie)
    invoice = shop.client.get(routes.invoice_url(order.id))
    assert invoice.status_code == 200 and "Discount" not in invoice.text


def test_the_confirmation_mail_shows_the_discount_in_text_and_html(shop: Shop) -> None:
    order = shop.place()

    mail = shop.session.exec(
        select(OutgoingMail).where(
            col(OutgoingMail.kind) == CONFIRMATION_KIND, col(OutgoingMail.to_address) == order.email
        )
    ).one()

    line = "Subtotal $74.00, Discount (TEN) -$7.40, shipping $15.00, GST 5% $4.08, PST 7% $5.71. Total $91.39"
    assert line in mail.body_text
    assert line in _text(mail.body_html)


def test_the_invoice_shows_the_discount_between_the_subtotal_and_the_shipping(shop: Shop) -> None:
    order = shop.place(user=shop.ada)
    shop.client.cookies.set(sessions.COOKIE_NAME, shop.cookie)

    response = shop.client.get(routes.invoice_url(order.id))

    assert response.status_code == 200
    text = _text(response.text)
    assert "Subtotal $74.00 Discount (TEN) -$7.40 Shipping $15.00 GST 5% $4.08 PST 7% $5.71" in text
    assert "Total (CAD) $91.39" in text


def test_refunds_by_items_give_back_the_price_less_the_discount_plus_the_taxes_then_the_rest(
    shop: Shop,
) -> None:
    order = shop.place(user=shop.ada)
    items = shop.items(order)

    def refund(mode: str, refunded: int, **extra: object) -> int:
        result = refund_order(
            order_id=order.id,
            admin_user_id=shop.admin.id,
            mode=mode,
            idempotency_key=f"refund-{next(_tokens)}",
            expected_status=None,
            expected_refunded_cents=refunded,
            refunds=shop.refunds,
            engine=shop.engine,
            **extra,
        )
        return result.amount_cents

    # a candle: 28.00 − 2.80 = 25.20, and GST 5% and PST 7% of it (1.26 and 1.76)
    first = refund("items", 0, quantities={items["candle"]: 1})
    assert first == 2520 + 126 + 176
    # the other candle and the lotion: the goods less the discount and the taxes' goods part left
    second = refund("items", first, quantities={items["candle"]: 1, items["lotion"]: 1})
    assert first + second == (SUBTOTAL - DISCOUNT) + 333 + 466  # GST and PST of 66.60
    rest = refund("rest", first + second)
    assert rest == SHIPPING + 75 + 105  # the shipping and its GST and PST
    assert first + second + rest == TOTAL
