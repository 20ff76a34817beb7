"""The checkout's, the orders' and the payments' seed messages, each shown in the browser (issue 15,
acceptance 4; the table is tests/support/message_journeys/checkout.py).

The failures are real: the running shop's database refuses the step that names the message (a
table hidden with ``broken_table``, or a trigger that refuses the statement), or its write lock is
held by this test. Everything is put back afterwards and nothing is left placed.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.messages import CheckoutMessage, OrderMessage, PaymentMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OrderItem, Product, User
from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_orders import _admin_page, _place_order
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill, _stock

Refusal = Callable[[str, str, str], AbstractContextManager[None]]


def _database_file(database_url: str) -> str:
    return database_url.removeprefix("sqlite:///")


@pytest.fixture
def refused(shop_database_url: str) -> Iterator[Refusal]:
    """``with refused("orders", "INSERT", "ABORT"):`` makes the running shop's database refuse
    that statement on that table (a trigger raising ``ABORT``, or ``IGNORE`` to skip the row as a
    conflict would) and drops the trigger afterwards."""
    engine = sa.create_engine(shop_database_url)

    @contextmanager
    def refuse(table: str, statement: str, action: str) -> Iterator[None]:
        name = f"refused_by_test_{table}_{statement.lower()}"
        reason = ", 'refused by the test'" if action == "ABORT" else ""
        with engine.begin() as connection:
            connection.exec_driver_sql(
                f'CREATE TRIGGER "{name}" BEFORE {statement} ON "{table}" '
                f"BEGIN SELECT RAISE({action}{reason}); END"
            )
        try:
            yield
        finally:
            with engine.begin() as connection:
                connection.exec_driver_sql(f'DROP TRIGGER IF EXISTS "{name}"')

    try:
        yield refuse
    finally:
        engine.dispose()


@contextmanager
def _write_lock(database_url: str) -> Iterator[None]:
    """Hold the shop database's write lock (another writer in the middle of its transaction)."""
    connection = sqlite3.connect(_database_file(database_url), isolation_level=None, timeout=30)
    try:
        connection.execute("BEGIN IMMEDIATE")
        yield
    finally:
        connection.execute("ROLLBACK")
        connection.close()


def _place(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()


def _orders_count(database_url: str) -> int:
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            return connection.execute(sa.text("SELECT count(*) FROM orders")).scalar_one()
    finally:
        engine.dispose()


def _set_stock(database_url: str, product_id: int, stock: int) -> None:
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE products SET stock_quantity = :stock WHERE id = :id"),
                {"stock": stock, "id": product_id},
            )
    finally:
        engine.dispose()


