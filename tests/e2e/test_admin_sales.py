"""The dashboard's sales overview and the store's taxes, in the browser.

A guest pays an order with the approved test card; the demo admin's dashboard then counts at
least one order today and draws the revenue chart (an SVG, under the shop's CSP without
'unsafe-eval': no CSP violation is reported). Then the admin registers for Manitoba's RST in the
store settings ("Collect Manitoba RST"): a shopper's checkout to a Manitoba address shows GST and
RST as two lines, and the placed order is charged with them and keeps them. The tax table and the
stock of the product bought are put back afterwards, so the other journeys find the demo shop as
it was.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.money import format_cents, parse_dollars
from shop_app.domain.tax import CANADA_TAXES, TaxRate, tax_lines
from shop_app.models import Order, Product, StoreSettings
from shop_app.services.store_settings import SETTINGS_ID
from tests.e2e.helpers import SignIn, demo_id, with_sibling_scent
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill


@pytest.fixture
def restored_shop(shop_database_url: str) -> Iterator[int]:
    """The product to buy; its stock and the store's tax table are put back afterwards."""
    product_id = demo_id(with_sibling_scent()[0])
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            stock = session.get(Product, product_id).stock_quantity
            tax_table = session.get(StoreSettings, SETTINGS_ID).tax_table
        yield product_id
    finally:
        with Session(engine) as session:
            session.get(Product, product_id).stock_quantity = stock
            session.get(StoreSettings, SETTINGS_ID).tax_table = tax_table
            session.commit()
        engine.dispose()


def _pay_as_guest(page: Page, shop_url: str, product_id: int) -> str:
    """Check out the product with the approved test card; return the order number."""
    _add_and_go_to_checkout(page, shop_url, product_id)
    _fill(page, f"sales-{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    return re.search(r"number=([A-Z0-9-]+)", page.url).group(1)


def _summary_value(page: Page, label: str) -> str:
    """The amount next to ``label`` in the checkout's Order Summary."""
    summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
    value = summary.get_by_text(label, exact=True).locator("xpath=following-sibling::p[last()]")
    return value.inner_text()


def test_the_dashboard_shows_todays_sales_and_the_chart(
    shop_url: str, page: Page, browser: Browser, restored_shop: int, tmp_path: Path, *, sign_in: SignIn
) -> None:
    shopper = browser.new_context()
    try:
        _pay_as_guest(shopper.new_page(), shop_url, restored_shop)
    finally:
        shopper.close()
    csp_errors: list[str] = []

    def record(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "unsafe-eval" in message.text:
            csp_errors.append(message.text)

    page.on("console", record)
    sign_in(page)
    page.goto(f"{shop_url}/admin")

    sales = page.get_by_role("region", name="Sales")
    expect(sales).to_be_visible()
    today = sales.get_by_role("group", name="Today")
    expect(today.get_by_text(re.compile(r"^[1-9]\d* orders?$"))).to_be_visible()
    expect(sales.get_by_role("group", name="Last 30 days")).to_contain_text("$")
    chart = sales.get_by_role("figure", name="Revenue per day, last 30 days")
    expect(chart.locator("svg.recharts-surface")).to_be_visible()
    expect(chart.locator(".recharts-bar-rectangle").first).to_be_attached()
    top = sales.get_by_role("region", name="Top products, last 30 days")
    expect(top.get_by_role("tab", name="By units")).to_have_attribute("aria-selected", "true")
    expect(top.get_by_role("row").nth(1)).to_contain_text("$")  # this run's sales at least
    low = sales.get_by_role("region", name="Low stock")
    expect(low.get_by_role("link").first).to_have_attribute("href", re.compile(r"^/admin/products/edit/\d+$"))
    page.screenshot(path=tmp_path / "sales-dashboard.png", full_page=True)
    assert csp_errors == []


def test_a_province_the_owner_registers_for_is_charged_at_checkout(
    shop_url: str,
    shop_database_url: str,
    page: Page,
    browser: Browser,
    restored_shop: int,
    *,
    sign_in: SignIn,
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin/settings")
    collect = page.get_by_role("switch", name="Collect Manitoba RST")
    expect(collect).not_to_be_checked()  # listed, not collected until the owner registers
    collect.click()
    page.get_by_role("button", name="Save Settings").click()
    expect(page.get_by_text(StoreSettingsMessage.SAVED.value)).to_be_visible()

    context = browser.new_context()
    try:
        shopper = context.new_page()
        _add_and_go_to_checkout(shopper, shop_url, restored_shop)
        _fill(shopper, f"tax-{uuid.uuid4().hex[:6]}@example.com")
        shopper.get_by_label("City", exact=True).fill("Winnipeg")
        shopper.get_by_label("Province / State", exact=True).fill("Manitoba")
        shopper.get_by_label("Postal / ZIP code", exact=True).fill("R3C 0A5")  # leaves the province
        expect(shopper.get_by_text("RST 7%", exact=True)).to_be_visible()
        subtotal = parse_dollars(_summary_value(shopper, "Subtotal"))
        shipping = _summary_value(shopper, "Shipping")
        shipping_cents = 0 if shipping == "Free" else parse_dollars(shipping)
        manitoba = (CANADA_TAXES["MB"][0], TaxRate("RST", 70_000))
        expected = tax_lines(subtotal, shipping_cents, manitoba)
        for line in expected:
            assert _summary_value(shopper, line.label) == format_cents(line.amount_cents)
        shopper.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
        shopper.get_by_role("button", name=re.compile(r"^Place Order")).click()
        expect(shopper.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
        number = re.search(r"number=([A-Z0-9-]+)", shopper.url).group(1)
        for line in expected:  # the receipt: each tax on its own line
            expect(shopper.get_by_text(line.label, exact=True)).to_be_visible()
    finally:
        context.close()

    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == number)).one()
    finally:
        engine.dispose()
    assert (order.subtotal_cents, order.tax_cents) == (subtotal, sum(x.amount_cents for x in expected))
    assert [(x["code"], x["amount_cents"]) for x in order.tax_lines] == [
        (x.code, x.amount_cents) for x in expected
    ]
    assert order.total_cents == order.subtotal_cents + order.tax_cents + order.shipping_cents
