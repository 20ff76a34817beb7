"""Every error code Square documents for a card payment reads as a plain sentence for the shopper.

Square's OpenAPI subset (``tests/support/square_openapi/square-openapi-subset.json``, kept in the
repository) is read: every value of its ``ErrorCode`` enum,
CreatePayment's ``x-endpoint-errors`` and the generic codes must have a sentence of their own.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.messages import DeclineMessage, PaymentMessage
from shop_app.domain.payment_errors import CREATE_PAYMENT_CODES, DECLINE_CODES, decline_message, is_known_code
from tests.unit.square.openapi import SPEC_PATH

CODE_SHAPE = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
# The codes issue 15 names, and the four of the local simulator's decline test cards.
NAMED_IN_THE_ISSUE = (
    "GENERIC_DECLINE",
    "CVV_FAILURE",
    "ADDRESS_VERIFICATION_FAILURE",
    "INVALID_EXPIRATION",
    "INSUFFICIENT_FUNDS",
    "CARD_DECLINED_VERIFICATION_REQUIRED",
    "CARD_EXPIRED",
    "INVALID_CARD",
    "CARD_NOT_SUPPORTED",
    "INVALID_ACCOUNT",
    "TRANSACTION_LIMIT",
    "VOICE_FAILURE",
    "PAN_FAILURE",
    "EXPIRATION_FAILURE",
    "CARD_DECLINED_CALL_ISSUER",
    "PAYMENT_LIMIT_EXCEEDED",
    "GIFT_CARD_AVAILABLE_AMOUNT",
    "INVALID_PIN",
    "ALLOWABLE_PIN_TRIES_EXCEEDED",
    "CARDHOLDER_INSUFFICIENT_PERMISSIONS",
    "BAD_EXPIRATION",
    "INVALID_LOCATION",
    "INVALID_POSTAL_CODE",
    "TEMPORARY_ERROR",
    "CARD_TOKEN_USED",
)


@cache
def _spec() -> dict:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("code", sorted({*CREATE_PAYMENT_CODES, *NAMED_IN_THE_ISSUE}))
def test_every_documented_create_payment_code_has_its_own_sentence(code: str) -> None:
    assert is_known_code(code)
    assert decline_message(code) in set(DeclineMessage)
    assert decline_message(code) != PaymentMessage.CARD_FAILED


def test_the_list_is_createpayments_own() -> None:
    documented = {e["error-code"] for e in _spec()["paths"]["/v2/payments"]["post"]["x-endpoint-errors"]}
    assert documented == CREATE_PAYMENT_CODES


def test_every_code_of_squares_error_enum_and_every_generic_code_has_a_sentence() -> None:
    spec = _spec()
    enum = set(spec["components"]["schemas"]["ErrorCode"]["enum"])
    generic = set(spec["info"]["x-square-generic-error-codes"])
    assert (enum | generic) - set(DECLINE_CODES) == set()


@pytest.mark.parametrize("message", list(DeclineMessage), ids=lambda m: m.name)
def test_no_sentence_shows_a_code_or_the_provider(message: DeclineMessage) -> None:
    text = message.value
    assert CODE_SHAPE.search(text) is None
    assert not any(code in text for code in DECLINE_CODES)
    assert "Square" not in text and "error" not in text.lower() and "'" not in text.replace("'s", "")
    assert text.endswith(".") and text[0].isupper()
    assert "Please" in text  # every sentence says what to do next


def test_every_sentence_is_used() -> None:
    assert set(DECLINE_CODES.values()) == set(DeclineMessage)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("GENERIC_DECLINE", DeclineMessage.DECLINED),
        ("CVV_FAILURE", DeclineMessage.SECURITY_CODE),
        ("ADDRESS_VERIFICATION_FAILURE", DeclineMessage.POSTAL_CODE),
        ("INVALID_EXPIRATION", DeclineMessage.EXPIRATION),
        ("CARD_EXPIRED", DeclineMessage.EXPIRED),
        ("INSUFFICIENT_FUNDS", DeclineMessage.FUNDS),
        ("CARD_DECLINED_VERIFICATION_REQUIRED", DeclineMessage.VERIFICATION),
        ("CARD_TOKEN_USED", DeclineMessage.ENTER_CARD_AGAIN),
        ("TEMPORARY_ERROR", DeclineMessage.TEMPORARY),
        ("INVALID_LOCATION", DeclineMessage.SHOP_PROBLEM),
        ("VERIFY_CVV_FAILURE", DeclineMessage.SECURITY_CODE),  # legacy
    ],
)
def test_the_sentence_fits_the_code(code: str, message: DeclineMessage) -> None:
    assert decline_message(code) == message


def test_codes_are_read_forgivingly() -> None:
    assert decline_message(" cvv_failure\n") == DeclineMessage.SECURITY_CODE


@pytest.mark.parametrize(
    "code", [None, "", "UNKNOWN", "FAILED", "CANCELED", "ABANDONED", "Authorization error"]
)
def test_an_unknown_code_gets_the_seeds_fallback(code: str | None) -> None:
    assert decline_message(code) == PaymentMessage.CARD_FAILED == "Payment failed. Please try again."
    assert not is_known_code(code)


@given(st.text(max_size=60))
def test_any_text_gives_a_sentence_of_the_catalogue(code: str) -> None:
    assert decline_message(code) in {*DeclineMessage, PaymentMessage.CARD_FAILED}
