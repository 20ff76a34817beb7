"""The back office's Discount Codes in the browser, as the demo admin (issue 19, acceptance 3):
a code created from the sidebar's screen is listed, a bad field is refused in the dialog (which
keeps what was typed), an edit changes what the code gives, Deactivate switches it off; on a
phone the list and the dialog stay usable. A customer is sent home."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import NewCustomer, SignIn, active_product_names

PERCENT_INVALID = "Enter a percentage from 0.01 to 100, e.g. 10 or 12.5"


def _row(page: Page, code: str) -> Locator:
    return page.get_by_role("row").filter(has=page.get_by_role("rowheader", name=code))


def test_an_admin_creates_edits_and_deactivates_a_code(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    code = f"E2E-{uuid.uuid4().hex[:6].upper()}"
    product = active_product_names(shop_database_url)[0]
    sign_in(page)
    page.goto(f"{shop_url}/admin")
    nav = page.get_by_role("navigation", name="Admin")
    nav.get_by_role("link", name="Discounts").click()
    expect(page).to_have_url(re.compile(r"/admin/discounts/?$"))
    expect(page.get_by_role("heading", name="Discount Codes", level=1)).to_be_visible()
    expect(nav.get_by_role("link", name="Discounts")).to_have_attribute("aria-current", "page")

    # A percentage above 100: the message shows under its field, and the dialog keeps the typing.
    page.get_by_role("button", name="New Code").click()
    dialog = page.get_by_role("dialog", name="New Discount Code")
    dialog.get_by_label("Code", exact=True).fill(code.lower())
    dialog.get_by_label("Percent off").fill("150")
    dialog.get_by_label("Total uses").fill("50")
    dialog.get_by_role("button", name="Create Code").click()
    expect(dialog.get_by_text(PERCENT_INVALID)).to_be_visible()
    expect(dialog.get_by_label("Percent off")).to_have_attribute("aria-invalid", "true")
    expect(dialog.get_by_label("Code", exact=True)).to_have_value(code.lower())
    expect(dialog.get_by_label("Total uses")).to_have_value("50")

    dialog.get_by_label("Percent off").fill("10")
    dialog.get_by_label("Only for these products").fill(product[:12])
    dialog.get_by_role("button", name=f"Add {product}").first.click()
    expect(dialog.get_by_role("button", name=re.compile(rf"^Remove {re.escape(product)}"))).to_be_visible()
    dialog.get_by_role("button", name="Create Code").click()
    expect(page.get_by_text(f"Discount code {code} created")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)

    row = _row(page, code)
    expect(row.get_by_role("cell", name="10% off")).to_be_visible()
    expect(row.get_by_text("0 / 50 uses · 1 product")).to_be_visible()
    expect(row.get_by_text("Active", exact=True)).to_be_visible()

    # Edit: a fixed amount instead.
    row.get_by_role("button", name=f"Edit {code}").click()
    dialog = page.get_by_role("dialog", name="Edit Discount Code")
    expect(dialog.get_by_label("Code", exact=True)).to_have_value(code)
    expect(dialog.get_by_label("Percent off")).to_have_value("10")
    dialog.get_by_role("combobox", name="Gives").click()
    page.get_by_role("option", name="Fixed amount off").click()
    dialog.get_by_label("Amount off ($)").fill("5")
    dialog.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text(f"Discount code {code} updated")).to_be_visible()
    expect(row.get_by_role("cell", name="$5.00 off")).to_be_visible()

    # Deactivate (codes are never deleted), then back on.
    row.get_by_role("button", name=f"Deactivate {code}").click()
    expect(row.get_by_text("Off", exact=True)).to_be_visible()
    row.get_by_role("button", name=f"Activate {code}").click()
    expect(row.get_by_text("Active", exact=True)).to_be_visible()


def test_on_a_phone_the_list_and_the_dialog_are_usable(shop_url: str, page: Page, sign_in: SignIn) -> None:
    code = f"PHONE-{uuid.uuid4().hex[:6].upper()}"
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto(f"{shop_url}/admin/discounts")
    expect(page.get_by_role("heading", name="Discount Codes", level=1)).to_be_in_viewport()

    page.get_by_role("button", name="New Code").click()
    dialog = page.get_by_role("dialog", name="New Discount Code")
    dialog.get_by_label("Code", exact=True).fill(code)
    dialog.get_by_role("combobox", name="Gives").click()
    page.get_by_role("option", name="Free shipping").click()
    expect(dialog.get_by_label("Amount off ($)")).to_be_hidden()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways overflow
    create = dialog.get_by_role("button", name="Create Code")
    create.scroll_into_view_if_needed()
    expect(create).to_be_in_viewport()
    create.click()
    expect(page.get_by_text(f"Discount code {code} created")).to_be_visible()

    row = _row(page, code)
    expect(row.get_by_role("cell", name="Free shipping")).to_be_visible()
    # The table scrolls sideways inside its box; the page itself does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    edit = row.get_by_role("button", name=f"Edit {code}")
    edit.scroll_into_view_if_needed()
    edit.click()
    dialog = page.get_by_role("dialog", name="Edit Discount Code")
    expect(dialog.get_by_label("Code", exact=True)).to_have_value(code)
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_a_customer_is_sent_home(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    sign_in(page, new_customer())
    page.goto(f"{shop_url}/admin/discounts")
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("heading", name="Discount Codes")).to_have_count(0)
