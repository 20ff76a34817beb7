"""The shop counts one set of paid orders everywhere (issue 17, acceptance 6).

One fixture of mixed orders, every one made by the real checkout and back-office services on a
fresh Square simulator: paid and standing (pending, processing, delivered), refunded, cancelled
after payment, awaiting payment, declined, and two of the simulated PayPal of local mode (one
still pending, one cancelled). Then:

- the dashboard's Paid Orders card, the admin Orders list's default view (its total and its rows)
  and ``order_history.paid_orders()`` are one set;
- the sales overview counts exactly that set less the refunded and cancelled orders
  (``order_history.sale_orders()``);
- the not charged orders are in neither, but in the Orders list's "Not charged" filter (and only
  there), and in the customer's own history, marked not charged;
- a not charged order is never refunded (the refusal says to cancel it instead), and its page in
  the back office says it was not charged.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.models import Order, Product, User
from shop_app.services import cart, checkout, order_history
from shop_app.services.admin import orders as admin_orders
from shop_app.services.admin.order_changes import OrderChangeError, change_status
from shop_app.services.admin.sales import sales_overview
from shop_app.services.admin_dashboard import store_counts
from shop_app.services.cart import CartOwner
from shop_app.services.order_history import not_charged_orders, paid_orders, placed_orders, sale_orders
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.services.square.refunds import SquareRefunds
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.support.checkout import FORM
from tests.support.square import spec_checker

S = OrderStatus
_carts = itertools.count(1)


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "local")  # the simulated PayPal exists only there
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@dataclass
class Mixed:
    """The orders of the fixture by kind (order ids), and what made them."""

    engine: Engine
    customer: User
    admin: User
    refunds: SquareRefunds
    standing: list[int]  # paid, neither cancelled nor refunded: sales
    refunded: list[int]
    cancelled_after_paid: list[int]
    awaiting_payment: list[int]
    declined: list[int]
    not_charged: list[int]  # simulated PayPal: pending, then cancelled

    @property
    def paid(self) -> set[int]:
        return {*self.standing, *self.refunded, *self.cancelled_after_paid}

    def change(self, order_id: int, target: str) -> None:
        change_status(
            order_id=order_id,
            target=target,
            admin_user_id=self.admin.id,
            expected_status=None,
            refunds=self.refunds,
            engine=self.engine,
        )


@pytest.fixture
def mixed(session: Session, engine: Engine) -> Mixed:
    ledger = SimulatorLedger()
    client = square_client_for_app(create_simulator(ledger), timeout_s=5, event_hooks=spec_checker().hooks())
    gateway = SquareGateway(client, location_id=DEFAULT_LOCATION_ID, backoff_s=0)
    customer = User(email="ada@example.com", password_hash="x", first_name="Ada", last_name="Lovelace")
    admin = User(email="owner@example.com", password_hash="x", first_name="Olive", last_name="Owner")
    candle = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=50)
    session.add_all([customer, admin, candle])
    session.commit()

    def placed(*, paypal: bool = False, guest: bool = False) -> tuple[int, CartOwner]:
        owner = CartOwner(token=f"cart-sets-{next(_carts)}", user_id=None if guest else customer.id)
        cart.add_item(session, owner, product_id=candle.id, quantity=1)
        session.commit()
        form = FORM if guest else dataclasses.replace(FORM, email=customer.email)
        provider = PaymentProvider.PAYPAL_SIMULATED if paypal else PaymentProvider.SQUARE
        order = checkout.place_order(
            owner=owner, user_id=owner.user_id, form=form, provider=provider, engine=engine
        )
        return order.order_id, owner

    def paid(*, guest: bool = False, nonce: str = "cnon:card-nonce-ok") -> int:
        order_id, owner = placed(guest=guest)
        source = f"{nonce}:{order_id}"  # a fresh token each time, as Square's Web Payments SDK gives
        checkout.pay(order_id=order_id, source_id=source, gateway=gateway, owner=owner, engine=engine)
        return order_id

    def paypal() -> int:
        order_id, owner = placed(paypal=True)
        result = checkout.pay_simulated_paypal(order_id=order_id, owner=owner, engine=engine)
        assert (result.succeeded, result.charged) == (True, False)
        return order_id

    mixed = Mixed(
        engine=engine,
        customer=customer,
        admin=admin,
        refunds=SquareRefunds(client, backoff_s=0),
        standing=[paid(), paid(guest=True), paid(), paid()],
        refunded=[paid()],
        cancelled_after_paid=[paid(guest=True)],
        awaiting_payment=[placed(guest=True)[0]],  # a guest's: the customer's cart stays free
        declined=[paid(nonce="cnon:card-nonce-declined")],
        not_charged=[paypal(), paypal()],
    )
    mixed.change(mixed.standing[2], S.PROCESSING)
    for step in (S.PROCESSING, S.SHIPPED, S.DELIVERED):
        if step == S.SHIPPED:
            change_status(
                order_id=mixed.standing[3],
                target=step,
                admin_user_id=admin.id,
                expected_status=None,
                tracking_number="1Z999AA10123456784",
                carrier="UPS",
                engine=engine,
            )
        else:
            mixed.change(mixed.standing[3], step)
    mixed.change(mixed.refunded[0], S.REFUNDED)
    mixed.change(mixed.cancelled_after_paid[0], S.CANCELLED)
    mixed.change(mixed.not_charged[1], S.CANCELLED)
    return mixed


def _ids(session: Session, condition: sa.ColumnElement[bool]) -> set[int]:
    return set(session.exec(select(col(Order.id)).where(condition)).all())


def _statuses(session: Session, ids: list[int]) -> list[tuple[str, str]]:
    return [(o.status, o.payment_status) for o in (session.get(Order, i) for i in ids)]


def test_the_fixture_holds_every_kind_of_order(session: Session, mixed: Mixed) -> None:
    assert _statuses(session, mixed.standing) == [
        (S.PENDING, PaymentStatus.COMPLETED),
        (S.PENDING, PaymentStatus.COMPLETED),
        (S.PROCESSING, PaymentStatus.COMPLETED),
        (S.DELIVERED, PaymentStatus.COMPLETED),
    ]
    assert _statuses(session, mixed.refunded) == [(S.REFUNDED, PaymentStatus.REFUNDED)]
    assert _statuses(session, mixed.cancelled_after_paid) == [(S.CANCELLED, PaymentStatus.REFUNDED)]
    assert _statuses(session, mixed.awaiting_payment) == [(S.AWAITING_PAYMENT, PaymentStatus.PENDING)]
    assert _statuses(session, mixed.declined) == [(S.CANCELLED, PaymentStatus.FAILED)]
    assert _statuses(session, mixed.not_charged) == [
        (S.PENDING, PaymentStatus.NOT_CHARGED),
        (S.CANCELLED, PaymentStatus.NOT_CHARGED),
    ]


def test_the_card_the_orders_list_and_the_sales_count_one_set(session: Session, mixed: Mixed) -> None:
    listed = admin_orders.list_orders(session, page_size=100)
    overview = sales_overview(session, now=datetime.now(UTC))
    sales = overview.periods[-1]  # the last 30 days: every order of the fixture was placed today

    assert _ids(session, paid_orders()) == mixed.paid
    assert store_counts(session).paid_orders == listed.total == len(mixed.paid) == 6
    assert {row.id for row in listed.rows} == mixed.paid
    assert _ids(session, sale_orders()) == set(mixed.standing)
    assert (
        sales.orders == len(mixed.standing) == listed.total - len(mixed.refunded + mixed.cancelled_after_paid)
    )
    standing_totals = sum(session.get(Order, i).total_cents for i in mixed.standing)
    assert sales.revenue_cents == standing_totals
    assert [p.units for p in overview.top_by_units] == [len(mixed.standing)]  # one candle each


def test_not_charged_orders_are_in_neither_the_card_nor_the_sales_but_in_their_filter(
    session: Session, mixed: Mixed
) -> None:
    not_charged = set(mixed.not_charged)

    assert not not_charged & _ids(session, paid_orders())
    assert not not_charged & _ids(session, sale_orders())
    assert _ids(session, not_charged_orders()) == not_charged
    assert _ids(session, placed_orders()) == mixed.paid | not_charged
    assert all(row.not_charged is False for row in admin_orders.list_orders(session, page_size=100).rows)
    assert admin_orders.list_orders(session, status=S.PENDING, page_size=100).total == 2  # paid ones only

    filtered = admin_orders.list_orders(session, status=admin_orders.NOT_CHARGED, page_size=100)

    assert (filtered.total, {row.id for row in filtered.rows}) == (2, not_charged)
    assert [(row.status, row.payment_status, row.not_charged) for row in filtered.rows] == [
        (S.CANCELLED, PaymentStatus.NOT_CHARGED, True),  # newest first
        (S.PENDING, PaymentStatus.NOT_CHARGED, True),
    ]
    assert admin_orders.list_orders(session, status=admin_orders.NOT_CHARGED, search="nobody").any_orders


def test_the_customer_sees_their_not_charged_orders_marked_so(session: Session, mixed: Mixed) -> None:
    mine = order_history.list_orders(session, user_id=mixed.customer.id)

    guests = {mixed.standing[1], *mixed.cancelled_after_paid, *mixed.awaiting_payment}
    customer_orders = (mixed.paid | set(mixed.not_charged)) - guests  # placed: not the declined one
    assert {order.id for order in mine} == customer_orders
    assert {order.id for order in mine if order.not_charged} == set(mixed.not_charged)
    pending = order_history.get_order(session, user_id=mixed.customer.id, order_id=mixed.not_charged[0])
    assert (pending.status_label, pending.not_charged) == ("Pending", True)
    proven = order_history.order_with_access_proven(session, order_id=mixed.not_charged[1])
    assert (proven.status_label, proven.not_charged) == ("Cancelled", True)
    assert order_history.get_order(session, user_id=mixed.customer.id, order_id=mixed.declined[0]) is None


def test_a_not_charged_order_is_shown_but_never_refunded(session: Session, mixed: Mixed) -> None:
    order_id = mixed.not_charged[0]
    detail = admin_orders.order_detail(session, order_id)

    assert detail.not_charged and detail.payment.status == PaymentStatus.NOT_CHARGED
    assert detail.payment.provider == PaymentProvider.PAYPAL_SIMULATED
    assert detail.allowed == (S.PROCESSING, S.CANCELLED)
    with pytest.raises(OrderChangeError) as refused:
        mixed.change(order_id, S.REFUNDED)
    assert str(refused.value) == M.NOT_CHARGED_CANCEL_INSTEAD.value
    session.expire_all()
    assert _statuses(session, [order_id]) == [(S.PENDING, PaymentStatus.NOT_CHARGED)]
    cancelled = admin_orders.order_detail(session, mixed.not_charged[1])
    assert cancelled.not_charged and cancelled.allowed == ()
