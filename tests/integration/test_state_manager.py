"""Shop states survive Reflex's state manager (Redis when REFLEX_REDIS_URL is set).

With several backend workers, a shopper's state is pickled into Redis after every event and read
back by whichever worker handles the next one: the states must round-trip, stay small, and a
second manager (another worker) must see what the first one wrote.
"""

from __future__ import annotations

import os
import pickle
import uuid
from collections.abc import Callable

import pytest
import reflex as rx
from reflex.istate.manager import StateManager
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.models import Product
from shop_app.state.shop import ShopState

STATE_BUDGET_BYTES = 64 * 1024  # docs/architecture.md#performance-budgets


@pytest.fixture
def app_database(app_env: Callable[..., None], engine: Engine) -> Engine:
    """The app's own engine points at the test database."""
    return engine


@pytest.fixture
def catalogue(app_database: Engine, session: Session) -> list[str]:
    """A page's worth of products, with long descriptions."""
    names = [f"8oz Amber Soy Candle - Scent {n:02d}" for n in range(30)]
    session.add_all(
        Product(name=name, description="Hand-poured. " * 40, base_price_cents=2800, stock_quantity=n)
        for n, name in enumerate(names)
    )
    session.commit()
    return names


def test_the_configured_manager_is_redis_when_a_redis_url_is_set() -> None:
    manager = StateManager.create()
    expected = "StateManagerRedis" if os.environ.get("REFLEX_REDIS_URL") else None
    if expected:
        assert type(manager).__name__ == expected
    else:
        assert type(manager).__name__ in {"StateManagerDisk", "StateManagerMemory"}


async def test_shop_state_round_trips_between_two_workers(catalogue: list[str]) -> None:
    token = rx.BaseStateToken(ident=str(uuid.uuid4()), cls=ShopState)
    writer = StateManager.create()
    # Only Redis is shared between workers; without it the shop runs a single worker.
    reader = StateManager.create() if os.environ.get("REFLEX_REDIS_URL") else writer
    try:
        async with writer.modify_state(token) as root:
            shop = await root.get_state(ShopState)
            shop.grouped = False
            shop.load()
            shown = [card.title for card in shop.cards]

        shop = await (await reader.get_state(token)).get_state(ShopState)

        assert [card.title for card in shop.cards] == shown
        assert len(shown) == 24
        assert set(shown) <= set(catalogue)
        assert shop.total == 30
        assert len(pickle.dumps(shop)) <= STATE_BUDGET_BYTES
    finally:
        await writer.close()
        if reader is not writer:
            await reader.close()
