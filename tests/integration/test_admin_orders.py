"""The back office's orders: the list, one order, and status changes with Square refunds.

Orders are placed and paid through the real checkout services, on a fresh Square simulator
reached through the SDK (every exchange checked against Square's OpenAPI subset); refunds go the
same way. Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import (
    Order,
    OrderAddress,
    OrderItem,
    OrderStatusChange,
    OutgoingMail,
    Payment,
    Product,
    Refund,
    RefundLine,
    User,
)
from shop_app.services import cart, checkout, order_history
from shop_app.services.admin import orders as admin_orders
from shop_app.services.admin.order_changes import OrderChangeError, change_status, refund_order
from shop_app.services.cart import CartOwner
from shop_app.services.square import webhooks
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.services.square.refunds import SquareRefunds
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.support.checkout import FORM
from tests.support.square import spec_checker

S = OrderStatus
_tokens = itertools.count(1)
CANDLE_NAME = "8oz Amber Soy Candle - Vanilla Bean"


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@dataclass
class Shop:
    """A customer, an admin, two products and a Square simulator, on the test database."""

    session: Session
    engine: Engine
    ledger: SimulatorLedger
    gateway: SquareGateway
    refunds: SquareRefunds
    customer: User
    admin: User
    candle: Product
    lotion: Product

    def place(self, *, user: User | None = None, quantities: tuple[int, int] = (2, 1)) -> Order:
        """A paid order of ``quantities`` candles and lotions, through checkout and Square."""
        owner = CartOwner(token=f"cart-{next(_tokens)}", user_id=user.id if user else None)
        for product, quantity in zip((self.candle, self.lotion), quantities, strict=True):
            if quantity:
                cart.add_item(self.session, owner, product_id=product.id, quantity=quantity)
        self.session.commit()
        form = FORM if user is None else dataclasses.replace(FORM, email=user.email)
        placed = checkout.place_order(owner=owner, user_id=owner.user_id, form=form, engine=self.engine)
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
            return fresh.get(Order, order_id)

    def stock(self, product: Product) -> int:
        with Session(self.engine) as fresh:
            return fresh.get(Product, product.id).stock_quantity

    def history(self, order_id: int) -> list[OrderStatusChange]:
        with Session(self.engine) as fresh:
            return list(
                fresh.exec(
                    select(OrderStatusChange)
                    .where(OrderStatusChange.order_id == order_id)
                    .order_by(OrderStatusChange.id)
                )
            )

    def refunds_of(self, order_id: int) -> list[Refund]:
        with Session(self.engine) as fresh:
            return list(fresh.exec(select(Refund).where(Refund.order_id == order_id).order_by(Refund.id)))

    def refund_mails(self, to: str) -> list[OutgoingMail]:
        with Session(self.engine) as fresh:
            return list(
                fresh.exec(
                    select(OutgoingMail)
                    .where(OutgoingMail.to_address == to, OutgoingMail.kind == "order_refund")
                    .order_by(OutgoingMail.id)
                )
            )

    def status_mails(self, to: str) -> list[OutgoingMail]:
        with Session(self.engine) as fresh:
            return list(
                fresh.exec(
                    select(OutgoingMail)
                    .where(OutgoingMail.to_address == to, OutgoingMail.kind == "order_status")
                    .order_by(OutgoingMail.id)
                )
            )

    def items(self, order: Order | int) -> dict[str, int]:
        """The order's item ids by product: "candle", "lotion"."""
        order_id = order if isinstance(order, int) else order.id
        with Session(self.engine) as fresh:
            rows = fresh.exec(select(OrderItem).where(OrderItem.order_id == order_id)).all()
        names = {self.candle.id: "candle", self.lotion.id: "lotion"}
        return {names[row.product_id]: row.id for row in rows}

    def refund(self, order: Order | int, mode: str, *, key: str | None = None, **extra: object):
        """A refund from the Refund dialog: what the admin's page shows is what it expects."""
        order_id = order if isinstance(order, int) else order.id
        if "expected_status" not in extra:
            extra["expected_status"] = self.order(order_id).status
        if "expected_refunded_cents" not in extra:
            extra["expected_refunded_cents"] = sum(r.amount_cents for r in self.refunds_of(order_id))
        return refund_order(
            order_id=order_id,
            admin_user_id=self.admin.id,
            mode=mode,
            idempotency_key=key if key is not None else f"dialog-{next(_tokens)}",
            refunds=self.refunds,
            engine=self.engine,
            **extra,
        )

    def change(self, order: Order | int, target: str, **extra: object):
        order_id = order if isinstance(order, int) else order.id
        if "expected_status" not in extra:  # the status the admin's page shows
            extra["expected_status"] = self.order(order_id).status
        return change_status(
            order_id=order_id,
            target=target,
            admin_user_id=self.admin.id,
            refunds=self.refunds,
            engine=self.engine,
            **extra,
        )


