"""The back office's categories and website images in the browser, as the demo admin: the shop's
pills follow the categories, a duplicate is refused in the dialog, a replaced hero image is the
home page's hero; a visitor who is not an admin is sent home."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from shop_app import routes
from tests.e2e.helpers import SignIn


def _pill(page: Page, label: str):
    return page.get_by_role("main").get_by_role("link", name=re.compile(rf"^{re.escape(label)} \(\d+\)$"))


@pytest.fixture
def demo_categories_restored(shop_database_url: str) -> Iterator[None]:
    """Put the demo categories back afterwards: other journeys pick "Summer Collection"."""
    yield
    engine = sa.create_engine(shop_database_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "UPDATE categories SET name = 'Summer Collection', slug = 'summer-collection' "
                "WHERE slug = 'summer-evenings'"
            )
        )
        connection.execute(sa.text("DELETE FROM categories WHERE slug = 'gift-sets'"))
    engine.dispose()


@pytest.mark.usefixtures("demo_categories_restored")
def test_categories_edited_in_the_back_office_change_the_shops_pills(
    shop_url: str, shop_database_url: str, page: Page, sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-categories")
    expect(page.get_by_role("heading", name="Manage Categories")).to_be_visible()
    expect(page.get_by_role("button", name="Edit Summer Collection")).to_be_visible()

    page.get_by_role("button", name="Edit Summer Collection").click()
    dialog = page.get_by_role("dialog", name="Edit Category")
    dialog.get_by_label("Name").fill("Summer Evenings")
    dialog.get_by_role("button", name="Update Category").click()
    expect(page.get_by_text("Category updated successfully")).to_be_visible()
    expect(page.get_by_role("button", name="Edit Summer Evenings")).to_be_visible()

    page.get_by_role("button", name="Add Main Category").click()
    dialog = page.get_by_role("dialog", name="Add Main Category")
    expect(dialog.get_by_role("button", name="Create Category")).to_be_disabled()
    dialog.get_by_label("Name").fill("Gift Sets")
    dialog.get_by_label("Sort order").fill("0")
    dialog.get_by_role("button", name="Create Category").click()
    expect(page.get_by_text("Category created successfully")).to_be_visible()
    expect(page.get_by_role("heading", name="Gift Sets")).to_be_visible()

    # A name whose slug is taken: the error shows in the dialog, which keeps what was typed.
    page.get_by_role("button", name="Add Main Category").click()
    dialog = page.get_by_role("dialog", name="Add Main Category")
    dialog.get_by_label("Name").fill("Candles!")
    dialog.get_by_role("button", name="Create Category").click()
    expect(dialog.get_by_role("alert")).to_have_text('A category with the slug "candles" already exists')
    expect(dialog.get_by_label("Name")).to_have_value("Candles!")
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("dialog")).to_have_count(0)

    page.goto(f"{shop_url}/shop?category=candles")
    expect(_pill(page, "Summer Evenings")).to_be_visible()
    expect(_pill(page, "Summer Collection")).to_have_count(0)
    expect(_pill(page, "Gift Sets")).to_have_count(0)  # no product in it yet

    # File one product under the new category (the product screens do this in the back office).
    engine = sa.create_engine(shop_database_url)
    with engine.begin() as connection:
        gift_sets = connection.execute(
            sa.text("SELECT id FROM categories WHERE slug = 'gift-sets'")
        ).scalar_one()
        product_id, category_id, subcategory_id = connection.execute(
            sa.text(
                "SELECT id, category_id, subcategory_id FROM products WHERE is_active AND is_listed "
                "ORDER BY id DESC LIMIT 1"
            )
        ).one()
        connection.execute(
            sa.text("UPDATE products SET category_id = :c, subcategory_id = NULL WHERE id = :p"),
            {"c": gift_sets, "p": product_id},
        )
    try:
        page.goto(f"{shop_url}/shop")
        pills = page.get_by_role("main").get_by_role("link", name=re.compile(r" \(\d+\)$"))
        expect(pills.nth(1)).to_have_text("Gift Sets (1)")  # sort order 0: before Candles (1)
        _pill(page, "Gift Sets").click()
        expect(page).to_have_url(re.compile(r"/shop\?category=gift-sets$"))
        expect(page.get_by_text(re.compile(r"^Showing 1 products?$"))).to_be_visible()
    finally:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE products SET category_id = :c, subcategory_id = :s WHERE id = :p"),
                {"c": category_id, "s": subcategory_id, "p": product_id},
            )
        engine.dispose()


def test_a_replaced_hero_image_is_the_home_pages_hero(
    shop_url: str, shop_database_url: str, page: Page, tmp_path: Path, sign_in: SignIn
) -> None:
    picture = tmp_path / "new-hero.png"
    Image.new("RGB", (1400, 600), "#7a4b2a").save(picture)
    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-images")
    expect(page.get_by_role("heading", name="Website Images")).to_be_visible()
    expect(page.get_by_role("button", name="Save All Changes")).to_be_disabled()

    page.locator("[data-testid=website-image-upload-hero] input[type=file]").set_input_files(picture)
    expect(page.get_by_text("Image uploaded successfully! Remember to save your changes.")).to_be_visible()
    expect(page.get_by_text("New image, not saved yet")).to_be_visible()
    page.get_by_role("button", name="Save All Changes").click()
    expect(page.get_by_text("All changes saved successfully! Website images updated.")).to_be_visible()
    page.screenshot(path=tmp_path / "categories-images-website-images.png", full_page=True)

    engine = sa.create_engine(shop_database_url)
    with engine.connect() as connection:
        hero = connection.execute(
            sa.text("SELECT image_url FROM website_images WHERE image_type = 'hero'")
        ).scalar_one()
    engine.dispose()
    assert re.fullmatch(r"/media/website-images/[0-9a-f]{32}\.webp", hero)

    page.goto(f"{shop_url}/")
    # The home page names the hero at a fixed address (routes.HERO_IMAGE), which sends it.
    expect(page.get_by_role("img", name="Homepage hero image")).to_have_attribute("src", routes.HERO_IMAGE)
    stored = page.request.get(f"{shop_url}{hero}")
    shown = page.request.get(f"{shop_url}{routes.HERO_IMAGE}")
    assert stored.headers["content-type"] == shown.headers["content-type"] == "image/webp"
    assert shown.body() == stored.body()


def test_a_visitor_who_is_not_an_admin_is_sent_home(shop_url: str, browser: Browser) -> None:
    context = browser.new_context()
    try:
        visitor = context.new_page()
        visitor.goto(f"{shop_url}/admin/manage-categories")
        expect(visitor).to_have_url(f"{shop_url}/")
        expect(visitor.get_by_role("heading", name="Manage Categories")).to_have_count(0)
    finally:
        context.close()
