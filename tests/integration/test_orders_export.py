"""The orders export for the accountant (``GET /api/admin/orders.csv``, issue 19 acceptance 5): its
figures add up to the dashboard's, its taxes are the orders' own, its filters are the list's, and
only admins get it.

Orders are placed and paid through the real checkout services (BC, Ontario and a US export), on a
fresh Square simulator, and refunded through the back office's refund service; two more are
written straight through the models (an order from before tax lines were stored, and a simulated
PayPal order that took no money). The file is asked for over HTTP with the session cookie a
browser would send, and read back with :mod:`csv`. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.exceptions import StarletteDeprecationWarning

from shop_app import routes
from shop_app.api import create_api
from shop_app.domain.money import format_plain, parse_dollars
from shop_app.domain.order_export import COLUMNS, TAX_COLUMNS, TAX_OTHER
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.tax import lines_from_json
from shop_app.models import AdminRole, DiscountCode, Order, OrderAddress, OrderItem, Product, User
from shop_app.services import cart, checkout, discounts, sessions
from shop_app.services.admin import orders as admin_orders
from shop_app.services.admin.order_changes import refund_order
from shop_app.services.admin.orders_export import TooManyOrders, export_orders_csv
from shop_app.services.admin.sales import sales_overview
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CheckoutForm
from shop_app.services.order_history import SALE_STATUSES
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.services.square.refunds import SquareRefunds
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.support.checkout import FORM
from tests.support.square import spec_checker

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

_tokens = itertools.count(1)
FORMULA_NAME = '=HYPERLINK("http://evil.example","Fig") Candle'
ONTARIO = dataclasses.replace(FORM, city="Toronto", state="ON", zip_code="M5V 2T6")
WASHINGTON = dataclasses.replace(FORM, city="Seattle", state="WA", zip_code="98101", country="United States")


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@dataclass
class Shop:
    """An admin, a customer, two products, a Square simulator and an HTTP client of the shop."""

    session: Session
    engine: Engine
    client: TestClient
    gateway: SquareGateway
    refunds: SquareRefunds
    admin: User
    cookies: dict[str, str]
    candle: Product
    fig: Product  # its name starts with "="

    def place(
        self, form: CheckoutForm = FORM, *, candles: int = 0, figs: int = 0, email: str = "", code: str = ""
    ) -> Order:
        """A paid order through checkout and Square, shipped to ``form``'s address (with ``code``
        on the cart, when given)."""
        owner = CartOwner(token=f"cart-{next(_tokens)}", user_id=None)
        for product, quantity in ((self.candle, candles), (self.fig, figs)):
            if quantity:
                cart.add_item(self.session, owner, product_id=product.id, quantity=quantity)
        if code:
            discounts.use_code(self.session, owner, code)
        self.session.commit()
        form = dataclasses.replace(form, email=email or f"buyer{next(_tokens)}@example.com")
        placed = checkout.place_order(owner=owner, user_id=None, form=form, engine=self.engine)
        paid = checkout.pay(
            order_id=placed.order_id,
            source_id=f"cnon:card-nonce-ok:{next(_tokens)}",
            gateway=self.gateway,
            owner=owner,
            engine=self.engine,
        )
        assert paid.succeeded
        return self.order(placed.order_id)

    def order(self, order_id: int) -> Order:
        with Session(self.engine) as fresh:
            found = fresh.get(Order, order_id)
            assert found is not None
            return found

    def refund(self, order: Order, mode: str, **extra: object) -> None:
        refund_order(
            order_id=order.id,
            admin_user_id=self.admin.id,
            mode=mode,
            idempotency_key=f"refund-{next(_tokens)}",
            expected_status=order.status,
            expected_refunded_cents=0,
            refunds=self.refunds,
            engine=self.engine,
            **extra,
        )

    def written(self, number: str, payment_status: str, name: str) -> Order:
        """A delivered order written through the models, without tax lines (as before issue 19)."""
        now = datetime.now(UTC)
        order = Order(
            order_number=number,
            email=f"{name.split(maxsplit=1)[0].lower()}@example.com",
            status=OrderStatus.DELIVERED,
            payment_status=payment_status,
            subtotal_cents=1000,
            tax_cents=120,
            shipping_cents=1500,
            total_cents=2620,
            created_at=now,
            paid_at=now if payment_status == PaymentStatus.COMPLETED else None,
        )
        self.session.add(order)
        self.session.flush()
        first, last = name.split()
        self.session.add_all(
            [
                OrderItem(
                    order_id=order.id,
                    product_id=self.candle.id,
                    quantity=1,
                    unit_price_cents=1000,
                    total_price_cents=1000,
                    product_snapshot={"name": "Old Candle", "selected_options": {"Scent": "Cedar"}},
                ),
                OrderAddress(
                    order_id=order.id,
                    first_name=first,
                    last_name=last,
                    address_line1="1 Main St",
                    city="Victoria",
                    state="BC",
                    zip_code="V8V 1A1",
                    country="Canada",
                ),
            ]
        )
        self.session.commit()
        return order

    def export(self, who: str | None = "admin", **query: str) -> httpx.Response:
        self.client.cookies.clear()
        if who:
            self.client.cookies.set(sessions.COOKIE_NAME, self.cookies[who])
        return self.client.get(routes.admin_orders_csv_url(query.get("search", ""), query.get("status", "")))

    def rows(self, **query: str) -> list[dict[str, str]]:
        response = self.export(**query)
        assert response.status_code == 200, response.text
        reader = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline=""))
        assert tuple(reader.fieldnames or ()) == COLUMNS
        return list(reader)


@pytest.fixture
def shop(session: Session, engine: Engine, app_env: Callable[..., None]) -> Iterator[Shop]:
    client = square_client_for_app(
        create_simulator(SimulatorLedger()), timeout_s=5, event_hooks=spec_checker().hooks()
    )
    users: dict[str, User] = {}
    cookies: dict[str, str] = {}
    for who in ("admin", "ada"):
        user = User(email=f"{who}@example.com", password_hash="x", first_name=who.title(), last_name="T")
        session.add(user)
        session.flush()
        if who == "admin":
            session.add(AdminRole(user_id=user.id))
        ticket = sessions.start(session, user=user, remember_me=False, browser_binding="b").ticket
        exchanged = sessions.exchange_ticket(session, ticket, browser_binding="b")
        assert exchanged is not None
        users[who], cookies[who] = user, exchanged[0]
    candle = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=50)
    fig = Product(name=FORMULA_NAME, base_price_cents=1800, stock_quantity=50)
    session.add_all([candle, fig])
    session.commit()
    with TestClient(create_api()) as test_client:
        yield Shop(
            session=session,
            engine=engine,
            client=test_client,
            gateway=SquareGateway(client, location_id=DEFAULT_LOCATION_ID, backoff_s=0),
            refunds=SquareRefunds(client, backoff_s=0),
            admin=users["admin"],
            cookies=cookies,
            candle=candle,
            fig=fig,
        )


@pytest.fixture
def orders(shop: Shop) -> dict[str, Order]:
    """BC with two lines, Ontario, a US export, BC refunded in part, BC refunded in full, BC with
    the code TEN (10 % off the goods, before tax), an order from before tax lines, and a simulated
    PayPal order (not charged)."""
    shop.session.add(DiscountCode(code="TEN", kind="percent", value=1000))
    shop.session.commit()
    placed = {
        "bc": shop.place(candles=2, figs=1, email="ada@example.com"),
        "on": shop.place(ONTARIO, candles=1, email="oscar@example.com"),
        "us": shop.place(WASHINGTON, figs=2, email="walt@example.com"),
        "part": shop.place(candles=1, figs=1),
        "full": shop.place(candles=1),
        "ten": shop.place(candles=2, code="TEN"),
    }
    shop.refund(placed["part"], "amount", amount_cents=1500)
    shop.refund(placed["full"], "rest")
    placed["old"] = shop.written("CE-20200101-OLDOLD", PaymentStatus.COMPLETED, "Grace Hopper")
    placed["paypal"] = shop.written("CE-20200101-PAYPAL", PaymentStatus.NOT_CHARGED, "Pay Pal")
    return {key: shop.order(order.id) for key, order in placed.items()}


def _firsts(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """One row per order: the accountant's "line_no = 1" filter."""
    return [row for row in rows if row["line_no"] == "1"]


