"""GET /shop answers with the prerendered shop page plus a preload of its first card's image.

The route runs through the real Starlette app (``create_api``) against the test database, with a
fake production build standing in for Reflex's prerendered /shop page.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from shop_app.api import seo as seo_api
from shop_app.db import reset_engine
from shop_app.models import Category, Product, ProductImage
from shop_app.services.media import PRODUCT_CARD_SIZES
from shop_app.settings import get_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

SHOP_HTML = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Shop | Cedar &amp; Ember</title>'
    '</head><body><div id="app"><h1>Shop</h1></div></body></html>'
)
CANDLE_IMAGE = "/media/products/" + "a" * 32 + ".webp"
LOTION_IMAGE = "/media/products/" + "b" * 32 + ".webp"
PRELOAD = re.compile(r'<link rel="preload" as="image"[^>]*>')


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake production build holding the prerendered /shop page."""
    shell = tmp_path / "build" / "client" / "__spa-fallback.html"
    (shell.parent / "shop").mkdir(parents=True)
    (shell.parent / "shop" / "index.html").write_text(SHOP_HTML, encoding="utf-8")
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
    client: TestClient, build: Path, catalogue: None
) -> None:
    candles = client.get("/shop?category=candles")
    body_care = client.get("/shop", params={"category": "body-care"})

    assert candles.status_code == 200
    assert candles.headers["content-type"] == "text/html; charset=utf-8"
    assert candles.headers["cache-control"] == "no-cache"
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
    client: TestClient, build: Path, catalogue: None
) -> None:
    searched = client.get("/shop/?search=lotion")

    assert searched.status_code == 200
    assert [LOTION_IMAGE in tag for tag in _preloads(searched.text)] == [True]


def test_a_listing_without_an_image_or_without_cards_is_the_page_as_built(
    client: TestClient, build: Path, catalogue: None, session: Session
) -> None:
    session.add(Product(name="Gift Card", base_price_cents=2500, stock_quantity=5))
    session.commit()

    nothing = client.get("/shop?search=zzzzzz")
    imageless = client.get("/shop?search=gift card")

    assert (nothing.status_code, nothing.text) == (200, SHOP_HTML)
    assert (imageless.status_code, imageless.text) == (200, SHOP_HTML)


def test_gzip_when_accepted(client: TestClient, build: Path, catalogue: None) -> None:
    response = client.get("/shop", headers={"Accept-Encoding": "gzip"})

    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"] == "Accept-Encoding"
    assert len(_preloads(response.text)) == 1  # httpx has decoded the body


def test_without_a_build_the_shop_url_is_not_found(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seo_api, "spa_shell_path", lambda: tmp_path / "missing" / "__spa-fallback.html")

    assert client.get("/shop").status_code == 404
