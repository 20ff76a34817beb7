"""A guest finds their order again: the signed link of the confirmation mail (real SMTP), and the
order lookup by e-mail address and order number, with the carrier's tracking link."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.messages import OrderLookupMessage
from shop_app.domain.orders import OrderStatus
from shop_app.models import Order
from tests.e2e.conftest import Mailbox
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill

TIMEOUT_MS = 20_000


def _guest_pays(page: Page, shop_url: str, email: str) -> str:
    """A guest checks out with the approved test card; the order number."""
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=TIMEOUT_MS)
    return re.search(r"number=([A-Z0-9-]+)", page.url).group(1)


def _ship(database_url: str, number: str) -> None:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == number)).one()
            order.status, order.tracking_number, order.carrier = (
                OrderStatus.SHIPPED,
                "1Z999AA10123456784",
                "UPS",
            )
            session.add(order)
            session.commit()
    finally:
        engine.dispose()


def test_a_guest_opens_the_order_from_the_link_in_the_confirmation_mail(
    shop_url: str, page: Page, mailbox: Mailbox
) -> None:
    email = f"guest-{uuid.uuid4().hex[:6]}@example.com"
    number = _guest_pays(page, shop_url, email)
    expect(page.get_by_role("link", name="Find your order", exact=True)).to_be_visible()

    message = mailbox.latest(email, subject_contains=f"Order confirmation {number}")
    link = Mailbox.link(message)
    assert link.startswith(f"{shop_url}/order-status?token=")
    assert number not in link

    page.context.clear_cookies()  # another browser: the link alone opens the order
    page.goto(link)

    expect(page.get_by_role("heading", name="Your Order")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name=f"Order {number}")).to_be_visible()
    expect(page.get_by_text("Pending", exact=True)).to_be_visible()
    expect(page.get_by_text("Shipping to")).to_be_visible()
    expect(page.get_by_text(f"Confirmation sent to {email}")).to_be_visible()

    page.goto(link[:-3])  # a link cut short opens nothing, and leads to the lookup
    expect(page.get_by_role("heading", name="Order not found")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_text(OrderLookupMessage.LINK_INVALID.value)).to_be_visible()
    page.get_by_role("main").get_by_role("link", name="Find Your Order", exact=True).click()
    expect(page.get_by_role("heading", name="Find Your Order")).to_be_visible(timeout=TIMEOUT_MS)


def test_a_guest_looks_the_order_up_by_email_and_number(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    email = f"Guest-{uuid.uuid4().hex[:6]}@Example.com"
    number = _guest_pays(page, shop_url, email)
    _ship(shop_database_url, number)

    page.goto(f"{shop_url}/")
    page.get_by_role("contentinfo").get_by_role("link", name="Find Your Order", exact=True).click()
    expect(page.get_by_role("heading", name="Find Your Order")).to_be_visible(timeout=TIMEOUT_MS)

    form = page.get_by_role("form", name="Find your order")
    form.get_by_label("Email").fill("someone-else@example.com")
    form.get_by_label("Order number").fill(number)
    form.get_by_role("button", name="Find Order").click()
    expect(page.get_by_role("alert")).to_have_text(OrderLookupMessage.NOT_FOUND.value, timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name=f"Order {number}")).to_have_count(0)

    form.get_by_label("Email").fill(email.lower())
    form.get_by_label("Order number").fill(number.lower())
    form.get_by_role("button", name="Find Order").click()

    expect(page.get_by_role("heading", name=f"Order {number}")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_text("Shipped", exact=True)).to_be_visible()
    expect(page.get_by_text("Tracking number: 1Z999AA10123456784")).to_be_visible()
    track = page.get_by_role("link", name="Track Package")
    expect(track).to_have_attribute("href", "https://www.ups.com/track?tracknum=1Z999AA10123456784")
    expect(page.get_by_text("Shipping to")).to_have_count(0)  # no address for e-mail + number
    expect(page.get_by_role("alert")).to_have_count(0)


def test_the_sign_in_dialog_and_a_missing_order_lead_to_the_lookup(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/order-success?order=1&number=CE-20260101-AAAAAA")
    expect(page.get_by_role("heading", name="Order not found")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("main").get_by_role("link", name="Find Your Order", exact=True)).to_be_visible()

    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("link", name="Find your order", exact=True).click()

    expect(page.get_by_role("heading", name="Find Your Order")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("dialog")).to_have_count(0)
