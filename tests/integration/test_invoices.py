"""Printable invoices and packing slips (``api/invoices.py``): their content, who may see them, and
the admin's batch print.

Orders are placed and paid through the real checkout services for a BC address (GST 5% and PST 7%
stored as the order's tax lines), on a fresh Square simulator; the pages are asked for over HTTP
with the session cookie a browser would send. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.exceptions import StarletteDeprecationWarning

from shop_app import routes
from shop_app.api import create_api
from shop_app.domain.money import format_cents
from shop_app.models import AdminRole, Order, Product, User
from shop_app.services import cart, checkout, order_access, sessions
from shop_app.services.admin.order_changes import refund_order
from shop_app.services.cart import CartOwner
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.services.square.refunds import SquareRefunds
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.support.checkout import FORM
from tests.support.square import spec_checker

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

_tokens = itertools.count(1)
EVIL_NAME = "<script>alert('x')</script> Candle & Co"
GST_HST_NUMBER = "123456789 RT0001"


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@dataclass
class Shop:
    """An admin, two customers, two products, a Square simulator and an HTTP client of the shop."""

    session: Session
    engine: Engine
    client: TestClient
    gateway: SquareGateway
    refunds: SquareRefunds
    users: dict[str, User]
    cookies: dict[str, str]
    candle: Product
    evil: Product

    def place(
        self, *, user: User | None = None, notes: str = "", gift: str = "", wrap: bool = False
    ) -> Order:
        """A paid order of 2 candles and 1 product with a hostile name, shipped to Victoria, BC."""
        owner = CartOwner(token=f"cart-{next(_tokens)}", user_id=user.id if user else None)
        cart.add_item(self.session, owner, product_id=self.candle.id, quantity=2)
        cart.add_item(self.session, owner, product_id=self.evil.id, quantity=1)
        self.session.commit()
        email = user.email if user else "guest@example.com"
        form = dataclasses.replace(
            FORM,
            email=email,
            phone="250-555-0199",
            special_instructions=notes,
            gift_message=gift,
            gift_wrap="on" if wrap else "",
        )
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
            return fresh.get(Order, placed.order_id)

    def get(self, url: str, who: str | None) -> httpx.Response:
        self.client.cookies.clear()
        if who:
            self.client.cookies.set(sessions.COOKIE_NAME, self.cookies[who])
        return self.client.get(url)


@pytest.fixture
def shop(session: Session, engine: Engine, app_env: Callable[..., None]) -> Iterator[Shop]:
    client = square_client_for_app(
        create_simulator(SimulatorLedger()), timeout_s=5, event_hooks=spec_checker().hooks()
    )
    users: dict[str, User] = {}
    cookies: dict[str, str] = {}
    for who in ("admin", "ada", "bob"):
        user = User(email=f"{who}@example.com", password_hash="x", first_name=who.title(), last_name="T")
        session.add(user)
        session.flush()
        if who == "admin":
            session.add(AdminRole(user_id=user.id))
        ticket = sessions.start(session, user=user, remember_me=False, browser_binding="b").ticket
        exchanged = sessions.exchange_ticket(session, ticket, browser_binding="b")
        assert exchanged is not None
        users[who], cookies[who] = user, exchanged[0]
    candle = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=20)
    evil = Product(name=EVIL_NAME, base_price_cents=1800, stock_quantity=20)
    session.add_all([candle, evil])
    settings = get_store_settings(session)
    settings.company_name = "Cedar & Ember Candles"
    settings.address = "1 Wick Street\nVictoria, BC V8V 1A1"
    settings.email = "hello@example.com"
    settings.phone = "250-555-0100"
    settings.gst_hst_number = GST_HST_NUMBER
    session.add(settings)
    session.commit()
    with TestClient(create_api()) as test_client:
        yield Shop(
            session=session,
            engine=engine,
            client=test_client,
            gateway=SquareGateway(client, location_id=DEFAULT_LOCATION_ID, backoff_s=0),
            refunds=SquareRefunds(client, backoff_s=0),
            users=users,
            cookies=cookies,
            candle=candle,
            evil=evil,
        )


def _text(html: str) -> str:
    """The page's text, tags removed, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --------------------------------------------------------------------------- the invoice