def test_the_file_adds_up_to_the_sales_overview(shop: Shop, orders: dict[str, Order]) -> None:
    """The dashboard's revenue (``services.admin.sales``) counts the sales: paid orders still pending,
    processing, shipped or delivered (not cancelled, not refunded, not the simulated PayPal), at
    their total less every refund so far, by the shop's calendar day. The export of every paid order
    (the list's default: refunded and cancelled ones too) has those figures in ``kept`` (``total`` −
    ``refunded``), once per order on its ``line_no`` 1 row: summed over those rows whose status is a
    sale status and whose ``placed_date`` is in the overview's 30 days, they give its 30-day revenue
    to the cent, and the count its orders."""
    overview = sales_overview(shop.session)
    rows = shop.rows()
    month = overview.periods[-1]
    first_day = overview.days[0].day.isoformat()

    sales = [
        row
        for row in _firsts(rows)
        if row["status"] in {s.value for s in SALE_STATUSES}
        and first_day <= row["placed_date"] <= overview.today.isoformat()
    ]

    assert sum(parse_dollars(row["kept"]) for row in sales) == month.revenue_cents
    assert len(sales) == month.orders == 6  # bc, on, us, part (refunded in part), ten and old
    by_number = {row["order_number"]: row for row in _firsts(rows)}
    assert set(by_number) == {o.order_number for key, o in orders.items() if key != "paypal"}
    part = by_number[orders["part"].order_number]
    assert (part["payment_status"], part["refunded"], part["kept"]) == (
        "partially_refunded",
        "15.00",
        format_plain(orders["part"].total_cents - 1500),
    )
    ten = by_number[orders["ten"].order_number]
    assert (ten["subtotal"], ten["discount"], ten["discount_code"]) == ("56.00", "5.60", "TEN")
    assert (ten["gst"], ten["pst"]) == ("3.27", "4.58")  # 5 % and 7 % of 56.00 - 5.60 + 15.00
    assert ten["total"] == format_plain(orders["ten"].total_cents) == "73.25"
    assert {row["discount_code"] for key, row in by_number.items() if key != ten["order_number"]} == {""}
    full = by_number[orders["full"].order_number]
    assert (full["status"], full["kept"], full["refunded"]) == ("refunded", "0.00", full["total"])
    for row in _firsts(rows):  # each order's figures hold together, as the database's check says
        order_rows = [r for r in rows if r["order_number"] == row["order_number"]]
        assert [r["line_no"] for r in order_rows] == [str(n) for n in range(1, len(order_rows) + 1)]
        assert sum(parse_dollars(r["line_total"]) for r in order_rows) == parse_dollars(row["subtotal"])
        money = [parse_dollars(row[column]) for column in ("subtotal", "shipping", "tax_total")]
        assert sum(money) - parse_dollars(row["discount"]) == parse_dollars(row["total"])


