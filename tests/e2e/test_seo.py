"""Crawlers get a product's title, Open Graph image and JSON-LD in the first response.

Against the real production build: the product URL's raw HTML (no JavaScript run) carries the
product head, unknown ids answer 404, the sitemap lists the products, and the page still loads
as the app in a browser.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Page, expect

from shop_app.demo.demo_catalog import PRODUCTS
from tests.e2e.helpers import active_product_names

SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
DEMO_NAMES = {p.name for p in PRODUCTS}


@pytest.fixture(scope="module")
def sitemap_locs(shop_url: str) -> list[str]:
    """The URLs the shop's sitemap lists."""
    response = httpx.get(f"{shop_url}/sitemap.xml", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    return [loc.text or "" for loc in ET.fromstring(response.content).findall("s:url/s:loc", SITEMAP_NS)]


@pytest.fixture(scope="module")
def product_path(sitemap_locs: list[str], shop_url: str) -> str:
    """The path of the first demo product in the sitemap."""
    products = [loc for loc in sitemap_locs if "/product/" in loc]
    assert products, "the sitemap lists no product"
    assert products[0].startswith(f"{shop_url}/product/")
    return products[0].removeprefix(shop_url)


def test_sitemap_lists_static_pages_and_every_active_product(
    sitemap_locs: list[str], shop_url: str, shop_database_url: str
) -> None:
    assert f"{shop_url}/" in sitemap_locs
    assert f"{shop_url}/shop" in sitemap_locs
    selling = active_product_names(shop_database_url)
    assert len([loc for loc in sitemap_locs if "/product/" in loc]) == len(selling) > 48


def test_product_url_answers_server_rendered_head(shop_url: str, product_path: str) -> None:
    response = httpx.get(f"{shop_url}{product_path}", timeout=10)

    assert response.status_code == 200
    page = response.text
    head = page[: page.index("</head>")]
    title = re.search(r"<title>(.*?)</title>", head, re.DOTALL)
    assert title, "no <title> in the first response"
    name = html.unescape(title.group(1)).rsplit(" | ", 1)[0]
    assert name in DEMO_NAMES
    assert f'<link rel="canonical" href="{shop_url}{product_path}">' in head
    image = re.search(r'<meta property="og:image" content="([^"]+)">', head)
    assert image
    assert image.group(1).startswith(f"{shop_url}/media/")
    assert httpx.get(html.unescape(image.group(1)), timeout=10).status_code == 200
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', head, re.DOTALL)
    assert len(blocks) == 1
    data = json.loads(blocks[0])
    assert data["@type"] == "Product"
    assert data["name"] == name
    assert data["offers"]["priceCurrency"] == "CAD"
    assert re.fullmatch(r"\d+\.\d\d", data["offers"]["price"])
    assert "/assets/" in page  # still the app's shell: the browser hydrates it


def test_unknown_product_answers_404_with_noindex(shop_url: str) -> None:
    response = httpx.get(f"{shop_url}/product/999999", timeout=10)

    assert response.status_code == 404
    assert '<meta name="robots" content="noindex">' in response.text
    assert "application/ld+json" not in response.text


def test_product_url_still_loads_the_app_in_a_browser(shop_url: str, product_path: str, page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))

    response = page.goto(f"{shop_url}{product_path}")

    assert response is not None
    assert response.status == 200
    expect(page.locator("body")).not_to_be_empty()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_text("Unexpected Application Error")).to_have_count(0)
    assert not [e for e in errors if "hydrat" in e.lower()], errors


def test_shop_page_preloads_the_image_its_first_card_shows(shop_url: str, page: Page) -> None:
    # A search that leads with a demo product (it has a photo): other tests add products without
    # one to this shop, and the newest of those may lead the unfiltered list (then, rightly,
    # nothing is preloaded).
    url = f"{shop_url}/shop?search={quote(PRODUCTS[0].name)}"
    response = httpx.get(url, timeout=10)

    assert response.status_code == 200
    head = response.text[: response.text.index("</head>")]
    preloads = re.findall(r'<link rel="preload" as="image" href="(/media/[^"]+)\.webp"', head)
    assert len(preloads) == 1, head
    assert "/assets/" in response.text  # the prerendered page: the browser hydrates it

    page.goto(url)
    first = page.locator("div.rt-Card img").first
    expect(first).to_have_attribute("src", re.compile(r"^/media/"))
    shown = first.evaluate("img => new URL(img.currentSrc || img.src).pathname")
    assert shown.startswith(preloads[0]), (shown, preloads[0])  # the image or one of its renditions


def test_checkout_is_indexable_with_a_description_and_account_pages_are_not(shop_url: str) -> None:
    checkout = httpx.get(f"{shop_url}/checkout", timeout=10).text
    account = httpx.get(f"{shop_url}/account", timeout=10).text

    checkout_head = checkout[: checkout.index("</head>")]
    assert 'name="robots"' not in checkout_head  # nothing of a shopper's is in its HTML
    assert re.search(r'<meta content="[^"]{20,}" name="description"', checkout_head)
    assert '<meta content="noindex" name="robots"' in account[: account.index("</head>")]
