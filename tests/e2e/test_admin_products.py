"""Manage Products as an admin, in the browser: convert to a variant and back, add a scent, archive
an ordered product instead of deleting it; a customer is sent home.

Products and orders are written straight into the shop's database (each test uses its own
names); everything else goes through the pages.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from shop_app.db import create_db_engine
from shop_app.domain.grouping import group_key
from shop_app.models import Order, OrderItem, Product
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


def test_sync_from_square_runs_in_the_background_and_reports(shop_url: str, admin: Page) -> None:
    page = admin
    page.goto(f"{shop_url}/admin/manage-products")

    page.get_by_role("button", name="Sync from Square").click()

    expect(page.get_by_text(re.compile(r"^Successfully synced \d+ products from Square!$"))).to_be_visible()
    expect(page.get_by_role("button", name="Sync from Square")).to_be_enabled()


def test_a_customer_is_sent_home_from_manage_products(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    sign_in(page, new_customer(prefix="not-admin"))

    page.goto(f"{shop_url}/admin/manage-products")

    expect(page).to_have_url(re.compile(r"^[^?#]+://[^/]+/$"))
    expect(page.get_by_role("heading", name="Manage Products", exact=True)).to_have_count(0)
