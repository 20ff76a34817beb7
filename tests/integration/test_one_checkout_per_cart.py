"""One checkout per cart at a time, across tabs and workers (docs/architecture.md#orders-and-payment;
docs/security.md).

Two or ten tabs of one shopper (a signed-in customer, or one guest cart cookie) place the order
at the same moment, each paying with its own card: exactly one order is placed and charged once;
the others are told the cart is being paid for elsewhere (or, when the first has already
finished, that the cart is empty). The Square simulator's ledger is the bank. Runs on SQLite,
and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.messages import CartMessage, OrderMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment, Product, User
from shop_app.models.base import utcnow
from shop_app.services import cart, checkout
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CheckoutError, CheckoutForm
from shop_app.services.ordering.place import UNSTARTED_TIMEOUT
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger

STOCK = 20
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
REFUSALS = {OrderMessage.ALREADY_PAYING.value, CartMessage.EMPTY_CHECKOUT.value}


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def gateway(ledger: SimulatorLedger) -> SquareGateway:
    """The real SDK gateway, talking to the simulator (its ledger is the bank)."""
    return SquareGateway(
        square_client_for_app(create_simulator(ledger)), location_id=ledger.location_id, timeout_s=10
    )


def _candle(session: Session) -> Product:
    product = Product(name="12oz Soy Candle - Cedar", base_price_cents=3200, stock_quantity=STOCK)
    session.add(product)
    session.flush()
    return product


def _owner(session: Session, kind: str) -> tuple[CartOwner, int | None]:
    if kind == "guest":
        return CartOwner(token="one-guest-cookie"), None
    user = User(email="ana@example.ca", password_hash="x", first_name="Ana", last_name="Silva")
    session.add(user)
    session.flush()
    return CartOwner(user_id=user.id), user.id


def _completed(ledger: SimulatorLedger) -> list[dict]:
    return [payment for payment in ledger.payments() if payment["status"] == "COMPLETED"]


@pytest.mark.parametrize("tabs", [2, 10])
@pytest.mark.parametrize("kind", ["guest", "customer"])
def test_tabs_paying_one_cart_at_once_place_one_order_and_charge_once(
    session: Session, engine: Engine, *, ledger: SimulatorLedger, gateway: SquareGateway, tabs: int, kind: str
) -> None:
    candle = _candle(session)
    owner, user_id = _owner(session, kind)
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    start = threading.Barrier(tabs)

    def tab(number: int) -> str:
        start.wait()
        try:
            placed = checkout.place_order(owner=owner, user_id=user_id, form=FORM, engine=engine)
        except CheckoutError as refused:
            return str(refused)
        result = checkout.pay(
            order_id=placed.order_id,
            source_id=f"cnon:card-nonce-ok:tab-{number}",  # each tab its own card token
            gateway=gateway,
            owner=owner,
            engine=engine,
        )
        return "paid" if result.succeeded else f"not paid: {result.status} {result.message}"

    with ThreadPoolExecutor(max_workers=tabs) as pool:
        outcomes = list(pool.map(tab, range(tabs)))

    assert outcomes.count("paid") == 1, outcomes
    assert set(outcomes) - {"paid"} <= REFUSALS, outcomes
    with Session(engine) as fresh:
        orders = fresh.exec(select(Order)).all()
        assert [(o.status, o.payment_status) for o in orders] == [
            (OrderStatus.PENDING, PaymentStatus.COMPLETED)
        ]
        assert len(fresh.exec(select(Payment)).all()) == 1
        assert fresh.get(Product, candle.id).stock_quantity == STOCK - 2
        assert cart.view_cart(fresh, owner).count == 0
    charges = _completed(ledger)
    assert len(charges) == 1  # the bank agrees: one charge, of the order's total
    assert charges[0]["amount_money"]["amount"] == orders[0].total_cents


class _NoAnswer:
    """A provider that never answers: the charge's outcome stays unknown."""

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        raise TimeoutError

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        raise TimeoutError


def test_while_a_payment_is_being_confirmed_the_cart_is_not_checked_out_again(
    session: Session, engine: Engine
) -> None:
    candle = _candle(session)
    owner = CartOwner(token="unsure")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    unknown = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=_NoAnswer(), engine=engine
    )
    assert unknown.status == ChargeStatus.UNKNOWN

    with pytest.raises(CheckoutError, match="already being paid for"):
        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    # Even once it is old: a charge may be under way, so it waits for reconciliation.
    _age(engine, placed.order_id, UNSTARTED_TIMEOUT * 10)
    with pytest.raises(CheckoutError, match="already being paid for"):
        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    assert _count_orders(engine) == 1


