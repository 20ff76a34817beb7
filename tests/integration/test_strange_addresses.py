"""Numbers a stranger puts in an address or an event: pages answer "not found", handlers refuse,
and nothing raises (the stranger's report, F5 and F6; docs/security.md, "Input")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from reflex.istate.data import ReflexURL
from reflex.state import State
from sqlmodel import Session

from shop_app.models import User
from shop_app.services import sessions
from shop_app.state.auth import AuthState
from shop_app.state.custom_creator import CustomCreatorState
from shop_app.state.order_success import OrderSuccessState
from shop_app.state.orders import OrdersState
from shop_app.state.product import ProductState

STRANGE = ["99999999999999999999999", "2147483648", "²", "٣", "-1", "0", "1e3", " ", "%00"]


def _at(state: Any, address: str) -> None:
    state.router = dataclasses.replace(state.router, url=ReflexURL(f"http://localhost:3000{address}"))


@pytest.fixture
def signed_in(app_env: Callable[..., None], session: Session) -> str:
    user = User(email="mia@example.com", password_hash="x", first_name="Mia", last_name="Chen")
    session.add(user)
    session.flush()
    key = sessions.start(session, user=user, remember_me=False).state_key
    session.commit()
    return key


@pytest.mark.parametrize("raw", STRANGE)
async def test_a_product_page_with_a_strange_id_is_not_found(app_env: Callable[..., None], raw: str) -> None:
    page = await State(_reflex_internal_init=True).get_state(ProductState)
    _at(page, f"/product/{raw}")

    page.load()

    assert page.loaded and not page.found


@pytest.mark.parametrize("raw", STRANGE)
async def test_an_order_success_page_with_a_strange_id_finds_nothing(
    app_env: Callable[..., None], raw: str
) -> None:
    page = await State(_reflex_internal_init=True).get_state(OrderSuccessState)
    _at(page, f"/order-success?order={raw}&number=CE-20261125-ABCDEF")

    page.load()

    assert page.loaded and not page.found


@pytest.mark.parametrize("raw", STRANGE)
async def test_an_order_detail_with_a_strange_id_finds_nothing(signed_in: str, raw: str) -> None:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = signed_in
    page = await root.get_state(OrdersState)
    _at(page, f"/account/orders/{raw}")

    async for _ in page.load_one():
        pass

    assert not page.order_found


@pytest.mark.parametrize("raw", ["²", "99999999999999999999999", "-1"])
async def test_the_candle_builder_ignores_strange_numbers(app_env: Callable[..., None], raw: str) -> None:
    builder = await State(_reflex_internal_init=True).get_state(CustomCreatorState)
    before = builder.vessel_id

    builder.choose_vessel(raw)
    builder.set_intensity("lavender", raw)

    assert builder.vessel_id == before