def test_each_orders_tax_columns_are_its_stored_tax_lines(shop: Shop, orders: dict[str, Order]) -> None:
    by_number = {row["order_number"]: row for row in _firsts(shop.rows())}

    for key, order in orders.items():
        if key == "paypal":
            continue
        row = by_number[order.order_number]
        stored = {line.code.lower(): line.amount_cents for line in lines_from_json(order.tax_lines)}
        assert {
            c: parse_dollars(row[c]) for c in TAX_COLUMNS if c != TAX_OTHER and row[c] != "0.00"
        } == stored
        assert parse_dollars(row["tax_total"]) == order.tax_cents
        assert sum(parse_dollars(row[c]) for c in TAX_COLUMNS) == order.tax_cents
    bc, on, us, old = (by_number[orders[k].order_number] for k in ("bc", "on", "us", "old"))
    assert (bc["ship_province"], bc["gst"] != "0.00", bc["pst"] != "0.00", bc["hst"]) == (
        "BC",
        True,
        True,
        "0.00",
    )
    assert (on["ship_province"], on["hst"] != "0.00", on["gst"], on["pst"]) == ("ON", True, "0.00", "0.00")
    assert (us["ship_country"], us["tax_total"], us["tax_other"]) == (
        "United States",
        "0.00",
        "0.00",
    )  # export
    assert (old["tax_other"], old["gst"], old["options"]) == ("1.20", "0.00", "Cedar")  # no stored lines


