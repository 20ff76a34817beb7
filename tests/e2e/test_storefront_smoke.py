"""A shopper opens the home page and the shop and sees the demo catalogue."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from shop_app.demo.demo_catalog import PRODUCTS
from shop_app.domain.grouping import base_product_name
from tests.e2e.helpers import active_product_names


def test_health_reports_the_database(shop_url: str) -> None:
    response = httpx.get(f"{shop_url}/api/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "not used"}


def test_home_shows_featured_products_and_categories(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    featured = active_product_names(shop_database_url, featured_only=True)
    titles = {*featured, *(base_product_name(name) for name in featured)}

    page.goto(f"{shop_url}/")

    expect(page.get_by_role("heading", name="LUXURY HOME FRAGRANCE")).to_be_visible()
    grid = page.locator("section", has=page.get_by_role("heading", name="Featured Products"))
    cards = grid.get_by_role("heading", level=3)
    expect(cards.first).to_be_visible()
    assert set(cards.all_inner_texts()) <= titles
    for name, code in (
        ("Candles", "candles"),
        ("Body Care", "bodycare"),
        ("Home Fragrance", "homefragrance"),
    ):
        expect(page.get_by_role("link", name=name, exact=True)).to_have_attribute(
            "href", f"/shop?category={code}"
        )
    expect(page.get_by_role("link", name="Read All Reviews")).to_be_visible()


def test_shop_lists_every_active_product(shop_url: str, shop_database_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/shop")
    expect(page.get_by_role("heading", name="Shop", exact=True)).to_be_visible()
    page.get_by_role("switch").click()  # individual products instead of grouped ones

    selling = active_product_names(shop_database_url)
    assert len(selling) > 48  # the demo catalogue and more: several pages of 24
    expect(page.get_by_text(f"Showing {len(selling)} products")).to_be_visible()
    newest, oldest = selling[0], selling[-1]
    expect(page.get_by_role("heading", name=newest, exact=True)).to_be_visible()
    cards = page.get_by_role("heading", level=3)
    expect(cards).to_have_count(24)

    load_more = page.get_by_role("button", name="Load more")
    for shown in range(48, len(selling) + 24, 24):
        load_more.click()
        expect(cards).to_have_count(min(shown, len(selling)))

    expect(load_more).to_be_hidden()
    expect(page.get_by_role("heading", name=oldest, exact=True)).to_be_visible()


def test_shop_search_filters_by_the_url(shop_url: str, page: Page) -> None:
    expected = {
        p.name
        for p in PRODUCTS
        if "lotion" in f"{p.name} {p.description} {p.category} {p.subcategory}".lower()
    }

    page.goto(f"{shop_url}/shop?search=LOTION")
    page.get_by_role("switch").click()

    expect(page.get_by_text(f"Showing {len(expected)} products")).to_be_visible()
    expect(page.get_by_role("heading", level=3)).to_have_count(len(expected))
    assert set(page.get_by_role("heading", level=3).all_inner_texts()) == expected


def test_unknown_route_shows_the_not_found_page(shop_url: str, page: Page) -> None:
    response = page.goto(f"{shop_url}/no-such-page")

    assert response is not None and response.status == 404

    expect(page.get_by_role("heading", name="Page Not Found")).to_be_visible()
    expect(page.get_by_role("link", name="Back to Home")).to_be_visible()
