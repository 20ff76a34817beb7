"""A shopper's checkout in the browser, as the production tests drive it: from the cart drawer to
a filled-in form paying with the approved test card, then Place Order."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.test_checkout import _fill


def open_checkout(page: Page, email: str) -> None:
    """From the cart drawer to a filled-in checkout form paying with the approved test card."""
    page.get_by_role("button", name=re.compile(r"^Cart, \d+ items?$")).click()
    page.get_by_role("dialog", name="Your Cart").get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")


def submit_order(page: Page) -> str:
    """Place the order; the number on the thank-you page."""
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=60_000)
    return re.search(r"number=([A-Z0-9-]+)", page.url).group(1)
