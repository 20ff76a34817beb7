"""Manage Products as an admin, in the browser: convert to a variant and back, add a scent, archive
an ordered product instead of deleting it, restock from the low-stock mail's link (the full-page
edit form); the demo catalogue in the local Square from the start, and Sync from Square leaving it
as it is; a customer is sent home.

Products and orders are written straight into the shop's database (each test uses its own
names); everything else goes through the pages.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app import routes
from shop_app.db import create_db_engine
from shop_app.demo import demo_catalog
from shop_app.domain.grouping import group_key
from shop_app.domain.pricing import display_price_cents
from shop_app.models import Category, Order, OrderItem, Product
from tests.e2e.conftest import SQUARE_TOKEN
from tests.e2e.helpers import NewCustomer, SignIn


def _tag() -> str:
    """A word no other product has (letters only, so the shop's search takes it as it is)."""
    return "".join(chr(ord("a") + int(c, 16) % 26) for c in uuid.uuid4().hex[:8]).capitalize()


def _add_products(database_url: str, *names: str, ordered: bool = False) -> list[int]:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            products = [
                Product(
                    name=name,
                    group_key=group_key(name),
                    description=f"{name}, poured by hand",
                    base_price_cents=2400,
                    stock_quantity=9,
                )
                for name in names
            ]
            session.add_all(products)
            session.flush()
            if ordered:
                order = Order(
                    order_number=f"ORD-{uuid.uuid4().hex[:8].upper()}",
                    email="buyer@example.com",
                    status="delivered",
                    payment_status="completed",
                    subtotal_cents=2400,
                    tax_cents=288,
                    shipping_cents=1500,
                    total_cents=4188,
                )
                session.add(order)
                session.flush()
                session.add(
                    OrderItem(
                        order_id=order.id,
                        product_id=products[0].id,
                        quantity=1,
                        unit_price_cents=2400,
                        total_price_cents=2400,
                        product_snapshot={"name": names[0]},
                    )
                )
            session.commit()
            return [p.id for p in products]
    finally:
        engine.dispose()


@pytest.fixture
def admin(shop_url: str, page: Page, sign_in: SignIn) -> Page:
    sign_in(page)
    page.goto(f"{shop_url}/")
    return page


def _individual(page: Page, shop_url: str, search: str) -> None:
    page.goto(f"{shop_url}/admin/manage-products")
    expect(page.get_by_role("heading", name="Manage Products", exact=True)).to_be_visible()
    page.get_by_role("textbox", name="Search products").fill(search)


def _grouped_search(page: Page, search: str) -> None:
    """Search the grouped view and wait until only the one matching group is listed."""
    page.get_by_role("textbox", name="Search product groups").fill(search)
    expect(page.get_by_role("heading", level=2)).to_have_count(1)


def _shop_names(page: Page, shop_url: str, search: str) -> None:
    page.goto(f"{shop_url}/shop?search={search}")
    page.get_by_role("switch").click()  # one card per product: headings are product names


def test_convert_to_a_variant_and_back_to_a_single_product(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    _add_products(shop_database_url, f"{tag} Jar Candle")

    _individual(page, shop_url, tag)
    row = page.get_by_role("row").filter(has_text=f"{tag} Jar Candle")
    expect(row.get_by_text("Active", exact=True)).to_be_visible()
    row.get_by_role("button", name=f"Convert to Variant {tag} Jar Candle").click()
    dialog = page.get_by_role("dialog", name="Convert to Variant")
    dialog.get_by_role("combobox", name="Vessel Group").click()
    page.get_by_role("option", name="+ Create new vessel group").click()
    dialog.get_by_label("New Vessel Name").fill(f"{tag} Vessel")
    dialog.get_by_label("Scent Name").fill("Juniper")
    dialog.get_by_role("button", name="Convert").click()

    expect(page.get_by_text(f'Product converted to variant "Juniper" in {tag} Vessel')).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=f"{tag} Vessel - Juniper")).to_have_count(1)
    expect(page.get_by_role("row").filter(has_text=f"{tag} Jar Candle")).to_have_count(0)

    page.get_by_role("link", name="Grouped View").click()
    expect(page).to_have_url(re.compile(r"/admin/manage-products-grouped$"))
    _grouped_search(page, tag)
    expect(page.get_by_role("heading", name=f"{tag} Vessel", exact=True)).to_be_visible()
    expect(page.get_by_text("1 scent variant", exact=True)).to_be_visible()
    page.get_by_role("button", name=f"Convert to Single Product {tag} Vessel - Juniper").click()
    confirm = page.get_by_role("alertdialog", name="Convert to Single Product")
    confirm.get_by_role("button", name="Convert").click()

    expect(page.get_by_text(f'Product converted to standalone: "{tag} Juniper Vessel"')).to_be_visible()
    expect(page.get_by_role("heading", name=f"{tag} Juniper Vessel", exact=True)).to_be_visible()
    expect(page.get_by_text("Single product", exact=True)).to_be_visible()