@pytest.fixture
def shop(session: Session, engine: Engine) -> Shop:
    ledger = SimulatorLedger()
    client = square_client_for_app(create_simulator(ledger), timeout_s=5, event_hooks=spec_checker().hooks())
    customer = User(email="ada@example.com", password_hash="x", first_name="Ada", last_name="Lovelace")
    admin = User(email="owner@example.com", password_hash="x", first_name="Olive", last_name="Owner")
    candle = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=10)
    lotion = Product(name="Hand & Body Lotion - Coconut Lime", base_price_cents=1800, stock_quantity=10)
    session.add_all([customer, admin, candle, lotion])
    session.commit()
    return Shop(
        session=session,
        engine=engine,
        ledger=ledger,
        gateway=SquareGateway(client, location_id=DEFAULT_LOCATION_ID, backoff_s=0),
        refunds=SquareRefunds(client, backoff_s=0),
        customer=customer,
        admin=admin,
        candle=candle,
        lotion=lotion,
    )


def _refused(shop: Shop, order: Order | int, target: str, **extra: object) -> str:
    with pytest.raises(OrderChangeError) as caught:
        shop.change(order, target, **extra)
    return str(caught.value)


def _refund_refused(shop: Shop, order: Order | int, mode: str, **extra: object) -> str:
    with pytest.raises(OrderChangeError) as caught:
        shop.refund(order, mode, **extra)
    return str(caught.value)


# --------------------------------------------------------------------------- list and detail


