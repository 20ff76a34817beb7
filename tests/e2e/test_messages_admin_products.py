"""The back office's product messages, each made to show in the browser (issue 15, acceptance 4).

The demo admin works on Manage Products (both views), the dashboard's product list, the local
product form and the six-step wizard until the shop shows each message of the product
screens (docs/spec/admin-products.md): validation, success, and the failures of a real database
(``broken_table`` hides the ``products`` table of the running shop while the admin acts; the running shop's
local Square simulator answers with server errors through its fault switch). A transient text is held on
screen by holding the shop database's write lock from the test, or recorded by the page as it appears.

Products are written straight into the shop's database with names no other test uses, and
removed again at the end of each test (other tests count products).
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import create_engine, text
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.admin_messages import (
    AdminLabel,
    BackendMessage,
    ProductAdminMessage,
    ProductDraftText,
    ProductFormMessage,
)
from shop_app.domain.grouping import group_key
from shop_app.models import AdminRole, Category, Order, OrderItem, Product, ProductImage
from tests.e2e.conftest import EXPECT_TIMEOUT_MS, SQUARE_TOKEN
from tests.e2e.helpers import SignIn

WS = EXPECT_TIMEOUT_MS  # anything that crosses the websocket, on a busy machine


def _tag() -> str:
    """A word no other product has (letters only, so the shop's search takes it as it is)."""
    return "".join(chr(ord("a") + int(c, 16) % 26) for c in uuid.uuid4().hex[:8]).capitalize()


def _add(database_url: str, name: str, *, ordered: bool = False, **fields) -> int:
    """A product (and, when ``ordered``, a paid order with one line of it); returns its id."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            values = {"description": f"{name}, poured by hand", "base_price_cents": 2400, "stock_quantity": 9}
            if fields.pop("filed", False):  # under the demo's first category, as the editors file it
                values["category_id"] = session.exec(select(Category.id).order_by(Category.id)).first()
            product = Product(name=name, group_key=group_key(name), **{**values, **fields})
            session.add(product)
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
                        product_id=product.id,
                        quantity=1,
                        unit_price_cents=2400,
                        total_price_cents=2400,
                        product_snapshot={"name": name},
                    )
                )
            session.commit()
            return int(product.id)
    finally:
        engine.dispose()


def _remove(database_url: str, *ids: int) -> None:
    """Remove the test's products (and the orders made for them) again."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            items = session.exec(select(OrderItem).where(OrderItem.product_id.in_(ids))).all()
            orders = {item.order_id for item in items}
            for item in items:
                session.delete(item)
            session.flush()
            for order_id in orders:
                if (order := session.get(Order, order_id)) is not None:
                    session.delete(order)
            for image in session.exec(select(ProductImage).where(ProductImage.product_id.in_(ids))).all():
                session.delete(image)
            session.flush()
            for product_id in ids:
                if (product := session.get(Product, product_id)) is not None:
                    session.delete(product)
            session.commit()
    finally:
        engine.dispose()


def _database_file(database_url: str) -> str:
    return database_url.removeprefix("sqlite:///")


@contextmanager
def _write_lock(database_url: str) -> Iterator[None]:
    """Hold the shop database's write lock (``BEGIN IMMEDIATE``) until the block ends; the shop's
    writers wait meanwhile (its busy timeout is 5 s, so keep the block short)."""
    connection = sqlite3.connect(_database_file(database_url), isolation_level=None, timeout=30)
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
    finally:
        connection.close()


@contextmanager
def _empty_catalogue(database_url: str) -> Iterator[None]:
    """The shop as before its first product: the products table and the vessel groups' summary
    the database keeps of it are put aside, and empty ones with the same columns stand in for
    them, until the block ends."""
    engine = create_engine(database_url)
    tables = ("products", "product_vessel_groups")
    try:
        with engine.begin() as connection:
            for table in tables:
                connection.exec_driver_sql(f'ALTER TABLE "{table}" RENAME TO "{table}__aside_by_test"')
                connection.exec_driver_sql(
                    f'CREATE TABLE "{table}" AS SELECT * FROM "{table}__aside_by_test" WHERE 0 = 1'
                )
        try:
            yield
        finally:
            with engine.begin() as connection:
                for table in tables:
                    connection.exec_driver_sql(f'DROP TABLE "{table}"')
                    connection.exec_driver_sql(f'ALTER TABLE "{table}__aside_by_test" RENAME TO "{table}"')
    finally:
        engine.dispose()


@pytest.fixture
def admin(shop_url: str, page: Page, sign_in: SignIn) -> Page:
    page.set_default_timeout(WS)
    sign_in(page)
    page.goto(f"{shop_url}/")
    return page


def _shown(page: Page, message: str) -> None:
    expect(page.get_by_text(message, exact=True)).to_be_visible(timeout=WS)


def _individual(page: Page, shop_url: str, search: str) -> None:
    """Manage Products narrowed to ``search``: every row on show but the header's matches it.

    The search is sent 300 ms after the last key and its rows replace the whole page's: a click
    on a row of the unfiltered page meanwhile can land on a row React is removing (lost in CI)."""
    page.goto(f"{shop_url}/admin/manage-products")
    expect(page.get_by_role("heading", name="Manage Products", exact=True)).to_be_visible(timeout=WS)
    page.get_by_role("textbox", name="Search products").fill(search)
    expect(page.get_by_role("row").filter(has_not_text=search)).to_have_count(1, timeout=WS)  # the header


def _grouped(page: Page, shop_url: str, search: str) -> None:
    page.goto(f"{shop_url}/admin/manage-products-grouped")
    page.get_by_role("textbox", name="Search product groups").fill(search)
    expect(page.get_by_role("heading", level=2)).to_have_count(1, timeout=WS)


# ---------------------------------------------------------------------- Manage Products, individual


def _edit_under_the_rules(page: Page, row: Locator, name: str) -> None:
    """Edit Product refuses a sale price at the price and a product without a category or a
    collection (the editors' one rule set, each message under its field), then saves."""
    row.get_by_role("button", name=f"Edit {name}").click()
    edit = page.get_by_role("dialog", name="Edit Product")
    price = edit.get_by_label("Base Price").input_value()
    edit.get_by_label("Base Price").fill("")  # as letters typed into the number field leave it
    expect(edit.get_by_role("button", name="Update")).to_be_disabled()
    expect(edit.get_by_text("Update needs a product name and a base price above 0.")).to_be_visible()
    edit.get_by_label("Base Price").fill(price)
    expect(edit.get_by_text("Update needs a product name and a base price above 0.")).to_have_count(0)
    edit.get_by_label("Stock Quantity").fill("12")
    edit.get_by_label("Sale Price").fill("24")  # the price: no discount
    edit.get_by_role("button", name="Update").click()
    # The editors' one rule set, each message under its field; the dialog stays open.
    expect(edit.locator("#edit-product-sale_price-error")).to_have_text(
        ProductFormMessage.SALE_NOT_BELOW_PRICE.value
    )
    expect(edit.locator("#edit-product-category-error")).to_have_text(
        ProductDraftText.CATEGORY_REQUIRED.value
    )
    edit.get_by_label("Sale Price").fill("")
    edit.get_by_role("combobox", name="Category").click()
    page.get_by_role("option", name="Candles", exact=True).click()
    edit.get_by_role("button", name="Update").click()
    expect(edit.locator("#edit-product-subcategory-error")).to_have_text(
        ProductDraftText.COLLECTION_REQUIRED.value
    )
    edit.get_by_role("combobox", name="Collection").click()
    page.get_by_role("option", name="Summer Collection", exact=True).click()
    edit.get_by_role("button", name="Update").click()
    _shown(page, ProductAdminMessage.UPDATED.value)
    expect(edit).to_have_count(0)
    expect(row).to_contain_text("Summer Collection")


def test_manage_products_edits_archives_and_checks_a_conversion(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    beacon = f"{tag} Beacon"
    ids = [
        _add(shop_database_url, beacon, is_new_arrival=True),
        _add(shop_database_url, f"{tag} Cup - Fig"),
    ]
    try:
        _individual(page, shop_url, tag)
        row = page.get_by_role("row").filter(has_text=beacon)
        expect(row.get_by_text(AdminLabel.STATUS_NEW.value, exact=True)).to_be_visible()

        _edit_under_the_rules(page, row, beacon)

        row.get_by_role("button", name=f"Archive {beacon}").click()
        _shown(page, ProductAdminMessage.ARCHIVED.value)
        expect(row.get_by_text(AdminLabel.STATUS_ARCHIVED.value, exact=True)).to_be_visible()
        row.get_by_role("button", name=f"Activate {beacon}").click()
        _shown(page, ProductAdminMessage.ACTIVATED.value)
        expect(row.get_by_text(AdminLabel.STATUS_ACTIVE.value, exact=True)).to_be_visible()

        row.get_by_role("button", name=f"Convert to Variant {beacon}").click()
        convert = page.get_by_role("dialog", name="Convert to Variant")
        convert.get_by_role("button", name="Convert").click()
        _shown(page, ProductFormMessage.SELECT_GROUP_AND_SCENT.value)
        convert.get_by_role("combobox", name="Vessel Group").click()
        page.get_by_role("option", name="+ Create new vessel group").click()
        convert.get_by_label("Scent Name").fill("Juniper")
        convert.get_by_role("button", name="Convert").click()
        _shown(page, ProductFormMessage.NEW_VESSEL_NAME_REQUIRED.value)
        convert.get_by_role("combobox", name="Vessel Group").click()
        page.get_by_role("option", name=f"{tag} Cup", exact=True).click()
        _remove(shop_database_url, ids.pop())  # another admin deletes the group's only product
        convert.get_by_role("button", name="Convert").click()
        _shown(page, ProductFormMessage.GROUP_NOT_FOUND.value)
        expect(convert).to_be_visible()
        convert.get_by_role("button", name="Cancel").click()
        expect(row).to_be_visible()  # still its own product

        page.get_by_role("textbox", name="Search products").fill(f"{tag}zz")
        expect(page.get_by_text(AdminLabel.NO_PRODUCTS.value, exact=True)).to_be_visible()
        expect(page.get_by_text(AdminLabel.ADJUST_FILTERS.value, exact=True)).to_be_visible()
    finally:
        _remove(shop_database_url, *ids)


def test_two_tabs_editing_one_product_the_later_save_undoes_nothing(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    """A stranger renamed a product in one tab, then saved Edit Product opened earlier in a second
    tab: the rename was silently undone. Now the second save is refused and keeps what was typed."""
    first, tag = admin, _tag()
    lantern = f"{tag} Lantern"
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:  # filed in Candles, Summer Collection, as the editors require
            filed = {c.slug: c.id for c in session.exec(select(Category))}
    finally:
        engine.dispose()
    ids = [
        _add(
            shop_database_url,
            lantern,
            category_id=filed["candles"],
            subcategory_id=filed["summer-collection"],
        )
    ]
    second = first.context.new_page()
    second.set_default_timeout(WS)
    try:
        for tab in (first, second):
            _individual(tab, shop_url, tag)
            tab.get_by_role("row").filter(has_text=lantern).get_by_role(
                "button", name=f"Edit {lantern}"
            ).click()
            expect(tab.get_by_role("dialog", name="Edit Product")).to_be_visible()

        first.get_by_role("dialog", name="Edit Product").get_by_label("Product Name").fill(
            f"{lantern} Renamed"
        )
        first.get_by_role("dialog", name="Edit Product").get_by_role("button", name="Update").click()
        _shown(first, ProductAdminMessage.UPDATED.value)
        edit = second.get_by_role("dialog", name="Edit Product")
        edit.get_by_label("Base Price").fill("31")
        edit.get_by_role("button", name="Update").click()

        _shown(second, ProductAdminMessage.CHANGED_ELSEWHERE.value)
        expect(edit.get_by_label("Base Price")).to_have_value("31")  # what was typed stays
        edit.get_by_role("button", name="Cancel").click()
        second.reload()
        second.get_by_role("textbox", name="Search products").fill(tag)
        expect(second.get_by_role("row").filter(has_text=f"{lantern} Renamed")).to_be_visible()
    finally:
        second.close()
        _remove(shop_database_url, *ids)


@pytest.mark.broken_table
def test_manage_products_reports_each_failure_of_the_database(
    shop_url: str, shop_database_url: str, admin: Page, broken_table
) -> None:
    page, tag = admin, _tag()
    ember = f"{tag} Ember"
    product_id = _add(shop_database_url, ember)
    try:
        _individual(page, shop_url, tag)
        row = page.get_by_role("row").filter(has_text=ember)
        expect(row).to_be_visible()
        with broken_table("products"):
            row.get_by_role("button", name=f"Edit {ember}").click()
            edit = page.get_by_role("dialog", name="Edit Product")
            edit.get_by_label("Stock Quantity").fill("3")
            edit.get_by_role("button", name="Update").click()
            _shown(page, ProductAdminMessage.UPDATE_FAILED.value)
            edit.get_by_role("button", name="Cancel").click()
            expect(edit).to_have_count(0)

            row.get_by_role("button", name=f"Archive {ember}").click()
            _shown(page, ProductAdminMessage.STATUS_FAILED.value)

            row.get_by_role("button", name=f"Convert to Variant {ember}").click()
            convert = page.get_by_role("dialog", name="Convert to Variant")
            convert.get_by_role("combobox", name="Vessel Group").click()
            page.get_by_role("option", name="+ Create new vessel group").click()
            convert.get_by_label("New Vessel Name").fill(f"{tag} Vessel")
            convert.get_by_label("Scent Name").fill("Cedar")
            convert.get_by_role("button", name="Convert").click()
            _shown(page, ProductAdminMessage.CONVERT_TO_VARIANT_FAILED.value)
            convert.get_by_role("button", name="Cancel").click()
            expect(convert).to_have_count(0)

            row.get_by_role("button", name=f"Delete {ember}").click()
            page.get_by_role("alertdialog", name="Delete Product").get_by_role(
                "button", name="Delete"
            ).click()
            failed = ProductAdminMessage.DELETE_FAILED.format(message="")
            expect(page.get_by_text(re.compile("^" + re.escape(failed) + r"\S"))).to_be_visible(timeout=WS)

            page.get_by_role("button", name="Sync from Square").click()
            sync_failed = ProductAdminMessage.SYNC_FAILED.format(message="")
            expect(page.get_by_text(re.compile("^" + re.escape(sync_failed) + r"\S"))).to_be_visible(
                timeout=WS
            )
            expect(page.get_by_role("button", name="Sync from Square")).to_be_enabled(timeout=WS)

            page.reload()
            _shown(page, ProductAdminMessage.LOAD_FAILED.value)
        page.reload()
        page.get_by_role("textbox", name="Search products").fill(tag)
        expect(page.get_by_role("row").filter(has_text=ember)).to_be_visible(timeout=WS)  # nothing changed
    finally:
        _remove(shop_database_url, product_id)


# ---------------------------------------------------------------------- Manage Products, grouped


def test_grouped_view_deactivates_and_deletes_variants(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    fig, plum = f"{tag} Jar - Fig", f"{tag} Jar - Plum"
    ids = [_add(shop_database_url, fig, filed=True), _add(shop_database_url, plum, ordered=True)]
    try:
        _grouped(page, shop_url, tag)
        page.get_by_role("button", name=f"Show variants of {tag} Jar").click()
        fig_item = page.get_by_role("listitem", name=fig)

        fig_item.get_by_role("button", name=f"Deactivate {fig}").click()
        _shown(page, ProductAdminMessage.DEACTIVATED.value)
        expect(fig_item.get_by_text(AdminLabel.STATUS_ARCHIVED.value, exact=True)).to_be_visible()
        fig_item.get_by_role("button", name=f"Activate {fig}").click()  # and back into the shop
        _shown(page, ProductAdminMessage.ACTIVATED.value)
        expect(fig_item.get_by_text(AdminLabel.STATUS_ARCHIVED.value, exact=True)).to_have_count(0)
        fig_item.get_by_role("button", name=f"Deactivate {fig}").click()
        _shown(page, ProductAdminMessage.DEACTIVATED.value)

        page.get_by_role("button", name=f"Delete {plum}").click()
        dialog = page.get_by_role("alertdialog", name="Delete Product Variant")
        dialog.get_by_role("button", name="Delete").click()
        _shown(page, ProductAdminMessage.VARIANT_ORDERED.value)
        expect(page.get_by_role("listitem", name=plum)).to_be_visible()

        fig_item.get_by_role("button", name=f"Delete {fig}").click()
        dialog.get_by_role("button", name="Delete").click()
        _shown(page, ProductAdminMessage.VARIANT_DELETED.value)
        expect(page.get_by_role("listitem", name=fig)).to_have_count(0)
    finally:
        _remove(shop_database_url, *ids)


@pytest.mark.broken_table
def test_grouped_view_reports_each_failure_of_the_database(
    shop_url: str, shop_database_url: str, admin: Page, broken_table
) -> None:
    page, tag = admin, _tag()
    fig, plum = f"{tag} Tin - Fig", f"{tag} Tin - Plum"
    ids = [_add(shop_database_url, fig), _add(shop_database_url, plum)]
    try:
        _grouped(page, shop_url, tag)
        page.get_by_role("button", name=f"Show variants of {tag} Tin").click()
        expect(page.get_by_role("listitem", name=fig)).to_be_visible()
        with broken_table("products"):
            page.get_by_role("button", name=f"Add Scent to {tag} Tin").click()
            scent = page.get_by_role("dialog", name="Add New Scent Variant")
            scent.get_by_label("Scent Name *").fill("Yuzu")
            scent.get_by_role("button", name="Add Variant").click()
            _shown(page, ProductAdminMessage.VARIANT_ADD_FAILED.value)
            scent.get_by_role("button", name="Cancel").click()
            expect(scent).to_have_count(0)

            page.get_by_role("button", name=f"Convert to Single Product {fig}").click()
            page.get_by_role("alertdialog", name="Convert to Single Product").get_by_role(
                "button", name="Convert"
            ).click()
            _shown(page, ProductAdminMessage.CONVERT_TO_STANDALONE_FAILED.value)

            page.get_by_role("button", name=f"Deactivate {fig}").click()
            _shown(page, ProductAdminMessage.DEACTIVATE_FAILED.value)

            page.get_by_role("button", name=f"Delete {plum}").click()
            page.get_by_role("alertdialog", name="Delete Product Variant").get_by_role(
                "button", name="Delete"
            ).click()
            _shown(page, ProductAdminMessage.VARIANT_DELETE_FAILED.value)

            page.reload()
            _shown(page, ProductAdminMessage.LOAD_FAILED.value)
    finally:
        _remove(shop_database_url, *ids)


# ---------------------------------------------------------------------- the dashboard's list


def test_the_dashboard_asks_to_archive_and_says_a_product_is_gone(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    lamp, wick = f"{tag} Lamp", f"{tag} Wick"
    ids = [_add(shop_database_url, lamp, sale_price_cents=1800), _add(shop_database_url, wick, ordered=True)]
    try:
        page.goto(f"{shop_url}/admin")
        page.get_by_label("Search products").fill(tag)
        lamp_row = page.get_by_role("row").filter(has_text=lamp)
        expect(lamp_row.get_by_text(AdminLabel.STATUS_SALE.value, exact=True)).to_be_visible()
        # Both products of this search, and no other: the list has settled (the page's first load
        # and the search may answer in either order on a busy machine). The dashboard's other
        # tables (recent orders) may name the ordered one too: count the products' Delete buttons.
        expect(page.get_by_role("button", name=re.compile(rf"^Delete {tag} "))).to_have_count(2)

        page.get_by_role("button", name=f"Delete {wick}").click()
        page.get_by_role("alertdialog", name="Delete Product").get_by_role("button", name="Delete").click()
        question = page.get_by_role("alertdialog", name="Archive Product")
        expect(question).to_contain_text(ProductAdminMessage.CONFIRM_ARCHIVE_INSTEAD.format(name=wick))
        question.get_by_role("button", name="Cancel").click()
        expect(question).to_have_count(0)

        page.get_by_role("button", name=f"Delete {lamp}").click()
        dialog = page.get_by_role("alertdialog", name="Delete Product")
        expect(dialog).to_be_visible()
        _remove(shop_database_url, ids.pop(0))  # deleted in another tab meanwhile
        dialog.get_by_role("button", name="Delete").click()
        _shown(page, ProductAdminMessage.DELETE_FAILED.format(message="this product no longer exists"))
        expect(lamp_row).to_have_count(0)
    finally:
        _remove(shop_database_url, *ids)


def test_a_shop_without_products_is_asked_for_its_first_one(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page = admin
    with _empty_catalogue(shop_database_url):
        page.goto(f"{shop_url}/admin")
        expect(page.get_by_text(AdminLabel.NO_PRODUCTS.value, exact=True)).to_be_visible()
        expect(page.get_by_text(AdminLabel.CREATE_FIRST_PRODUCT.value, exact=True)).to_be_visible()
        page.goto(f"{shop_url}/admin/manage-products")
        expect(page.get_by_text(AdminLabel.CREATE_FIRST_PRODUCT.value, exact=True)).to_be_visible()
    page.goto(f"{shop_url}/admin/manage-products")
    expect(page.get_by_text(AdminLabel.CREATE_FIRST_PRODUCT.value, exact=True)).to_have_count(0)


# ---------------------------------------------------------------------- the local form and the wizard


def test_the_local_form_shows_each_validation_message(shop_url: str, admin: Page) -> None:
    page = admin
    page.goto(f"{shop_url}/admin/products/new")
    expect(page.get_by_role("heading", name="Add Product")).to_be_visible()
    page.get_by_label("Product Name").fill("Unsaved Form Candle")
    page.get_by_role("button", name="Add Product").click()

    expect(page.locator("#product-form-description-error")).to_have_text(
        ProductFormMessage.DESCRIPTION_REQUIRED.value
    )
    expect(page.locator("#product-form-base_price-error")).to_have_text(
        ProductFormMessage.PRICE_NOT_POSITIVE.value
    )
    expect(page.locator("#product-form-category-error")).to_have_text(
        ProductDraftText.CATEGORY_REQUIRED.value
    )
    # The editors' one rule set: images and scent notes are optional (as in the wizard).
    expect(page.locator("#product-form-images-error")).to_have_count(0)
    expect(page.locator("#product-form-scent_notes-error")).to_have_count(0)

    page.locator("#product-form-base_price").fill("20")
    page.locator("#product-form-sale_price").fill("25")
    page.get_by_label("Category").select_option(label="Candles")
    page.get_by_role("button", name="Add Product").click()
    expect(page.locator("#product-form-sale_price-error")).to_have_text(
        ProductFormMessage.SALE_NOT_BELOW_PRICE.value
    )
    expect(page.locator("#product-form-subcategory-error")).to_have_text(
        ProductDraftText.COLLECTION_REQUIRED.value
    )
    expect(page.locator("#product-form-base_price-error")).to_have_count(0)
    expect(page).to_have_url(f"{shop_url}/admin/products/new")  # nothing was added


def _wizard_draft(page: Page, shop_url: str, name: str) -> None:
    page.goto(f"{shop_url}/admin/product-creation")
    expect(page.get_by_text("Step 1 of 6")).to_be_visible()
    page.get_by_label("Product Name").fill(name)
    page.get_by_label("Description").fill("Cedar and smoke, poured by hand.")
    for step in (2, 3):
        page.get_by_role("button", name="Next").click()
        expect(page.get_by_text(f"Step {step} of 6")).to_be_visible()
    page.get_by_label("Regular Price").fill("30")
    for step in (4, 5):
        page.get_by_role("button", name="Next").click()
        expect(page.get_by_text(f"Step {step} of 6")).to_be_visible()
    page.get_by_label("Stock Quantity").fill("4")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Step 6 of 6")).to_be_visible()


def _product_ids(database_url: str, name: str) -> list[int]:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return list(session.exec(select(Product.id).where(Product.name == name)).all())
    finally:
        engine.dispose()


def _watch_for(page: Page, *texts: str) -> None:
    """Record in the page which of ``texts`` the shop renders visibly from now on (each change of
    the page is looked at, so a text shown for a moment is recorded too)."""
    page.evaluate(
        """texts => {
            window.__seen = new Set();
            const look = () => {
                const shown = document.body.innerText;
                texts.forEach(t => shown.includes(t) && window.__seen.add(t));
            };
            window.__watch = new MutationObserver(look);
            window.__watch.observe(document.body, {subtree: true, childList: true, characterData: true});
        }""",
        list(texts),
    )


def _seen(page: Page) -> set[str]:
    return set(page.evaluate("() => { window.__watch.disconnect(); return [...window.__seen]; }"))


def test_the_wizard_says_publishing_and_the_sync_says_starting(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    name = f"{tag} Hearth Candle"
    _wizard_draft(page, shop_url, name)
    # The shop's writers wait while the test holds the write lock: the busy text stays on screen.
    with _write_lock(shop_database_url):
        page.get_by_role("button", name="Publish Product").click()
        expect(page.get_by_role("button", name=ProductDraftText.PUBLISHING.value)).to_be_disabled()
    try:
        _shown(page, ProductAdminMessage.CREATED_EVERYWHERE.value)
        expect(page).to_have_url(f"{shop_url}/admin")
        assert len(_product_ids(shop_database_url, name)) == 1

        # The sync takes a fraction of a second and its result replaces the starting notification:
        # the browser records every text that appears meanwhile, and the test reads the record.
        _individual(page, shop_url, tag)
        expect(page.get_by_role("row").filter(has_text=name)).to_be_visible()
        _watch_for(page, ProductAdminMessage.SYNC_STARTING.value, "Syncing...")
        page.get_by_role("button", name="Sync from Square").click()
        expect(
            page.get_by_text(re.compile(r"^Successfully synced \d+ products from Square!$"))
        ).to_be_visible(timeout=WS)
        expect(page.get_by_role("button", name="Sync from Square")).to_be_enabled()
        assert _seen(page) == {ProductAdminMessage.SYNC_STARTING.value, "Syncing..."}
    finally:
        # Deleted the way an admin does, so that Square forgets it too (a later sync would bring
        # it back).
        _individual(page, shop_url, tag)
        for _ in _product_ids(shop_database_url, name):
            page.get_by_role("button", name=f"Delete {name}").first.click()
            page.get_by_role("alertdialog", name="Delete Product").get_by_role(
                "button", name="Delete"
            ).click()
            _shown(page, ProductAdminMessage.DELETED_EVERYWHERE.value)
        expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)


@pytest.mark.broken_table
def test_the_wizard_reports_a_product_that_could_not_be_created(
    shop_url: str, shop_database_url: str, admin: Page, broken_table
) -> None:
    page, name = admin, f"{_tag()} Hearth Candle"
    _wizard_draft(page, shop_url, name)
    with broken_table("products"):
        page.get_by_role("button", name="Publish Product").click()
        _shown(page, ProductAdminMessage.CREATE_FAILED.format(message=BackendMessage.UNKNOWN_ERROR))
    expect(page.get_by_role("button", name="Publish Product")).to_be_enabled()  # the draft stays


# ---------------------------------------------------------------------- Square failing

SIMULATOR = {"Authorization": f"Bearer {SQUARE_TOKEN}"}  # the running shop's local Square


@contextmanager
def _square_fails(page: Page, shop_url: str, path: str, method: str) -> Iterator[None]:
    """Square answers every ``method`` request to ``path`` with a server error (the SDK's retries
    included) until the block ends: the running shop's simulator's fault switch."""
    faults = f"{shop_url}/_square/_simulator/faults"
    fault = {"path": path, "method": method, "kind": "http_500", "times": 20}
    assert page.request.post(faults, data=fault, headers=SIMULATOR).ok
    try:
        yield
    finally:
        assert page.request.delete(faults, headers=SIMULATOR).ok


def _square_item(page: Page, shop_url: str, name: str) -> tuple[str, str]:
    """An item on the running shop's Square (its id and its variation's id)."""
    variation = {
        "name": "Regular",
        "pricing_type": "FIXED_PRICING",
        "price_money": {"amount": 2400, "currency": "CAD"},
    }
    body = {
        "idempotency_key": uuid.uuid4().hex,
        "object": {
            "type": "ITEM",
            "id": "#item",
            "item_data": {
                "name": name,
                "variations": [{"type": "ITEM_VARIATION", "id": "#v", "item_variation_data": variation}],
            },
        },
    }
    created = page.request.post(f"{shop_url}/_square/v2/catalog/object", data=body, headers=SIMULATOR)
    assert created.ok, created.text()
    item = created.json()["catalog_object"]
    return item["id"], item["item_data"]["variations"][0]["id"]


def test_a_product_square_refuses_is_created_here_only(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    name = f"{tag} Lantern Candle"
    _wizard_draft(page, shop_url, name)
    try:
        with _square_fails(page, shop_url, "/v2/catalog/batch-upsert", "POST"):
            page.get_by_role("button", name="Publish Product").click()
            _shown(page, ProductAdminMessage.CREATED_LOCALLY.value)
        expect(page).to_have_url(f"{shop_url}/admin")
    finally:
        _remove(shop_database_url, *_product_ids(shop_database_url, name))


def test_a_product_square_cannot_delete_is_deleted_here_with_a_warning(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page, tag = admin, _tag()
    name = f"{tag} Votive"
    item_id, variation_id = _square_item(page, shop_url, name)
    product_id = _add(shop_database_url, name, square_item_id=item_id, square_variation_id=variation_id)
    try:
        _individual(page, shop_url, tag)
        row = page.get_by_role("row").filter(has_text=name)
        with _square_fails(page, shop_url, "/v2/catalog/object/{object_id}", "DELETE"):
            row.get_by_role("button", name=f"Delete {name}").click()
            page.get_by_role("alertdialog", name="Delete Product").get_by_role(
                "button", name="Delete"
            ).click()
            _shown(page, ProductAdminMessage.SQUARE_DELETE_FAILED.value)
        expect(row).to_have_count(0)  # deleted here all the same
    finally:
        _remove(shop_database_url, product_id)
        # The shop's Square outbox keeps trying the deletion once Square answers again: on a busy
        # machine it may have deleted the item already (404), which is what it is for.
        gone = page.request.delete(f"{shop_url}/_square/v2/catalog/object/{item_id}", headers=SIMULATOR)
        assert gone.ok or gone.status == 404, gone.text()


# ---------------------------------------------------------------------- admins


def test_an_admin_whose_account_cannot_be_read_is_unknown_user(
    shop_url: str, shop_database_url: str, admin: Page
) -> None:
    page = admin
    engine = create_engine(shop_database_url)  # no foreign keys enforced: the account is gone
    try:
        with engine.begin() as connection:
            missing = connection.execute(text("SELECT COALESCE(MAX(id), 0) + 100000 FROM users")).scalar_one()
            role_id = connection.execute(
                AdminRole.__table__.insert().values(user_id=missing, role="admin", is_active=True)
            ).inserted_primary_key[0]
        try:
            page.goto(f"{shop_url}/admin/manage-admins")
            unknown = f"{AdminLabel.UNKNOWN_FIRST_NAME.value} {AdminLabel.UNKNOWN_LAST_NAME.value}"
            expect(page.get_by_role("rowheader", name=unknown, exact=True)).to_be_visible(timeout=WS)
        finally:
            with engine.begin() as connection:
                connection.execute(AdminRole.__table__.delete().where(AdminRole.__table__.c.id == role_id))
    finally:
        engine.dispose()
