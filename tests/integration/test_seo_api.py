"""GET /product/{id} answers with the product's head in the HTML; GET /shop with its first card's
image preloaded; GET /sitemap.xml lists the shop.

The routes run through the real Starlette app (``create_api``) against the test database, with a
fake production build (SPA shell, prerendered /shop page) standing in for Reflex's.
"""

from __future__ import annotations

import json
import os
import re
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from shop_app.api import seo as seo_api
from shop_app.db import reset_engine
from shop_app.models import Category, Product, ProductImage, StoreSettings
from shop_app.services.media import PRODUCT_CARD_SIZES
from shop_app.settings import get_settings

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 package for its TestClient; httpx (installed) works alike.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

SITE = "https://candles.example"
BRAND = "Cedar & Ember"
SHELL = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>'
    '<script>window.x = 1;</script></head><body><div id="app">SHELL-BODY</div></body></html>'
)
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
STATIC_PAGES = ["/", "/shop", "/about", "/faq", "/reviews", "/contact", "/custom-orders", "/custom-creator"]
SHOP_HTML = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Shop | Cedar &amp; Ember</title>'
    '</head><body><div id="app"><h1>Shop</h1></div></body></html>'
)
CANDLE_IMAGE = "/media/products/" + "a" * 32 + ".webp"
LOTION_IMAGE = "/media/products/" + "b" * 32 + ".webp"
PRELOAD = re.compile(r'<link rel="preload" as="image"[^>]*>')


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake production build's SPA shell."""
    path = tmp_path / "build" / "client" / "__spa-fallback.html"
    path.parent.mkdir(parents=True)
    path.write_text(SHELL, encoding="utf-8")
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: path)
    return path


