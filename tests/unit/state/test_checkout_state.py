"""The checkout's account box (issue 15, item 10: unticking "Check out as a guest" did nothing)."""

from __future__ import annotations

from reflex.state import State

from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.checkout import CheckoutState


async def test_unticking_guest_checkout_asks_a_signed_out_shopper_to_sign_in() -> None:
    checkout = await State(_reflex_internal_init=True).get_state(CheckoutState)

    opened = checkout.set_guest_checkout(False)

    assert not checkout.guest_checkout
    assert opened is not None and opened.fn.__name__ == AuthDialogState.open_sign_in.fn.__name__
    assert checkout.set_guest_checkout(True) is None and checkout.guest_checkout


async def test_a_signed_in_customer_is_not_asked() -> None:
    checkout = await State(_reflex_internal_init=True).get_state(CheckoutState)
    checkout.signed_in = True

    assert checkout.set_guest_checkout(False) is None
