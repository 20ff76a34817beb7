"""GET /checkout answers an empty guest cart's view in its HTML, and the loading shapes otherwise.

The route runs through the real Starlette app (``create_api``) against the test database, with a
fake production build standing in for Reflex's prerendered checkout (``api/checkout_page.py``).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from shop_app.api import seo as seo_api
from shop_app.api.checkout_page import with_empty_cart
from shop_app.db import reset_engine
from shop_app.models import Product, StoreSettings
from shop_app.services.cart import CartOwner, add_item, new_token
from shop_app.settings import get_settings

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 package for its TestClient; httpx (installed) works alike.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

LOADING = (
    '<div class="rt-Grid" id="checkout-loading"><div><h1>Checkout</h1>'
    '<div role="status" aria-label="Loading your order"><div></div></div></div><div>summary</div></div>'
)
PAGE = (
    '<!DOCTYPE html><html lang="en"><head><title>Checkout</title></head><body><div id="app">'
    '<header><span id="first-view-brand" class="first-view-inline"></span></header>'
    f"<main><div>{LOADING}</div></main><footer>©</footer>"
    "</div></body></html>"
)
REGION = '<div id="first-view-checkout-empty" class="first-view"><div class="checkout-empty">'


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake production build holding the prerendered checkout."""
    shell = tmp_path / "build" / "client" / "__spa-fallback.html"
    (shell.parent / "checkout").mkdir(parents=True)
    (shell.parent / "checkout" / "index.html").write_text(PAGE, encoding="utf-8")
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: shell)
    return shell.parent


@pytest.fixture
def client(
    engine: Engine, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("MEDIA_DIR", str(tmp_path / "media"))
    get_settings.cache_clear()
    reset_engine()
    with TestClient(create_api()) as test_client:
        yield test_client
    reset_engine()
    get_settings.cache_clear()


def _cart_with(session: Session, product: Product) -> str:
    token = new_token()
    add_item(session, CartOwner(token=token), product_id=product.id or 0)
    session.commit()
    return token


def _get(client: TestClient, cookies: dict[str, str] | None = None, path: str = "/checkout") -> str:
    client.cookies.clear()
    for name, value in (cookies or {}).items():
        client.cookies.set(name, value)
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["cache-control"].startswith("private")  # per browser, never shared
    return response.text


def _empty_view(html: str) -> bool:
    shown = REGION in html and LOADING not in html
    assert shown or (LOADING in html and REGION not in html), html  # one or the other, whole
    return shown


def test_a_browser_without_a_cart_gets_the_empty_cart_in_place_of_the_shapes(
    client: TestClient, build: Path
) -> None:
    html = _get(client)

    assert _empty_view(html)
    assert ">Your Cart is Empty</h1>" in html and 'href="/shop"' in html
    assert "<main><div>" + REGION in html and "</div></div></main><footer>©</footer>" in html  # in place
    assert _empty_view(_get(client, path="/checkout/"))


def test_a_token_without_a_cart_or_with_an_empty_one_is_an_empty_cart(
    client: TestClient, build: Path, session: Session
) -> None:
    assert _empty_view(_get(client, {"cart": new_token()}))
    gone = Product(name="Old Candle", base_price_cents=1000, stock_quantity=3)
    session.add(gone)
    session.flush()
    token = _cart_with(session, gone)
    gone.is_active = False  # archived since: the cart shows no line of it
    session.commit()
    assert _empty_view(_get(client, {"cart": token}))


def test_a_cart_with_a_line_or_a_signed_in_browser_gets_the_shapes(
    client: TestClient, build: Path, session: Session
) -> None:
    candle = Product(name="Soy Candle", base_price_cents=3000, stock_quantity=5)
    session.add(candle)
    session.flush()
    token = _cart_with(session, candle)

    assert not _empty_view(_get(client, {"cart": token}))
    assert not _empty_view(_get(client, {"shop_session": "a" * 43}))  # whose cart: the state tells
    assert not _empty_view(_get(client, {"shop_session": "a" * 43, "cart": new_token()}))


def test_every_answer_has_the_shop_s_name_in_its_header(
    client: TestClient, build: Path, session: Session
) -> None:
    session.add(StoreSettings(id=1, company_name="Cedar & <Ember>"))
    session.commit()
    named = '<span id="first-view-brand" class="first-view-inline">Cedar &amp; &lt;Ember&gt;</span>'
    assert named in _get(client)
    assert named in _get(client, {"shop_session": "a" * 43})


def test_a_build_without_the_shapes_is_served_as_built(
    client: TestClient, build: Path, tmp_path: Path
) -> None:
    page = PAGE.replace(' id="checkout-loading"', "").replace(' id="first-view-brand"', "")
    (build / "checkout" / "index.html").write_text(page, encoding="utf-8")
    assert _get(client) == page


def test_without_a_build_the_checkout_url_is_not_found(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: tmp_path / "missing" / "__spa-fallback.html")
    assert client.get("/checkout").status_code == 404


def test_the_loading_shapes_are_found_whole_among_nested_divs() -> None:
    html = f"<div>{LOADING}<div>after</div></div>"
    swapped = with_empty_cart(html)
    assert swapped.startswith("<div>" + REGION) and swapped.endswith("</div><div>after</div></div>")
    assert with_empty_cart("<div>no shapes</div>") == "<div>no shapes</div>"
    unclosed = '<div id="checkout-loading"><div>'
    assert with_empty_cart(unclosed) == unclosed