def test_the_filters_give_the_lists_orders_every_page_newest_first(
    shop: Shop, orders: dict[str, Order]
) -> None:
    def listed(search: str = "", status: str = "") -> list[str]:
        found, page = [], 1
        while True:  # every page of the list, two orders a page
            result = admin_orders.list_orders(
                shop.session,
                search=search,
                status=status or admin_orders.ALL_STATUSES,
                page=page,
                page_size=2,
            )
            found += [row.order_number for row in result.rows]
            if page >= result.pages:
                return found
            page += 1

    def exported(search: str = "", status: str = "") -> list[str]:
        return [row["order_number"] for row in _firsts(shop.rows(search=search, status=status))]

    for query in (
        {},
        {"status": "pending"},
        {"status": "refunded"},
        {"status": "delivered"},
        {"status": admin_orders.NOT_CHARGED},
        {"search": "  OSCAR@example "},
        {"search": "lovelace"},
        {"search": "lovelace", "status": "refunded"},
        {"search": orders["us"].order_number[-6:].lower()},
        {"search": "100%_"},
        {"status": "no-such-status"},
    ):
        assert exported(**query) == listed(**query), query
    assert exported(status=admin_orders.NOT_CHARGED) == ["CE-20200101-PAYPAL"]
    assert exported(status="refunded") == [orders["full"].order_number]
    assert len(exported()) == 7  # four pages of the list


def test_a_product_name_that_looks_like_a_formula_is_written_as_text(
    shop: Shop, orders: dict[str, Order]
) -> None:
    rows = [row for row in shop.rows() if row["order_number"] == orders["bc"].order_number]

    assert [(row["product"], row["quantity"], row["unit_price"], row["line_total"]) for row in rows] == [
        ("8oz Amber Soy Candle - Vanilla Bean", "2", "28.00", "56.00"),
        (f"'{FORMULA_NAME}", "1", "18.00", "18.00"),
    ]
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in shop.rows() for cell in row.values())


def test_admins_get_a_dated_private_attachment_and_nobody_else_gets_the_file(
    shop: Shop, orders: dict[str, Order]
) -> None:
    response = shop.export()
    anonymous, customer = shop.export(None), shop.export("ada")

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(
        r'attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"', response.headers["content-disposition"]
    )
    assert response.headers["cache-control"] == "no-store"
    assert anonymous.status_code == 401 and customer.status_code == 403
    assert customer.json() == {"success": False, "error": "Access denied"}
    for refused in (anonymous, customer):
        assert "text/csv" not in refused.headers["content-type"]
        assert orders["bc"].order_number not in refused.text and "ada@example.com" not in refused.text


def test_more_orders_than_a_file_may_hold_are_refused_not_cut_short(
    shop: Shop, orders: dict[str, Order]
) -> None:
    with pytest.raises(TooManyOrders, match="7 orders match: at most 6 can be exported"):
        export_orders_csv(shop.session, limit=6)
    assert export_orders_csv(shop.session, limit=7).count("\r\n") == 1 + 9  # the header, 9 lines of 7 orders
