"""The orders export in the browser: the admin searches the Orders screen for an order placed through
the real checkout (a BC address), clicks "Export CSV", and the download is that order's CSV: the
accountant's columns, the order's line with its GST and PST, its total as the list shows it."""

from __future__ import annotations

import csv
import io
import re

from playwright.sync_api import Browser, Page, expect

from shop_app.domain.order_export import COLUMNS
from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_orders import _admin_page, _place_order


def test_an_admin_downloads_the_searched_orders_as_csv(
    shop_url: str,
    page: Page,
    browser: Browser,
    *,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    email = new_customer(prefix="export", first="Ada", last="Lovelace")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    number = _place_order(page, shop_url, demo_id(product), email)

    admin = _admin_page(browser, sign_in)
    admin.goto(f"{shop_url}/admin/orders")
    expect(admin.get_by_role("heading", name="Orders", exact=True)).to_be_visible()
    admin.get_by_role("searchbox", name="Search orders").fill(number)
    row = admin.get_by_role("row").filter(has_text=number)
    expect(admin.get_by_role("row")).to_have_count(2)  # the header and this order
    link = admin.get_by_role("link", name="Export CSV", exact=True)
    expect(link).to_have_attribute("href", f"/api/admin/orders.csv?search={number}&status=all")
    with admin.expect_download() as downloading:
        link.click()
    download = downloading.value

    assert re.fullmatch(r"orders-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename)
    text = download.path().read_text(encoding="utf-8-sig")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    (line,) = list(reader)
    assert tuple(reader.fieldnames or ()) == COLUMNS
    assert (line["order_number"], line["line_no"], line["email"], line["product"], line["quantity"]) == (
        number,
        "1",
        email,
        product.name,
        "1",
    )
    assert (line["ship_province"], line["ship_country"], line["currency"]) == ("BC", "Canada", "CAD")
    assert line["gst"] != "0.00" and line["pst"] != "0.00" and line["hst"] == "0.00"
    expect(row).to_contain_text(f"${line['total']}")  # the list's total, to the cent
    expect(admin).to_have_url(re.compile(r"/admin/orders$"))  # the download left the page as it was
    admin.context.close()
