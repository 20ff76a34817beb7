"""What search engines and link previews read: product ``<head>`` tags and the sitemap.

Reflex serves ``/product/[id]`` as an empty SPA shell (docs/architecture.md#stack), so the API layer answers
product URLs itself with the build's shell plus the tags built here. Everything in this module
is pure text building except :func:`active_product_ids_with_lastmod`; nothing imports Reflex.

Escaping: every text that reaches HTML goes through :func:`html.escape` (quotes included), and
the JSON-LD is serialised with ``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e`` and
``\\u0026`` so no product text can close the ``<script>`` element it sits in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from html import escape
from typing import Any, Final
from urllib.parse import urljoin, urlsplit
from xml.sax.saxutils import escape as xml_escape

from sqlmodel import Session, col, select

from shop_app import routes
from shop_app.domain.money import format_plain
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.text import description_preview
from shop_app.models import Product
from shop_app.services.catalog import ProductDetail, ShopPage
from shop_app.services.media import PRODUCT_CARD_SIZES, PRODUCT_PAGE_SIZES, srcset

META_DESCRIPTION_LIMIT: Final = 155
"""Characters of a meta description built from the product description."""
CURRENCY: Final = "CAD"
IN_STOCK: Final = "https://schema.org/InStock"
OUT_OF_STOCK: Final = "https://schema.org/OutOfStock"
NEW_CONDITION: Final = "https://schema.org/NewCondition"
NOT_FOUND_TITLE: Final = "Product Not Found"
SITEMAP_NAMESPACE: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
SITEMAP_BATCH: Final = 1000
"""Rows fetched per round trip while streaming product ids for the sitemap."""

PUBLIC_STATIC_PATHS: Final[tuple[str, ...]] = (
    routes.HOME,
    routes.SHOP,
    routes.ABOUT,
    routes.FAQ,
    routes.REVIEWS,
    routes.CONTACT,
    routes.CUSTOM_ORDERS,
    routes.CUSTOM_CREATOR,
)
"""The static public pages the sitemap lists (no account, cart, checkout or admin pages)."""

NOT_FOR_CRAWLERS: Final[tuple[str, ...]] = (
    "/admin",
    "/account",
    routes.CHECKOUT,
    routes.ORDER_SUCCESS,
    routes.RESET_PASSWORD,
    "/newsletter/",
    "/api/",
    "/_square/",
)
"""Paths robots.txt keeps search engines out of: private, per-shopper or machine pages."""


def robots_txt(site_url: str) -> str:
    """The shop's robots.txt: everything but :data:`NOT_FOR_CRAWLERS`, and where the sitemap is.

    Examples:
        >>> print(robots_txt("https://shop.example").splitlines()[-1])
        Sitemap: https://shop.example/sitemap.xml
    """
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in NOT_FOR_CRAWLERS)]
    return "\n".join([*lines, "", f"Sitemap: {site_url.rstrip('/')}/sitemap.xml"]) + "\n"


_JSON_SCRIPT_ESCAPES: Final = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
_TITLE = re.compile(r"<title\b[^>]*>.*?</title\s*>", re.IGNORECASE | re.DOTALL)
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
_HEAD_START = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
# A page's own description and Open Graph tags (a built page's, which product_head replaces).
_PAGE_META = re.compile(
    r"<meta\b(?=[^>]*\b(?:name=\"description\"|property=\"og:[^\"]*\"))[^>]*>", re.IGNORECASE
)
_HTML_START = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_BODY_START = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


# --- product pages -------------------------------------------------------------------------


def absolute_url(site_url: str, url: str) -> str | None:
    """Return ``url`` made absolute against ``site_url``, or None unless it is http(s).

    Same-origin paths such as ``/media/products/x.webp`` are joined to the site's origin;
    absolute http(s) URLs (a CDN) are kept as they are.
    """
    joined = urljoin(f"{site_url.rstrip('/')}/", url.strip())
    parts = urlsplit(joined)
    return joined if parts.scheme in {"http", "https"} and parts.netloc else None


def product_title(detail: ProductDetail, *, brand: str) -> str:
    """The product page's title: ``"{name} | {brand}"`` (just the name without a brand)."""
    brand = brand.strip()
    return f"{detail.name} | {brand}" if brand else detail.name


def product_description(detail: ProductDetail) -> str:
    """The meta description: the SEO description if set, else a preview of the description."""
    text = " ".join(detail.seo_description.split()) or description_preview(
        detail.description, limit=META_DESCRIPTION_LIMIT
    )
    return text or detail.name


def canonical_product_url(site_url: str, product_id: int) -> str:
    """The absolute canonical URL of a product page."""
    return f"{site_url.rstrip('/')}{routes.product_url(product_id)}"


