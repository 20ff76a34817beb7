"""Product heads, HTML injection and the sitemap (services.seo)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from html.parser import HTMLParser

import pytest

from shop_app.services import seo
from shop_app.services.catalog import Image, ProductDetail

SITE = "https://shop.example"
BRAND = "Cedar & Ember Candle Co."
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def _detail(**changes: object) -> ProductDetail:
    base = ProductDetail(
        id=7,
        name="8oz Amber Soy Candle - Lavender Fields",
        group_title="8oz Amber Soy Candle",
        description="Hand-poured soy wax with lavender and a cotton wick.",
        base_price_cents=2800,
        sale_price_cents=None,
        stock_quantity=5,
        is_new=False,
        is_featured=False,
        scent="Lavender Fields",
        vessel="Amber",
        category_name="Candles",
        category_slug="candles",
        subcategory_name="",
        subcategory_slug="",
        images=(Image("/media/products/lavender.webp", "Amber jar"), Image("/media/products/b.webp", "")),
        details={},
        scent_notes=(),
        ingredients=(),
        care_instructions="",
        option_scents=(),
        pricing={},
    )
    return replace(base, **changes)


class _HeadParser(HTMLParser):
    """Collects meta/link attributes, the title and script bodies of a document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.metas: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.titles: list[str] = []
        self._in: str | None = None
        self._attrs: dict[str, str | None] = {}
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "meta":
            key = values.get("name") or values.get("property")
            if key:
                self.metas[key] = values.get("content") or ""
        elif tag == "link" and values.get("rel"):
            self.links[values["rel"] or ""] = values.get("href") or ""
        elif tag in {"script", "title"}:
            self._in, self._attrs, self._text = tag, values, []

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in == "script":
            self.scripts.append((self._attrs, "".join(self._text)))
        elif tag == self._in == "title":
            self.titles.append("".join(self._text))
        if tag == self._in:
            self._in = None


def _parse(html: str) -> _HeadParser:
    parser = _HeadParser()
    parser.feed(html)
    parser.close()
    return parser


def _json_ld(html: str) -> dict:
    blocks = [body for attrs, body in _parse(html).scripts if attrs.get("type") == "application/ld+json"]
    assert len(blocks) == 1
    return json.loads(blocks[0])


# --- product head ----------------------------------------------------------------------------


def test_product_head_has_description_canonical_open_graph_and_twitter_tags() -> None:
    head = _parse(seo.product_head(_detail(), site_url=SITE, brand=BRAND))

    assert head.metas["description"] == "Hand-poured soy wax with lavender and a cotton wick."
    assert head.links["canonical"] == "https://shop.example/product/7"
    assert head.metas["og:type"] == "product"
    assert head.metas["og:title"] == "8oz Amber Soy Candle - Lavender Fields | Cedar & Ember Candle Co."
    assert head.metas["og:description"] == head.metas["description"]
    assert head.metas["og:url"] == "https://shop.example/product/7"
    assert head.metas["og:image"] == "https://shop.example/media/products/lavender.webp"
    assert head.metas["twitter:card"] == "summary_large_image"
    assert head.titles == []  # the title travels separately, through inject_head


def test_product_title_is_name_and_brand() -> None:
    assert seo.product_title(_detail(), brand=BRAND) == f"8oz Amber Soy Candle - Lavender Fields | {BRAND}"
    assert seo.product_title(_detail(), brand="  ") == "8oz Amber Soy Candle - Lavender Fields"


def test_seo_description_wins_over_the_description() -> None:
    head = _parse(seo.product_head(_detail(seo_description="  Best  candle. "), site_url=SITE, brand=BRAND))

    assert head.metas["description"] == "Best candle."


def test_long_descriptions_are_cut_to_a_preview() -> None:
    detail = _detail(description="word " * 100)

    description = _parse(seo.product_head(detail, site_url=SITE, brand=BRAND)).metas["description"]

    assert len(description) <= seo.META_DESCRIPTION_LIMIT
    assert description.endswith("…")


def test_quotes_and_angle_brackets_are_escaped_everywhere() -> None:
    evil = "\"><script>alert('x')</script>"
    detail = _detail(name=f"Candle {evil}", description=f"Smells {evil} & </script><b>", seo_description="")

    html = seo.product_head(detail, site_url=SITE, brand=f"Brand {evil}")

    assert "<script>alert" not in html
    assert html.count("</script>") == 1  # only the JSON-LD element's own end tag
    assert html.count("<script") == 1
    head = _parse(html)
    assert head.metas["og:title"] == f"Candle {evil} | Brand {evil}"
    assert head.metas["description"] == f"Smells {evil} & </script><b>"
    data = _json_ld(html)
    assert data["name"] == f"Candle {evil}"
    assert data["description"] == f"Smells {evil} & </script><b>"
    assert data["brand"] == {"@type": "Organization", "name": f"Brand {evil}"}


