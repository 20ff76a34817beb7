"""Printable invoices in the browser: a customer's order (placed through the real checkout for a BC
address) has an "Invoice" link on its page that opens its invoice in a new tab; the admin follows
"Invoice" and "Packing slip" from the order's back office page and sees the order's number and tax
lines, the packing slip without prices; from the orders list, the page's packing slips print
together. Screenshots (screen and print) go to the test's temporary folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_orders import _admin_page, _open_order, _place_order


def _follow_in_new_tab(page: Page, name: str) -> Page:
    """Click the link ``name`` (it opens a new tab) and return that tab, loaded."""
    with page.context.expect_page() as opened:
        page.get_by_role("link", name=name, exact=True).click()
    tab = opened.value
    tab.wait_for_load_state()
    return tab


def test_the_customer_and_the_admin_open_the_invoice_of_an_order(
    shop_url: str,
    page: Page,
    browser: Browser,
    tmp_path: Path,
    *,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    email = new_customer(prefix="invoice", first="Ada", last="Lovelace")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    number = _place_order(page, shop_url, demo_id(product), email)
    assert number.startswith("CE-")

    page.goto(f"{shop_url}/account/orders")
    card = page.get_by_role("heading", name=f"Order {number}").locator(
        "xpath=ancestor::div[contains(@class,'rt-Card')]"
    )
    card.get_by_role("link", name="View Details").click()
    expect(page).to_have_url(re.compile(r"/account/orders/\d+$"))
    order_id = page.url.rsplit("/", 1)[-1]
    link = page.get_by_role("link", name="Invoice", exact=True)
    expect(link).to_have_attribute("href", f"/orders/{order_id}/invoice")
    expect(link).to_have_attribute("target", "_blank")
    mine = _follow_in_new_tab(page, "Invoice")
    expect(mine.get_by_role("heading", name=f"Invoice {number}")).to_be_visible()
    expect(mine).to_have_title(f"Invoice {number}")
    mine.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing wider than the screen
    assert mine.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    mine.screenshot(path=tmp_path / "invoice-phone.png", full_page=True)
    mine.close()

    admin = _admin_page(browser, sign_in)
    _open_order(admin, shop_url, number)
    invoice = _follow_in_new_tab(admin, "Invoice")
    expect(invoice).to_have_url(f"{shop_url}/orders/{order_id}/invoice")
    expect(invoice.get_by_role("heading", name=f"Invoice {number}")).to_be_visible()
    expect(invoice.get_by_role("row", name=re.compile(r"^GST 5% \$"))).to_be_visible()
    expect(invoice.get_by_role("row", name=re.compile(r"^PST 7% \$"))).to_be_visible()
    expect(invoice.get_by_role("cell", name=product.name)).to_be_visible()
    expect(invoice.get_by_role("button", name="Print")).to_be_visible()
    invoice.screenshot(path=tmp_path / "invoice-screen.png", full_page=True)
    invoice.emulate_media(media="print")
    expect(invoice.get_by_role("button", name="Print")).to_be_hidden()
    invoice.screenshot(path=tmp_path / "invoice-print.png", full_page=True)

    slip = _follow_in_new_tab(admin, "Packing slip")
    expect(slip.get_by_role("heading", name=f"Packing slip {number}")).to_be_visible()
    expect(slip.get_by_role("cell", name=product.name)).to_be_visible()
    assert "$" not in slip.locator("body").inner_text()
    slip.screenshot(path=tmp_path / "packing-slip-screen.png", full_page=True)

    _print_from_the_orders_list(admin, shop_url, number)


def _print_from_the_orders_list(admin: Page, shop_url: str, number: str) -> None:
    """The orders the search shows print together; so do the ticked ones, whatever it shows next."""
    admin.goto(f"{shop_url}/admin/orders")
    admin.get_by_role("searchbox", name="Search orders").fill(number)
    expect(admin.get_by_role("link", name=number, exact=True)).to_be_visible()
    expect(admin.get_by_role("row")).to_have_count(2)  # the header and this order
    slips = _follow_in_new_tab(admin, "Print packing slips")
    expect(slips).to_have_title("Packing slips (1 order)")
    expect(slips.get_by_role("heading", name=f"Packing slip {number}")).to_be_visible()
    # Ticked orders print together whatever the search shows next
    admin.get_by_role("checkbox", name=f"Select order {number} to print").click()
    expect(admin.get_by_text("1 selected order:")).to_be_visible()
    admin.get_by_role("searchbox", name="Search orders").fill("")  # every order (one when run alone)
    expect(admin.get_by_text(re.compile(r"^Page 1 of \d+ · \d+ orders?$"))).to_be_visible()
    ticked = _follow_in_new_tab(admin, "Print invoices")
    expect(ticked).to_have_title("Invoices (1 order)")
    expect(ticked.get_by_role("heading", name=f"Invoice {number}")).to_be_visible()
    admin.get_by_role("button", name="Clear selection").click()
    expect(admin.get_by_text("This page's orders:")).to_be_visible()
    admin.context.close()