def product_image_urls(detail: ProductDetail, *, site_url: str) -> list[str]:
    """Absolute URLs of the product's images, gallery order, without unusable ones."""
    urls = (absolute_url(site_url, image.url) for image in detail.images if image.url.strip())
    return [url for url in urls if url]


def product_json_ld(detail: ProductDetail, *, site_url: str, brand: str) -> dict[str, Any]:
    """schema.org ``Product`` data of a product page (price in CAD, availability from stock)."""
    url = canonical_product_url(site_url, detail.id)
    price_cents = display_price_cents(detail.base_price_cents, detail.sale_price_cents)
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": detail.name,
        "description": " ".join(detail.description.split()) or product_description(detail),
        "url": url,
    }
    images = product_image_urls(detail, site_url=site_url)
    if images:
        data["image"] = images
    if detail.category_name:
        data["category"] = detail.category_name
    if brand.strip():
        data["brand"] = {"@type": "Organization", "name": brand.strip()}
    data["offers"] = {
        "@type": "Offer",
        "price": format_plain(price_cents),
        "priceCurrency": CURRENCY,
        "availability": IN_STOCK if detail.stock_quantity > 0 else OUT_OF_STOCK,
        "itemCondition": NEW_CONDITION,
        "url": url,
    }
    return data


def json_for_script(data: Any) -> str:
    """Serialise ``data`` as JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_JSON_SCRIPT_ESCAPES)


def _meta(attribute: str, key: str, content: str) -> str:
    return f'<meta {attribute}="{escape(key)}" content="{escape(content)}">'


def product_head(detail: ProductDetail, *, site_url: str, brand: str) -> str:
    """The ``<head>`` tags of a product page, except ``<title>`` (see :func:`inject_head`).

    Meta description, canonical link, Open Graph and Twitter card tags, a preload of the main
    image and a schema.org ``Product`` in JSON-LD. The title to pass along is :func:`product_title`.
    """
    title = product_title(detail, brand=brand)
    description = product_description(detail)
    url = canonical_product_url(site_url, detail.id)
    images = product_image_urls(detail, site_url=site_url)
    tags = [
        _meta("name", "description", description),
        f'<link rel="canonical" href="{escape(url)}">',
        _meta("property", "og:type", "product"),
        _meta("property", "og:title", title),
        _meta("property", "og:description", description),
        _meta("property", "og:url", url),
    ]
    if brand.strip():
        tags.append(_meta("property", "og:site_name", brand.strip()))
    if images:
        alt = detail.images[0].alt or detail.name
        tags += [_meta("property", "og:image", images[0]), _meta("property", "og:image:alt", alt)]
    tags += [
        _meta("name", "twitter:card", "summary_large_image" if images else "summary"),
        _meta("name", "twitter:title", title),
        _meta("name", "twitter:description", description),
    ]
    if images:
        tags.append(_meta("name", "twitter:image", images[0]))
    if detail.images:
        tags.append(main_image_preload(detail))
    json_ld = json_for_script(product_json_ld(detail, site_url=site_url, brand=brand))
    tags.append(f'<script type="application/ld+json">{json_ld}</script>')
    return "\n".join(tags)


def main_image_preload(detail: ProductDetail) -> str:
    """A preload of the gallery's first image, with the ``srcset``/``sizes`` the page gives it.

    The page draws its gallery once its state has arrived over the websocket; preloaded from the
    head, the picture is already there by then (Lighthouse, mobile: the image request waited
    2.5 s for the scripts). The same candidates and sizes as the ``<img>`` (pages/product.py), so
    the browser reuses what it fetched.
    """
    image = detail.images[0]
    return image_preload(image.url, image.width, sizes=PRODUCT_PAGE_SIZES)


def shop_first_image_preload(page: ShopPage) -> str:
    """A preload of the first card's image of a shop page ("" when it has none).

    The shop page draws its cards once its state has arrived over the websocket; the first card's
    image is the page's largest paint on a phone. Same candidates and sizes as the card's
    ``<img>`` (components/product_card.py), which shows the variation the card starts on.
    """
    card = page.cards[0] if page.cards else None
    first = card.variations[card.shown_index] if card and card.variations else None
    if first is None or not first.image_url:
        return ""
    return image_preload(first.image_url, first.image_width, sizes=PRODUCT_CARD_SIZES)


def image_preload(url: str, width: int | None, *, sizes: str) -> str:
    """``<link rel="preload" as="image">`` for a stored image, with its renditions when known."""
    attrs = f'rel="preload" as="image" href="{escape(url)}" fetchpriority="high"'
    candidates = srcset(url, width)
    if candidates:
        attrs += f' imagesrcset="{escape(candidates)}" imagesizes="{escape(sizes)}"'
    return f"<link {attrs}>"


def not_found_title(*, brand: str) -> str:
    """The title of the answer to an unknown product id."""
    brand = brand.strip()
    return f"{NOT_FOUND_TITLE} | {brand}" if brand else NOT_FOUND_TITLE


def not_found_head() -> str:
    """The ``<head>`` tags of the answer to an unknown product id: keep it out of indexes."""
    return '<meta name="robots" content="noindex">'


# --- HTML documents ------------------------------------------------------------------------


def add_head_tags(html: str, head_html: str) -> str:
    """Put ``head_html`` just before ``</head>`` (unchanged without one, or with nothing to add)."""
    end = _HEAD_END.search(html)
    if end is None or not head_html:
        return html
    return f"{html[: end.start()]}{head_html}\n{html[end.start() :]}"


def without_page_meta(html: str) -> str:
    """``html`` without the description and Open Graph tags of its ``<head>`` (a built page's
    generic ones, before :func:`product_head`'s are put in; the body is left alone)."""
    end = _HEAD_END.search(html)
    if end is None:
        return html
    return _PAGE_META.sub("", html[: end.start()]) + html[end.start() :]


def inject_head(shell_html: str, *, title: str, head_html: str) -> str:
    """Put ``title`` and ``head_html`` into the ``<head>`` of an HTML document.

    Only the head is touched (an SVG ``<title>`` in the body stays): its first ``<title>``
    element is replaced (any attributes, any case) and further ones dropped; without one a new
    ``<title>`` is added. The tags go just before ``</head>``; a document without one gets them
    right after ``<head …>``, then after ``<html …>``, and as a last resort in front of
    everything. ``title`` is plain text and is escaped here; ``head_html`` goes in as it is.
    """
    title_tag = f"<title>{escape(title, quote=False)}</title>"
    end = _HEAD_END.search(shell_html) or _BODY_START.search(shell_html)
    split = end.start() if end else len(shell_html)
    head, rest = shell_html[:split], shell_html[split:]
    if _TITLE.search(head):
        head, block = _replace_titles(head, title_tag), f"{head_html}\n"
    else:
        block = f"{title_tag}\n{head_html}\n"
    if end is not None and _HEAD_END.match(rest):
        return f"{head}{block}{rest}"
    for opening in (_HEAD_START, _HTML_START):
        if start := opening.search(head):
            return f"{head[: start.end()]}{block}{head[start.end() :]}{rest}"
    return f"{block}{head}{rest}"


def _replace_titles(html: str, title_tag: str) -> str:
    """Put ``title_tag`` in place of the first ``<title>`` and drop any further ones."""
    first = True

    def _swap(_match: re.Match[str]) -> str:
        nonlocal first
        keep, first = first, False
        return title_tag if keep else ""

    return _TITLE.sub(_swap, html)


def fallback_page(*, title: str, head_html: str, heading: str) -> str:
    """A minimal, valid HTML page with the given head, for when no frontend build exists."""
    shell = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n</head>\n'
        f"<body>\n<h1>{escape(heading, quote=False)}</h1>\n"
        f'<p><a href="{escape(routes.SHOP)}">Back to Shop</a></p>\n</body>\n</html>\n'
    )
    return inject_head(shell, title=title, head_html=head_html)