def _written(
    shop: Shop, number: str, status: str, payment_status: str, *, when: datetime, name: str
) -> Order:
    """An order written straight through the models (for list tests only)."""
    order = Order(
        order_number=number,
        email=f"{name.split(maxsplit=1)[0].lower()}@example.com",
        status=status,
        payment_status=payment_status,
        subtotal_cents=1000,
        tax_cents=120,
        shipping_cents=1500,
        total_cents=2620,
        created_at=when,
        paid_at=when if payment_status == PaymentStatus.COMPLETED else None,
    )
    shop.session.add(order)
    shop.session.flush()
    first, last = name.split()
    shop.session.add_all(
        [
            OrderItem(
                order_id=order.id,
                product_id=shop.candle.id,
                quantity=3,
                unit_price_cents=300,
                total_price_cents=900,
                product_snapshot={"name": "Candle"},
            ),
            OrderItem(
                order_id=order.id,
                product_id=shop.lotion.id,
                quantity=1,
                unit_price_cents=100,
                total_price_cents=100,
                product_snapshot={"name": "Lotion"},
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
    shop.session.commit()
    return order


def test_the_list_shows_paid_orders_newest_first_with_search_status_and_paging(shop: Shop) -> None:
    t0 = datetime(2026, 11, 21, 8, 5, tzinfo=UTC)  # 00:05 in Vancouver
    write = _written
    write(shop, "CE-20261121-AAAAAA", S.AWAITING_PAYMENT, PaymentStatus.UNKNOWN, when=t0, name="Wait Ing")
    write(shop, "CE-20261121-BBBBBB", S.CANCELLED, PaymentStatus.FAILED, when=t0, name="Dec Lined")
    old = write(
        shop,
        "CE-20261120-CCCCCC",
        S.DELIVERED,
        PaymentStatus.COMPLETED,
        when=t0 - timedelta(days=1),
        name="Grace Hopper",
    )
    mid = write(shop, "CE-20261121-DDDDDD", S.PENDING, PaymentStatus.COMPLETED, when=t0, name="Ada Lovelace")
    new = write(
        shop,
        "CE-20261121-EEEEEE",
        S.CANCELLED,
        PaymentStatus.REFUNDED,
        when=t0 + timedelta(hours=1),
        name="Alan Turing",
    )
    paypal = write(shop, "CE-20261121-FFFFFF", S.PENDING, PaymentStatus.NOT_CHARGED, when=t0, name="Pay Pal")

    page = admin_orders.list_orders(shop.session)
    assert [row.id for row in page.rows] == [new.id, mid.id, old.id]  # no unpaid, declined, not charged
    assert (page.total, page.page, page.pages, page.any_orders) == (3, 1, 1, True)
    row = page.rows[1]
    assert (row.order_number, row.customer_name, row.email, row.item_count, row.total_cents) == (
        "CE-20261121-DDDDDD",
        "Ada Lovelace",
        "ada@example.com",
        4,
        2620,
    )
    assert (row.placed_at, row.status_label, row.status_colour, row.payment_status) == (
        "Nov 21, 2026, 12:05 AM",
        "Pending",
        "yellow",
        "completed",
    )

    def numbers(**query: object) -> list[str]:
        return [r.order_number for r in admin_orders.list_orders(shop.session, **query).rows]

    assert numbers(search="dddddd") == ["CE-20261121-DDDDDD"]
    assert numbers(search="  grace   HOPPER ") == ["CE-20261120-CCCCCC"]
    assert numbers(search="turing") == ["CE-20261121-EEEEEE"]
    assert numbers(search="alan@EXAMPLE") == ["CE-20261121-EEEEEE"]
    assert numbers(search="wait") == []  # unpaid orders never show
    assert numbers(search="100%_") == []  # wildcards are literal
    assert numbers(status="delivered") == ["CE-20261120-CCCCCC"]
    assert numbers(status="cancelled") == ["CE-20261121-EEEEEE"]
    assert numbers(status="nonsense") == numbers()
    assert numbers(status="pending") == ["CE-20261121-DDDDDD"]  # a not charged order is not paid
    assert numbers(search="pal") == []
    not_charged = admin_orders.list_orders(shop.session, status=admin_orders.NOT_CHARGED)
    assert ([r.id for r in not_charged.rows], not_charged.total) == ([paypal.id], 1)
    assert (not_charged.rows[0].not_charged, page.rows[1].not_charged) == (True, False)
    assert numbers(status=admin_orders.NOT_CHARGED, search="pay pal") == ["CE-20261121-FFFFFF"]

    second = admin_orders.list_orders(shop.session, page=2, page_size=2)
    assert ([r.id for r in second.rows], second.page, second.pages) == ([old.id], 2, 2)
    assert admin_orders.list_orders(shop.session, page=99, page_size=2).page == 2
    none = admin_orders.list_orders(shop.session, search="nobody")
    assert (none.rows, none.total, none.pages, none.any_orders) == ((), 0, 1, True)


def test_the_order_page_has_items_totals_address_payment_and_allowed_changes(shop: Shop) -> None:
    order = shop.place(user=shop.customer)

    detail = admin_orders.order_detail(shop.session, order.id)

    receipt = detail.receipt
    assert [
        (line.name, line.quantity, line.unit_price_cents, line.total_cents) for line in receipt.lines
    ] == [
        ("8oz Amber Soy Candle - Vanilla Bean", 2, 2800, 5600),
        ("Hand & Body Lotion - Coconut Lime", 1, 1800, 1800),
    ]
    assert (receipt.subtotal_cents, receipt.shipping_cents, receipt.tax_cents, receipt.total_cents) == (
        7400,
        1500,
        1068,
        9968,
    )
    assert receipt.email == "ada@example.com" and "12 Cedar Lane" in receipt.ship_to
    assert detail.payment.provider == "square" and detail.payment.status == PaymentStatus.COMPLETED
    assert detail.payment.square_payment_id == shop.ledger.payments()[0]["id"]
    assert detail.payment.card.endswith("1111") and detail.payment.amount_cents == 9968
    assert (detail.status_label, detail.user_id, detail.history) == ("Pending", shop.customer.id, ())
    assert detail.allowed == (S.PROCESSING, S.CANCELLED, S.REFUNDED)
    assert admin_orders.order_detail(shop.session, order.id + 999) is None


# --------------------------------------------------------------------------- the main line


def test_processing_shipped_delivered_with_history_mails_and_the_customers_history(shop: Shop) -> None:
    order = shop.place(user=shop.customer)
    candles = shop.stock(shop.candle)

    assert shop.change(order, S.PROCESSING, note="Packing today").message == (
        f"Order {order.order_number} is now Processing."
    )
    shipped = shop.change(order, S.SHIPPED, tracking_number="1z 999 aa1 0123 4567 84", carrier="UPS")
    assert shipped.status == S.SHIPPED and shipped.refunded_cents == 0

    now = shop.order(order.id)
    assert (now.status, now.tracking_number, now.carrier) == (S.SHIPPED, "1Z999AA10123456784", "UPS")
    mail = shop.status_mails("ada@example.com")[-1]
    assert mail.subject.startswith(f"Your order {order.order_number} is Shipped")
    assert "https://www.ups.com/track?tracknum=1Z999AA10123456784" in mail.body_text
    assert "Tracking number: 1Z999AA10123456784" in mail.body_text
    assert 'href="https://www.ups.com/track?tracknum=1Z999AA10123456784"' in mail.body_html
    mine = order_history.get_order(shop.session, user_id=shop.customer.id, order_id=order.id)
    assert (mine.status_label, mine.tracking_url) == (
        "Shipped",
        "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    )

    shop.change(order, S.DELIVERED)
    history = shop.history(order.id)
    assert [(h.from_status, h.to_status) for h in history] == [
        ("pending", "processing"),
        ("processing", "shipped"),
        ("shipped", "delivered"),
    ]
    assert {h.changed_by for h in history} == {shop.admin.id}
    assert (history[0].note, history[1].tracking_number, history[1].carrier) == (
        "Packing today",
        "1Z999AA10123456784",
        "UPS",
    )
    subjects = [m.subject.split(" | ")[0] for m in shop.status_mails("ada@example.com")]
    assert subjects == [
        f"Your order {order.order_number} is {s}" for s in ("Processing", "Shipped", "Delivered")
    ]
    assert shop.stock(shop.candle) == candles  # no stock moves on the main line
    assert shop.ledger.refunds() == []
    shop.session.commit()  # a new snapshot: the changes were made on other connections
    entries = admin_orders.order_detail(shop.session, order.id).history
    assert [(e.from_label, e.to_label, e.by) for e in entries][-1] == ("Shipped", "Delivered", "Olive Owner")


def test_refused_changes_change_nothing_and_mail_nobody(shop: Shop) -> None:
    order = shop.place()
    shop.change(order, S.PROCESSING)

    assert _refused(shop, order, S.SHIPPED, carrier="UPS") == M.TRACKING_REQUIRED.value
    assert _refused(shop, order, S.SHIPPED, tracking_number="1Z999AA10123456784") == M.CARRIER_REQUIRED.value
    assert _refused(shop, order, S.DELIVERED) == "An order that is Processing cannot be marked as Delivered."
    assert _refused(shop, order, S.PROCESSING) == "This order is already Processing."
    assert _refused(shop, order.id + 999, S.PROCESSING, expected_status=None) == M.NOT_FOUND.value
    shop.change(order, S.SHIPPED, tracking_number="RR123456789CA", carrier="Canada Post")
    assert _refused(shop, order, S.CANCELLED) == M.TOO_LATE_TO_CANCEL.value

    assert [h.to_status for h in shop.history(order.id)] == ["processing", "shipped"]
    assert len(shop.status_mails(FORM.email)) == 2


def test_a_change_based_on_a_stale_page_is_refused(shop: Shop) -> None:
    order = shop.place()
    shop.change(order, S.PROCESSING)

    assert _refused(shop, order, S.CANCELLED, expected_status=S.PENDING) == M.CHANGED_MEANWHILE.value
    assert shop.order(order.id).status == S.PROCESSING and shop.ledger.refunds() == []


# --------------------------------------------------------------------------- cancel and refund


def test_cancelling_before_shipping_refunds_in_full_through_square_and_restocks(shop: Shop) -> None:
    order = shop.place(user=shop.customer, quantities=(2, 1))
    candles, lotions = shop.stock(shop.candle), shop.stock(shop.lotion)

    result = shop.change(order, S.CANCELLED, note="Customer asked")

    assert (
        result.message == f"Order {order.order_number} is now Cancelled; $99.68 was refunded to the customer."
    )
    (refund,) = shop.ledger.refunds()
    payment = shop.ledger.payments()[0]
    assert (refund["payment_id"], refund["amount_money"], refund["status"]) == (
        payment["id"],
        {"amount": 9968, "currency": "CAD"},
        "COMPLETED",
    )
    assert (shop.stock(shop.candle), shop.stock(shop.lotion)) == (candles + 2, lotions + 1)
    now = shop.order(order.id)
    assert (now.status, now.payment_status) == (S.CANCELLED, PaymentStatus.REFUNDED)
    with Session(shop.engine) as fresh:
        assert fresh.exec(select(Payment.status).where(Payment.order_id == order.id)).one() == "refunded"
    (change,) = shop.history(order.id)
    assert (change.refunded_cents, change.square_refund_id, change.note) == (
        9968,
        refund["id"],
        "Customer asked",
    )
    mail = shop.status_mails("ada@example.com")[-1]
    assert (
        "has been Cancelled" in mail.body_text and "$99.68 has been refunded to your card" in mail.body_text
    )
    assert order_history.get_order(
        shop.session, user_id=shop.customer.id, order_id=order.id
    ).status_label == ("Cancelled")
    assert _refused(shop, order, S.REFUNDED) == M.NOTHING_TO_REFUND.value


def test_refunding_a_delivered_order_refunds_in_full_without_restocking_by_default(shop: Shop) -> None:
    order = shop.place(quantities=(3, 0))
    for target, extra in (
        (S.PROCESSING, {}),
        (S.SHIPPED, {"tracking_number": "123456789012", "carrier": "FedEx"}),
        (S.DELIVERED, {}),
    ):
        shop.change(order, target, **extra)
    candles = shop.stock(shop.candle)

    shop.change(order, S.REFUNDED)

    assert [r["amount_money"]["amount"] for r in shop.ledger.refunds()] == [shop.order(order.id).total_cents]
    assert shop.stock(shop.candle) == candles  # the parcel is with the customer: not back in stock
    (refund,) = shop.refunds_of(order.id)
    assert (refund.kind, refund.amount_cents, refund.restocked) == ("rest", order.total_cents, False)
    assert (shop.order(order.id).status, shop.order(order.id).payment_status) == (S.REFUNDED, "refunded")
    assert "has been Refunded" in shop.status_mails(FORM.email)[-1].body_text
    assert _refused(shop, order, S.PROCESSING) == M.FINAL.value


def test_square_refusing_the_refund_leaves_the_order_unchanged(shop: Shop) -> None:
    order = shop.place()
    payment_id = shop.ledger.payments()[0]["id"]
    shop.refunds._client.refunds.refund_payment(  # refunded from Square's dashboard, say
        idempotency_key="dashboard-1", payment_id=payment_id, amount_money={"amount": 100, "currency": "CAD"}
    )
    stock = shop.stock(shop.candle)

    message = _refused(shop, order, S.REFUNDED)

    assert message == (
        "Square refused the refund: The requested refund amount exceeds the amount available to refund. "
        "The order was not changed."
    )
    now = shop.order(order.id)
    assert (now.status, now.payment_status, shop.stock(shop.candle)) == (S.PENDING, "completed", stock)
    assert shop.history(order.id) == [] and shop.status_mails(FORM.email) == []


def test_no_answer_from_square_changes_nothing_and_trying_again_refunds_once(shop: Shop) -> None:
    order = shop.place()
    shop.ledger.fail_next("/v2/refunds", kind="http_500_after_charge", times=3)  # refunded, answers lost

    assert _refused(shop, order, S.CANCELLED) == M.REFUND_NO_ANSWER.value
    assert shop.order(order.id).status == S.PENDING and shop.history(order.id) == []

    shop.change(order, S.REFUNDED)  # another action, the same key and body: Square's first refund

    assert len(shop.ledger.refunds()) == 1
    assert shop.history(order.id)[0].square_refund_id == shop.ledger.refunds()[0]["id"]


def test_an_order_that_was_not_charged_is_cancelled_without_calling_square(shop: Shop) -> None:
    when = datetime(2026, 11, 21, 18, tzinfo=UTC)
    order = _written(
        shop, "CE-20261121-PPPPPP", S.PENDING, PaymentStatus.NOT_CHARGED, when=when, name="Pay Pal"
    )
    candles = shop.stock(shop.candle)
    detail = admin_orders.order_detail(shop.session, order.id)
    assert detail.not_charged and detail.allowed == (S.PROCESSING, S.CANCELLED)

    assert _refused(shop, order, S.REFUNDED) == M.NOT_CHARGED_CANCEL_INSTEAD.value
    assert shop.order(order.id).status == S.PENDING and shop.history(order.id) == []
    assert shop.change(order, S.CANCELLED).refunded_cents == 0

    assert shop.stock(shop.candle) == candles + 3
    assert [r.path for r in shop.ledger.requests() if "refunds" in r.path] == []
    assert "Nothing was charged" in shop.status_mails("pay@example.com")[-1].body_text


def test_squares_refund_webhook_after_a_cancel_keeps_the_order_cancelled(shop: Shop) -> None:
    order = shop.place()
    shop.change(order, S.CANCELLED)
    (refund,) = shop.ledger.refunds()
    assert shop.refunds_of(order.id)[0].square_status == "PENDING"  # Square's first answer
    event = {"type": "refund.updated", "event_id": "evt-1", "data": {"object": {"refund": refund}}}

    assert webhooks.handle(shop.session, event).result == "applied"  # only the refund's status
    shop.session.commit()
    assert webhooks.handle(shop.session, event).result == "ignored"

    assert shop.order(order.id).status == S.CANCELLED
    assert shop.refunds_of(order.id)[0].square_status == "COMPLETED"


# --------------------------------------------------------------------------- two admins at once


@pytest.mark.parametrize(
    ("first", "second"),
    [(S.CANCELLED, S.REFUNDED), (S.CANCELLED, S.PROCESSING), (S.REFUNDED, S.REFUNDED)],
)
def test_two_admins_changing_one_order_at_once_apply_one_change(
    shop: Shop, first: OrderStatus, second: OrderStatus
) -> None:
    order = shop.place(quantities=(2, 0))
    stock = shop.stock(shop.candle)
    start = threading.Barrier(2)

    def act(target: OrderStatus) -> str:
        start.wait()
        try:
            return shop.change(order, target, expected_status=S.PENDING).status
        except OrderChangeError as refused:
            return str(refused)

    threads = [
        threading.Thread(target=lambda t=t, i=i: outcomes.__setitem__(i, act(t)))
        for i, t in enumerate((first, second))
    ]
    outcomes: dict[int, str] = {}
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values(), key=len) in (
        [first.value, M.CHANGED_MEANWHILE.value],
        [second.value, M.CHANGED_MEANWHILE.value],
    )
    assert len(shop.history(order.id)) == 1
    winner = shop.history(order.id)[0].to_status
    ended = winner in (S.CANCELLED, S.REFUNDED)
    assert len(shop.ledger.refunds()) == (1 if ended else 0)
    assert shop.stock(shop.candle) == stock + (2 if ended else 0)
    with Session(shop.engine) as fresh:
        assert fresh.execute(sa.select(sa.func.count()).select_from(OrderStatusChange)).scalar_one() == 1


# --------------------------------------------------------------------------- partial refunds
# The order of Shop.place(): 2 candles at $28.00 and 1 lotion at $18.00; subtotal $74.00, shipping
# $15.00, tax $10.68 (GST 5 % and PST 7 % of $89.00: British Columbia's), total $99.68.


def _ledger_amounts(shop: Shop) -> list[int]:
    return [refund["amount_money"]["amount"] for refund in shop.ledger.refunds()]


def _lines(shop: Shop, refund: Refund) -> list[tuple[int, int]]:
    with Session(shop.engine) as fresh:
        rows = fresh.exec(select(RefundLine).where(RefundLine.refund_id == refund.id).order_by(RefundLine.id))
        return [(row.order_item_id, row.quantity) for row in rows]


def test_partial_refunds_by_line_then_by_amount_then_the_rest_up_to_the_total(shop: Shop) -> None:
    order = shop.place(user=shop.customer)
    item = shop.items(order)
    candles, lotions = shop.stock(shop.candle), shop.stock(shop.lotion)

    first = shop.refund(order, "items", quantities={item["candle"]: 1}, restock=False, note="Cracked jar")

    assert (first.amount_cents, first.remaining_cents, first.status) == (
        3136,
        6832,
        S.PENDING,
    )  # $28 + $3.36 tax
    assert first.message == (
        f"$31.36 was refunded to the customer for order {order.order_number}; $68.32 remains charged."
    )
    now = shop.order(order.id)
    assert (now.status, now.payment_status) == (S.PENDING, PaymentStatus.COMPLETED)
    assert (shop.stock(shop.candle), shop.stock(shop.lotion)) == (candles, lotions)  # not restocked
    (recorded,) = shop.refunds_of(order.id)
    assert (recorded.kind, recorded.amount_cents, recorded.restocked, recorded.note) == (
        "items",
        3136,
        False,
        "Cracked jar",
    )
    assert (recorded.created_by, recorded.square_refund_id) == (shop.admin.id, shop.ledger.refunds()[0]["id"])
    assert _lines(shop, recorded) == [(item["candle"], 1)]
    mail = shop.refund_mails("ada@example.com")[-1]
    assert mail.subject.startswith(f"Refund of $31.36 for your order {order.order_number}")
    assert "We have refunded $31.36 to your card" in mail.body_text
    assert "1 × 8oz Amber Soy Candle - Vanilla Bean" in mail.body_text
    assert "$68.32 remains charged for this order." in mail.body_text
    shop.session.commit()
    assert admin_orders.list_orders(shop.session).rows[0].shown_payment_status == "partially_refunded"
    detail = admin_orders.order_detail(shop.session, order.id)
    assert detail.partially_refunded and detail.refunded_cents == 3136
    assert [(c.name, c.refundable) for c in detail.refund_choices] == [
        ("8oz Amber Soy Candle - Vanilla Bean", 1),
        ("Hand & Body Lotion - Coconut Lime", 1),
    ]

    second = shop.refund(order, "amount", amount_cents=1680, note="Shipping and its tax")

    assert (second.amount_cents, second.remaining_cents, second.status) == (1680, 5152, S.PENDING)
    assert shop.refund_mails("ada@example.com")[-1].body_text.count("Refunded items") == 0

    last = shop.refund(order, "items", quantities={item["candle"]: 1, item["lotion"]: 1}, restock=True)

    assert (last.amount_cents, last.remaining_cents, last.status) == (5152, 0, S.REFUNDED)  # $46 + $5.52 tax
    assert last.message == f"Order {order.order_number} is now Refunded; $51.52 was refunded to the customer."
    assert _ledger_amounts(shop) == [3136, 1680, 5152]
    assert shop.ledger.payments()[0]["refunded_money"] == {"amount": 9968, "currency": "CAD"}
    now = shop.order(order.id)
    assert (now.status, now.payment_status) == (S.REFUNDED, PaymentStatus.REFUNDED)
    with Session(shop.engine) as fresh:
        assert fresh.exec(select(Payment.status).where(Payment.order_id == order.id)).one() == "refunded"
    assert (shop.stock(shop.candle), shop.stock(shop.lotion)) == (candles + 1, lotions + 1)  # only the last's
    (change,) = shop.history(order.id)
    assert (change.from_status, change.to_status, change.refunded_cents) == ("pending", "refunded", 5152)
    status_mail = shop.status_mails("ada@example.com")[-1]
    assert "has been Refunded" in status_mail.body_text
    assert "$51.52 has been refunded to your card" in status_mail.body_text
    assert "With the earlier refunds, $99.68 has been refunded in all." in status_mail.body_text
    assert "Nothing remains charged for this order." in status_mail.body_text
    assert len(shop.refund_mails("ada@example.com")) == 2  # the partial ones
    shop.session.commit()
    detail = admin_orders.order_detail(shop.session, order.id)
    assert [(r.amount_cents, r.kind, r.items, r.restocked, r.by) for r in detail.refunds] == [
        (3136, "items", ("1 × 8oz Amber Soy Candle - Vanilla Bean",), False, "Olive Owner"),
        (1680, "amount", (), False, "Olive Owner"),
        (
            5152,
            "items",
            ("1 × 8oz Amber Soy Candle - Vanilla Bean", "1 × Hand & Body Lotion - Coconut Lime"),
            True,
            "Olive Owner",
        ),
    ]
    assert not detail.partially_refunded and detail.allowed == () and detail.refund_situation is None
    assert _refund_refused(shop, order, "amount", amount_cents=1) == "This order is already Refunded."


def test_a_refund_of_more_than_remains_is_refused_and_changes_nothing(shop: Shop) -> None:
    order = shop.place()
    item = shop.items(order)

    assert _refund_refused(shop, order, "amount", amount_cents=9969) == M.REFUND_AMOUNT_TOO_MUCH.format(
        remaining="$99.68"
    )
    shop.refund(order, "amount", amount_cents=9180)
    assert _refund_refused(shop, order, "amount", amount_cents=789) == M.REFUND_AMOUNT_TOO_MUCH.format(
        remaining="$7.88"
    )
    assert _refund_refused(shop, order, "items", quantities={item["lotion"]: 1}) == (
        M.REFUND_ITEMS_TOO_MUCH.format(amount="$20.16", remaining="$7.88")
    )

    assert _ledger_amounts(shop) == [9180]
    assert len(shop.refunds_of(order.id)) == 1 and shop.order(order.id).status == S.PENDING
    assert len(shop.refund_mails(FORM.email)) == 1
    assert shop.refund(order, "rest").amount_cents == 788  # the rest is what remains, exactly
    assert shop.order(order.id).status == S.REFUNDED


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"quantities": {"other": 1}}, M.REFUND_NOT_A_LINE.value),
        ({"quantities": {"candle": 10**9}}, M.REFUND_QUANTITY_INVALID.format(name=CANDLE_NAME, n=2)),
        ({"quantities": {"candle": -1}}, M.REFUND_QUANTITY_INVALID.format(name=CANDLE_NAME, n=2)),
        ({"quantities": {"candle": 0}}, M.REFUND_NOTHING_CHOSEN.value),
        ({"mode": "amount", "amount_cents": -500}, M.REFUND_AMOUNT_TOO_SMALL.value),
        ({"mode": "amount", "amount_cents": 10**12}, M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$99.68")),
        ({"mode": "amount", "amount_cents": 100, "restock": True}, M.REFUND_AMOUNT_NO_RESTOCK.value),
        ({"mode": "all of it"}, M.REFUND_MODE_INVALID.value),
        ({"mode": "rest", "expected_refunded_cents": 100}, M.CHANGED_MEANWHILE.value),
        ({"mode": "rest", "expected_status": S.PROCESSING}, M.CHANGED_MEANWHILE.value),
    ],
)
def test_a_forged_refund_gets_a_clear_error_and_changes_nothing(
    shop: Shop, extra: dict[str, object], message: str
) -> None:
    order = shop.place()
    other = shop.place()
    item = {**shop.items(order), "other": shop.items(other)["candle"]}
    if "quantities" in extra:
        extra = {**extra, "quantities": {item[name]: n for name, n in extra["quantities"].items()}}
    stock = shop.stock(shop.candle)

    assert _refund_refused(shop, order, str(extra.pop("mode", "items")), **extra) == message

    assert shop.ledger.refunds() == [] and shop.refunds_of(order.id) == []
    assert shop.stock(shop.candle) == stock and shop.order(order.id).status == S.PENDING
    assert shop.refund_mails(FORM.email) == [] and shop.status_mails(FORM.email) == []


