"""An order bought with a discount code, in the browser (issue 19, acceptance 3): the thank-you
page, the back office's order page and the invoice show "Discount (CODE)" with the amount taken
off, between the subtotal and the shipping.

The code is put on the customer's cart in the database (the cart's code field is what the cart
and checkout screens will fill in); the order is placed through the real checkout with the
simulator's approved test card, so the server prices it with the code.
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_orders import _admin_page, _open_order
from tests.e2e.test_checkout import _fill
from tests.e2e.test_invoices import _follow_in_new_tab

CODE = "E2E-TEN"
ROW = re.compile(rf"^Discount \({CODE}\)\s*-\$\d+\.\d\d$")


def _put_code_on_cart(database_url: str, email: str) -> None:
    """The code (10 % off everything) exists, and is on this customer's cart."""
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO discount_codes (code, kind, value, min_subtotal_cents, product_ids,"
                    " category_ids, note, is_active, uses, created_at, updated_at)"
                    " SELECT :code, 'percent', 1000, 0, '[]', '[]', '', 1, 0, CURRENT_TIMESTAMP,"
                    " CURRENT_TIMESTAMP WHERE NOT EXISTS (SELECT 1 FROM discount_codes WHERE code = :code)"
                ),
                {"code": CODE},
            )
            changed = connection.execute(
                sa.text(
                    "UPDATE carts SET discount_code = :code"
                    " WHERE user_id = (SELECT id FROM users WHERE email = :email)"
                ),
                {"code": CODE, "email": email},
            ).rowcount
            assert changed == 1
    finally:
        engine.dispose()


def test_the_thank_you_page_the_back_office_and_the_invoice_show_the_discount(
    shop_url: str,
    shop_database_url: str,
    page: Page,
    browser: Browser,
    *,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    email = new_customer(prefix="discount", first="Dee", last="Count")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    _put_code_on_cart(shop_database_url, email)

    page.goto(f"{shop_url}/checkout")
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)  # type: ignore[union-attr]
    expect(page.get_by_text(ROW)).to_be_visible()

    admin = _admin_page(browser, sign_in)
    _open_order(admin, shop_url, number)
    expect(admin.get_by_text(f"Discount ({CODE})", exact=True)).to_be_visible()
    invoice = _follow_in_new_tab(admin, "Invoice")
    expect(invoice.get_by_role("heading", name=f"Invoice {number}")).to_be_visible()
    expect(invoice.get_by_role("row", name=ROW)).to_be_visible()
    rows = invoice.locator("table.totals tr").all_inner_texts()
    labels = [row.split("\t")[0].strip() for row in rows]
    assert labels[:3] == ["Subtotal", f"Discount ({CODE})", "Shipping"], rows
    admin.context.close()
