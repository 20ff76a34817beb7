"""A card's or favourite's Add to Cart button sends the product and quantity, nothing of the click.

Reflex passes an event's own arguments (a click's mouse data) to the handler's parameters that
the button leaves unfilled; ``CartState.add`` once had an ``options`` parameter, which received
``{"button": 0, "client_x": …}`` and read as options the product does not offer, so Add to Cart
from the favourites failed for every item (issue 15, item 2).
"""

from __future__ import annotations

import reflex as rx

from shop_app.components.product_card import product_card
from shop_app.state.cart import CartState
from shop_app.state.shop import ShopState
from shop_app.state.views import CardView


def test_the_add_event_of_a_button_carries_no_mouse_data() -> None:
    rendered = str(rx.button("Add to Cart", on_click=CartState.add(7, 1)))

    assert "cart_state.add" in rendered and '["product_id"] : 7' in rendered
    assert "client_x" not in rendered and '["options"]' not in rendered


def test_a_product_cards_add_to_cart_carries_no_mouse_data() -> None:
    card = rx.Var.create(CardView()).to(CardView)

    rendered = str(product_card(card, ShopState.choose_scent))

    assert "cart_state.add" in rendered and "client_x" not in rendered
