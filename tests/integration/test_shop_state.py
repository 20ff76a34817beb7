"""The shop's cards keep only product ids behind their scent selectors and build the chosen one's view."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.db import reset_engine
from shop_app.domain.grouping import group_key
from shop_app.models import Product, ProductImage
from shop_app.services import catalog
from shop_app.settings import get_settings
from shop_app.state.shop import ShopState
from shop_app.state.views import VariationView, card_views, variation_view

NAMES = [
    "8oz Amber Soy Candle - Vanilla Bean",
    "8oz Blush Soy Candle - Vanilla Bean",
    "8oz Amber Soy Candle - Rose",
    "8oz Frosted Soy Candle - Cedar",
]
ROSE_IMAGE = "/media/products/" + "a" * 32 + ".webp"


@pytest.fixture
def app_database(engine: Engine, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """Point the app's own engine at the test database."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("REFLEX_ENV_MODE", "prod")
    get_settings.cache_clear()
    reset_engine()
    yield engine
    reset_engine()
    get_settings.cache_clear()


@pytest.fixture
def candles(app_database: Engine, session: Session) -> list[Product]:
    """One grouped card: four variations, a scent in two vessels, one on sale with an image."""
    products = [
        Product(
            name=name,
            description=f"{name}, hand-poured",
            group_key=group_key(name),
            base_price_cents=3000 + 100 * n,
            sale_price_cents=2500 if n == 2 else None,
            stock_quantity=n,
        )
        for n, name in enumerate(NAMES)
    ]
    session.add_all(products)
    session.flush()
    session.add(ProductImage(product_id=products[2].id, image_url=ROSE_IMAGE, width=800, is_primary=True))
    session.commit()
    return products


async def _shop() -> ShopState:
    root = State(_reflex_internal_init=True)
    shop = await root.get_state(ShopState)
    shop.load()
    return shop


def _expected_views(session: Session) -> list[VariationView]:
    """Every variation of the first card as the card shows it once picked (label included)."""
    card = catalog.shop_page(session, catalog.ShopQuery()).cards[0]
    view, _ = card_views(card)
    expected = []
    for label, variation in zip(view.scents, card.variations, strict=True):
        shown = variation_view(variation)
        shown.label = label
        expected.append(shown)
    return expected


async def test_each_scent_label_keeps_only_its_product_id(candles: list[Product], session: Session) -> None:
    shop = await _shop()
    card = shop.cards[0]
    expected = _expected_views(session)

    assert card.scents == ["Rose", "Vanilla Bean (Amber)", "Vanilla Bean (Blush)", "Cedar"]  # by name
    assert shop._variations == {card.key: [view.product_id for view in expected]}
    assert len(pickle.dumps(shop._variations)) < 200


async def test_choosing_a_scent_shows_that_variation_as_before(
    candles: list[Product], session: Session
) -> None:
    shop = await _shop()
    key = shop.cards[0].key
    expected = _expected_views(session)

    for label, view in zip(shop.cards[0].scents, expected, strict=True):
        shop.choose_scent(key, label)

        card = shop.cards[0]
        assert card.selected_scent == label
        assert card.current == view  # image, price, stock, badge, link and label
    rose = next(view for view in expected if view.label == "Rose")
    assert (rose.price, rose.compare_at_price, rose.badge) == ("$25.00", "$32.00", "On Sale")
    assert rose.image_url == ROSE_IMAGE and rose.image_srcset.endswith(f"{ROSE_IMAGE} 800w")


async def test_an_unknown_label_or_an_archived_variation_changes_nothing(
    candles: list[Product], session: Session
) -> None:
    shop = await _shop()
    key = shop.cards[0].key
    before = (shop.cards[0].selected_scent, dataclasses.asdict(shop.cards[0].current))

    shop.choose_scent(key, "Lavender")
    shop.choose_scent("no-such-card", "Rose")
    candles[3].is_active = False  # Cedar, archived after the page loaded
    session.commit()
    shop.choose_scent(key, "Cedar")

    assert (shop.cards[0].selected_scent, dataclasses.asdict(shop.cards[0].current)) == before
    assert before[0] == "Rose"
