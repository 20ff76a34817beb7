"""Discount codes in the browser (issue 19, acceptance 3): a shopper types a code in the cart,
is told why a wrong one is refused, sees the discount in the cart and at checkout, before tax,
and pays the discounted total; the order keeps the code. On a phone too."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.discounts import DiscountKind
from shop_app.domain.messages import CheckoutMessage, DiscountMessage
from shop_app.domain.money import format_cents, parse_dollars
from shop_app.domain.tax import tax_lines, taxes_for
from shop_app.models import DiscountCode, Order
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.test_admin_sales import _summary_value
from tests.e2e.test_checkout import _fill

WEBSOCKET_TIMEOUT = 15_000
PLACE_ORDER = re.compile(r"^Place Order")


@pytest.fixture
def code(shop_database_url: str) -> Iterator[str]:
    """A 10 % code of this test's own (its uses are left with it: nothing else reads it)."""
    text = f"TEN-{uuid.uuid4().hex[:6].upper()}"
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            session.add(DiscountCode(code=text, kind=DiscountKind.PERCENT.value, value=1000))
            session.add(
                DiscountCode(
                    code=f"{text}-BIG", kind=DiscountKind.FIXED.value, value=500, min_subtotal_cents=10**6
                )
            )
            session.commit()
        yield text
    finally:
        engine.dispose()


def _order_of(database_url: str, number: str) -> Order:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return session.exec(select(Order).where(Order.order_number == number)).one()
    finally:
        engine.dispose()


def test_a_shopper_applies_a_code_in_the_cart_and_pays_the_discounted_total(
    shop_url: str, shop_database_url: str, page: Page, code: str
) -> None:
    page.goto(f"{shop_url}/product/{demo_id(with_sibling_scent()[0])}")
    page.get_by_role("button", name="Add to Cart").click()
    page.get_by_role("button", name="Cart, 1 item").click()
    drawer = page.get_by_role("dialog", name="Your Cart")
    field = drawer.get_by_label("Discount code")

    field.fill("NOPE-123")
    drawer.get_by_role("button", name="Apply").click()
    expect(drawer.get_by_text(DiscountMessage.UNKNOWN.value)).to_be_visible(timeout=WEBSOCKET_TIMEOUT)
    expect(field).to_have_value("NOPE-123")  # what was typed stays
    field.fill(f"{code}-big")
    drawer.get_by_role("button", name="Apply").click()
    expect(drawer.get_by_text("This code needs a subtotal of $10,000.00 or more.")).to_be_visible(
        timeout=WEBSOCKET_TIMEOUT
    )
    field.fill(f"  {code.lower()} ")
    drawer.get_by_role("button", name="Apply").click()

    expect(page.get_by_text(DiscountMessage.APPLIED.format(code=code))).to_be_visible(
        timeout=WEBSOCKET_TIMEOUT
    )
    row = "xpath=following-sibling::p[last()]"
    subtotal = parse_dollars(drawer.get_by_text("Subtotal", exact=True).locator(row).inner_text())
    discount = drawer.get_by_text(f"Discount ({code})", exact=True).locator(row)
    expect(discount).to_have_text(format_cents(-round(subtotal / 10)))
    expect(drawer.get_by_role("button", name=f"Remove discount code {code}")).to_be_visible()

    drawer.get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    _fill(page, f"coded-{uuid.uuid4().hex[:6]}@example.com")
    expect(page.get_by_text(f"Discount ({code})", exact=True)).to_be_visible()
    off = -parse_dollars(_summary_value(page, f"Discount ({code})").replace("-", ""))
    shipping_text = _summary_value(page, "Shipping")
    shipping = 0 if shipping_text == "Free" else parse_dollars(shipping_text)
    taxes = tax_lines(subtotal + off, shipping, taxes_for("Canada", "BC"))  # on the goods after it
    total = subtotal + off + shipping + sum(line.amount_cents for line in taxes)
    assert _summary_value(page, "Total") == format_cents(total)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=PLACE_ORDER).click()

    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(
        timeout=WEBSOCKET_TIMEOUT
    )
    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)
    order = _order_of(shop_database_url, number)
    assert (order.discount_code, order.discount_cents, order.total_cents) == (code, -off, total)


def test_a_code_is_applied_and_removed_at_checkout_on_a_phone(shop_url: str, page: Page, code: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{shop_url}/product/{demo_id(with_sibling_scent()[0])}")
    page.get_by_role("button", name="Add to Cart").click()
    page.get_by_role("button", name="Cart, 1 item").click()
    page.get_by_role("dialog", name="Your Cart").get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    field = page.get_by_label("Discount code")
    field.fill(code)
    field.press("Enter")
    discount = page.get_by_text(f"Discount ({code})", exact=True)
    expect(discount).to_be_visible(timeout=WEBSOCKET_TIMEOUT)
    total = _summary_value(page, "Total")
    expect(page.get_by_role("button", name=PLACE_ORDER)).to_contain_text(total)

    remove = page.get_by_role("button", name=f"Remove discount code {code}")
    expect(remove).to_have_attribute("type", "button")  # inside the order's form: never its submit
    remove.click()
    expect(discount).to_have_count(0, timeout=WEBSOCKET_TIMEOUT)
    expect(page.get_by_label("Discount code")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/checkout/?$"))  # nothing was ordered
    expect(page.get_by_text(CheckoutMessage.TOTAL_UPDATED.value)).to_have_count(0)
    assert parse_dollars(_summary_value(page, "Total")) > parse_dollars(total)