def test_a_declined_card_frees_the_cart_for_another_try(
    session: Session, engine: Engine, ledger: SimulatorLedger, gateway: SquareGateway
) -> None:
    candle = _candle(session)
    owner = CartOwner(token="declined-then-ok")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()

    first = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    declined = checkout.pay(
        order_id=first.order_id, source_id="cnon:card-nonce-declined", gateway=gateway, engine=engine
    )
    second = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    paid = checkout.pay(
        order_id=second.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine
    )

    assert declined.status == ChargeStatus.DECLINED and paid.succeeded
    assert len(_completed(ledger)) == 1
    assert _stock(engine, candle.id) == STOCK - 1


def test_an_order_whose_worker_stopped_before_paying_gives_way_after_a_while(
    session: Session, engine: Engine, ledger: SimulatorLedger, gateway: SquareGateway
) -> None:
    candle = _candle(session)
    owner = CartOwner(token="worker-died")
    cart.add_item(session, owner, product_id=candle.id, quantity=3)
    session.commit()
    stranded = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)  # never paid

    with pytest.raises(CheckoutError, match="already being paid for"):
        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    _age(engine, stranded.order_id, UNSTARTED_TIMEOUT + timedelta(seconds=5))
    retried = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    late = checkout.pay(
        order_id=stranded.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine
    )
    paid = checkout.pay(
        order_id=retried.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine
    )

    assert late.status == ChargeStatus.DECLINED  # the stranded order never charges now
    assert paid.succeeded
    assert len(_completed(ledger)) == 1
    assert _stock(engine, candle.id) == STOCK - 3  # the stranded order's stock came back
    with Session(engine) as fresh:
        statuses = dict(fresh.exec(select(Order.id, Order.status)).all())
    assert statuses == {stranded.order_id: OrderStatus.CANCELLED, retried.order_id: OrderStatus.PENDING}


def test_the_database_itself_refuses_a_second_unpaid_order_of_one_cart(
    session: Session, engine: Engine
) -> None:
    """The partial unique index holds even for a writer that skips the claim."""
    candle = _candle(session)
    owner = CartOwner(token="index")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    with Session(engine) as fresh:
        first = fresh.get(Order, placed.order_id)
        copy = Order(
            order_number="ORD-COPY",
            cart_id=first.cart_id,
            email=first.email,
            subtotal_cents=first.subtotal_cents,
            tax_cents=first.tax_cents,
            shipping_cents=first.shipping_cents,
            total_cents=first.total_cents,
        )
        fresh.add(copy)
        with pytest.raises(sa.exc.IntegrityError):
            fresh.commit()


def _age(engine: Engine, order_id: int, by: timedelta) -> None:
    with Session(engine) as fresh:
        order = fresh.get(Order, order_id)
        order.created_at = utcnow() - by
        fresh.add(order)
        fresh.commit()


def _count_orders(engine: Engine) -> int:
    with Session(engine) as fresh:
        return fresh.execute(select(sa.func.count()).select_from(Order)).scalar_one()


def _stock(engine: Engine, product_id: int) -> int:
    with Session(engine) as fresh:
        return fresh.get(Product, product_id).stock_quantity


def test_signing_in_during_a_guest_payment_leaves_that_cart_alone(
    session: Session, engine: Engine, ledger: SimulatorLedger, gateway: SquareGateway
) -> None:
    """The merge of a sign-in would move the lines of the order being paid into the customer's
    cart, where a second tab could order them again (the stranger's report, F1)."""
    candle = _candle(session)
    guest = CartOwner(token="paying-guest")
    cart.add_item(session, guest, product_id=candle.id, quantity=1)
    session.commit()
    customer, user_id = _owner(session, "customer")
    session.commit()
    placed = checkout.place_order(owner=guest, user_id=None, form=FORM, engine=engine)  # paying now

    with Session(engine) as signing_in:
        cart.merge_guest_cart(signing_in, token=guest.token, user_id=user_id)
        signing_in.commit()
    with pytest.raises(CheckoutError, match="Your Cart is Empty"):
        checkout.place_order(owner=customer, user_id=user_id, form=FORM, engine=engine)
    paid = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine
    )

    assert paid.succeeded and len(_completed(ledger)) == 1
    with Session(engine) as fresh:
        assert fresh.get(Order, placed.order_id).cart_id is not None
        assert cart.view_cart(fresh, guest).count == 0  # emptied by the payment
        assert cart.view_cart(fresh, customer).count == 0  # the bought line never moved there


def test_a_guest_cart_merges_into_the_customers_once_nothing_is_being_paid(session: Session) -> None:
    candle = _candle(session)
    guest = CartOwner(token="merging-guest")
    cart.add_item(session, guest, product_id=candle.id, quantity=2)
    customer, user_id = _owner(session, "customer")
    session.commit()

    cart.merge_guest_cart(session, token=guest.token, user_id=user_id)
    session.commit()

    assert cart.view_cart(session, customer).count == 2
    assert cart.find_cart(session, guest) is None
