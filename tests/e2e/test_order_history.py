"""A customer's order history: cards, the detail page, Reorder and Track Package.

Orders are written straight into the shop's database here (placing them through checkout is
covered by the checkout tests); everything after that goes through the browser.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OrderAddress, OrderItem, Product, User
from tests.e2e.helpers import NewCustomer, SignIn


def _order_for(
    database_url: str, email: str, *, status: OrderStatus, tracking: str | None
) -> tuple[str, int]:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            user = session.exec(select(User).where(User.email == email)).one()
            product = session.exec(select(Product).where(Product.stock_quantity > 10)).first()
            number = f"ORD-{uuid.uuid4().hex[:8].upper()}"
            order = Order(
                order_number=number,
                user_id=user.id,
                email=email,
                status=status,
                payment_status=PaymentStatus.COMPLETED,
                subtotal_cents=5000,
                tax_cents=600,
                shipping_cents=1500,
                total_cents=7100,
                tracking_number=tracking,
                created_at=datetime(2026, 11, 2, 18, tzinfo=UTC),
                paid_at=datetime(2026, 11, 2, 18, tzinfo=UTC),
            )
            session.add(order)
            session.flush()
            session.add_all(
                [
                    OrderItem(
                        order_id=order.id,
                        product_id=product.id,
                        quantity=2,
                        unit_price_cents=2500,
                        total_price_cents=5000,
                        product_snapshot={"name": product.name},
                    ),
                    OrderAddress(
                        order_id=order.id,
                        first_name="Mia",
                        last_name="Chen",
                        address_line1="12 Cedar Lane",
                        city="Victoria",
                        state="BC",
                        zip_code="V8V 1A1",
                        country="Canada",
                        phone="250-555-0101",
                    ),
                ]
            )
            session.commit()
            return number, order.id
    finally:
        engine.dispose()


@pytest.fixture
def customer(shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer) -> str:
    email = new_customer(prefix="orders")
    sign_in(page, email)
    return email


def test_orders_show_as_cards_with_details_reorder_and_tracking(
    shop_url: str, shop_database_url: str, page: Page, customer: str
) -> None:
    number, _ = _order_for(
        shop_database_url, customer, status=OrderStatus.DELIVERED, tracking="1Z999AA10123456784"
    )

    page.goto(f"{shop_url}/account/orders")

    card = page.get_by_role("heading", name=f"Order {number}").locator(
        "xpath=ancestor::div[contains(@class,'rt-Card')]"
    )
    expect(card.get_by_text("Placed on November 2, 2026")).to_be_visible()
    expect(card.get_by_text("Delivered")).to_be_visible()
    expect(card.get_by_text("$71.00")).to_be_visible()
    expect(card.get_by_text("12 Cedar Lane")).to_be_visible()
    expect(card.get_by_role("link", name="Track Package")).to_have_attribute(
        "href", re.compile(r"ups\.com.*1Z999AA10123456784")
    )

    card.get_by_role("button", name="Reorder").click()
    expect(page.get_by_text("Added 2 items to your cart.")).to_be_visible()
    expect(page.get_by_role("button", name="Cart, 2 items")).to_be_visible()

    card.get_by_role("link", name="View Details").click()
    expect(page).to_have_url(re.compile(r"/account/orders/\d+$"))
    expect(page.get_by_text("Total", exact=True)).to_be_visible()
    expect(page.get_by_text(f"Confirmation sent to {customer}")).to_be_visible()


def test_no_orders_yet_and_no_reorder_before_delivery(
    shop_url: str, shop_database_url: str, page: Page, customer: str
) -> None:
    page.goto(f"{shop_url}/account/orders")
    expect(page.get_by_role("heading", name="No Orders Yet")).to_be_visible()

    number, _ = _order_for(shop_database_url, customer, status=OrderStatus.PROCESSING, tracking=None)
    page.reload()

    expect(page.get_by_role("heading", name=f"Order {number}")).to_be_visible()
    expect(page.get_by_role("button", name="Reorder")).to_have_count(0)
    expect(page.get_by_role("link", name="Track Package")).to_have_count(0)


def test_another_customers_order_page_is_not_found(
    shop_url: str, shop_database_url: str, page: Page, customer: str
) -> None:
    _, theirs = _order_for(shop_database_url, DEMO_ADMIN_EMAIL, status=OrderStatus.DELIVERED, tracking=None)

    page.goto(f"{shop_url}/account/orders/{theirs}")

    expect(page.get_by_role("heading", name="Order Not Found")).to_be_visible()