def test_json_ld_writes_angle_brackets_and_ampersands_as_unicode_escapes() -> None:
    text = seo.json_for_script({"a": "</script><!-- & \u2028"})

    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    assert "\\u003c/script\\u003e" in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028"}


def test_json_ld_is_a_schema_org_product_with_an_offer_in_cad() -> None:
    data = _json_ld(seo.product_head(_detail(), site_url=SITE, brand=BRAND))

    assert data["@context"] == "https://schema.org"
    assert data["@type"] == "Product"
    assert data["name"] == "8oz Amber Soy Candle - Lavender Fields"
    assert data["image"] == [
        "https://shop.example/media/products/lavender.webp",
        "https://shop.example/media/products/b.webp",
    ]
    assert data["brand"] == {"@type": "Organization", "name": BRAND}
    assert data["offers"] == {
        "@type": "Offer",
        "price": "28.00",
        "priceCurrency": "CAD",
        "availability": "https://schema.org/InStock",
        "itemCondition": "https://schema.org/NewCondition",
        "url": "https://shop.example/product/7",
    }


@pytest.mark.parametrize(
    ("base", "sale", "expected"),
    [
        (2800, None, "28.00"),
        (2800, 2250, "22.50"),  # a valid sale
        (2800, 2800, "28.00"),  # not below the base: no sale
        (2800, 3000, "28.00"),
        (123456, 5, "0.05"),
    ],
)
def test_offer_price_uses_the_sale_price_only_when_valid(base: int, sale: int | None, expected: str) -> None:
    detail = _detail(base_price_cents=base, sale_price_cents=sale)

    offer = seo.product_json_ld(detail, site_url=SITE, brand=BRAND)["offers"]

    assert offer["price"] == expected


def test_availability_follows_stock() -> None:
    offer = seo.product_json_ld(_detail(stock_quantity=0), site_url=SITE, brand=BRAND)["offers"]

    assert offer["availability"] == "https://schema.org/OutOfStock"


def test_products_without_images_have_no_image_tags() -> None:
    html = seo.product_head(_detail(images=()), site_url=SITE, brand=BRAND)

    head = _parse(html)
    assert "og:image" not in head.metas
    assert head.metas["twitter:card"] == "summary"
    assert "image" not in _json_ld(html)


def test_the_main_image_is_preloaded_with_the_gallery_candidates_and_sizes() -> None:
    stored = "/media/products/" + "c" * 32 + ".webp"

    plain = seo.product_head(_detail(), site_url=SITE, brand=BRAND)
    sized = seo.product_head(_detail(images=(Image(stored, "", width=1200),)), site_url=SITE, brand=BRAND)
    bare = seo.product_head(_detail(images=()), site_url=SITE, brand=BRAND)

    lavender = "/media/products/lavender.webp"
    assert f'<link rel="preload" as="image" href="{lavender}" fetchpriority="high">' in plain
    preload = re.search(r"<link rel=\"preload\"[^>]*>", sized).group(0)
    assert f'imagesrcset="{seo.srcset(stored, 1200)}"' in preload and "-640w.webp 640w" in preload
    assert f'imagesizes="{seo.PRODUCT_PAGE_SIZES}"' in preload
    assert 'rel="preload"' not in bare


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/media/products/x.webp", "https://shop.example/media/products/x.webp"),
        ("https://cdn.example/x.webp", "https://cdn.example/x.webp"),
        ("//cdn.example/x.webp", "https://cdn.example/x.webp"),
        ("javascript:alert(1)", None),
        ("data:image/png;base64,AAAA", None),
    ],
)
def test_image_urls_become_absolute_http_urls(url: str, expected: str | None) -> None:
    assert seo.absolute_url(SITE, url) == expected


def test_canonical_url_is_absolute_with_a_trailing_slash_in_site_url() -> None:
    assert seo.canonical_product_url("https://shop.example/", 12) == "https://shop.example/product/12"


def test_not_found_head_asks_not_to_index() -> None:
    head = _parse(seo.not_found_head())

    assert head.metas["robots"] == "noindex"
    assert seo.not_found_title(brand=BRAND) == f"Product Not Found | {BRAND}"


# --- inject_head -----------------------------------------------------------------------------

TAGS = '<meta name="description" content="x">'


