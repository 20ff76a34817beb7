"""The dashboard's sales overview and the store's tax rate, in the browser.

A guest pays an order with the approved test card; the demo admin's dashboard then counts at
least one order today and draws the revenue chart (an SVG, under the shop's CSP without
'unsafe-eval': no CSP violation is reported). Then the admin sets the tax rate to 5 % in the
store settings: a shopper's checkout shows the 5 % tax in its totals and the placed order is
charged with it. The tax rate and the stock of the product bought are put back afterwards, so the
other journeys find the demo shop as it was.
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
from shop_app.domain.money import format_cents, parse_dollars, percent_of
from shop_app.models import Order, Product, StoreSettings
from shop_app.services.store_settings import SETTINGS_ID
from tests.e2e.helpers import SignIn, demo_id, with_sibling_scent
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill

FIVE_PERCENT_BPS = 500


@pytest.fixture
def restored_shop(shop_database_url: str) -> Iterator[int]:
    """The product to buy; its stock and the store's tax rate are put back afterwards."""
    product_id = demo_id(with_sibling_scent()[0])
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            stock = session.get(Product, product_id).stock_quantity
            tax_rate_bps = session.get(StoreSettings, SETTINGS_ID).tax_rate_bps
        yield product_id
    finally:
        with Session(engine) as session:
            session.get(Product, product_id).stock_quantity = stock
            session.get(StoreSettings, SETTINGS_ID).tax_rate_bps = tax_rate_bps
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


def test_a_new_tax_rate_is_charged_at_checkout(
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
    page.get_by_label("Tax rate (%)").fill("5")
    page.get_by_role("button", name="Save Settings").click()
    expect(page.get_by_text(StoreSettingsMessage.SAVED.value)).to_be_visible()

    context = browser.new_context()
    try:
        shopper = context.new_page()
        _add_and_go_to_checkout(shopper, shop_url, restored_shop)
        expect(shopper.get_by_text("Tax (5%)", exact=True)).to_be_visible()
        subtotal = parse_dollars(_summary_value(shopper, "Subtotal"))
        assert _summary_value(shopper, "Tax (5%)") == format_cents(percent_of(subtotal, FIVE_PERCENT_BPS))
        _fill(shopper, f"tax-{uuid.uuid4().hex[:6]}@example.com")
        shopper.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
        shopper.get_by_role("button", name=re.compile(r"^Place Order")).click()
        expect(shopper.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
        number = re.search(r"number=([A-Z0-9-]+)", shopper.url).group(1)
        expected_tax = percent_of(subtotal, FIVE_PERCENT_BPS)
        expect(shopper.get_by_text(format_cents(expected_tax), exact=True)).to_be_visible()
    finally:
        context.close()

    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == number)).one()
    finally:
        engine.dispose()
    assert (order.subtotal_cents, order.tax_cents) == (subtotal, expected_tax)
    assert order.total_cents == order.subtotal_cents + order.tax_cents + order.shipping_cents
