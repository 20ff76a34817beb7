"""An empty cart's checkout is in the first HTML response (issue 18, acceptance 2: /checkout's
largest paint was the empty cart's text, drawn only once the page's state had come over the
websocket).

Against the real production build: a guest without a cart, or with an empty one, gets the empty
cart's view in the HTML (``api/checkout_page.py``); a cart with lines, or a signed-in browser,
gets the loading shapes as before (the page's state decides). In Chromium the view sent stays,
the same nodes, once the state has arrived (no console error, no layout shift, desktop and
phone), and is there when the websocket never connects; where React draws the view itself
(``pages/checkout._empty``), it is node for node the server's.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from shop_app.domain.messages import CartMessage, DisplayText
from tests.e2e.conftest import EXPECT_TIMEOUT_MS
from tests.e2e.dom_trees import LAYOUT_SHIFT_JS, SENT_TREE_JS, TREE_JS, first_difference, record_error
from tests.e2e.helpers import demo_id, with_sibling_scent

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MAX_LAYOUT_SHIFT = 0.02  # issue 18's budget (CLS)
EMPTY = CartMessage.EMPTY_CHECKOUT.value
LOADING = f'aria-label="{DisplayText.LOADING_CHECKOUT.value}"'
_REGION = re.compile(r'<div id="first-view-checkout-empty" class="first-view">.*?</a></div></div>')
_KEEP_SENT_JS = """
document.addEventListener("DOMContentLoaded", () => {
  window.__sentView = document.querySelector("#first-view-checkout-empty .checkout-empty");
});
"""


def _checkout_html(shop_url: str, cookies: dict[str, str] | None = None) -> str:
    response = httpx.get(f"{shop_url}/checkout", cookies=cookies, timeout=30)
    assert response.status_code == 200
    return response.text


def test_a_guest_without_a_cart_gets_the_empty_cart_in_the_html(shop_url: str) -> None:
    for cookies in (None, {"cart": uuid.uuid4().hex}):  # a new visitor; a token with no cart yet
        body = _checkout_html(shop_url, cookies)
        assert f">{EMPTY}</h1>" in body
        assert DisplayText.EMPTY_CHECKOUT_HINT.value in body
        assert re.search(r'<a [^>]*href="/shop"[^>]*>Browse Products</a>', body)
        assert LOADING not in body and ">Checkout</h1>" not in body


def test_a_cart_with_lines_or_a_customer_gets_the_shapes_until_the_state_tells(
    shop_url: str, page: Page
) -> None:
    body = _checkout_html(shop_url, {"shop_session": "x" * 43})  # a customer's cart: the state tells
    assert LOADING in body and EMPTY not in body

    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    body = page.request.get(f"{shop_url}/checkout").text()  # the browser's cart cookie: one line
    assert LOADING in body and EMPTY not in body


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_empty_cart_sent_stays_as_it_is_when_the_state_arrives(
    shop_url: str, page: Page, viewport: dict[str, int]
) -> None:
    """The same nodes, unmoved: React drawing them again would make a later largest paint."""
    page.set_viewport_size(viewport)
    errors: list[str] = []
    page.on("console", lambda message: record_error(errors, message))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(_KEEP_SENT_JS)

    page.goto(f"{shop_url}/checkout")
    expect(page.locator("[data-cart-loaded=true]")).to_have_count(1, timeout=EXPECT_TIMEOUT_MS)
    shift = page.evaluate(LAYOUT_SHIFT_JS)

    assert page.evaluate("window.__sentView?.isConnected === true"), "the view sent is still shown"
    expect(page.get_by_role("heading", name=EMPTY, level=1)).to_be_visible()
    expect(page.get_by_role("status", name=DisplayText.LOADING_CHECKOUT.value)).to_have_count(0)
    assert shift <= MAX_LAYOUT_SHIFT
    assert errors == []
    page.get_by_role("link", name="Browse Products").click()
    expect(page).to_have_url(re.compile(r"/shop$"))


def test_react_draws_the_empty_cart_as_the_server_sends_it(shop_url: str, page: Page) -> None:
    """Where the server cannot tell (here a stale session cookie: a customer's cart, it assumes),
    React draws the empty cart once the state says so: node for node the server's view."""
    sent = _REGION.search(_checkout_html(shop_url))
    assert sent
    page.context.add_cookies([{"name": "shop_session", "value": "x" * 43, "url": shop_url}])
    page.goto(f"{shop_url}/checkout")
    drawn = page.locator(".checkout-empty")
    expect(drawn.get_by_role("heading", name=EMPTY, level=1)).to_be_visible(timeout=EXPECT_TIMEOUT_MS)
    expect(page.locator("#first-view-checkout-empty")).to_have_count(0)  # React's own view

    react: Any = drawn.evaluate(TREE_JS)
    server = page.evaluate(SENT_TREE_JS, sent[0])[3][0]  # the region's one child
    assert react == server, first_difference(react, server, "empty cart")


def test_the_empty_cart_shows_without_a_websocket(shop_url: str, page: Page) -> None:
    page.route_web_socket(re.compile(r"/_event/"), lambda _ws: None)  # the state never arrives
    page.goto(f"{shop_url}/checkout")

    expect(page.get_by_role("heading", name=EMPTY, level=1)).to_be_visible()
    expect(page.get_by_text(DisplayText.EMPTY_CHECKOUT_HINT.value)).to_be_visible()
    expect(page.get_by_role("status", name=DisplayText.LOADING_CHECKOUT.value)).to_have_count(0)
