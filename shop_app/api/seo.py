"""Server-rendered product pages, the shop and home pages' first cards, and the sitemap.

Reflex has no page of its own for ``/product/[id]`` (a route with a parameter). The build
prerenders the product page for no product (``frontend_build.PRODUCT_TEMPLATE_FILE``); this
route, mounted in front of Reflex through ``api_transformer``, answers every product's address
with that page, its head holding the product's title, description, canonical link, Open Graph
tags and JSON-LD (``services.seo``) and its first view the product itself
(``api/first_view.product_html``); the browser then hydrates the app as usual. Unknown,
archived or malformed ids get the SPA shell with ``noindex`` and status 404, and the app shows
its "Product Not Found" view.

Without a production build (``reflex run`` in development) there is no shell file; the route
then answers a minimal HTML page with the same head, so it never fails.

``/shop`` (and ``/shop/``) is answered with its prerendered page holding the first page of cards
for the URL's filters and search (``api/first_view.py``), and a preload of the first card's image
(on a phone the page's largest paint); ``/`` likewise with its featured cards.
"""

from __future__ import annotations

import gzip
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from reflex_base import constants
from reflex_base.environment import environment
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from shop_app.api import first_view
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.frontend_build import PRODUCT_TEMPLATE_FILE
from shop_app.services import seo
from shop_app.services.catalog import ShopQuery, featured_cards, get_product
from shop_app.services.catalog import shop_page as shop_listing
from shop_app.services.catalog.card_views import card_views
from shop_app.services.catalog.product_view import product_view
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import PROJECT_ROOT, get_settings

SITEMAP_MEDIA_TYPE = "application/xml"
PAGE_CACHE_CONTROL = "no-cache"  # prices and stock change; let caches revalidate
SITEMAP_CACHE_CONTROL = "public, max-age=3600"


def spa_shell_path() -> Path:
    """Where the production build's SPA fallback page is (``.web/build/client/__spa-fallback.html``).

    The web directory is Reflex's own (``REFLEX_WEB_WORKDIR``, default ``.web``); a relative one
    is taken from the project root, where ``reflex run`` works. Tests monkeypatch this function.
    """
    web_dir = environment.REFLEX_WEB_WORKDIR.get()
    if not web_dir.is_absolute():
        web_dir = PROJECT_ROOT / web_dir
    return web_dir / constants.Dirs.STATIC / constants.ReactRouter.SPA_FALLBACK


@dataclass(frozen=True, slots=True)
class _CachedPage:
    path: Path
    stamp: tuple[int, int]  # (mtime_ns, size)
    html: str


_cache_lock = threading.Lock()
_built_pages: dict[Path, _CachedPage] = {}  # one in-memory copy per process and file


def read_built_page(path: Path) -> str | None:
    """A built page's HTML, read again only when the file changes; None without a build."""
    try:
        stat = path.stat()
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached = _built_pages.get(path)
    if cached is not None and cached.stamp == stamp:
        return cached.html
    try:
        html = path.read_text(encoding="utf-8")
    except OSError:
        return None
    with _cache_lock:
        _built_pages[path] = _CachedPage(path, stamp, html)
    return html


def read_spa_shell() -> str | None:
    """The SPA shell's HTML; None without a build."""
    return read_built_page(spa_shell_path())


def shop_page_path() -> Path:
    """The prerendered /shop page of the production build (beside the SPA shell)."""
    return spa_shell_path().parent / "shop" / "index.html"


def home_page_path() -> Path:
    """The prerendered home page of the production build."""
    return spa_shell_path().parent / "index.html"


def product_template_path() -> Path:
    """The product page prerendered for no product (``frontend_build.PRODUCT_TEMPLATE_FILE``,
    beside the served folder)."""
    return spa_shell_path().parent.parent / PRODUCT_TEMPLATE_FILE


def _page(*, title: str, head_html: str, heading: str) -> str:
    shell = read_spa_shell()
    if shell is None:
        return seo.fallback_page(title=title, head_html=head_html, heading=heading)
    return seo.inject_head(shell, title=title, head_html=head_html)


def _parse_id(raw: str) -> int | None:
    """A product id from the URL: ASCII digits only, within the id column's range."""
    return validation.parse_id(raw)


def _product_page(raw_id: str) -> tuple[int, str]:
    """Status and HTML of a product URL (blocking: runs in a worker thread)."""
    site_url = get_settings().site_url
    product_id = _parse_id(raw_id)
    with session_scope() as session:
        brand = get_store_settings(session).company_name
        detail = get_product(session, product_id) if product_id is not None else None
    if detail is None:
        html = _page(
            title=seo.not_found_title(brand=brand),
            head_html=seo.not_found_head(),
            heading=seo.NOT_FOUND_TITLE,
        )
        return 404, html
    title = seo.product_title(detail, brand=brand)
    head_html = seo.product_head(detail, site_url=site_url, brand=brand)
    template = read_built_page(product_template_path())
    if template is None:  # a build without the template: the app draws the product itself
        return 200, _page(title=title, head_html=head_html, heading=detail.name)
    html = seo.inject_head(seo.without_page_meta(template), title=title, head_html=head_html)
    html = first_view.fill(html, "product", first_view.product_html(product_view(detail)))
    return 200, first_view.with_brand(html, brand)


