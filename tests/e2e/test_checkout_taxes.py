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

from shop_app.domain.messages import CheckoutMessage, DisplayText
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
        # A quantity changed in the summary keeps the address's taxes (a stranger's finding: it
        # priced the cart for the form's first values again, with no tax, until Place Order)
        subtotal = summary.get_by_text("Subtotal", exact=True).locator("xpath=following-sibling::p[last()]")
        before = subtotal.inner_text()
        summary.get_by_role("button", name=re.compile(r"^Increase quantity of ")).click()
        expect(subtotal).not_to_have_text(before)
        expect(summary.get_by_text("HST 13%", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=PLACE_ORDER)).to_contain_text(_summary_value(page, "Total"))
        for label, amount in _expected(page, "ON"):
            assert _summary_value(page, label) == amount

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


def test_the_cart_drawer_estimates_for_british_columbia(shop_url: str, page: Page) -> None:
    """Before an address is known the drawer shows the shop's own province's taxes, on the goods
    and the shipping, and says so, and how far the cart is from free shipping; the checkout then
    computes the address's."""
    page.goto(f"{shop_url}/product/{demo_id(with_sibling_scent()[0])}")
    page.get_by_role("button", name="Add to Cart").click()
    page.get_by_role("button", name="Cart, 1 item").click()
    drawer = page.get_by_role("dialog", name="Your Cart")

    expect(drawer.get_by_text(DisplayText.CART_ESTIMATE_HINT.value)).to_be_visible()
    row = "xpath=following-sibling::p[last()]"
    subtotal = parse_dollars(drawer.get_by_text("Subtotal", exact=True).locator(row).inner_text())
    shipping_text = drawer.get_by_text("Shipping", exact=True).locator(row).inner_text()
    shipping = 0 if shipping_text == "Free" else parse_dollars(shipping_text)
    lines = tax_lines(subtotal, shipping, taxes_for("Canada", "BC"))
    for line in lines:
        amount = drawer.get_by_text(line.label, exact=True).locator(row)
        expect(amount).to_have_text(format_cents(line.amount_cents))
    total = subtotal + shipping + sum(line.amount_cents for line in lines)
    expect(drawer.get_by_text("Estimated total", exact=True).locator(row)).to_have_text(format_cents(total))
    # Canada's zone (the default before an address): free shipping from $100.00 (issue 19)
    away = f"{format_cents(10_000 - subtotal)} away from free shipping" if subtotal < 10_000 else ""
    expect(drawer.get_by_text(away or "Your order ships free.", exact=True)).to_be_visible()


def test_a_province_typed_just_before_place_order_is_shown_before_it_is_charged(
    shop_url: str, page: Page
) -> None:
    """Typing a province and pressing Place Order at once: leaving the field prices the summary
    again just before the order arrives, a total the shopper has not seen. Found by a stranger
    (charged $64.41 while the button said $63.84): the form sends the total it showed."""
    _add_and_go_to_checkout(page, shop_url, demo_id(with_sibling_scent()[0]))
    _fill(page, f"typed-{uuid.uuid4().hex[:6]}@example.com")
    summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
    expect(summary.get_by_text("PST 7%", exact=True)).to_be_visible()
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    shown = page.get_by_role("button", name=PLACE_ORDER).inner_text()
    # In one task, as the browser does between a key and a click: the field is left, the form sent.
    page.get_by_label("Postal / ZIP code", exact=True).evaluate("field => { field.value = 'M5V 2T6'; }")
    page.get_by_label("Province / State", exact=True).evaluate(
        "field => { field.focus(); field.value = 'ON'; field.blur(); field.form.requestSubmit(); }"
    )

    expect(page.get_by_text(CheckoutMessage.TOTAL_UPDATED.value)).to_be_visible()
    expect(summary.get_by_text("HST 13%", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=PLACE_ORDER)).not_to_have_text(shown)
    page.get_by_role("button", name=PLACE_ORDER).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("HST 13%", exact=True)).to_be_visible()


def test_a_reloaded_checkout_prices_the_address_its_form_shows(shop_url: str, page: Page) -> None:
    """A reload starts the form again from its first values: the summary's taxes are theirs, not
    those of the address typed before the reload (found by a stranger)."""
    _add_and_go_to_checkout(page, shop_url, demo_id(with_sibling_scent()[0]))
    summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
    _fill(page, f"reload-{uuid.uuid4().hex[:6]}@example.com")
    expect(summary.get_by_text("PST 7%", exact=True)).to_be_visible()

    page.reload()

    expect(page.get_by_label("Country")).to_have_value("United States")
    expect(summary.get_by_text("Tax", exact=True)).to_be_visible()
    expect(summary.get_by_text("PST 7%", exact=True)).to_have_count(0)
    assert _summary_value(page, "Tax") == "$0.00"
