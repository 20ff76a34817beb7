"""The back office's dashboard and store settings in the browser.

An admin searches and sorts the dashboard's product list, deletes a never-ordered product through
the confirmation dialog, and renames the shop in the settings: the banner shows, then the
storefront's footer carries the new name. A signed-in customer on /admin reads "Access Denied".
The products are added to the database first, so the demo catalogue the other tests use is left
alone; the shop's name is put back afterwards.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL
from shop_app.domain.admin_messages import AdminLabel, ProductAdminMessage, StoreSettingsMessage
from shop_app.models import Product, StoreSettings
from tests.e2e.helpers import NewCustomer, SignIn

NEW_NAME = "Harbour Light Candles"


@pytest.fixture
def two_products(shop_database_url: str) -> Iterator[tuple[str, str]]:
    """Two products nobody has ordered, the first one archived, the second one newer; the shop's
    name restored after."""
    tag = uuid.uuid4().hex[:6]
    names = (f"Dashboard {tag} Alpha Candle", f"Dashboard {tag} Beta Candle")
    engine = create_db_engine(shop_database_url)
    now = datetime.now(UTC)
    try:
        with Session(engine) as session:
            brand = session.get(StoreSettings, 1).company_name
            for minutes, (name, price) in enumerate(zip(names, (4200, 1800), strict=True)):
                session.add(
                    Product(
                        name=name,
                        base_price_cents=price,
                        stock_quantity=7,
                        is_active=minutes > 0,
                        created_at=now + timedelta(minutes=minutes),
                    )
                )
            session.commit()
        _until_in_square(engine, names[1:])  # the active one; the archived one never goes there
        yield names
        with Session(engine) as session:
            session.get(StoreSettings, 1).company_name = brand
            for product in session.exec(select(Product).where(Product.name.in_(names))):
                session.delete(product)
            session.commit()
    finally:
        engine.dispose()


def _until_in_square(engine, names: tuple[str, ...], timeout_s: float = 90) -> None:
    """Wait until the shop's Square outbox has put the products into the local Square (it sends
    every new product on sale within seconds), so that deleting one is the deletion of a product
    Square has too, whatever the machine's speed."""
    deadline = time.monotonic() + timeout_s
    while True:
        with Session(engine) as session:
            query = select(Product.square_item_id).where(Product.name.in_(names))
            if all(session.exec(query).all()):
                return
        if time.monotonic() > deadline:
            pytest.fail(f"the shop did not send {names} to Square within {timeout_s} s")
        time.sleep(0.2)


def _product_cells(page: Page):
    return page.get_by_role("rowheader")


