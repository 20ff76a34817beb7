"""Checkout, order and payment messages. (See ``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.messages import CheckoutMessage, OrderMessage, PaymentMessage

SHOWN: dict[StrEnum, str] = {
    CheckoutMessage.REQUIRED_FIELDS: "test_checkout.py::test_a_guest_pays_by_card_and_sees_the_real_order",
}

NOT_SHOWN: dict[StrEnum, str] = {
    OrderMessage.NOT_AUTHENTICATED: (
        "the seed's order call without a user; the shop's account pages ask a signed-out visitor "
        "to sign in (AuthMessage.SIGN_IN_REQUIRED) before any order is read"
    ),
    PaymentMessage.SQUARE_API_ERROR: (
        "the seed shows Square's raw error; the shop shows a plain sentence per decline or error "
        "code (DeclineMessage, issue 15 item 6) and logs the code"
    ),
}