@pytest.fixture
def client(
    engine: Engine, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """The API app on the test database, with a known public origin."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SITE_URL", f"{SITE}/")
    monkeypatch.setenv("MEDIA_DIR", str(tmp_path / "media"))
    get_settings.cache_clear()
    reset_engine()
    with TestClient(create_api()) as test_client:
        yield test_client
    reset_engine()
    get_settings.cache_clear()


@pytest.fixture
def products(session: Session) -> dict[str, Product]:
    """An active product with images, an active one on sale and out of stock, an archived one."""
    session.add(StoreSettings(id=1, company_name=BRAND))
    lavender = Product(
        name='8oz Amber Soy Candle - "Lavender" <Fields>',
        description="Hand-poured soy wax. " * 20,
        seo_description="Lavender soy candle & more",
        base_price_cents=2800,
        stock_quantity=4,
    )
    cedar = Product(name="Mandle - Cedar", description="Woody.", base_price_cents=4000, sale_price_cents=3200)
    archived = Product(name="Old Candle", base_price_cents=1000, stock_quantity=3, is_active=False)
    session.add_all([lavender, cedar, archived])
    session.flush()
    session.add_all(
        [
            ProductImage(product_id=lavender.id, image_url="/media/products/b.webp", display_order=1),
            ProductImage(product_id=lavender.id, image_url="/media/products/a.webp", is_primary=True),
        ]
    )
    session.commit()
    return {"lavender": lavender, "cedar": cedar, "archived": archived}


def _json_ld(html: str) -> dict:
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.DOTALL)
    assert len(blocks) == 1
    return json.loads(blocks[0])


def test_product_url_answers_the_shell_with_the_product_head(
    client: TestClient, shell: Path, products: dict[str, Product]
) -> None:
    lavender = products["lavender"]

    response = client.get(f"/product/{lavender.id}")

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    html = response.text
    head, body = html.split("</head>")
    assert head.startswith(
        '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><script>window.x = 1;'
    )
    assert body == '<body><div id="app">SHELL-BODY</div></body></html>'
    assert '<title>8oz Amber Soy Candle - "Lavender" &lt;Fields&gt; | Cedar &amp; Ember</title>' in head
    assert '<meta name="description" content="Lavender soy candle &amp; more">' in head
    canonical = f"{SITE}/product/{lavender.id}"
    assert f'<link rel="canonical" href="{canonical}">' in head
    assert f'<meta property="og:image" content="{SITE}/media/products/a.webp">' in head
    assert "<Fields>" not in html
    data = _json_ld(head)
    assert data["@type"] == "Product"
    assert data["name"] == '8oz Amber Soy Candle - "Lavender" <Fields>'
    assert data["image"] == [f"{SITE}/media/products/a.webp", f"{SITE}/media/products/b.webp"]
    assert data["brand"]["name"] == BRAND
    assert data["offers"]["price"] == "28.00"
    assert data["offers"]["priceCurrency"] == "CAD"
    assert data["offers"]["availability"] == "https://schema.org/InStock"
    assert data["offers"]["url"] == canonical


def test_sale_price_and_stock_reach_the_offer(
    client: TestClient, shell: Path, products: dict[str, Product]
) -> None:
    response = client.get(f"/product/{products['cedar'].id}")

    assert response.status_code == 200
    offer = _json_ld(response.text)["offers"]
    assert offer["price"] == "32.00"
    assert offer["availability"] == "https://schema.org/OutOfStock"
    assert '<meta name="twitter:card" content="summary">' in response.text  # no image


@pytest.mark.parametrize("raw_id", ["999999", "abc", "0", "-1", "1.5", "١", "99999999999999999999999"])
def test_unknown_or_malformed_ids_answer_404_with_noindex(
    client: TestClient, shell: Path, products: dict[str, Product], raw_id: str
) -> None:
    response = client.get(f"/product/{raw_id}")

    assert response.status_code == 404
    html = response.text
    assert '<meta name="robots" content="noindex">' in html
    assert "<title>Product Not Found | Cedar &amp; Ember</title>" in html
    assert "SHELL-BODY" in html  # the app still loads and shows its own not-found view
    assert "application/ld+json" not in html


def test_archived_products_answer_404(client: TestClient, shell: Path, products: dict[str, Product]) -> None:
    response = client.get(f"/product/{products['archived'].id}")

    assert response.status_code == 404
    assert "Old Candle" not in response.text
    assert '<meta name="robots" content="noindex">' in response.text


def test_the_shell_is_read_again_when_the_build_changes(
    client: TestClient, shell: Path, products: dict[str, Product]
) -> None:
    url = f"/product/{products['lavender'].id}"
    assert "SHELL-BODY" in client.get(url).text

    shell.write_text(SHELL.replace("SHELL-BODY", "NEW-BUILD"), encoding="utf-8")
    stat = shell.stat()
    os.utime(shell, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))

    html = client.get(url).text
    assert "NEW-BUILD" in html
    assert "SHELL-BODY" not in html


def test_without_a_build_the_route_answers_a_minimal_page(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, products: dict[str, Product]
) -> None:
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: tmp_path / "missing" / "__spa-fallback.html")

    found = client.get(f"/product/{products['lavender'].id}")
    missing = client.get("/product/999999")

    assert found.status_code == 200
    assert found.text.startswith("<!DOCTYPE html>")
    assert "<title>8oz Amber Soy Candle" in found.text
    assert _json_ld(found.text)["@type"] == "Product"
    assert missing.status_code == 404
    assert '<meta name="robots" content="noindex">' in missing.text


def test_the_default_shell_path_is_reflexs_build_output() -> None:
    path = seo_api.spa_shell_path()

    assert path.is_absolute()
    assert path.parts[-4:] == (".web", "build", "client", "__spa-fallback.html")


def test_sitemap_lists_static_pages_and_exactly_the_active_products(
    client: TestClient, products: dict[str, Product]
) -> None:
    response = client.get("/sitemap.xml")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    locs = [loc.text for loc in root.findall("s:url/s:loc", SITEMAP_NS)]
    active = sorted(products[key].id for key in ("lavender", "cedar"))
    assert locs == [f"{SITE}{path}" for path in STATIC_PAGES] + [f"{SITE}/product/{pid}" for pid in active]
    lastmods = [url.findtext("s:lastmod", namespaces=SITEMAP_NS) for url in root.findall("s:url", SITEMAP_NS)]
    assert all(lastmod is None for lastmod in lastmods[: len(STATIC_PAGES)])
    assert all(
        re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", lastmod or "")
        for lastmod in lastmods[len(STATIC_PAGES) :]
    )


def test_sitemap_of_an_empty_shop_lists_the_static_pages(client: TestClient) -> None:
    root = ET.fromstring(client.get("/sitemap.xml").content)

    assert [loc.text for loc in root.findall("s:url/s:loc", SITEMAP_NS)] == [
        f"{SITE}{path}" for path in STATIC_PAGES
    ]


def test_product_pages_are_compressed_for_browsers_that_accept_gzip(
    client: TestClient, shell: Path, products: dict[str, Product]
) -> None:
    url = f"/product/{products['lavender'].id}"

    compressed = client.get(url, headers={"Accept-Encoding": "gzip"})
    plain = client.get(url, headers={"Accept-Encoding": "identity"})

    assert compressed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert compressed.text == plain.text and compressed.headers["vary"] == "Accept-Encoding"
    assert compressed.headers["content-type"] == plain.headers["content-type"] == "text/html; charset=utf-8"


# --- /shop: the prerendered page with its first card's image preloaded ----------------------


@pytest.fixture
def shop_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake production build holding the prerendered /shop page."""
    shell = tmp_path / "build" / "client" / "__spa-fallback.html"
    (shell.parent / "shop").mkdir(parents=True)
    (shell.parent / "shop" / "index.html").write_text(SHOP_HTML, encoding="utf-8")
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: shell)
    return shell.parent


