"""Checkout, order and payment messages. (See ``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.messages import CheckoutMessage, OrderMessage, PaymentMessage

_FORM = "test_messages_checkout.py::test_the_checkout_refuses_a_bad_email_and_more_than_the_stock"
_STEPS = "test_messages_checkout.py::test_each_failing_step_of_placing_an_order_says_which_step_failed"

SHOWN: dict[StrEnum, str] = {
    CheckoutMessage.REQUIRED_FIELDS: _FORM,
    CheckoutMessage.INVALID_EMAIL: _FORM,
    OrderMessage.INSUFFICIENT_STOCK: _FORM,
    OrderMessage.STOCK_CHECK_FAILED: _STEPS,
    OrderMessage.CREATE_FAILED: _STEPS,
    OrderMessage.ORDER_NUMBER_FAILED: _STEPS,
    OrderMessage.ITEMS_FAILED: _STEPS,
    OrderMessage.ADDRESS_FAILED: _STEPS,
    PaymentMessage.PROCESSING_FAILED: _STEPS,
    PaymentMessage.PAYPAL_FAILED: _STEPS,
    OrderMessage.UNKNOWN_PRODUCT: (
        "test_messages_checkout.py::test_an_old_order_of_a_product_without_a_name_lists_an_unknown_product"
    ),
    OrderMessage.UPDATE_STATUS_FAILED: (
        "test_messages_checkout.py::test_a_status_change_the_database_cannot_take_fails_and_succeeds_later"
    ),
    PaymentMessage.CARD_FAILED: (
        "test_messages_payment.py::"
        "test_a_decline_code_square_added_after_this_release_reads_payment_failed_and_keeps_cart_and_form"
    ),
    PaymentMessage.FAILED: (
        "test_messages_payment.py::"
        "test_a_payment_square_never_received_is_given_up_and_its_order_page_says_payment_failed"
    ),
    PaymentMessage.SDK_LOAD_FAILED: "test_messages_payment.py::test_a_card_form_whose_square_sdk_cannot_load_says_so",
}

NOT_SHOWN: dict[StrEnum, str] = {
    OrderMessage.NOT_AUTHENTICATED: (
        "the seed's order call without a user; the shop's account pages ask a signed-out visitor "
        "to sign in (AuthMessage.SIGN_IN_REQUIRED) before any order is read"
    ),
    PaymentMessage.NO_PAYMENT_OBJECT: (
        "the seed's payment function answers this when Square's reply has no payment; the shop's "
        "gateway takes such a reply as an unknown outcome (the card may have been charged), tells "
        "the shopper PaymentMessage.BEING_CONFIRMED and settles the order with Square later"
    ),
    PaymentMessage.INVALID_APPLICATION_ID: (
        "Square's Web Payments SDK's own error for a malformed application id, quoted by the seed; "
        "the shop has no copy of it (its card form shows whatever Square's SDK raises, and only in "
        "sandbox or production mode)"
    ),
    PaymentMessage.SQUARE_API_ERROR: (
        "the seed shows Square's raw error; the shop shows a plain sentence per decline or error "
        "code (DeclineMessage, issue 15 item 6) and logs the code"
    ),
}