def test_the_checkout_refuses_a_bad_email_and_more_than_the_stock(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    stock_before = _stock(shop_database_url, product_id)
    _add_and_go_to_checkout(page, shop_url, product_id, quantity=2)
    alert = page.get_by_role("alert")

    _place(page)
    expect(alert).to_have_text(str(CheckoutMessage.REQUIRED_FIELDS), timeout=15_000)

    _fill(page, "ada@localhost")  # no dot in the domain
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    _place(page)
    expect(alert).to_have_text(str(CheckoutMessage.INVALID_EMAIL), timeout=15_000)

    page.get_by_label("Email", exact=True).fill(f"stock-{uuid.uuid4().hex[:6]}@example.com")
    _set_stock(shop_database_url, product_id, 1)  # another shopper bought the rest meanwhile
    try:
        _place(page)
        expect(alert).to_have_text(
            OrderMessage.INSUFFICIENT_STOCK.format(product=product.name, available=1, requested=2),
            timeout=15_000,
        )
        expect(page).to_have_url(re.compile(r"/checkout/?$"))
        expect(page.get_by_role("button", name="Cart, 2 items")).to_be_visible()
    finally:
        _set_stock(shop_database_url, product_id, stock_before)


@pytest.mark.broken_table
def test_each_failing_step_of_placing_an_order_says_which_step_failed(
    shop_url: str, shop_database_url: str, page: Page, broken_table, refused: Refusal
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    stock_before = _stock(shop_database_url, product_id)
    orders_before = _orders_count(shop_database_url)
    _add_and_go_to_checkout(page, shop_url, product_id)
    _fill(page, f"steps-{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    alert = page.get_by_role("alert")

    steps = (
        (refused("products", "UPDATE", "ABORT"), OrderMessage.STOCK_CHECK_FAILED),
        (refused("orders", "INSERT", "ABORT"), OrderMessage.CREATE_FAILED),
        # Every order number drawn is skipped as already taken.
        (refused("orders", "INSERT", "IGNORE"), OrderMessage.ORDER_NUMBER_FAILED),
        (broken_table("order_items"), OrderMessage.ITEMS_FAILED),
        (broken_table("order_addresses"), OrderMessage.ADDRESS_FAILED),
        (broken_table("cart_lines"), PaymentMessage.PROCESSING_FAILED),  # not one of the steps
    )
    for failure, message in steps:
        with failure:
            _place(page)
            expect(alert).to_have_text(str(message), timeout=20_000)
            expect(page.get_by_role("button", name=re.compile(r"^Place Order"))).to_be_enabled()

    page.get_by_text("PayPal (demo, not charged)").click()
    with broken_table("cart_lines"):
        _place(page)
        expect(alert).to_have_text(str(PaymentMessage.PAYPAL_FAILED), timeout=20_000)
        expect(page.get_by_role("button", name=re.compile(r"^Place Order"))).to_be_enabled()

    # Each attempt was rolled back whole: no order, the stock as it was, the cart kept.
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    assert _orders_count(shop_database_url) == orders_before
    assert _stock(shop_database_url, product_id) == stock_before

    # Once the database takes it again, the same form places the order.
    _place(page)
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=20_000)


def test_a_status_change_the_database_cannot_take_fails_and_succeeds_later(
    shop_url: str, shop_database_url: str, page: Page, browser: Browser, sign_in: SignIn
) -> None:
    product, _ = with_sibling_scent()
    number = _place_order(page, shop_url, demo_id(product), f"status-{uuid.uuid4().hex[:6]}@example.com")
    engine = sa.create_engine(shop_database_url)
    with engine.connect() as connection:
        order_id = connection.execute(
            sa.text("SELECT id FROM orders WHERE order_number = :n"), {"n": number}
        ).scalar_one()
    engine.dispose()

    admin = _admin_page(browser, sign_in)
    admin.goto(f"{shop_url}/admin/orders/{order_id}")
    expect(admin.get_by_role("heading", name=f"Order {number}")).to_be_visible(timeout=15_000)
    mark = admin.get_by_role("button", name="Mark as Processing")
    expect(mark).to_be_enabled()

    with _write_lock(shop_database_url):  # another writer keeps the database past the busy timeout
        mark.click()
        expect(admin.get_by_text(str(OrderMessage.UPDATE_STATUS_FAILED))).to_be_visible(timeout=20_000)
        expect(mark).to_be_enabled()

    mark.click()
    expect(admin.get_by_text(f"Order {number} is now Processing.")).to_be_visible(timeout=15_000)
    admin.context.close()


@contextmanager
def _old_order_of_a_nameless_product(database_url: str, email: str) -> Iterator[str]:
    """An order of the customer from before items kept a snapshot, of a product whose name was lost
    (an imported row without one); both are deleted afterwards."""
    engine = create_db_engine(database_url)
    number = f"ORD-{uuid.uuid4().hex[:8].upper()}"
    order_id = product_id = None
    try:
        with Session(engine) as session:
            user = session.exec(select(User).where(User.email == email)).one()
            product = Product(name="", base_price_cents=2500, is_active=False, is_listed=False)
            session.add(product)
            session.flush()
            order = Order(
                order_number=number,
                user_id=user.id,
                email=email,
                status=OrderStatus.DELIVERED,
                payment_status=PaymentStatus.COMPLETED,
                subtotal_cents=2500,
                tax_cents=300,
                shipping_cents=1500,
                total_cents=4300,
                created_at=datetime(2026, 10, 5, 18, tzinfo=UTC),
                paid_at=datetime(2026, 10, 5, 18, tzinfo=UTC),
            )
            session.add(order)
            session.flush()
            session.add(
                OrderItem(
                    order_id=order.id,
                    product_id=product.id,
                    quantity=1,
                    unit_price_cents=2500,
                    total_price_cents=2500,
                    product_snapshot={},
                )
            )
            order_id, product_id = order.id, product.id
            session.commit()
        yield number
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM order_items WHERE order_id = :o"), {"o": order_id})
            connection.execute(sa.text("DELETE FROM orders WHERE id = :o"), {"o": order_id})
            connection.execute(sa.text("DELETE FROM products WHERE id = :p"), {"p": product_id})
        engine.dispose()


def test_an_old_order_of_a_product_without_a_name_lists_an_unknown_product(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    email = new_customer(prefix="history")
    sign_in(page, email)

    with _old_order_of_a_nameless_product(shop_database_url, email) as number:
        page.goto(f"{shop_url}/account/orders")
        expect(page.get_by_role("heading", name=f"Order {number}")).to_be_visible(timeout=15_000)
        expect(page.get_by_text(str(OrderMessage.UNKNOWN_PRODUCT)).first).to_be_visible()