@pytest.fixture
def catalogue(session: Session) -> None:
    """A candle (image 1200 px wide) and a lotion (image of unknown width), one per category."""
    candles = Category(name="Candles", slug="candles")
    body_care = Category(name="Body Care", slug="body-care")
    session.add_all([candles, body_care])
    session.flush()
    candle = Product(name="Soy Candle - Cedar", base_price_cents=3000, stock_quantity=5)
    lotion = Product(name="Hand Lotion", base_price_cents=1500, stock_quantity=5)
    candle.category_id, lotion.category_id = candles.id, body_care.id
    session.add_all([candle, lotion])
    session.flush()
    session.add_all(
        [
            ProductImage(product_id=candle.id, image_url=CANDLE_IMAGE, is_primary=True, width=1200),
            ProductImage(product_id=lotion.id, image_url=LOTION_IMAGE, is_primary=True),
        ]
    )
    session.commit()


def _preloads(html: str) -> list[str]:
    head = html.split("</head>", maxsplit=1)[0]
    assert PRELOAD.findall(html) == PRELOAD.findall(head)  # only ever in the head
    return PRELOAD.findall(head)


def test_the_first_card_image_of_the_filtered_listing_is_preloaded(
    client: TestClient, shop_build: Path, catalogue: None
) -> None:
    candles = client.get("/shop?category=candles")
    body_care = client.get("/shop", params={"category": "body-care"})

    assert candles.status_code == 200
    assert candles.headers["content-type"] == "text/html; charset=utf-8"
    # A browser without a cart token gets one with the page, privately (api/cart_cookie.py).
    assert candles.headers["cache-control"] == "private, no-cache"
    assert candles.headers["set-cookie"].startswith("cart=")
    stem = CANDLE_IMAGE.removesuffix(".webp")
    assert _preloads(candles.text) == [
        f'<link rel="preload" as="image" href="{CANDLE_IMAGE}" fetchpriority="high" '
        f'imagesrcset="{stem}-320w.webp 320w, {stem}-640w.webp 640w, {stem}-960w.webp 960w, '
        f'{CANDLE_IMAGE} 1200w" imagesizes="{PRODUCT_CARD_SIZES}">'
    ]
    # no known width, no renditions: the browser uses the plain URL, as the card's <img> does
    assert _preloads(body_care.text) == [
        f'<link rel="preload" as="image" href="{LOTION_IMAGE}" fetchpriority="high">'
    ]
    assert PRELOAD.sub("", candles.text).replace("\n", "") == SHOP_HTML  # the page itself unchanged


def test_search_and_the_trailing_slash_form_answer_the_same_way(
    client: TestClient, shop_build: Path, catalogue: None
) -> None:
    searched = client.get("/shop/?search=lotion")

    assert searched.status_code == 200
    assert [LOTION_IMAGE in tag for tag in _preloads(searched.text)] == [True]


def test_a_listing_without_an_image_or_without_cards_is_the_page_as_built(
    client: TestClient, shop_build: Path, catalogue: None, session: Session
) -> None:
    session.add(Product(name="Gift Card", base_price_cents=2500, stock_quantity=5))
    session.commit()

    nothing = client.get("/shop?search=zzzzzz")
    imageless = client.get("/shop?search=gift card")

    assert (nothing.status_code, nothing.text) == (200, SHOP_HTML)
    assert (imageless.status_code, imageless.text) == (200, SHOP_HTML)


def test_gzip_when_accepted(client: TestClient, shop_build: Path, catalogue: None) -> None:
    response = client.get("/shop", headers={"Accept-Encoding": "gzip"})

    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"] == "Accept-Encoding"
    assert len(_preloads(response.text)) == 1  # httpx has decoded the body


def test_without_a_build_the_shop_url_is_not_found(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: tmp_path / "missing" / "__spa-fallback.html")

    assert client.get("/shop").status_code == 404