async def product_page(request: Request) -> Response:
    """GET /product/{id}: the app's shell with the product's head (404 for unknown ids)."""
    status, html = await run_in_threadpool(_product_page, request.path_params["id"])
    return html_response(request, status, html)


async def product_page_with_slash(request: Request) -> Response:
    """GET /product/{id}/: a permanent redirect to the product's one address (without the slash,
    the page's canonical link), where its first view and head are; the query is kept."""
    target = f"/product/{quote(request.path_params['id'], safe='')}"
    if request.url.query:
        target += f"?{request.url.query}"
    return RedirectResponse(target, status_code=308)


async def product_page_not_found(request: Request) -> Response:
    """Any other address under /product/ (``//1``, ``1//``, an encoded ``/..``): the app's
    "Product Not Found", status 404; it fell through to the static pages (a bare shell, or
    another page's HTML that the app then hydrated as a product page)."""
    status, html = await run_in_threadpool(_product_page, "")
    return html_response(request, status, html)


def _shop_page(params: dict[str, str]) -> str | None:
    """The prerendered /shop page with its first card's image preloaded (blocking)."""
    html = read_built_page(shop_page_path())
    if html is None:
        return None
    query = ShopQuery(
        category=params.get("category") or None,
        subcategory=params.get("subcategory") or None,
        search=params.get("search", "").strip() or None,
    )  # what ShopState.load asks for on a first visit (grouped, first page)
    with session_scope() as session:
        page = shop_listing(session, query)
        html = first_view.with_brand(html, get_store_settings(session).company_name)
    if page.total > 0:  # else the page's own empty state comes with its state
        cards = first_view.grid_html(card_views(card)[0] for card in page.cards)
        html = first_view.fill(html, "shop-cards", cards)
    return seo.add_head_tags(html, seo.shop_first_image_preload(page))


async def shop_page(request: Request) -> Response:
    """GET /shop (``/shop/``): the prerendered page with its first cards, the first image preloaded.

    Without a production build: 404, as before.
    """
    html = await run_in_threadpool(_shop_page, dict(request.query_params))
    if html is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    return html_response(request, 200, html)


def _home_page() -> str | None:
    """The prerendered home page with its featured cards (blocking)."""
    html = read_built_page(home_page_path())
    if html is None:
        return None
    with session_scope() as session:
        cards = featured_cards(session)
        html = first_view.with_brand(html, get_store_settings(session).company_name)
    if not cards:  # the page's own "will appear here" text comes with its state
        return html
    return first_view.fill(html, "home-cards", first_view.grid_html(card_views(card)[0] for card in cards))


async def home_page(request: Request) -> Response:
    """GET /: the prerendered home page with its featured cards. Without a production build: 404."""
    html = await run_in_threadpool(_home_page)
    if html is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    return html_response(request, 200, html)


def html_response(request: Request, status: int, html: str) -> Response:
    """An HTML page that must be revalidated, gzipped when the browser accepts it (as Reflex's)."""
    headers = {"Cache-Control": PAGE_CACHE_CONTROL, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(html.encode("utf-8"), compresslevel=6)
        headers["Content-Encoding"] = "gzip"
        return Response(body, status_code=status, media_type="text/html", headers=headers)
    return HTMLResponse(html, status_code=status, headers=headers)


def _sitemap() -> str:
    """The sitemap document (blocking: runs in a worker thread)."""
    site_url = get_settings().site_url
    with session_scope() as session:
        return seo.sitemap_xml(
            site_url, seo.PUBLIC_STATIC_PATHS, seo.active_product_ids_with_lastmod(session)
        )


async def robots(_request: Request) -> Response:
    """GET /robots.txt: crawl the storefront, not the back office, accounts or checkout; the sitemap."""
    body = seo.robots_txt(get_settings().site_url)
    return Response(
        body, media_type="text/plain; charset=utf-8", headers={"Cache-Control": SITEMAP_CACHE_CONTROL}
    )


async def sitemap(_request: Request) -> Response:
    """GET /sitemap.xml: the static public pages and every active product."""
    body = await run_in_threadpool(_sitemap)
    return Response(body, media_type=SITEMAP_MEDIA_TYPE, headers={"Cache-Control": SITEMAP_CACHE_CONTROL})
