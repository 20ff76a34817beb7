"""The product page's Add to Cart, called the way Reflex calls it: it adds the product the page's
address names, with the quantity and scent chosen there, even when the click reaches the server
before the new page's load (going from one product page to another in the same tab)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from reflex.istate.data import ReflexURL
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.models import Product
from shop_app.state.cart import CartState
from shop_app.state.product import ProductState


@pytest.fixture
def products(app_env: Callable[..., None], engine: Engine, session: Session) -> dict[str, int]:
    cedar = Product(name="Soy Candle - Cedar", base_price_cents=3000, stock_quantity=8)
    linen = Product(name="Soy Candle - Linen", base_price_cents=3200, stock_quantity=8)
    mist = Product(
        name="Room Mist",
        base_price_cents=1800,
        stock_quantity=8,
        variants={"scents": ["Lavender", "Vanilla"]},
    )
    session.add_all([cedar, linen, mist])
    session.commit()
    return {"cedar": cedar.id, "linen": linen.id, "mist": mist.id}


async def page_state() -> tuple[Any, Any]:
    root = State(_reflex_internal_init=True)
    return await root.get_state(ProductState), await root.get_state(CartState)


def at_product(state: Any, product_id: int) -> None:
    """As if the tab's address were /product/{product_id} (the router data every event carries)."""
    url = ReflexURL(f"http://localhost:3000/product/{product_id}")
    state.router = dataclasses.replace(state.router, url=url)


def cart_lines(cart: Any) -> list[tuple[str, int]]:
    return [(line.name, line.quantity) for line in cart.lines]


def notice(event: Any) -> tuple[str, str]:
    """(kind, message) of the notification a handler returned."""
    assert isinstance(event, rx.event.EventSpec) and event.handler.fn.__name__ == "show"
    return tuple(str(value._var_value) for _name, value in reversed(event.args))


async def test_adds_the_loaded_product_with_the_chosen_quantity(products: dict[str, int]) -> None:
    page, cart = await page_state()
    at_product(page, products["cedar"])
    page.load()
    page.change_quantity(2)
    event = await page.add_to_cart()
    assert cart_lines(cart) == [("Soy Candle - Cedar", 3)]
    assert notice(event) == ("success", "Added 3 Soy Candle - Cedar to your cart")


async def test_a_click_before_the_new_page_loaded_adds_the_product_of_the_address(
    products: dict[str, int],
) -> None:
    page, cart = await page_state()
    at_product(page, products["cedar"])
    page.load()
    page.change_quantity(4)
    at_product(page, products["linen"])  # navigated; Linen's load has not run yet
    await page.add_to_cart()
    assert cart_lines(cart) == [("Soy Candle - Linen", 1)]
    assert (page.product_id, page.name) == (products["linen"], "Soy Candle - Linen")


async def test_a_scent_to_choose_is_asked_for_and_then_added(products: dict[str, int]) -> None:
    page, cart = await page_state()
    at_product(page, products["mist"])
    page.load()
    assert not page.can_add
    refused = await page.add_to_cart()
    assert cart_lines(cart) == []
    assert notice(refused) == ("error", "Select a Scent")
    page.choose_scent("Vanilla")
    added = await page.add_to_cart()
    assert notice(added) == ("success", "Added 1 Room Mist to your cart (Vanilla)")
    assert [(line.name, line.options) for line in cart.lines] == [("Room Mist", "Vanilla")]


async def test_scents_behind_more_can_be_listed_and_chosen(
    app_env: Callable[..., None], session: Session
) -> None:
    """Issue 15 item 4: a product with more than eight scents (Winter Fir, Honey & Oat …)."""
    names = [f"Scent {n:02d}" for n in range(1, 12)]
    rows = [
        Product(name=f"12oz Soy Candle - {name}", base_price_cents=3400, stock_quantity=0 if n == 10 else 5)
        for n, name in enumerate(names, start=1)
    ]
    session.add_all(rows)
    session.commit()
    page, _ = await page_state()
    at_product(page, rows[0].id)
    page.load()

    assert len(page.scents) == 8 and page.scent_more == "+3 more"
    page.show_all_scents()
    assert [c.label for c in page.scents] == names and page.scent_more == ""
    assert page.scents[9].text == "Scent 10 (sold out)"
    hidden = page.choose_scent("Scent 11")
    assert hidden is not None and f"/product/{rows[10].id}" in str(hidden)
