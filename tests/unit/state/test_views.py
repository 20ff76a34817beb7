"""View models the states send to the browser."""

from __future__ import annotations

import pytest

from shop_app.services.catalog import ProductSummary
from shop_app.state.media import media_src
from shop_app.state.views import PLACEHOLDER_IMAGE, product_card_view


def _summary(**overrides: object) -> ProductSummary:
    fields = {
        "id": 7,
        "name": "8oz Amber Soy Candle - Vanilla Bean",
        "description": "x" * 100,
        "base_price_cents": 3200,
        "sale_price_cents": None,
        "stock_quantity": 12,
        "is_new": False,
        "is_featured": False,
        "image_url": "",
    }
    return ProductSummary(**{**fields, **overrides})


@pytest.fixture(autouse=True)
def prod_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFLEX_ENV_MODE", "prod")


def test_card_of_a_product_on_sale_shows_both_prices_and_the_sale_badge() -> None:
    card = product_card_view(_summary(sale_price_cents=2500, is_new=True, stock_quantity=3))

    assert (card.price, card.compare_at_price) == ("$25.00", "$32.00")
    assert card.badge == "On Sale"
    assert card.stock_text == "Only 3 left"
    assert card.url == "/product/7"
    assert len(card.description) == 80


def test_card_ignores_a_sale_price_that_is_not_a_discount() -> None:
    card = product_card_view(_summary(sale_price_cents=3200, is_featured=True, stock_quantity=0))

    assert (card.price, card.compare_at_price, card.badge) == ("$32.00", "", "Featured")
    assert not card.in_stock
    assert card.stock_text == "Out of Stock"


def test_card_without_an_image_uses_the_placeholder() -> None:
    assert product_card_view(_summary()).image_url == PLACEHOLDER_IMAGE
    assert product_card_view(_summary(image_url="/media/p/a.webp")).image_url == "/media/p/a.webp"


def test_media_paths_point_at_the_backend_in_the_development_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFLEX_ENV_MODE", "dev")

    assert media_src("/media/products/a.webp").endswith(":8000/media/products/a.webp")
    assert media_src("/placeholder.svg") == "/placeholder.svg"