def test_an_admin_searches_sorts_deletes_and_renames_the_shop(
    shop_url: str, page: Page, two_products: tuple[str, str], sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin")
    expect(page.get_by_role("heading", name="Admin Dashboard")).to_be_visible()
    expect(page.get_by_role("tab", name="Product Management")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("link", name=re.compile("^Create Product"))).to_have_attribute(
        "href", "/admin/product-creation"
    )

    _search_sort_and_delete(page, *two_products)
    _the_other_tabs(page)
    _rename_the_shop(page)

    page.goto(f"{shop_url}/")
    expect(page.get_by_role("contentinfo")).to_contain_text(f"© {date.today().year} {NEW_NAME}")


def _search_sort_and_delete(page: Page, alpha: str, beta: str) -> None:
    page.get_by_label("Search products").fill(alpha.split()[1].upper())  # the tag, another case
    expect(_product_cells(page)).to_have_count(2)
    expect(_product_cells(page).first).to_contain_text(beta)  # newest first
    archived = page.get_by_role("row").filter(has=page.get_by_role("rowheader", name=alpha))
    expect(archived.get_by_text(AdminLabel.STATUS_ARCHIVED.value, exact=True)).to_be_visible()
    expect(archived.get_by_text(AdminLabel.STATUS_ACTIVE.value, exact=True)).to_have_count(0)
    page.get_by_role("combobox", name="Sort products").click()
    page.get_by_role("option", name="Price: high to low").click()
    expect(_product_cells(page).first).to_contain_text(alpha)
    page.get_by_role("combobox", name="Sort products").click()
    page.get_by_role("option", name="Name Z–A").click()
    expect(_product_cells(page).first).to_contain_text(beta)
    expect(page.get_by_role("link", name=f"View {beta}")).to_have_attribute(
        "href", re.compile(r"^/product/\d+$")
    )

    page.get_by_role("button", name=f"Delete {beta}").click()
    dialog = page.get_by_role("alertdialog", name="Delete Product")
    expect(dialog).to_contain_text(beta)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(_product_cells(page)).to_have_count(2)
    page.get_by_role("button", name=f"Delete {beta}").click()
    page.get_by_role("alertdialog", name="Delete Product").get_by_role("button", name="Delete").click()
    expect(page.get_by_text(ProductAdminMessage.DELETED_EVERYWHERE.value, exact=True)).to_be_visible()
    expect(_product_cells(page)).to_have_count(1)
    expect(_product_cells(page).first).to_contain_text(alpha)

    # An archived product the shop never put on sale was never in Square: deleted here only.
    page.get_by_role("button", name=f"Delete {alpha}").click()
    page.get_by_role("alertdialog", name="Delete Product").get_by_role("button", name="Delete").click()
    expect(page.get_by_text(ProductAdminMessage.DELETED_LOCALLY.value, exact=True)).to_be_visible()
    expect(_product_cells(page)).to_have_count(0)


def _the_other_tabs(page: Page) -> None:
    page.get_by_role("tab", name="Admin Management").click()
    admins = page.get_by_role("tabpanel", name="Admin Management")
    expect(admins.get_by_role("row").filter(has_text=DEMO_ADMIN_EMAIL)).to_contain_text("You")
    page.get_by_role("tab", name="Website Images").click()
    images = page.get_by_role("tabpanel", name="Website Images")
    expect(images.get_by_text("Homepage hero image", exact=True)).to_be_visible()
    expect(images.get_by_role("link", name="Manage Website Images")).to_have_attribute(
        "href", "/admin/manage-images"
    )


def _rename_the_shop(page: Page) -> None:
    page.get_by_role("navigation", name="Admin").get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", name="Store Settings")).to_be_visible()
    page.get_by_label("Company name").fill(NEW_NAME)
    qst = page.get_by_label("Quebec QST rate (%)")
    qst.fill("9.97501")
    page.get_by_role("button", name="Save Settings").click()
    expect(page.get_by_text(StoreSettingsMessage.RATE_INVALID.value)).to_be_visible()
    expect(qst).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Company name")).to_have_value(NEW_NAME)  # what was typed stays
    qst.fill("9.975")
    page.get_by_role("button", name="Save Settings").click()
    banner = page.get_by_text(StoreSettingsMessage.SAVED.value)
    expect(banner).to_be_visible()
    expect(banner).to_be_hidden(timeout=20_000)  # gone after 3 s
    expect(page.get_by_label("Company name")).to_have_value(NEW_NAME)
    page.reload()  # the switches were submitted with the form, not lost
    expect(page.get_by_role("switch", name="Order confirmation")).to_be_checked()
    expect(page.get_by_role("switch", name="New reviews")).not_to_be_checked()
    expect(page.get_by_label("Quebec QST rate (%)")).to_have_value("9.975")


def test_a_signed_in_customer_is_told_the_dashboard_is_not_for_them(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    sign_in(page, new_customer(prefix="curious"))

    page.goto(f"{shop_url}/admin")

    expect(page.get_by_text(AdminLabel.ACCESS_DENIED.value)).to_be_visible()
    expect(page.get_by_role("tab", name="Product Management")).to_have_count(0)
    expect(page.get_by_role("heading", name="Admin Dashboard", exact=True)).to_have_count(0)
    expect(page.get_by_role("navigation", name="Admin")).to_have_count(0)  # no list of screens either
