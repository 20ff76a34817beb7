"""``/checkout`` with an empty cart's view in its first HTML response, when the request shows one.

The checkout is prerendered with the shapes of its form and summary, and shows them until the
tab's cart has arrived over the websocket. With an empty cart the page then became "Your Cart is
Empty", the page's largest paint, about 3 s into a phone's first visit (Lighthouse; issue 18,
acceptance 2). The server can tell an empty cart for most such visits from the request alone:

- a browser without a session cookie is a guest, whose cart is found by the ``cart`` cookie
  (``domain.cart_cookie``): no token, or a token whose cart has no line, is an empty cart;
- a signed-in browser's cart is the customer's; that is left to the page's state (the shapes, as
  before), so the server never guesses wrong for a customer.

For an empty cart the loading shapes (``pages/checkout.LOADING_ID``) are swapped for the page's
first-view region holding the empty cart's view, the markup ``pages/checkout._empty`` renders
(``tests/e2e/test_checkout_first_view.py`` compares the two node for node). React keeps that
region while it hydrates (``components/first_view.py``, ``prerendered=False``) and draws its own
identical view once the state has arrived; should the cart have changed meanwhile (another tab),
the state's cart wins, as it always did. The page's scripts then start after its first paint, as
``/`` and ``/shop``'s (``frontend_build.start_app_after_first_paint``). Every answer has the
shop's name in its header (``first_view.with_brand``), as those pages do.

Without a production build (``reflex run`` in development) there is no built page: 404 lets
Reflex's own server answer, as for the other server-rendered pages.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from shop_app import routes
from shop_app.api import first_view, seo
from shop_app.db import session_scope
from shop_app.domain.cart_cookie import cart_token_from_header, cookie_value
from shop_app.domain.messages import CartMessage, DisplayText
from shop_app.frontend_build import start_app_after_first_paint
from shop_app.services.cart import CartOwner, view_cart
from shop_app.services.catalog.card_views import FIRST_VIEW_ID_PREFIX
from shop_app.services.sessions import COOKIE_NAME as SESSION_COOKIE
from shop_app.services.store_settings import get_store_settings

EMPTY_SLOT = "checkout-empty"  # pages/checkout.EMPTY_SLOT
LOADING_ID = "checkout-loading"  # pages/checkout.LOADING_ID
_DIV = re.compile(r"<div\b|</div>")
_PRIVATE = "private, no-cache"


def checkout_page_path() -> Path:
    """The prerendered /checkout page of the production build."""
    return seo.spa_shell_path().parent / "checkout" / "index.html"


def empty_cart_html() -> str:
    """The empty cart's view, as ``pages/checkout._empty`` renders it."""
    heading = escape(CartMessage.EMPTY_CHECKOUT.value, quote=False)
    hint = escape(DisplayText.EMPTY_CHECKOUT_HINT.value, quote=False)
    return (
        '<div class="checkout-empty">'
        f'<h1 class="rt-Heading rt-r-size-7">{heading}</h1>'
        f'<p data-accent-color="gray" class="rt-Text">{hint}</p>'
        '<a data-accent-color="" class="rt-Text rt-reset rt-Link rt-underline-none rt-reset '
        f'rt-BaseButton rt-r-size-3 rt-variant-solid rt-Button" href="{routes.SHOP}" data-discover="true">'
        "Browse Products</a>"
        "</div>"
    )


def _element_span(html: str, element_id: str) -> tuple[int, int] | None:
    """Where the ``<div>`` of id ``element_id`` starts and ends in ``html`` (None: not there)."""
    marker = html.find(f' id="{element_id}"')
    start = html.rfind("<div", 0, marker)
    if marker < 0 or start < 0 or ">" in html[start:marker]:
        return None
    depth = 0
    for match in _DIV.finditer(html, start):
        depth += 1 if match[0] == "<div" else -1
        if depth == 0:
            return start, match.end()
    return None


def with_empty_cart(page_html: str) -> str:
    """``page_html`` with its loading shapes swapped for the empty cart's first-view region."""
    span = _element_span(page_html, LOADING_ID)
    if span is None:  # a build without them: the page as built
        return page_html
    region = f'<div id="{FIRST_VIEW_ID_PREFIX}{EMPTY_SLOT}" class="first-view">{empty_cart_html()}</div>'
    return start_app_after_first_paint(page_html[: span[0]] + region + page_html[span[1] :])


def _shows_empty_cart(session: Session, cookie_header: str) -> bool:
    """Whether the request is a guest's whose cart is empty."""
    if cookie_value(cookie_header, SESSION_COOKIE):
        return False  # a customer's cart: the page's state tells
    token = cart_token_from_header(cookie_header)
    return not token or not view_cart(session, CartOwner(token=token)).lines


def _checkout_page(cookie_header: str) -> str | None:
    """The page for this request (blocking: reads the database); None without a build."""
    html = seo.read_built_page(checkout_page_path())
    if html is None:
        return None
    with session_scope() as session:
        html = first_view.with_brand(html, get_store_settings(session).company_name)
        empty = _shows_empty_cart(session, cookie_header)
    return with_empty_cart(html) if empty else html


async def checkout_page(request: Request) -> Response:
    """GET /checkout (``/checkout/``): the prerendered checkout; an empty cart's view for an empty
    guest cart. Without a production build: 404, as for ``/shop``."""
    html = await run_in_threadpool(_checkout_page, request.headers.get("cookie", ""))
    if html is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    response = seo.html_response(request, 200, html)
    response.headers["Cache-Control"] = _PRIVATE  # drawn from this browser's cookies
    return response