def test_robots_txt_keeps_crawlers_out_of_private_pages_and_names_the_sitemap(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SITE_URL", "https://candles.example")
    monkeypatch.setenv("MEDIA_DIR", str(tmp_path / "media"))
    get_settings.cache_clear()
    try:
        with TestClient(create_api()) as client:
            response = client.get("/robots.txt")
    finally:
        get_settings.cache_clear()

    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    lines = response.text.splitlines()
    assert lines[0] == "User-agent: *"
    for private in ("/admin", "/account", "/checkout"):
        assert f"Disallow: {private}" in lines
    assert "Disallow: /shop" not in lines and "Disallow: /" not in lines
    assert lines[-1] == "Sitemap: https://candles.example/sitemap.xml"


PRODUCT_TEMPLATE = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Product Not Found</title>'
    '<meta content="Hand-poured." name="description"/><meta content="favicon.ico" property="og:image"/>'
    '</head><body><header><a href="/"><p><span class="first-view-inline" id="first-view-brand"></span></p>'
    '</a></header><main><div class="rt-Box product-page"><div class="first-view" id="first-view-product">'
    "</div></div></main></body></html>"
)


@pytest.fixture
def product_template(shell: Path) -> Path:
    """The fake build's product page prerendered for no product (frontend_build)."""
    path = seo_api.product_template_path()
    assert path == shell.parent.parent / "product-page.html"
    path.write_text(PRODUCT_TEMPLATE, encoding="utf-8")
    return path


def test_a_product_url_answers_the_product_page_with_the_product_in_it(
    client: TestClient, product_template: Path, products: dict[str, Product]
) -> None:
    """Issue 18, acceptance 1: the product is in the first HTML response, not only its head."""
    lavender = products["lavender"]

    response = client.get(f"/product/{lavender.id}")

    assert response.status_code == 200
    head, body = response.text.split("</head>")
    assert head.count('name="description"') == 1 and "Hand-poured." not in head
    assert head.count('property="og:image"') == 1 and "favicon.ico" not in head
    assert '<title>8oz Amber Soy Candle - "Lavender" &lt;Fields&gt; | Cedar &amp; Ember</title>' in head
    region = body.split('id="first-view-product">', 1)[1]
    assert "<Fields>" not in body  # escaped
    assert (
        '<h1 class="rt-Heading rt-r-size-8">8oz Amber Soy Candle - &quot;Lavender&quot; &lt;Fields&gt;</h1>'
        in region
    )
    assert ">$28.00</p>" in region and ">Only 4 left</span>" in region
    assert 'src="/media/products/a.webp"' in region and 'fetchpriority="high"' in region
    assert region.count("Show image ") == 2  # a gallery of two: its thumbnails
    assert ">Add to Cart</button>" in region and "disabled" in region
    assert '<span class="first-view-inline" id="first-view-brand">Cedar &amp; Ember</span>' in body


def test_a_product_on_sale_and_out_of_stock_reads_so_in_its_first_view(
    client: TestClient, product_template: Path, products: dict[str, Product]
) -> None:
    region = client.get(f"/product/{products['cedar'].id}").text.split('id="first-view-product">', 1)[1]

    assert ">$32.00</p>" in region and 'aria-label="was $40.00"' in region and ">$40.00</span>" in region
    assert ">On Sale</span>" in region and ">Out of Stock</span>" in region
    assert ">Out of Stock</button>" in region


def test_an_unknown_product_is_the_apps_shell_not_the_product_page(
    client: TestClient, product_template: Path, products: dict[str, Product]
) -> None:
    response = client.get("/product/999999")

    assert response.status_code == 404
    assert "SHELL-BODY" in response.text and "first-view-product" not in response.text


@pytest.mark.parametrize(
    ("path", "target"), [("/product/7/", "/product/7"), ("/product/7/?a=b%20c", "/product/7?a=b%20c")]
)
def test_a_product_address_with_a_trailing_slash_redirects_to_the_one_without(
    client: TestClient, shell: Path, path: str, target: str
) -> None:
    """It was the app's bare shell (no product, no head): the page's one address is slashless."""
    response = client.get(path, follow_redirects=False)

    assert response.status_code == 308
    assert response.headers["location"] == target


def test_an_encoded_slash_in_a_product_id_is_not_a_way_around(client: TestClient, shell: Path) -> None:
    response = client.get("/product/%2F%2Fevil.example/", follow_redirects=False)

    assert response.status_code in (308, 404)
    assert not response.headers.get("location", "/").startswith("//")


@pytest.mark.parametrize(
    "path", ["/product//1", "/product/1//", "/product/%2F1", "/product/1%2F%2F", "/product/a/b"]
)
def test_other_addresses_under_product_are_not_found(client: TestClient, shell: Path, path: str) -> None:
    """They fell through to the static pages: a bare shell (200) the app then hydrated as a product."""
    response = client.get(path, follow_redirects=False)

    assert response.status_code == 404
    assert '<meta name="robots" content="noindex">' in response.text
