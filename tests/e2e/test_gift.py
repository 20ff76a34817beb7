"""A gift at checkout (issue 19, acceptance 6), in the browser: the shopper asks for gift wrap and
writes a message for the card; the back office's order page and the packing slip show both (the
message as text, its line breaks kept), and the buyer's invoice does not carry the message."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_orders import _admin_page, _open_order
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill
from tests.e2e.test_invoices import _follow_in_new_tab

MESSAGE = "Happy birthday, Mum!\n<b>Love</b>, Ada"


def test_a_gift_message_and_wrap_reach_the_back_office_and_the_packing_slip(
    shop_url: str, page: Page, browser: Browser, *, sign_in: SignIn
) -> None:
    _add_and_go_to_checkout(page, shop_url, demo_id(with_sibling_scent()[0]))
    _fill(page, f"gift-{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_label("Gift wrap this order (free)").check()
    message = page.get_by_label(re.compile(r"^Gift message \(optional, up to 300 characters\)$"))
    message.fill("x" * 400)
    expect(message).to_have_value("x" * 300)  # the field stops at the limit the server keeps
    message.fill(MESSAGE)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)

    admin = _admin_page(browser, sign_in)
    _open_order(admin, shop_url, number)
    expect(admin.get_by_text("Yes: wrap this order")).to_be_visible()
    expect(admin.get_by_text("Happy birthday, Mum!", exact=False)).to_contain_text("<b>Love</b>, Ada")

    slip = _follow_in_new_tab(admin, "Packing slip")
    expect(slip.get_by_text("Gift wrap this order.")).to_be_visible()
    expect(slip.locator(".gift .note")).to_have_text(MESSAGE)
    invoice = _follow_in_new_tab(admin, "Invoice")
    expect(invoice.get_by_role("heading", name=f"Invoice {number}")).to_be_visible()
    assert "Happy birthday" not in invoice.locator("body").inner_text()
    admin.context.close()