def test_add_a_scent_to_a_group_and_find_it_in_the_shop(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    _add_products(shop_database_url, f"{tag} Cup - Fig", f"{tag} Cup - Plum")

    page.goto(f"{shop_url}/admin/manage-products-grouped")
    _grouped_search(page, tag)
    expect(page.get_by_text("2 scent variants", exact=True)).to_be_visible()
    page.get_by_role("button", name=f"Add Scent to {tag} Cup").click()
    dialog = page.get_by_role("dialog", name="Add New Scent Variant")
    dialog.get_by_role("button", name="Add Variant").click()
    expect(page.get_by_text("Please fill in all required fields")).to_be_visible()
    dialog.get_by_label("Scent Name *").fill(f"{tag}yuzu")
    dialog.get_by_role("button", name="Add Variant").click()

    expect(page.get_by_text(f'New variant "{tag}yuzu" added successfully')).to_be_visible()
    expect(page.get_by_text("3 scent variants", exact=True)).to_be_visible()
    page.get_by_role("button", name=f"Show variants of {tag} Cup").click()
    expect(page.get_by_role("listitem", name=f"{tag} Cup - {tag}yuzu")).to_contain_text("$24.00")

    _shop_names(page, shop_url, f"{tag}yuzu")
    expect(page.get_by_role("heading", name=f"{tag} Cup - {tag}yuzu", level=3)).to_be_visible()


def test_an_ordered_product_is_archived_instead_of_deleted(
    shop_url: str, shop_database_url: str, admin: Page, tmp_path: Path
) -> None:
    page, tag = admin, _tag()
    _add_products(shop_database_url, f"{tag} Lantern", ordered=True)
    _shop_names(page, shop_url, tag)
    expect(page.get_by_role("heading", name=f"{tag} Lantern", level=3)).to_be_visible()

    _individual(page, shop_url, tag)
    row = page.get_by_role("row").filter(has_text=f"{tag} Lantern")
    row.get_by_role("button", name=f"Delete {tag} Lantern").click()
    page.get_by_role("alertdialog", name="Delete Product").get_by_role("button", name="Delete").click()
    confirm = page.get_by_role("alertdialog", name="Archive Product")
    expect(confirm).to_contain_text(f'Cannot delete "{tag} Lantern" because it has been ordered')
    confirm.get_by_role("button", name="Archive").click()

    expect(page.get_by_text(f'Product "{tag} Lantern" has been archived successfully')).to_be_visible()
    expect(row.get_by_text("Archived", exact=True)).to_be_visible()
    page.screenshot(path=tmp_path / "admin-products.png", full_page=True)

    _shop_names(page, shop_url, tag)
    expect(page.get_by_role("heading", name=f"{tag} Lantern", level=3)).to_have_count(0)


def _filed_in_summer(database_url: str, product_id: int) -> int:
    """File the product in Candles, Summer Collection (as every editor requires); its stock."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            ids = {c.slug: c.id for c in session.exec(select(Category))}
            product = session.get(Product, product_id)
            product.category_id, product.subcategory_id = ids["candles"], ids["summer-collection"]
            session.commit()
            return product.stock_quantity
    finally:
        engine.dispose()


def _stock(database_url: str, product_id: int) -> int:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return session.get(Product, product_id).stock_quantity
    finally:
        engine.dispose()


def test_the_low_stock_mails_restock_link_opens_a_form_that_restocks(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    (product_id,) = _add_products(shop_database_url, f"{tag} Votive - Fig")
    assert _filed_in_summer(shop_database_url, product_id) == 9

    page.goto(f"{shop_url}{routes.admin_product_edit_url(product_id)}")  # the mail's "Restock" link
    expect(page.get_by_role("heading", name="Edit Product")).to_be_visible()
    stock = page.get_by_label("Stock Quantity")
    expect(stock).to_have_value("9")
    stock.fill("40")
    page.get_by_role("button", name="Update Product").click()

    expect(page.get_by_text("Product updated successfully")).to_be_visible()
    expect(page).to_have_url(f"{shop_url}/admin")
    assert _stock(shop_database_url, product_id) == 40
    _individual(page, shop_url, tag)
    expect(page.get_by_role("row").filter(has_text=f"{tag} Votive - Fig")).to_contain_text("40")


def test_sync_from_square_runs_in_the_background_and_reports(shop_url: str, admin: Page) -> None:
    page = admin
    page.goto(f"{shop_url}/admin/manage-products")

    page.get_by_role("button", name="Sync from Square").click()

    expect(page.get_by_text(re.compile(r"^Successfully synced \d+ products from Square!$"))).to_be_visible()
    expect(page.get_by_role("button", name="Sync from Square")).to_be_enabled()


def _demo_products(database_url: str) -> dict[str, tuple]:
    """The demo products by SKU: what Sync from Square could change, and their Square link."""
    skus = [product.sku for product in demo_catalog.PRODUCTS]
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            found = session.exec(select(Product).where(Product.sku.in_(skus))).all()
            return {
                p.sku: (
                    p.name,
                    p.description,
                    display_price_cents(p.base_price_cents, p.sale_price_cents),
                    p.base_price_cents,
                    p.sale_price_cents,
                    p.stock_quantity,
                    p.updated_at,
                    p.square_item_id,
                    p.square_variation_id,
                )
                for p in found
            }
    finally:
        engine.dispose()


def test_the_demo_catalogue_is_in_the_local_square_and_sync_leaves_it_as_it_is(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page = admin
    demo = _demo_products(shop_database_url)
    listed = page.request.get(f"{shop_url}/api/square/sync")  # Square's items, as the admin API reads them
    assert listed.ok, listed.text()
    items = listed.json()["products"]
    in_square = {item["sku"]: item for item in items}

    assert len(demo) == len(demo_catalog.PRODUCTS)
    for sku, (name, description, price, *_rest, item_id, variation_id) in demo.items():
        item = in_square[sku]  # made at the shop's start, with its variation, price and stock
        assert (item["item_id"], item["variation_id"]) == (item_id, variation_id)
        assert (item["name"], item["description"], item["price_cents"]) == (name, description, price)
    counted = page.request.post(
        f"{shop_url}/_square/v2/inventory/counts/batch-retrieve",
        data={"catalog_object_ids": [link[-1] for link in demo.values()], "states": ["IN_STOCK"]},
        headers={"Authorization": f"Bearer {SQUARE_TOKEN}"},
    )
    assert counted.ok, counted.text()
    assert len(counted.json()["counts"]) == len(demo)

    page.goto(f"{shop_url}/admin/manage-products")
    page.get_by_role("button", name="Sync from Square").click()

    expect(
        page.get_by_text(f"Successfully synced {len(items)} products from Square!", exact=True)
    ).to_be_visible()
    assert _demo_products(shop_database_url) == demo  # names, prices, stock, links, updated_at


def test_a_customer_is_sent_home_from_manage_products(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    sign_in(page, new_customer(prefix="not-admin"))

    page.goto(f"{shop_url}/admin/manage-products")

    expect(page).to_have_url(re.compile(r"^[^?#]+://[^/]+/$"))
    expect(page.get_by_role("heading", name="Manage Products", exact=True)).to_have_count(0)
