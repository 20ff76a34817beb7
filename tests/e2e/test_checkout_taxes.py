"""Taxes by destination at checkout (issue 19, docs/tax.md), in the browser, on a desktop and a
phone: the summary's tax lines follow the country and the province as the shopper chooses them
(the United States: no tax; British Columbia: GST 5 % and PST 7 %; Ontario: HST 13 %), each on
the goods and the shipping; and an address whose taxes the summary has not shown yet (filled in
without leaving the field, as a browser's autofill does) is not charged until the shopper has
seen its total.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Browser, Page, expect

from shop_app.domain.messages import CheckoutMessage
from shop_app.domain.money import format_cents, parse_dollars
from shop_app.domain.tax import tax_lines, taxes_for
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.test_admin_sales import _summary_value
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill

PHONE = {"width": 390, "height": 844}
PLACE_ORDER = re.compile(r"^Place Order")


def _expected(page: Page, province: str) -> list[tuple[str, str]]:
    """The tax rows the summary should show for ``province`` of Canada, from its figures."""
    subtotal = parse_dollars(_summary_value(page, "Subtotal"))
    shipping = _summary_value(page, "Shipping")
    shipping_cents = 0 if shipping == "Free" else parse_dollars(shipping)
    lines = tax_lines(subtotal, shipping_cents, taxes_for("Canada", province))
    return [(line.label, format_cents(line.amount_cents)) for line in lines]


def _total(page: Page) -> int:
    return parse_dollars(_summary_value(page, "Total"))


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_summarys_taxes_follow_the_country_and_the_province(
    shop_url: str, browser: Browser, viewport: dict[str, int] | None
) -> None:
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    try:
        page = context.new_page()
        _add_and_go_to_checkout(page, shop_url, demo_id(with_sibling_scent()[0]))
        summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
        expect(page.get_by_label("Country")).to_have_value("United States")  # the seed's first choice
        expect(summary.get_by_text("Tax", exact=True)).to_be_visible()
        assert _summary_value(page, "Tax") == "$0.00"  # an export is zero-rated
        export_total = _total(page)

        _fill(page, f"taxes-{uuid.uuid4().hex[:6]}@example.com")  # Victoria, BC; then Canada
        expect(summary.get_by_text("PST 7%", exact=True)).to_be_visible()
        for label, amount in _expected(page, "BC"):
            assert _summary_value(page, label) == amount
        assert _total(page) > export_total

        page.get_by_label("Province / State", exact=True).fill("Ontario")
        page.get_by_label("Postal / ZIP code", exact=True).fill("M5V 2T6")  # leaves the province
        expect(summary.get_by_text("HST 13%", exact=True)).to_be_visible()
        expect(summary.get_by_text("PST 7%", exact=True)).to_have_count(0)
        for label, amount in _expected(page, "ON"):
            assert _summary_value(page, label) == amount
        expect(page.get_by_role("button", name=PLACE_ORDER)).to_contain_text(_summary_value(page, "Total"))

        page.get_by_label("Country").select_option("United States")
        expect(summary.get_by_text("HST 13%", exact=True)).to_have_count(0)
        assert _summary_value(page, "Tax") == "$0.00"
    finally:
        context.close()


def test_an_address_whose_taxes_were_not_shown_is_shown_before_it_is_charged(
    shop_url: str, page: Page
) -> None:
    _add_and_go_to_checkout(page, shop_url, demo_id(with_sibling_scent()[0]))
    _fill(page, f"autofill-{uuid.uuid4().hex[:6]}@example.com")
    summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
    expect(summary.get_by_text("PST 7%", exact=True)).to_be_visible()
    # As an autofill does: the value changes, the field is never left.
    page.get_by_label("Province / State", exact=True).evaluate("field => { field.value = 'ON'; }")
    page.get_by_label("Postal / ZIP code", exact=True).evaluate("field => { field.value = 'M5V 2T6'; }")
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")

    page.get_by_role("button", name=PLACE_ORDER).click()

    expect(page.get_by_text(CheckoutMessage.TAXES_UPDATED.value)).to_be_visible()
    expect(summary.get_by_text("HST 13%", exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    page.get_by_role("button", name=PLACE_ORDER).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("HST 13%", exact=True)).to_be_visible()