def test_a_retried_click_with_the_same_key_never_refunds_twice(shop: Shop) -> None:
    order = shop.place()
    item = shop.items(order)
    lotions = shop.stock(shop.lotion)

    first = shop.refund(order, "items", key="dialog-a", quantities={item["lotion"]: 1}, restock=True)
    again = shop.refund(
        order,
        "items",
        key="dialog-a",
        quantities={item["lotion"]: 1},
        restock=True,
        expected_refunded_cents=0,  # the retried click's page had not seen the first one yet
    )

    assert (first.replayed, again.replayed) == (False, True)
    assert (again.amount_cents, again.remaining_cents, again.message) == (2016, 7952, first.message)
    assert _ledger_amounts(shop) == [2016] and len(shop.refunds_of(order.id)) == 1
    assert shop.stock(shop.lotion) == lotions + 1  # once
    assert len(shop.refund_mails(FORM.email)) == 1


def test_a_lost_answer_changes_nothing_and_the_same_request_again_records_squares_one_refund(
    shop: Shop,
) -> None:
    order = shop.place()
    item = shop.items(order)
    candles = shop.stock(shop.candle)
    shop.ledger.fail_next("/v2/refunds", kind="http_500_after_charge", times=3)  # refunded, answers lost

    with pytest.raises(OrderChangeError) as lost:
        shop.refund(order, "items", key="dialog-b", quantities={item["candle"]: 2}, restock=True)

    assert str(lost.value) == M.REFUND_NO_ANSWER.value and lost.value.unanswered
    assert _ledger_amounts(shop) == [6272]  # Square did refund...
    assert shop.refunds_of(order.id) == [] and shop.stock(shop.candle) == candles  # ...nothing recorded
    assert shop.refund_mails(FORM.email) == []
    changed = _refund_refused(shop, order, "amount", key="dialog-b", amount_cents=100)
    assert changed == M.REFUND_KEY_REUSED.value  # another amount under that key: Square says no

    shop.refund(order, "items", key="dialog-b", quantities={item["candle"]: 2}, restock=True)

    assert _ledger_amounts(shop) == [6272]  # Square's first refund, not a second one
    (recorded,) = shop.refunds_of(order.id)
    assert recorded.square_refund_id == shop.ledger.refunds()[0]["id"]
    assert shop.stock(shop.candle) == candles + 2