def test_inject_head_replaces_an_existing_title() -> None:
    shell = (
        '<!DOCTYPE html><html><HEAD><Title data-x="1">Old</tITle ><meta charset="utf-8">'
        "</HEAD ><body></body></html>"
    )

    html = seo.inject_head(shell, title="New <&> title", head_html=TAGS)

    assert html == (
        '<!DOCTYPE html><html><HEAD><title>New &lt;&amp;&gt; title</title><meta charset="utf-8">'
        f"{TAGS}\n</HEAD ><body></body></html>"
    )


def test_inject_head_adds_a_title_when_there_is_none() -> None:
    shell = '<html lang="en">\n<head>\n  <meta charset="utf-8">\n</head>\n<body><p>x</p></body></html>'

    html = seo.inject_head(shell, title="Candle", head_html=TAGS)

    head = html[: html.index("</head>")]
    assert "<title>Candle</title>" in head
    assert TAGS in head
    assert html.endswith("</head>\n<body><p>x</p></body></html>")
    assert _parse(html).titles == ["Candle"]


def test_inject_head_leaves_titles_in_the_body_alone_and_drops_extra_head_titles() -> None:
    shell = (
        "<html><head><title>a</title><title>b</title></head>"
        "<body><svg><title>icon</title></svg></body></html>"
    )

    html = seo.inject_head(shell, title="T", head_html=TAGS)

    assert _parse(html).titles == ["T", "icon"]


def test_inject_head_without_a_closing_head_tag() -> None:
    assert seo.inject_head("<html><head><body></body></html>", title="T", head_html=TAGS) == (
        f"<html><head><title>T</title>\n{TAGS}\n<body></body></html>"
    )
    assert (
        seo.inject_head("<p>bare</p>", title="T", head_html=TAGS) == f"<title>T</title>\n{TAGS}\n<p>bare</p>"
    )


def test_inject_head_into_the_real_spa_shell_shape() -> None:
    shell = (
        '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><script>\nif (a < b) {}\n</script>'
        '<link href="/assets/x.css" rel="stylesheet"/></head><body><div id="root"></div></body></html>'
    )

    html = seo.inject_head(
        shell, title="Candle | Brand", head_html=seo.product_head(_detail(), site_url=SITE, brand=BRAND)
    )

    head, body = html.split("</head>")
    assert head.startswith('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>')
    assert '<link rel="canonical" href="https://shop.example/product/7">' in head
    assert body == '<body><div id="root"></div></body></html>'


def test_fallback_page_is_a_whole_document_with_the_head() -> None:
    html = seo.fallback_page(title="T <1>", head_html=seo.not_found_head(), heading="Product <Not> Found")

    assert html.startswith("<!DOCTYPE html>")
    parsed = _parse(html)
    assert parsed.titles == ["T <1>"]
    assert parsed.metas["robots"] == "noindex"
    assert "<h1>Product &lt;Not&gt; Found</h1>" in html


# --- sitemap ---------------------------------------------------------------------------------


def test_sitemap_lists_static_pages_then_products_with_lastmod() -> None:
    products = [
        (3, datetime(2025, 11, 2, 8, 30, 5, tzinfo=UTC)),
        (9, datetime(2025, 11, 2, 1, 0, tzinfo=timezone(timedelta(hours=-8)))),
        (10, datetime(2025, 1, 31, 23, 59, 59)),  # naive: taken as UTC
        (11, None),
    ]

    xml = seo.sitemap_xml("https://shop.example/", ["/", "/shop"], products)

    root = ET.fromstring(xml.encode())
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
    entries = [
        (url.findtext("s:loc", namespaces=SITEMAP_NS), url.findtext("s:lastmod", namespaces=SITEMAP_NS))
        for url in root.findall("s:url", SITEMAP_NS)
    ]
    assert entries == [
        ("https://shop.example/", None),
        ("https://shop.example/shop", None),
        ("https://shop.example/product/3", "2025-11-02T08:30:05+00:00"),
        ("https://shop.example/product/9", "2025-11-02T09:00:00+00:00"),
        ("https://shop.example/product/10", "2025-01-31T23:59:59+00:00"),
        ("https://shop.example/product/11", None),
    ]
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>')


def test_sitemap_escapes_the_site_url() -> None:
    xml = seo.sitemap_xml("https://shop.example/?a=1&b=<2>", ["/"], [])

    assert ET.fromstring(xml.encode()).findtext("s:url/s:loc", namespaces=SITEMAP_NS) == (
        "https://shop.example/?a=1&b=<2>/"
    )


def test_public_static_paths_are_the_storefront_pages() -> None:
    assert seo.PUBLIC_STATIC_PATHS == (
        "/",
        "/shop",
        "/about",
        "/faq",
        "/reviews",
        "/contact",
        "/custom-orders",
        "/custom-creator",
    )
