"""Placing and paying orders under concurrency, and when the database fails half-way.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.messages import OrderMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OrderAddress, OrderItem, OutgoingMail, Payment, Product
from shop_app.services import cart, checkout, low_stock
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CheckoutError, CheckoutForm
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.databases import migrated_engine

BUYERS = 32
STOCK = 5
FORM = CheckoutForm(
    first_name="Ana",
    last_name="Silva",
    email="ana@example.ca",
    address="12 Cedar St",
    city="Vancouver",
    state="BC",
    zip_code="V5K 0A1",
    country="Canada",
)


class RecordingGateway:
    """Thread-safe; like Square, a repeated idempotency key returns the first result uncharged."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.charged: dict[str, int] = {}  # idempotency key -> amount actually taken
        self.calls = 0

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        with self._lock:
            self.calls += 1
            self.charged.setdefault(request.idempotency_key, request.amount_cents)
        return self._outcome(request.idempotency_key)

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        with self._lock:
            known = idempotency_key in self.charged
        return self._outcome(idempotency_key) if known else None

    @staticmethod
    def _outcome(key: str) -> ChargeOutcome:
        return ChargeOutcome(status=ChargeStatus.COMPLETED, payment_id=f"sq-{key}", card_last4="1111")


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _candle(session: Session, stock: int = STOCK) -> Product:
    product = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=stock)
    session.add(product)
    session.flush()
    return product


def _count(engine: Engine, model: type) -> int:
    with Session(engine) as fresh:
        return fresh.execute(select(sa.func.count()).select_from(model)).scalar_one()


def _mails_of_kind(engine: Engine, kind: str) -> int:
    with Session(engine) as fresh:
        query = select(sa.func.count()).select_from(OutgoingMail).where(OutgoingMail.kind == kind)
        return fresh.execute(query).scalar_one()


def _stock(engine: Engine, product_id: int) -> int:
    with Session(engine) as fresh:
        return fresh.get(Product, product_id).stock_quantity


