"""Shopper journeys that broke for a shopper arriving by a link, a bookmark or a phone (issue 15).

Each test opens the page by its address in a fresh browser context, as a new visitor would.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.grouping import group_key
from shop_app.models import Product
from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent

WEBSOCKET_S = 20_000  # anything that crosses the websocket, on a busy 2-core machine


def test_the_sign_in_page_opened_directly_shows_its_form(shop_url: str, browser: Browser) -> None:
    """/auth from a bookmark or a mail's link spun for ever (its load did not await the session)."""
    context = browser.new_context()
    page = context.new_page()

    page.goto(f"{shop_url}/auth")

    expect(page.get_by_role("tab", name="Sign In")).to_be_visible(timeout=WEBSOCKET_S)
    expect(page.get_by_label("Email", exact=True)).to_be_visible()
    context.close()


def test_a_favourite_goes_into_the_cart(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    """Add to Cart on the favourites page failed for every item."""
    email = new_customer(prefix="fav")
    sign_in(page, email)
    page.goto(f"{shop_url}/shop")
    page.get_by_role("button", name="to favorites").first.click()
    expect(page.get_by_text("Added to wishlist")).to_be_visible(timeout=WEBSOCKET_S)

    page.goto(f"{shop_url}/account/wishlist")
    page.get_by_role("button", name="Add to Cart").first.click()

    expect(page.get_by_text("to your cart")).to_be_visible(timeout=WEBSOCKET_S)
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible(timeout=WEBSOCKET_S)


def test_a_range_whose_first_scent_is_sold_out_can_still_be_bought(
    shop_url: str, shop_database_url: str, page: Page, archived_afterwards: list[int]
) -> None:
    """Its card started on the sold-out scent: "Out of Stock" while others were in stock."""
    tag = uuid.uuid4().hex[:6]
    names = [f"{tag} Tin Candle - Amber", f"{tag} Tin Candle - Birch", f"{tag} Tin Candle - Cedar"]
    archived_afterwards += _add(shop_database_url, names, stocks=[0, 5, 0])

    page.goto(f"{shop_url}/shop?search={tag}")

    scents = page.get_by_role("combobox", name=re.compile(tag))
    expect(scents).to_have_value("Birch", timeout=WEBSOCKET_S)  # the first scent in stock
    expect(scents.locator("option")).to_have_text(["Amber (sold out)", "Birch", "Cedar (sold out)"])
    expect(page.get_by_text("Only 5 left")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(f"^Customize {tag}"))).to_be_visible()


def test_every_scent_of_a_long_range_can_be_chosen(
    shop_url: str, shop_database_url: str, page: Page, archived_afterwards: list[int]
) -> None:
    """Scents behind "+N more" on a product page could not be bought."""
    tag = uuid.uuid4().hex[:6]
    names = [f"{tag} Jar Candle - Scent {n:02d}" for n in range(1, 12)]
    ids = _add(shop_database_url, names, stocks=[5] * 11)
    archived_afterwards += ids

    page.goto(f"{shop_url}/product/{ids[0]}")
    expect(page.get_by_role("button", name="Show every scent")).to_have_text("+3 more", timeout=WEBSOCKET_S)
    page.get_by_role("button", name="Show every scent").click()
    page.locator("#product-scent").select_option("Scent 11")

    expect(page).to_have_url(f"{shop_url}/product/{ids[10]}", timeout=WEBSOCKET_S)
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_text("to your cart")).to_be_visible(timeout=WEBSOCKET_S)


def test_pages_say_nothing_untrue_before_their_state_arrives(shop_url: str) -> None:
    """The first HTML of /shop and / (what shows until the websocket answers): the server's cards
    (tests/e2e/test_first_view.py), never an empty-state text."""
    shop = httpx.get(f"{shop_url}/shop", timeout=30).text
    home = httpx.get(f"{shop_url}/", timeout=30).text

    for untrue in ("Showing 0 products", "No products found", "All (0)"):
        assert untrue not in shop
    assert "Our featured products will appear here" not in home
    assert re.search(r'id="first-view-shop-cards"><div class="rt-Grid[^"]*product-grid">', shop)
    assert re.search(r'id="first-view-home-cards"><div class="rt-Grid[^"]*product-grid">', home)


def test_the_pills_count_what_a_search_finds(shop_url: str, page: Page) -> None:
    """With a search, "Candles (7)" led to "Showing 0 products": the pills count what they lead to."""
    page.goto(f"{shop_url}/shop?search=Body%20Lotion")
    showing = page.get_by_text(re.compile(r"^Showing \d+ products?$"))
    expect(showing).to_be_visible(timeout=WEBSOCKET_S)
    found = int(re.search(r"\d+", showing.inner_text()).group())

    expect(page.get_by_role("link", name=f"All ({found})")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Candles \("))).to_have_count(0)
    pill = page.get_by_role("link", name=re.compile(r"^Body Care \(\d+\)$"))
    in_body_care = int(re.search(r"\((\d+)\)", pill.inner_text()).group(1))
    pill.click()
    expect(page.get_by_text(f"Showing {in_body_care} product")).to_be_visible(timeout=WEBSOCKET_S)


def test_the_brand_fits_a_phones_header(shop_url: str, browser: Browser) -> None:
    """At 390 px the brand wrapped onto three lines and touched the header's top edge."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{shop_url}/shop")
    brand = page.get_by_role("link", name="Home page")
    expect(brand).not_to_have_text("Home page", timeout=WEBSOCKET_S)  # the brand name has arrived

    header = page.locator("header").first.bounding_box()
    box = brand.bounding_box()
    line_height = page.evaluate(
        "el => parseFloat(getComputedStyle(el).lineHeight)", brand.locator("p").element_handle()
    )

    assert box["height"] <= 2 * line_height + 1  # at most two lines
    assert box["y"] - header["y"] >= 4  # clear of the top edge
    context.close()


def test_a_product_pages_tabs_fit_a_phone(shop_url: str, browser: Browser) -> None:
    """At 390 px the last tab was cut off ("Shipping & Re", scrolled out of the list)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{shop_url}/product/{demo_id(with_sibling_scent()[0])}")
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_count(3, timeout=WEBSOCKET_S)

    tab_list = page.get_by_role("tablist")
    assert tab_list.evaluate("list => list.scrollWidth <= list.clientWidth")  # nothing scrolled away
    for tab in tabs.all():
        box = tab.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, tab.inner_text()
    tabs.filter(has_text="Shipping & Returns").click()
    expect(page.get_by_role("tabpanel")).to_contain_text("ship")
    context.close()


@pytest.fixture
def archived_afterwards(shop_database_url: str) -> Iterator[list[int]]:
    """Products a test adds leave the shop after it: the shared catalogue's first cards (which
    other tests rely on) stay the demo's."""
    ids: list[int] = []
    yield ids
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            for product in session.exec(select(Product).where(Product.id.in_(ids))):
                product.is_active = False
                session.add(product)
            session.commit()
    finally:
        engine.dispose()


def _add(database_url: str, names: list[str], *, stocks: list[int]) -> list[int]:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            rows = [
                Product(
                    name=name,
                    group_key=group_key(name),
                    description=f"{name}.",
                    base_price_cents=2600,
                    stock_quantity=stock,
                )
                for name, stock in zip(names, stocks, strict=True)
            ]
            session.add_all(rows)
            session.commit()
            return [session.exec(select(Product.id).where(Product.name == name)).one() for name in names]
    finally:
        engine.dispose()
