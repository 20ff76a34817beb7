"""A shopper browses, filters, searches, opens a product, picks a scent and uses the cart,
on a desktop and on a phone-sized screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from shop_app.demo.demo_catalog import PRODUCTS
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.product_names import base_product_name
from tests.e2e.conftest import EXPECT_TIMEOUT_MS
from tests.e2e.helpers import demo_id, low_stock, with_sibling_scent

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(VIEWPORTS))
def shopper(request: pytest.FixtureRequest, browser: Browser) -> Page:
    """A fresh visitor (own cookies) on a desktop or a phone."""
    context = browser.new_context(viewport=VIEWPORTS[request.param], is_mobile=request.param == "phone")
    page = context.new_page()
    page.set_default_timeout(EXPECT_TIMEOUT_MS)
    yield page
    context.close()


def _open_cart(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^Cart")).click()
    expect(page.get_by_role("heading", name="Your Cart")).to_be_visible()


def test_browse_filter_search_product_scent_add_and_edit_the_cart(shop_url: str, shopper: Page) -> None:
    page = shopper
    first, sibling = with_sibling_scent()
    page.goto(f"{shop_url}/shop")
    expect(page.get_by_text(re.compile(r"^Showing \d+ products$"))).to_be_visible()

    page.get_by_role("link", name=re.compile(r"^Candles \(\d+\)$")).click()
    expect(page).to_have_url(re.compile(r"/shop\?category=candles$"))
    page.get_by_role("link", name=re.compile(r"^Signature Candle Collection \(\d+\)$")).click()
    expect(page).to_have_url(re.compile(r"subcategory=signature-candle-collection"))

    page.get_by_role("button", name="Search", exact=True).click()
    search = page.get_by_role("searchbox", name="Search products")
    search.fill("vanila")
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"search=vanila"))
    expect(page.get_by_text("Results for “vanila”")).to_be_visible()
    titles = page.get_by_role("heading", level=3)
    expect(titles.first).to_be_visible()

    page.goto(f"{shop_url}/product/{demo_id(first)}")
    expect(page.get_by_role("heading", level=1, name=first.name)).to_be_visible()
    expect(page).to_have_title(re.compile(re.escape(first.name)))
    page.get_by_role("combobox", name="Scent").select_option(label=sibling.name.split(" - ", 1)[1])
    expect(page).to_have_url(re.compile(rf"/product/{demo_id(sibling)}$"))
    expect(page.get_by_role("heading", level=1, name=sibling.name)).to_be_visible()

    page.get_by_role("button", name="Increase quantity").click()
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_text(f"Added 2 {sibling.name} to your cart")).to_be_visible()
    expect(page.get_by_role("button", name="Cart, 2 items")).to_be_visible()

    _open_cart(page)
    unit = display_price_cents(sibling.base_price_cents, sibling.sale_price_cents)
    expect(page.get_by_text(format_cents(2 * unit), exact=True).first).to_be_visible()
    page.get_by_role("button", name=f"Increase quantity of {sibling.name}").click()
    expect(page.get_by_text(format_cents(3 * unit), exact=True).first).to_be_visible()
    page.get_by_role("button", name=f"Remove {sibling.name}").click()
    expect(page.get_by_text("Your cart is empty")).to_be_visible()


def test_the_cart_survives_a_reload_and_a_new_tab(shop_url: str, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()

    page.reload()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    other_tab = context.new_page()
    other_tab.goto(f"{shop_url}/shop")
    expect(other_tab.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    context.close()


def test_tabs_opened_before_the_first_add_fill_one_cart(shop_url: str, browser: Browser) -> None:
    """Two tabs open before the guest has a cart; each adds a product: one cart holds both,
    in either tab after a reload (a stranger found the second tab's cart replacing the first)."""
    context = browser.new_context()
    first_tab, second_tab = context.new_page(), context.new_page()
    product, sibling = with_sibling_scent()
    first_tab.goto(f"{shop_url}/product/{demo_id(product)}")
    second_tab.goto(f"{shop_url}/product/{demo_id(sibling)}")
    for tab, shown in ((first_tab, product), (second_tab, sibling)):  # the page's state has loaded
        expect(tab.get_by_role("heading", level=1, name=shown.name)).to_be_visible()
    [token] = [cookie["value"] for cookie in context.cookies() if cookie["name"] == "cart"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)

    first_tab.get_by_role("button", name="Add to Cart").click()
    expect(first_tab.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    second_tab.get_by_role("button", name="Add to Cart").click()
    expect(second_tab.get_by_role("button", name="Cart, 2 items")).to_be_visible()

    first_tab.reload()
    expect(first_tab.get_by_role("button", name="Cart, 2 items")).to_be_visible()
    assert [cookie["value"] for cookie in context.cookies() if cookie["name"] == "cart"] == [token]
    context.close()


def test_more_than_the_stock_is_refused_with_a_clear_message(shop_url: str, page: Page) -> None:
    product = low_stock()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    increase = page.get_by_role("button", name="Increase quantity")
    for _ in range(product.stock_quantity - 1):
        increase.click()
    expect(increase).to_be_disabled()  # the stepper stops at the stock
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_text(f"Added {product.stock_quantity} {product.name} to your cart")).to_be_visible()

    page.get_by_role("button", name="Add to Cart").click()

    expect(
        page.get_by_text(
            f'Insufficient stock for "{product.name}". Available: {product.stock_quantity}, '
            f"Requested: {product.stock_quantity * 2}"
        )
    ).to_be_visible()


def test_out_of_stock_products_cannot_be_added(shop_url: str, page: Page) -> None:
    sold_out = next(p for p in PRODUCTS if p.stock_quantity == 0)

    page.goto(f"{shop_url}/product/{demo_id(sold_out)}")

    expect(page.get_by_role("button", name="Out of Stock")).to_be_disabled()


def test_unknown_product_shows_product_not_found(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/product/999999")

    expect(page.get_by_role("heading", name="Product Not Found")).to_be_visible()
    page.get_by_role("link", name="Back to Shop").click()
    expect(page).to_have_url(re.compile(r"/shop$"))


def test_header_search_suggestions_lead_to_the_shop(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/shop")
    page.get_by_role("button", name="Open search").click()
    page.get_by_role("button", name="Body Lotion", exact=True).click()
    expect(page.get_by_role("searchbox", name="Search the shop")).to_have_value("Body Lotion")

    page.get_by_role("searchbox", name="Search the shop").press("Enter")

    expect(page).to_have_url(re.compile(r"/shop\?search=Body\+Lotion$"))
    expect(page.get_by_text("Results for “Body Lotion”")).to_be_visible()


def test_phone_navigation_opens_a_side_drawer(shop_url: str, browser: Browser) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True)
    page = context.new_page()
    page.goto(f"{shop_url}/shop")

    page.get_by_role("button", name="Open menu").click()
    page.get_by_role("dialog").get_by_role("link", name="Contact").click()

    expect(page).to_have_url(re.compile(r"/contact$"))
    context.close()


def test_heart_and_account_open_the_sign_in_dialog_for_guests(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/shop")
    page.get_by_role("button", name="Account").click()

    expect(page.get_by_role("dialog", name="Welcome Back")).to_be_visible()
    page.get_by_role("button", name="Continue as Guest").click()
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_a_product_with_scent_options_needs_a_scent_before_adding(shop_url: str, page: Page) -> None:
    custom = next(p for p in PRODUCTS if p.option_scents)
    page.goto(f"{shop_url}/product/{demo_id(custom)}")

    expect(page.get_by_role("button", name="Select a Scent")).to_be_disabled()
    hidden = len(custom.option_scents) - 8
    expect(page.get_by_text(f"+{hidden} more")).to_be_visible()
    scent = page.get_by_role("combobox", name="Scent")
    expect(scent).to_have_value("")  # "Select a Scent" until one is chosen
    expect(scent.locator("option:not([disabled])")).to_have_count(8)
    scent.select_option(label=custom.option_scents[2])
    page.get_by_role("button", name="Add to Cart").click()

    expect(
        page.get_by_text(f"Added 1 {custom.name} to your cart ({custom.option_scents[2]})")
    ).to_be_visible()


def test_a_shop_card_switches_to_the_scent_chosen_in_its_select(shop_url: str, page: Page) -> None:
    demo_titles = {base_product_name(p.name) for p in PRODUCTS}  # other journeys add products
    page.goto(f"{shop_url}/shop")
    scents = page.get_by_role("combobox", name=re.compile(r"^Scent of "))
    expect(scents.first).to_be_visible()
    card = next(
        c
        for c in page.locator("div.rt-Card").filter(has=scents).all()
        if c.get_by_role("heading", level=3).inner_text() in demo_titles
    )
    select = card.get_by_role("combobox")
    image_link = card.locator("a").first  # the card's image links to the variation on show
    shown, before = select.input_value(), image_link.get_attribute("href")
    other = next(s for s in select.locator("option").all_inner_texts() if s != shown)

    select.select_option(label=other)

    expect(select).to_have_value(other)
    expect(image_link).not_to_have_attribute("href", before or "")
    chosen = PRODUCTS[int((image_link.get_attribute("href") or "").rsplit("/", 1)[-1]) - 1]  # demo ids
    assert other.split(" (", 1)[0] in chosen.name  # "Scent (Vessel)" when two vessels share a scent