def test_square_failing_leaves_nothing_half_done(shop: Shop) -> None:
    order = shop.place()
    item = shop.items(order)
    candles = shop.stock(shop.candle)
    shop.ledger.fail_next("/v2/refunds", kind="drop_connection", times=3)  # never reached Square

    assert (
        _refund_refused(shop, order, "items", quantities={item["candle"]: 1}, restock=True)
        == M.REFUND_NO_ANSWER.value
    )
    payment_id = shop.ledger.payments()[0]["id"]
    shop.refunds._client.refunds.refund_payment(  # Square's dashboard gave back most of it meanwhile
        idempotency_key="dashboard-2", payment_id=payment_id, amount_money={"amount": 9000, "currency": "CAD"}
    )
    assert _refund_refused(shop, order, "items", quantities={item["candle"]: 1}, restock=True) == (
        "Square refused the refund: The requested refund amount exceeds the amount available to refund. "
        "The order was not changed."
    )

    assert shop.refunds_of(order.id) == [] and shop.stock(shop.candle) == candles
    now = shop.order(order.id)
    assert (now.status, now.payment_status) == (S.PENDING, PaymentStatus.COMPLETED)
    assert shop.history(order.id) == [] and shop.refund_mails(FORM.email) == []


def test_return_to_stock_defaults_to_yes_before_shipping_and_no_once_shipped(shop: Shop) -> None:
    pending, shipped = shop.place(quantities=(2, 0)), shop.place(quantities=(2, 0))
    shop.change(shipped, S.PROCESSING)
    shop.change(shipped, S.SHIPPED, tracking_number="1Z999AA10123456784", carrier="UPS")
    candles = shop.stock(shop.candle)

    shop.refund(pending, "items", quantities={shop.items(pending)["candle"]: 1})  # default: yes
    assert shop.stock(shop.candle) == candles + 1
    shop.refund(shipped, "items", quantities={shop.items(shipped)["candle"]: 1})  # default: no
    assert shop.stock(shop.candle) == candles + 1
    shop.refund(shipped, "items", quantities={shop.items(shipped)["candle"]: 1}, restock=True)  # chosen
    assert shop.stock(shop.candle) == candles + 2

    assert [r.restocked for r in shop.refunds_of(pending.id) + shop.refunds_of(shipped.id)] == [
        True,
        False,
        True,
    ]


