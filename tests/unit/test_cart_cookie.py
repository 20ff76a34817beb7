"""The cart cookie a browser gets with its first page (shop_app/api/cart_cookie.py,
shop_app/domain/cart_cookie.py): only pages carry it, only to a browser without a token, with the
attributes the shop's state writes, and never into a shared cache."""

from __future__ import annotations

import re
import warnings

import pytest
from starlette.applications import Starlette
from starlette.exceptions import StarletteDeprecationWarning
from starlette.middleware import Middleware
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route

from shop_app.api.cart_cookie import CartCookie
from shop_app.domain.cart_cookie import CART_COOKIE_MAX_AGE_S, cart_token_from_header

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

COOKIE = re.compile(rf"cart=([A-Za-z0-9_-]{{43}}); Path=/; Max-Age={CART_COOKIE_MAX_AGE_S}; SameSite=Lax")


def _client(*, secure: bool = False) -> TestClient:
    def page(_request):
        return HTMLResponse("<p>shop</p>", headers={"cache-control": "no-cache"})

    def private_page(_request):
        return HTMLResponse("<p>invoice</p>", headers={"cache-control": "no-store"})

    def missing(_request):
        return HTMLResponse("<p>Page not found</p>", status_code=404)

    app = Starlette(
        routes=[
            Route("/shop", page),
            Route("/gone", missing),
            Route("/invoice", private_page),
            Route("/api/health", lambda _r: JSONResponse({"ok": True})),
            Route("/assets/app.js", lambda _r: PlainTextResponse("js", media_type="text/javascript")),
        ],
        middleware=[Middleware(CartCookie, secure=secure)],
    )
    return TestClient(app, base_url="https://shop.example" if secure else "http://testserver")


def test_a_first_page_brings_a_new_token_privately() -> None:
    client = _client()
    first = client.get("/shop")

    token = COOKIE.fullmatch(first.headers["set-cookie"]).group(1)
    assert first.headers["cache-control"] == "private, no-cache"
    other = _client().get("/shop").headers["set-cookie"]
    assert token not in other  # each browser its own


def test_a_page_never_to_be_stored_stays_so() -> None:
    response = _client().get("/invoice")
    assert COOKIE.fullmatch(response.headers["set-cookie"])
    assert response.headers["cache-control"] == "private, no-store"


def test_a_browser_with_a_token_keeps_it_and_the_page_stays_cacheable() -> None:
    response = _client().get("/shop", headers={"cookie": "theme=light; cart=abc"})
    assert "set-cookie" not in response.headers
    assert response.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize("cookie", ["cart=", "mycart=abc", "cart=" + "x" * 200])
def test_an_empty_foreign_or_oversized_value_is_no_token(cookie: str) -> None:
    response = _client().get("/shop", headers={"cookie": cookie})
    assert COOKIE.fullmatch(response.headers["set-cookie"])


def test_the_not_found_page_brings_one_too_and_nothing_else_does() -> None:
    client = _client()
    assert COOKIE.fullmatch(client.get("/gone").headers["set-cookie"])
    for path in ("/api/health", "/assets/app.js"):
        assert "set-cookie" not in client.get(path).headers
    assert "set-cookie" not in client.head("/shop").headers


def test_an_https_shop_marks_it_secure() -> None:
    assert _client(secure=True).get("/shop").headers["set-cookie"].endswith("; SameSite=Lax; Secure")


def test_the_token_reads_back_as_the_state_reads_it() -> None:
    header = _client().get("/shop").headers["set-cookie"]
    token = COOKIE.fullmatch(header).group(1)
    assert cart_token_from_header(f"theme=dark; {header.split(';')[0]}") == token


@pytest.mark.parametrize(
    "others", ['consent={"ads":false}', "pref=a b", "name=\u00e9t\u00e9", "path=C:\\\\shop", 'quote="half']
)
def test_another_cookie_python_cannot_parse_leaves_the_token_alone(others: str) -> None:
    """A stranger's consent cookie holding JSON made every page replace the cart token."""
    header = f"{others}; cart=abc; theme=dark"
    assert cart_token_from_header(header) == "abc"
    response = _client().get("/shop", headers={"cookie": header.encode()})  # as a browser sends UTF-8
    assert "set-cookie" not in response.headers
