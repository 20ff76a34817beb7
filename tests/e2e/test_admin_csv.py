"""The catalogue export and the Square catalogue routes on the running shop, with the browser's own
session: refused before signing in, served to the admin after (the shop's local Square simulator
answers in-process, from the server's event loop, without blocking it); then the CSV import on
Manage Products.

The routes test changes nothing in the shop's database: the Square item made there is deleted
again, and Sync from Square, which would add a product, is left to the API tests. The import test
adds one product with a name no other journey looks for.
"""

from __future__ import annotations

import re
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from shop_app.demo.demo_catalog import PRODUCTS
from shop_app.domain.catalog_csv import COLUMNS
from shop_app.models import Product
from tests.e2e.helpers import SignIn, demo_id, upload
from tests.e2e.test_checkout import _stock

CSV = "/api/admin/products.csv"


def test_an_admin_exports_the_catalogue_and_uses_the_square_routes(
    shop_url: str, page: Page, sign_in: SignIn
) -> None:
    page.goto(shop_url)
    anonymous = page.request.get(shop_url + CSV)
    assert anonymous.status == 401

    sign_in(page)
    page.goto(shop_url)
    expect(page.get_by_role("button", name=re.compile("^Account menu for"))).to_be_visible()

    exported = page.request.get(shop_url + CSV)
    assert exported.status == 200
    assert exported.headers["content-disposition"].startswith('attachment; filename="products-')
    lines = exported.body().decode("utf-8-sig").splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert any(PRODUCTS[0].name in line for line in lines[1:])

    same_site = {"Origin": shop_url}
    item = {
        "type": "ITEM",
        "item_data": {
            "name": "E2E Tealight",
            "description": "made by the browser test",
            "variations": [{"name": "Regular", "price_money": {"amount": 500, "currency": "CAD"}}],
        },
    }
    cross_site = page.request.post(shop_url + "/api/square/catalog", data={"object": item})
    created = page.request.post(
        shop_url + "/api/square/catalog", data={"object": item, "stock_quantity": 2}, headers=same_site
    )
    assert cross_site.status == 403
    assert created.status == 200 and created.json()["inventory_set"] is True
    item_id = created.json()["catalog_object"]["id"]

    listed = page.request.get(shop_url + "/api/square/sync").json()
    assert item_id in [product["item_id"] for product in listed["products"]]

    deleted = page.request.delete(shop_url + f"/api/square/catalog?id={item_id}", headers=same_site)
    assert deleted.json() == {"success": True}


def test_an_admin_imports_a_csv_on_manage_products(
    shop_url: str, page: Page, tmp_path, sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-products")
    expect(page.get_by_role("heading", name="Manage Products")).to_be_visible()
    expect(page.get_by_role("link", name="Export CSV")).to_have_attribute("href", CSV)

    # Not a .csv: the picker refuses it, and the page says why (once, nothing generic).
    text = tmp_path / "notes.txt"
    text.write_text("not a catalogue\n")
    upload(page, page.locator("input[type=file]"), text)
    expect(page.get_by_text("Choose one .csv file of at most 2 MB.")).to_be_visible()
    expect(page.get_by_text("That request could not be handled", exact=False)).to_have_count(0)
    expect(page.get_by_text("Choose a .csv file to import.")).to_have_count(0)

    bad = tmp_path / "bad.csv"
    bad.write_text("name,base_price,stock_quantity\nCSV Pillar Candle,12.50,4\nCSV Votive,-3,2\n")
    upload(page, page.locator("input[type=file]"), bad)
    problems = page.get_by_role("alert").filter(has_text="The file was not imported")
    expect(problems).to_be_visible()
    expect(problems.get_by_role("cell", name="3", exact=True)).to_be_visible()  # the line of the bad row
    expect(problems).to_contain_text("Fix this problem and import it again")  # one problem
    page.get_by_role("searchbox").or_(page.get_by_label("Search products")).first.fill("CSV Pillar")
    expect(page.get_by_text("No products found")).to_be_visible()  # nothing of the file was imported

    good = tmp_path / "good.csv"
    good.write_text("name,base_price,stock_quantity\nCSV Pillar Candle,12.50,4\n")
    upload(page, page.locator("input[type=file]"), good)
    expect(page.get_by_text("Imported 1 product (1 new, 0 updated)")).to_be_visible()
    expect(problems).to_have_count(0)
    expect(page.get_by_role("row").filter(has_text="CSV Pillar Candle")).to_be_visible()


def test_importing_a_file_exported_before_a_sale_is_refused_and_the_stock_stays(
    shop_url: str, shop_database_url: str, page: Page, tmp_path: Path, sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-products")
    expect(page.get_by_role("heading", name="Manage Products")).to_be_visible()
    old_file = tmp_path / "products.csv"
    old_file.write_bytes(page.request.get(shop_url + CSV).body())
    product = PRODUCTS[0]
    engine = sa.create_engine(shop_database_url)
    try:
        with engine.begin() as connection:  # a sale after the export: one fewer in stock
            sold = Product.stock_quantity - 1
            connection.execute(
                sa.update(Product).where(Product.id == demo_id(product)).values(stock_quantity=sold)
            )
    finally:
        engine.dispose()
    stock = _stock(shop_database_url, demo_id(product))

    upload(page, page.locator("input[type=file]"), old_file)

    problems = page.get_by_role("alert").filter(has_text="The file was not imported")
    expect(problems).to_contain_text(f"{product.name} has changed in the shop since this file was exported")
    assert _stock(shop_database_url, demo_id(product)) == stock