def test_32_buyers_race_for_5_candles(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    owners = [CartOwner(token=f"buyer-{n}") for n in range(BUYERS)]
    for owner in owners:
        cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    gateway = RecordingGateway()
    start = threading.Barrier(BUYERS)

    def buy(owner: CartOwner) -> tuple[str, Any]:
        start.wait()
        try:
            placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
        except CheckoutError as refused:
            return "refused", str(refused)
        result = checkout.pay(
            order_id=placed.order_id,
            source_id="cnon:card-nonce-ok",
            gateway=gateway,
            owner=owner,
            engine=engine,
        )
        return "paid" if result.succeeded else result.status, placed

    with ThreadPoolExecutor(max_workers=BUYERS) as pool:
        outcomes = list(pool.map(buy, owners))

    paid = [placed for kind, placed in outcomes if kind == "paid"]
    refused = [message for kind, message in outcomes if kind == "refused"]
    assert (len(paid), len(refused)) == (STOCK, BUYERS - STOCK)
    assert set(refused) == {
        'Insufficient stock for "8oz Amber Soy Candle - Vanilla Bean". Available: 0, Requested: 1'
    }
    assert _stock(engine, candle.id) == 0
    assert gateway.calls == len(gateway.charged) == STOCK
    assert sorted(gateway.charged) == sorted(p.idempotency_key for p in paid)
    with Session(engine) as fresh:
        orders = fresh.exec(select(Order)).all()
        assert len(orders) == STOCK  # a refused buyer left nothing behind
        assert {(o.status, o.payment_status) for o in orders} == {
            (OrderStatus.PENDING, PaymentStatus.COMPLETED)
        }
        assert sum(o.total_cents for o in orders) == sum(gateway.charged.values())
        assert len({o.order_number for o in orders}) == STOCK
        assert fresh.execute(select(sa.func.sum(OrderItem.quantity))).scalar_one() == STOCK
        assert {p.status for p in fresh.exec(select(Payment)).all()} == {PaymentStatus.COMPLETED}
        for owner, (kind, _) in zip(owners, outcomes, strict=True):
            assert cart.view_cart(fresh, owner).count == (0 if kind == "paid" else 1)
    assert _mails_of_kind(engine, "order_confirmation") == STOCK
    assert _mails_of_kind(engine, low_stock.ALERT_KIND) == 1  # one crossing, however many buyers


def test_one_order_paid_from_many_tabs_at_once_is_charged_once(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    owner = CartOwner(token="double-clicker")
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    gateway = RecordingGateway()
    tabs = 8
    start = threading.Barrier(tabs)

    def click(_: int) -> checkout.PaymentResult:
        start.wait()
        return checkout.pay(
            order_id=placed.order_id, source_id="tok", gateway=gateway, owner=owner, engine=engine
        )

    with ThreadPoolExecutor(max_workers=tabs) as pool:
        results = list(pool.map(click, range(tabs)))

    assert {r.status for r in results} <= {ChargeStatus.COMPLETED, ChargeStatus.UNKNOWN}
    assert gateway.charged == {placed.idempotency_key: placed.total_cents}  # one key, one amount
    final = checkout.reconcile(order_id=placed.order_id, gateway=gateway, engine=engine)
    assert final.status == ChargeStatus.COMPLETED
    assert _stock(engine, candle.id) == STOCK - 2
    assert _mails_of_kind(engine, "order_confirmation") == 1
    assert _mails_of_kind(engine, low_stock.ALERT_KIND) == 1


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("order_items", "Failed to create order items"),
        ("order_addresses", "Failed to create shipping address"),
        ("payments", "Failed to create order"),
    ],
)
def test_a_database_failure_mid_placement_leaves_nothing_behind(
    session: Session, engine: Engine, table: str, message: str
) -> None:
    candle = _candle(session)
    owner = CartOwner(token="unlucky-buyer")
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    gateway = RecordingGateway()

    def fail_insert(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(f"INSERT INTO {table.upper()}"):
            raise sa.exc.OperationalError(statement, parameters, RuntimeError("disk I/O error"))

    event.listen(engine, "before_cursor_execute", fail_insert)
    try:
        with pytest.raises(CheckoutError, match=f"^{re.escape(message)}$"):
            checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    finally:
        event.remove(engine, "before_cursor_execute", fail_insert)

    for model in (Order, OrderItem, OrderAddress, Payment, OutgoingMail):
        assert _count(engine, model) == 0
    assert _stock(engine, candle.id) == STOCK
    assert gateway.calls == 0
    with Session(engine) as fresh:
        assert cart.view_cart(fresh, owner).count == 2  # the shopper keeps the cart and can retry

    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    assert checkout.pay(order_id=placed.order_id, source_id="tok", gateway=gateway, engine=engine).succeeded
    assert _stock(engine, candle.id) == STOCK - 2


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[tuple[Engine, str]]:
    """A migrated SQLite database of its own (this test is about SQLite's single write lock,
    whichever database the rest of the suite runs on)."""
    url = f"sqlite:///{tmp_path / 'lock.db'}"
    with migrated_engine(url) as own:
        yield own, url


def test_a_busy_sqlite_database_refuses_with_a_retry_message_and_writes_nothing(
    sqlite_engine: tuple[Engine, str],
) -> None:
    engine, database_url = sqlite_engine
    owner = CartOwner(token="patient-buyer")
    with Session(engine) as session:
        candle_id = _candle(session).id
        cart.add_item(session, owner, product_id=candle_id, quantity=2)
        session.commit()
    impatient = create_db_engine(database_url)  # the shop's settings, then a 50 ms busy timeout
    event.listen(impatient, "connect", lambda dbapi, _record: dbapi.execute("PRAGMA busy_timeout = 50"))
    holder = sqlite3.connect(make_url(database_url).database, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the busy timeout
        with pytest.raises(CheckoutError) as refused:
            checkout.place_order(owner=owner, user_id=None, form=FORM, engine=impatient)
        holder.execute("ROLLBACK")

        assert str(refused.value) == OrderMessage.BUSY
        assert "try again" in str(refused.value)
        for model in (Order, OrderItem, OrderAddress, Payment):
            assert _count(engine, model) == 0
        assert _stock(engine, candle_id) == STOCK

        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=impatient)  # lock released
        assert _count(engine, Order) == 1
        assert _stock(engine, candle_id) == STOCK - 2
    finally:
        holder.close()
        impatient.dispose()


def test_a_lock_timeout_inside_a_step_is_reported_as_busy(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    owner = CartOwner(token="unlucky-buyer")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()

    def locked(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ORDER_ITEMS"):
            raise sa.exc.OperationalError(
                statement, parameters, sqlite3.OperationalError("database is locked")
            )

    event.listen(engine, "before_cursor_execute", locked)
    try:
        with pytest.raises(CheckoutError, match=f"^{re.escape(OrderMessage.BUSY)}$"):
            checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    finally:
        event.remove(engine, "before_cursor_execute", locked)

    assert _count(engine, Order) == 0
    assert _stock(engine, candle.id) == STOCK


def test_32_buyers_race_through_the_square_simulator_and_it_charges_exactly_5(
    session: Session, engine: Engine
) -> None:
    """The same race with the real SDK gateway and the simulator's ledger as the bank."""
    candle = _candle(session)
    owners = [CartOwner(token=f"sim-buyer-{n}") for n in range(BUYERS)]
    for owner in owners:
        cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    ledger = SimulatorLedger()
    simulator = create_simulator(ledger)
    gateway = SquareGateway(square_client_for_app(simulator), location_id=ledger.location_id, timeout_s=10)
    start = threading.Barrier(BUYERS)

    def buy(number: int) -> str:
        start.wait()
        try:
            placed = checkout.place_order(owner=owners[number], user_id=None, form=FORM, engine=engine)
        except CheckoutError:
            return "refused"
        result = checkout.pay(
            order_id=placed.order_id,
            source_id=f"cnon:card-nonce-ok:{number}",
            gateway=gateway,
            owner=owners[number],
            engine=engine,
        )
        return "paid" if result.succeeded else str(result.status)

    with ThreadPoolExecutor(max_workers=BUYERS) as pool:
        outcomes = list(pool.map(buy, range(BUYERS)))

    assert sorted(outcomes).count("paid") == STOCK and outcomes.count("refused") == BUYERS - STOCK
    charges = [p for p in ledger.payments() if p["status"] == "COMPLETED"]
    assert len(charges) == STOCK
    assert _stock(engine, candle.id) == 0
    with Session(engine) as fresh:
        orders = fresh.exec(select(Order)).all()
        assert sorted(o.total_cents for o in orders) == sorted(p["amount_money"]["amount"] for p in charges)


def test_a_charge_whose_answer_times_out_is_retried_once_and_pays_the_order_once(
    session: Session, engine: Engine
) -> None:
    """The simulator takes the money, then answers too late: the retry with the same key gets the
    first result; one charge, one paid order."""
    candle = _candle(session)
    owner = CartOwner(token="timeout-buyer")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    ledger = SimulatorLedger()
    gateway = SquareGateway(
        square_client_for_app(create_simulator(ledger), timeout_s=0.5),
        location_id=ledger.location_id,
        timeout_s=0.5,
        retries=2,
        backoff_s=0.0,
    )
    ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=1.5, method="POST")
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)

    result = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, owner=owner, engine=engine
    )

    assert result.succeeded
    assert len(ledger.payments()) == 1
    assert ledger.payments()[0]["amount_money"]["amount"] == placed.total_cents
    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.COMPLETED)