def test_cancelling_after_a_partial_refund_gives_back_the_rest_and_restocks_only_what_was_not_refunded(
    shop: Shop,
) -> None:
    order = shop.place(user=shop.customer)
    item = shop.items(order)
    candles, lotions = shop.stock(shop.candle), shop.stock(shop.lotion)
    shop.refund(order, "items", quantities={item["candle"]: 1}, restock=False)  # broken: not back in stock

    result = shop.change(order, S.CANCELLED)

    assert result.refunded_cents == 9968 - 3136
    assert _ledger_amounts(shop) == [3136, 6832]
    assert (shop.stock(shop.candle), shop.stock(shop.lotion)) == (candles + 1, lotions + 1)
    first, rest = shop.refunds_of(order.id)
    assert (rest.kind, rest.restocked, _lines(shop, rest)) == (
        "rest",
        True,
        [(item["candle"], 1), (item["lotion"], 1)],
    )
    payment = shop.ledger.payments()[0]
    assert (
        rest.idempotency_key == f"refund1-{shop.session.get(Payment, first.payment_id).idempotency_key}"[:45]
    )
    assert payment["refunded_money"]["amount"] == 9968
    mail = shop.status_mails("ada@example.com")[-1]
    assert "$68.32 has been refunded to your card" in mail.body_text
    assert "With the earlier refunds, $99.68 has been refunded in all." in mail.body_text


def test_a_not_charged_order_is_never_refunded_in_part(shop: Shop) -> None:
    when = datetime(2026, 11, 21, 18, tzinfo=UTC)
    order = _written(
        shop, "CE-20261121-QQQQQQ", S.PENDING, PaymentStatus.NOT_CHARGED, when=when, name="Pay Pal"
    )

    assert _refund_refused(shop, order, "amount", amount_cents=100) == M.NOT_CHARGED_CANCEL_INSTEAD.value
    assert [r.path for r in shop.ledger.requests() if "refunds" in r.path] == []


def test_two_admins_refunding_at_once_refund_once(shop: Shop) -> None:
    order = shop.place()
    start = threading.Barrier(2)
    outcomes: dict[int, str] = {}

    def act(i: int) -> None:
        start.wait()
        try:
            outcomes[i] = shop.refund(order, "amount", amount_cents=5000, expected_refunded_cents=0).message
        except OrderChangeError as refused:
            outcomes[i] = str(refused)

    threads = [threading.Thread(target=act, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert M.CHANGED_MEANWHILE.value in outcomes.values()
    assert _ledger_amounts(shop) == [5000] and len(shop.refunds_of(order.id)) == 1