# --- sitemap ---------------------------------------------------------------------------------


def w3c_datetime(moment: datetime) -> str:
    """``moment`` in W3C Datetime format, in UTC (a naive datetime is taken as UTC)."""
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def iter_sitemap_xml(
    site_url: str, static_paths: Iterable[str], products: Iterable[tuple[int, datetime | None]]
) -> Iterator[str]:
    """The sitemap document in pieces: the static pages, then one ``<url>`` per product."""
    origin = site_url.rstrip("/")
    yield f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NAMESPACE}">\n'
    for path in static_paths:
        yield f"<url><loc>{xml_escape(origin + path)}</loc></url>\n"
    for product_id, updated_at in products:
        loc = xml_escape(canonical_product_url(origin, product_id))
        lastmod = f"<lastmod>{w3c_datetime(updated_at)}</lastmod>" if updated_at else ""
        yield f"<url><loc>{loc}</loc>{lastmod}</url>\n"
    yield "</urlset>\n"


def sitemap_xml(
    site_url: str, static_paths: Iterable[str], products: Iterable[tuple[int, datetime | None]]
) -> str:
    """The sitemap (sitemaps.org 0.9) of the static pages and the given products."""
    return "".join(iter_sitemap_xml(site_url, static_paths, products))


def active_product_ids_with_lastmod(session: Session) -> Iterator[tuple[int, datetime | None]]:
    """Every active, listed product's id and last change, by id, streamed in batches.

    Consume the iterator while ``session`` is open.
    """
    rows = session.execute(
        select(col(Product.id), col(Product.updated_at))
        .where(col(Product.is_active), col(Product.is_listed))
        .order_by(col(Product.id))
        .execution_options(yield_per=SITEMAP_BATCH)
    )
    yield from rows