def test_the_invoice_states_the_seller_the_order_each_tax_line_and_the_payment(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"])

    response = shop.get(routes.invoice_url(order.id), "admin")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html, text = response.text, _text(response.text)
    assert f"<title>Invoice {order.order_number}</title>" in html
    assert f"Invoice {order.order_number}" in text
    assert "Cedar &amp; Ember Candles" in html and "1 Wick Street" in text and "250-555-0100" in text
    assert f"GST/HST No. {GST_HST_NUMBER}" in text
    assert "ada@example.com" in text and "12 Cedar Lane" in text and "Victoria, BC V8V 1A1" in text
    # 2 × 28.00 + 18.00 = 74.00, shipping 15.00 (under 100.00): GST 5% and PST 7% of 89.00.
    assert order.subtotal_cents == 7400 and order.shipping_cents == 1500
    assert "GST 5% $4.45" in text and "PST 7% $6.23" in text
    assert f"Total (CAD) {format_cents(order.total_cents)}" in text and order.total_cents == 9968
    assert "Subtotal $74.00" in text and "Shipping $15.00" in text
    assert "8oz Amber Soy Candle - Vanilla Bean 2 $28.00 $56.00" in text
    assert "Square" in text and "Completed" in text and "paid on" in text
    assert 'id="print-button"' in html and "window.print()" in html
    assert re.search(r"@media print\s*\{[^}]*\.toolbar\s*\{\s*display:\s*none", html)


def test_every_stored_text_is_escaped(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"], notes="<img src=x onerror=alert(1)>")

    invoice = shop.get(routes.invoice_url(order.id), "admin").text
    slip = shop.get(routes.packing_slip_url(order.id), "admin").text

    for html in (invoice, slip):
        assert "<script>alert" not in html and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
        assert "Candle &amp; Co" in html
    assert "<img src=x" not in slip and "&lt;img src=x onerror=alert(1)&gt;" in slip


def test_without_a_gst_hst_number_none_is_printed(shop: Shop) -> None:
    settings = get_store_settings(shop.session)
    settings.gst_hst_number = ""
    shop.session.add(settings)
    shop.session.commit()
    order = shop.place(user=shop.users["ada"])

    assert "GST/HST No." not in shop.get(routes.invoice_url(order.id), "ada").text


def test_the_invoice_lists_the_refunds_so_far(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"])
    refund_order(
        order_id=order.id,
        admin_user_id=shop.users["admin"].id,
        mode="amount",
        amount_cents=1500,
        idempotency_key="refund-1",
        expected_status=order.status,
        expected_refunded_cents=0,
        refunds=shop.refunds,
        engine=shop.engine,
    )

    text = _text(shop.get(routes.invoice_url(order.id), "ada").text)

    assert "Refunded $15.00 on" in text and "Refunds so far: $15.00" in text
    assert "Partially refunded" in text


# --------------------------------------------------------------------------- the packing slip


def test_the_packing_slip_has_the_address_items_and_instructions_and_no_prices(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"], notes="Leave it with the neighbour, please")

    response = shop.get(routes.packing_slip_url(order.id), "admin")

    assert response.status_code == 200
    text = _text(response.text)
    assert f"Packing slip {order.order_number}" in text and "Cedar &amp; Ember Candles" in response.text
    assert "Ada Lovelace" in text and "12 Cedar Lane" in text and "Phone: 250-555-0199" in text
    assert "8oz Amber Soy Candle - Vanilla Bean 2" in text and "Items 3" in text
    assert "Leave it with the neighbour, please" in text
    assert "$" not in response.text
    assert "Gift" not in text  # none asked


def test_the_packing_slip_has_the_gift_wrap_and_the_gift_message_escaped(shop: Shop) -> None:
    """Issue 19, acceptance 6: what the shopper asked at checkout, for whoever packs the order."""
    order = shop.place(gift="Happy birthday!\n<script>alert(1)</script> Love, Ada", wrap=True)

    response = shop.get(routes.packing_slip_url(order.id), "admin")

    text = _text(response.text)
    assert "Gift wrap this order." in text
    assert "Happy birthday!" in text and "&lt;script&gt;alert(1)&lt;/script&gt; Love, Ada" in response.text
    assert "<script>alert(1)" not in response.text
    invoice = shop.get(routes.invoice_url(order.id), "admin").text
    assert "Happy birthday" not in invoice  # a gift's message is not the buyer's invoice's


# --------------------------------------------------------------------------- who may see them


def test_only_admins_and_the_orders_customer_see_the_invoice_and_only_admins_the_slip(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"])
    invoice, slip = routes.invoice_url(order.id), routes.packing_slip_url(order.id)

    assert shop.get(invoice, "admin").status_code == 200
    assert shop.get(slip, "admin").status_code == 200
    assert shop.get(invoice, "ada").status_code == 200
    refused = [
        shop.get(slip, "ada"),
        shop.get(invoice, "bob"),
        shop.get(slip, "bob"),
        shop.get(invoice, None),
        shop.get(slip, None),
        shop.get(routes.invoice_url(order.id + 1000), "admin"),
        shop.get("/orders/abc/invoice", "admin"),
        shop.get("/orders/0/invoice", "admin"),
    ]
    assert [response.status_code for response in refused] == [404] * len(refused)
    assert all(order.order_number not in response.text for response in refused)
    assert len({response.text for response in refused}) == 1  # nothing tells them apart


def test_a_guest_sees_their_invoice_through_the_signed_order_link_only(shop: Shop) -> None:
    order = shop.place()
    other = shop.place()
    with Session(shop.engine) as session:
        link = order_access.new_link(session, order_id=order.id)
        session.commit()
    token = parse_qs(urlsplit(link).query)["token"][0]

    assert shop.get(routes.invoice_url(order.id, token=token), None).status_code == 200
    assert shop.get(routes.invoice_url(other.id, token=token), None).status_code == 404
    assert shop.get(routes.invoice_url(order.id, token="x" * 43), None).status_code == 404
    assert shop.get(f"{routes.packing_slip_url(order.id)}?token={token}", None).status_code == 404
    assert shop.get(routes.invoice_url(order.id), None).status_code == 404


def test_answers_are_private_unindexed_and_carry_the_shops_security_headers(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"])

    for response in (
        shop.get(routes.invoice_url(order.id), "ada"),
        shop.get(routes.invoice_url(order.id), "bob"),
        shop.get(routes.packing_slip_url(order.id), "admin"),
    ):
        assert response.headers["cache-control"] == "private, no-store"
        assert response.headers["x-robots-tag"] == "noindex"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"


# --------------------------------------------------------------------------- the batch print


def test_an_admin_prints_several_orders_each_on_its_own_page(shop: Shop) -> None:
    first, second = shop.place(user=shop.users["ada"]), shop.place(user=shop.users["bob"])

    invoices = shop.get(routes.admin_orders_print_url([second.id, first.id], "invoice"), "admin")
    slips = shop.get(routes.admin_orders_print_url([first.id, second.id], "packing-slip"), "admin")

    assert invoices.status_code == 200 and slips.status_code == 200
    assert invoices.text.count('<article class="doc invoice">') == 2
    assert invoices.text.index(second.order_number) < invoices.text.index(first.order_number)
    assert slips.text.count('<article class="doc packing-slip">') == 2 and "$" not in slips.text
    assert re.search(r"\.doc\s*\{[^}]*break-after:\s*page", invoices.text)
    assert invoices.headers["cache-control"] == "private, no-store"


def test_the_batch_refuses_junk_too_many_and_unknown_ids_and_everyone_but_admins(shop: Shop) -> None:
    order = shop.place(user=shop.users["ada"])
    url = routes.ADMIN_ORDERS_PRINT

    too_many = shop.get(routes.admin_orders_print_url(list(range(1, 102)), "invoice"), "admin")
    junk = shop.get(f"{url}?ids=1,abc&doc=invoice", "admin")
    empty = shop.get(f"{url}?ids=&doc=invoice", "admin")
    bad_doc = shop.get(f"{url}?ids={order.id}&doc=receipt", "admin")
    unknown = shop.get(routes.admin_orders_print_url([order.id, order.id + 1000], "invoice"), "admin")

    assert [r.status_code for r in (too_many, junk, empty, bad_doc)] == [400] * 4
    assert "at most 100" in too_many.text and "not an order id" in junk.text
    assert unknown.status_code == 404 and str(order.id + 1000) in unknown.text
    repeated = shop.get(f"{url}?ids={','.join([str(order.id)] * 101)}&doc=invoice", "admin")
    assert repeated.status_code == 200  # one order named 101 times: printed once
    assert repeated.text.count(f"Invoice {order.order_number}") == 1
    assert order.order_number not in unknown.text
    for who in ("ada", None):
        refused = shop.get(routes.admin_orders_print_url([order.id], "invoice"), who)
        assert refused.status_code == 404 and order.order_number not in refused.text
