"""Faults under the running production shop (two workers), with other visitors meanwhile:

- Redis restarted, losing every tab's page state: the shopper is told to try again, keeps the
  cart (it lives in the database, found by the cookie), and checks out.
- PostgreSQL restarted, then down for a while: pooled connections are replaced without an error;
  while it is down the shopper is told something went wrong and nothing is half-written; then the
  same shopper checks out, once.
- Square unreachable, answering too late, or losing its answers during checkout: the shopper is
  told the payment is being confirmed; the reconciliation job (``release-unpaid``) later settles
  each order as Square has it; no order is lost and no payment is taken twice.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.demo.demo_catalog import DemoProduct
from shop_app.domain.messages import PaymentMessage, ServiceMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OrderAddress, OrderItem, Payment, Product
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.test_checkout import ADDRESS
from tests.production.checkout_steps import open_checkout, submit_order
from tests.production.conftest import ROOT, WORKERS, ProductionShop, Traffic

CONFIRMING = "We are confirming your payment and will email you the result shortly."
HEALTHY_AFTER_S = 10  # every visitor is served again within this long after a restart


def show_product(page: Page, shop: ProductionShop, product: DemoProduct) -> None:
    """Open a product's page and wait for it to show that product.

    Until the page's own load has run, a tab that showed another product a moment ago still shows
    that one (its page state comes back first): clicking then would add the other product.
    """
    page.goto(f"{shop.url}/product/{demo_id(product)}")
    expect(page.get_by_role("heading", level=1, name=product.name)).to_be_visible()


def add_to_cart(page: Page, shop: ProductionShop, product: DemoProduct, expected_count: int) -> None:
    """Add one of a product from its page; the cart button then shows ``expected_count``."""
    if not page.url.rstrip("/").endswith(f"/product/{demo_id(product)}"):
        show_product(page, shop, product)
    page.get_by_role("button", name="Add to Cart").click()
    label = "Cart, 1 item" if expected_count == 1 else f"Cart, {expected_count} items"
    expect(page.get_by_role("button", name=label)).to_be_visible()


OrderRows = tuple[Order, list[OrderItem], OrderAddress | None, Payment]


def orders_of(shop: ProductionShop, email: str) -> list[OrderRows]:
    """Every order of a shopper, with its lines, address and payment."""
    engine = create_db_engine(shop.database_url)
    try:
        with Session(engine) as session:
            found = []
            for order in session.exec(select(Order).where(Order.email == email).order_by(Order.id)):
                items = list(session.exec(select(OrderItem).where(OrderItem.order_id == order.id)))
                address = session.exec(select(OrderAddress).where(OrderAddress.order_id == order.id)).first()
                payment = session.exec(select(Payment).where(Payment.order_id == order.id)).one()
                found.append((order, items, address, payment))
            return found
    finally:
        engine.dispose()


def stock(shop: ProductionShop, product_id: int) -> int:
    engine = create_db_engine(shop.database_url)
    try:
        with Session(engine) as session:
            return session.get(Product, product_id).stock_quantity
    finally:
        engine.dispose()


def run_reconciliation(shop: ProductionShop, number: str) -> str:
    """Age the order past the job's 30 minutes, then run the cron job as the docs set it up."""
    engine = create_db_engine(shop.database_url)
    try:
        with engine.begin() as connection:
            aged = "UPDATE orders SET created_at = created_at - interval '31 minutes' WHERE order_number = :n"
            connection.execute(sa.text(aged), {"n": number})
    finally:
        engine.dispose()
    env = {
        **os.environ,
        "DATABASE_URL": shop.database_url,
        "SQUARE_ENVIRONMENT": "local",
        "SQUARE_SIMULATOR_URL": shop.square.url,
        "SITE_URL": shop.url,
        "LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "shop_app", "release-unpaid"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_whole(orders: list[OrderRows]) -> None:
    """No half-written order: each has its lines, its shipping address and one payment row."""
    for order, items, address, payment in orders:
        assert items and address is not None, f"order {order.order_number} is incomplete"
        assert sum(i.total_price_cents for i in items) == order.subtotal_cents
        assert payment.amount_cents == order.total_cents


def assert_served_again(traffic: Traffic, since: float) -> None:
    """Every visitor is answered 200 once the restart is HEALTHY_AFTER_S behind."""
    time.sleep(max(0.0, since + HEALTHY_AFTER_S + 2 - time.monotonic()))  # some traffic after it
    later = [a for a in traffic.since(since + HEALTHY_AFTER_S) if a[2] != 200]
    assert not later, f"still failing after {HEALTHY_AFTER_S} s: {later[:5]}"
    assert traffic.since(since + HEALTHY_AFTER_S), "no traffic after the restart"


@pytest.fixture(autouse=True)
def _shop_is_whole_again(shop: ProductionShop) -> None:
    """Every test starts with all workers, the database, Redis and Square up."""
    shop.wait_for_workers(WORKERS)


def test_redis_restart_loses_page_state_but_not_the_cart_and_the_shopper_checks_out(
    shop: ProductionShop, page: Page
) -> None:
    first, second = with_sibling_scent()
    email = f"redis-{uuid.uuid4().hex[:8]}@example.com"
    with Traffic(shop) as traffic:
        add_to_cart(page, shop, first, 1)

        restarted = time.monotonic()
        shop.redis.restart(down_s=2)  # no persistence: every tab's page state is gone

        page.get_by_role("button", name="Add to Cart").click()
        expect(page.get_by_text(ServiceMessage.RECONNECTED.value)).to_be_visible()
        expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()  # the cart is intact
        add_to_cart(page, shop, second, 2)
        open_checkout(page, email)
        number = submit_order(page)
        assert_served_again(traffic, restarted)

    orders = orders_of(shop, email)
    assert [(o.order_number, o.payment_status, len(items)) for o, items, _, _ in orders] == [
        (number, PaymentStatus.COMPLETED, 2)
    ]
    assert_whole(orders)
    assert len(shop.square.payments_for(number)) == 1


def test_postgres_restart_and_outage_write_nothing_half_way_and_the_shopper_checks_out_once(
    shop: ProductionShop, page: Page
) -> None:
    product, _ = with_sibling_scent()
    email = f"pg-{uuid.uuid4().hex[:8]}@example.com"
    with Traffic(shop) as traffic:
        add_to_cart(page, shop, product, 1)
        shop.postgres.restart()  # every pooled connection is dead now
        add_to_cart(page, shop, product, 2)  # pre-ping replaced them: no error

        open_checkout(page, email)
        other_tab = page.context.new_page()  # the same shopper, on a product page in another tab
        show_product(other_tab, shop, product)
        expect(other_tab.get_by_role("button", name="Cart, 2 items")).to_be_visible()
        stock_before = stock(shop, demo_id(product))
        stopped = time.monotonic()
        shop.postgres.stop()
        try:
            page.get_by_role("button", name=re.compile(r"^Place Order")).click()
            expect(page.get_by_role("alert")).to_contain_text(PaymentMessage.PROCESSING_FAILED.value)
            other_tab.get_by_role("button", name="Add to Cart").click()
            expect(other_tab.get_by_text(ServiceMessage.TRY_AGAIN.value)).to_be_visible()
            down = [a for a in traffic.since(stopped) if a[1] == "/api/health"]
        finally:
            shop.postgres.start()
        other_tab.close()
        assert any(status == 503 for _, _, status in down), "the health check did not report the outage"

        expect(page.get_by_label("City")).to_have_value(ADDRESS["City"])  # the form is as it was
        number = submit_order(page)
        assert_served_again(traffic, stopped)

    orders = orders_of(shop, email)
    assert [(o.order_number, o.status) for o, *_ in orders] == [(number, OrderStatus.PENDING)]
    assert_whole(orders)
    assert orders[0][1][0].quantity == 2
    assert stock(shop, demo_id(product)) == stock_before - 2  # taken once, by the order that went through
    assert len(shop.square.payments_for(number)) == 1


def test_square_unreachable_leaves_the_order_waiting_then_the_job_gives_the_stock_back(
    shop: ProductionShop, page: Page
) -> None:
    product, _ = with_sibling_scent()
    email = f"sq-down-{uuid.uuid4().hex[:8]}@example.com"
    add_to_cart(page, shop, product, 1)
    open_checkout(page, email)
    stock_before = stock(shop, demo_id(product))
    with Traffic(shop) as traffic:
        stopped = time.monotonic()
        shop.square.stop()
        try:
            number = submit_order(page)
            expect(page.get_by_text(CONFIRMING)).to_be_visible()
            ((order, *_),) = orders_of(shop, email)
            waiting = (OrderStatus.AWAITING_PAYMENT, PaymentStatus.UNKNOWN)
            assert (order.status, order.payment_status) == waiting
        finally:
            shop.square.start()
    assert all(status == 200 for _, _, status in traffic.since(stopped))  # the rest of the shop carried on

    assert "1 declined" in run_reconciliation(shop, number)  # Square has no payment: cancelled

    ((order, *_),) = orders_of(shop, email)
    assert (order.status, order.payment_status) == (OrderStatus.CANCELLED, PaymentStatus.FAILED)
    assert stock(shop, demo_id(product)) == stock_before  # given back
    assert shop.square.payments_for(number) == []


def test_lost_answers_from_square_never_charge_twice_and_the_job_completes_the_order(
    shop: ProductionShop, page: Page
) -> None:
    product, _ = with_sibling_scent()
    email = f"sq-lost-{uuid.uuid4().hex[:8]}@example.com"
    add_to_cart(page, shop, product, 1)
    open_checkout(page, email)
    # Square takes the money, then the connection drops before the answer: on every attempt.
    shop.square.ledger.fail_next("/v2/payments", "drop_after_charge", times=3, method="POST")

    number = submit_order(page)
    expect(page.get_by_text(CONFIRMING)).to_be_visible()
    assert [p["status"] for p in shop.square.payments_for(number)] == ["COMPLETED"]  # one, not three

    assert "1 completed" in run_reconciliation(shop, number)

    ((order, *_),) = orders_of(shop, email)
    assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.COMPLETED)
    assert len(shop.square.payments_for(number)) == 1


def test_square_slower_than_the_state_lock_still_completes_the_checkout(
    shop: ProductionShop, page: Page
) -> None:
    product, _ = with_sibling_scent()
    email = f"sq-slow-{uuid.uuid4().hex[:8]}@example.com"
    add_to_cart(page, shop, product, 1)
    open_checkout(page, email)
    # 11 s: longer than Reflex keeps a tab's state locked with Redis (10 s), within our timeout.
    shop.square.ledger.fail_next("/v2/payments", "timeout_after_charge", delay_s=11, method="POST")

    number = submit_order(page)

    expect(page.get_by_text(CONFIRMING)).to_have_count(0)
    ((order, *_),) = orders_of(shop, email)
    assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.COMPLETED)
    assert len(shop.square.payments_for(number)) == 1
