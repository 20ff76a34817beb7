"""What to tell a shopper whose card payment did not go through, from Square's error code.

Square answers a refused CreatePayment with ``errors[].code`` (``GENERIC_DECLINE``,
``CVV_FAILURE`` …) and an English ``detail`` meant for developers ("Authorization error:
'GENERIC_DECLINE'"). Neither is for a shopper. :func:`decline_message` turns the code into one
plain sentence of :class:`~shop_app.domain.messages.DeclineMessage` that says what happened and
what to do; a code it does not know gets the seed's fallback "Payment failed. Please try again.".
The code itself stays in the log and in the payment row (``payments.error_code``).

:data:`DECLINE_CODES` covers every value of Square's ``ErrorCode`` enum (API version 2025-08-20,
``square-openapi-subset.json``), among them the 36 codes CreatePayment documents
(:data:`CREATE_PAYMENT_CODES`, its ``x-endpoint-errors``), plus the legacy card codes
(``CARD_DECLINED``, ``VERIFY_CVV_FAILURE``, ``VERIFY_AVS_FAILURE``) still seen from older
integrations. Codes that only a mistake of the shop can cause (a wrong token, location or
request) read "a problem on our side"; codes that mean "try again" read so.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from shop_app.domain.messages import DeclineMessage, PaymentMessage

CREATE_PAYMENT_CODES: Final = frozenset(
    {
        "ADDRESS_VERIFICATION_FAILURE",
        "ALLOWABLE_PIN_TRIES_EXCEEDED",
        "APPLE_TTP_PIN_TOKEN",
        "BAD_EXPIRATION",
        "CARDHOLDER_INSUFFICIENT_PERMISSIONS",
        "CARD_DECLINED_VERIFICATION_REQUIRED",
        "CARD_EXPIRED",
        "CARD_NOT_SUPPORTED",
        "CARD_PROCESSING_NOT_ENABLED",
        "CARD_TOKEN_EXPIRED",
        "CARD_TOKEN_USED",
        "CHIP_INSERTION_REQUIRED",
        "CVV_FAILURE",
        "EXPIRATION_FAILURE",
        "GENERIC_DECLINE",
        "GIFT_CARD_AVAILABLE_AMOUNT",
        "INSUFFICIENT_FUNDS",
        "INSUFFICIENT_PERMISSIONS",
        "INVALID_ACCOUNT",
        "INVALID_CARD",
        "INVALID_CARD_DATA",
        "INVALID_EMAIL_ADDRESS",
        "INVALID_EXPIRATION",
        "INVALID_FEES",
        "INVALID_LOCATION",
        "INVALID_PHONE_NUMBER",
        "INVALID_PIN",
        "INVALID_POSTAL_CODE",
        "ISSUER_INSTALLMENT_ERROR",
        "MANUALLY_ENTERED_PAYMENT_NOT_SUPPORTED",
        "PAN_FAILURE",
        "PAYMENT_AMOUNT_MISMATCH",
        "PAYMENT_LIMIT_EXCEEDED",
        "TEMPORARY_ERROR",
        "TRANSACTION_LIMIT",
        "VOICE_FAILURE",
    }
)
"""The error codes Square documents for CreatePayment (``x-endpoint-errors`` of the operation)."""

_BY_MESSAGE: Final[dict[DeclineMessage, tuple[str, ...]]] = {
    DeclineMessage.DECLINED: (
        "GENERIC_DECLINE",
        "CARD_DECLINED",  # legacy
        "READER_DECLINED",
        "RESERVATION_DECLINED",
        "ISSUER_INSTALLMENT_ERROR",
        "BUYER_REFUSED_PAYMENT",
        "PLAID_ERROR_ITEM_LOGIN_REQUIRED",
    ),
    DeclineMessage.CALL_BANK: ("VOICE_FAILURE", "CARD_DECLINED_CALL_ISSUER"),
    DeclineMessage.SECURITY_CODE: ("CVV_FAILURE", "VERIFY_CVV_FAILURE"),
    DeclineMessage.POSTAL_CODE: ("ADDRESS_VERIFICATION_FAILURE", "VERIFY_AVS_FAILURE", "INVALID_POSTAL_CODE"),
    DeclineMessage.EXPIRATION: (
        "INVALID_EXPIRATION",
        "BAD_EXPIRATION",
        "EXPIRATION_FAILURE",
        "INVALID_EXPIRATION_YEAR",
        "INVALID_EXPIRATION_DATE",
    ),
    DeclineMessage.EXPIRED: ("CARD_EXPIRED",),
    DeclineMessage.CARD_NUMBER: ("PAN_FAILURE", "INVALID_CARD"),
    DeclineMessage.CARD_DETAILS: (
        "INVALID_CARD_DATA",
        "INVALID_ENCRYPTED_CARD",
        "MISSING_ACCOUNT_TYPE",
        "CARD_MISMATCH",
    ),
    DeclineMessage.FUNDS: ("INSUFFICIENT_FUNDS",),
    DeclineMessage.GIFT_CARD_BALANCE: ("GIFT_CARD_AVAILABLE_AMOUNT",),
    DeclineMessage.CARD_LIMIT: ("TRANSACTION_LIMIT", "AMOUNT_TOO_HIGH"),
    DeclineMessage.SHOP_LIMIT: ("PAYMENT_LIMIT_EXCEEDED",),
    DeclineMessage.VERIFICATION: ("CARD_DECLINED_VERIFICATION_REQUIRED",),
    DeclineMessage.NOT_ACCEPTED: (
        "CARD_NOT_SUPPORTED",
        "UNSUPPORTED_CARD_BRAND",
        "UNSUPPORTED_ENTRY_METHOD",
        "UNSUPPORTED_INSTRUMENT_TYPE",
        "UNSUPPORTED_SOURCE_TYPE",
        "MANUALLY_ENTERED_PAYMENT_NOT_SUPPORTED",
        "CHIP_INSERTION_REQUIRED",
        "CARD_PRESENCE_REQUIRED",
        "APPLE_TTP_PIN_TOKEN",
    ),
    DeclineMessage.RESTRICTED: ("CARDHOLDER_INSUFFICIENT_PERMISSIONS", "INSUFFICIENT_PERMISSIONS"),
    DeclineMessage.ACCOUNT: ("INVALID_ACCOUNT", "ACCOUNT_UNUSABLE"),
    DeclineMessage.PIN: ("INVALID_PIN", "MISSING_PIN", "ALLOWABLE_PIN_TRIES_EXCEEDED"),
    DeclineMessage.ENTER_CARD_AGAIN: (
        "CARD_TOKEN_USED",
        "CARD_TOKEN_EXPIRED",
        "SOURCE_USED",
        "SOURCE_EXPIRED",
        "CHECKOUT_EXPIRED",
    ),
    DeclineMessage.EMAIL: ("INVALID_EMAIL_ADDRESS",),
    DeclineMessage.PHONE: ("INVALID_PHONE_NUMBER",),
    DeclineMessage.TEMPORARY: (
        "TEMPORARY_ERROR",
        "INTERNAL_SERVER_ERROR",
        "SERVICE_UNAVAILABLE",
        "BAD_GATEWAY",
        "GATEWAY_TIMEOUT",
        "REQUEST_TIMEOUT",
        "RATE_LIMITED",
        "CONFLICT",
        "PLAID_ERROR",
        "PLAID_ERROR_RATE_LIMIT",
    ),
    DeclineMessage.SHOP_PROBLEM: (
        # The shop's account, token or location cannot take this payment.
        "CARD_PROCESSING_NOT_ENABLED",
        "INVALID_LOCATION",
        "LOCATION_MISMATCH",
        "UNAUTHORIZED",
        "ACCESS_TOKEN_EXPIRED",
        "ACCESS_TOKEN_REVOKED",
        "CLIENT_DISABLED",
        "FORBIDDEN",
        "INSUFFICIENT_SCOPES",
        "APPLICATION_DISABLED",
        "V1_APPLICATION",
        "V1_ACCESS_TOKEN",
        "MERCHANT_SUBSCRIPTION_NOT_FOUND",
        "SANDBOX_NOT_SUPPORTED",
        "BAD_CERTIFICATE",
        "APPLE_PAYMENT_PROCESSING_CERTIFICATE_HASH_NOT_FOUND",
        "UNSUPPORTED_COUNTRY",
        "UNSUPPORTED_CURRENCY",
        "CURRENCY_MISMATCH",
        # The shop's request was wrong (amounts, fees, keys, fields).
        "PAYMENT_AMOUNT_MISMATCH",
        "INVALID_FEES",
        "IDEMPOTENCY_KEY_REUSED",
        "BAD_REQUEST",
        "MISSING_REQUIRED_PARAMETER",
        "INCORRECT_TYPE",
        "INVALID_TIME",
        "INVALID_TIME_RANGE",
        "INVALID_VALUE",
        "INVALID_CURSOR",
        "UNKNOWN_QUERY_PARAMETER",
        "UNKNOWN_BODY_PARAMETER",
        "CONFLICTING_PARAMETERS",
        "EXPECTED_JSON_BODY",
        "INVALID_SORT_ORDER",
        "VALUE_REGEX_MISMATCH",
        "VALUE_TOO_SHORT",
        "VALUE_TOO_LONG",
        "VALUE_TOO_LOW",
        "VALUE_TOO_HIGH",
        "VALUE_EMPTY",
        "ARRAY_LENGTH_TOO_LONG",
        "ARRAY_LENGTH_TOO_SHORT",
        "ARRAY_EMPTY",
        "EXPECTED_BOOLEAN",
        "EXPECTED_INTEGER",
        "EXPECTED_FLOAT",
        "EXPECTED_STRING",
        "EXPECTED_OBJECT",
        "EXPECTED_ARRAY",
        "EXPECTED_MAP",
        "EXPECTED_BASE64_ENCODED_BYTE_ARRAY",
        "INVALID_ARRAY_VALUE",
        "INVALID_ENUM_VALUE",
        "INVALID_CONTENT_TYPE",
        "INVALID_FORM_VALUE",
        "NO_FIELDS_SET",
        "TOO_MANY_MAP_ENTRIES",
        "MAP_KEY_LENGTH_TOO_SHORT",
        "MAP_KEY_LENGTH_TOO_LONG",
        "UNEXPECTED_VALUE",
        "INVALID_SQUARE_VERSION_FORMAT",
        "API_VERSION_INCOMPATIBLE",
        "ONE_INSTRUMENT_EXPECTED",
        "INVALID_DATE",
        "INVALID_PAUSE_LENGTH",
        "NOT_FOUND",
        "METHOD_NOT_ALLOWED",
        "NOT_ACCEPTABLE",
        "GONE",
        "REQUEST_ENTITY_TOO_LARGE",
        "UNSUPPORTED_MEDIA_TYPE",
        "UNPROCESSABLE_ENTITY",
        "NOT_IMPLEMENTED",
        # Other APIs' codes in the same enum (customers, delayed capture, refunds, orders, loyalty):
        # never an answer to a card payment, so only a mistake of ours could bring one here.
        "CUSTOMER_NOT_FOUND",
        "CUSTOMER_MISSING_NAME",
        "CUSTOMER_MISSING_EMAIL",
        "DELAYED_TRANSACTION_EXPIRED",
        "DELAYED_TRANSACTION_CANCELED",
        "DELAYED_TRANSACTION_CAPTURED",
        "DELAYED_TRANSACTION_FAILED",
        "REFUND_AMOUNT_INVALID",
        "REFUND_ALREADY_PENDING",
        "PAYMENT_NOT_REFUNDABLE",
        "PAYMENT_NOT_REFUNDABLE_DUE_TO_DISPUTE",
        "REFUND_ERROR_PAYMENT_NEEDS_COMPLETION",
        "REFUND_DECLINED",
        "INSUFFICIENT_PERMISSIONS_FOR_REFUND",
        "UNSUPPORTED_LOYALTY_REWARD_TIER",
        "ORDER_UNPAID_NOT_RETURNABLE",
    ),
}

DECLINE_CODES: Final[Mapping[str, DeclineMessage]] = MappingProxyType(
    {code: message for message, codes in _BY_MESSAGE.items() for code in codes}
)
"""Square's error code → the sentence for the shopper."""


def decline_message(code: str | None) -> str:
    """The sentence for a shopper whose payment Square refused with ``code``.

    Examples:
        >>> decline_message("CVV_FAILURE") == DeclineMessage.SECURITY_CODE
        True
        >>> decline_message(" generic_decline ") == DeclineMessage.DECLINED
        True
        >>> decline_message("SOMETHING_NEW")
        'Payment failed. Please try again.'
        >>> decline_message(None)
        'Payment failed. Please try again.'
    """
    message = DECLINE_CODES.get((code or "").strip().upper())
    return (message or PaymentMessage.CARD_FAILED).value


def is_known_code(code: str | None) -> bool:
    """Whether ``code`` is one of Square's error codes that :func:`decline_message` explains.

    Examples:
        >>> is_known_code("INSUFFICIENT_FUNDS"), is_known_code("ABANDONED"), is_known_code(None)
        (True, False, False)
    """
    return (code or "").strip().upper() in DECLINE_CODES


def failure_sentence(code: str | None, detail: str | None) -> str:
    """What to tell the shopper about a payment that failed, from what its row kept.

    The sentence of the provider's ``code`` when it is one (rows written before the sentences were
    derived from codes held the provider's own text); else the sentence stored with the failure
    (``detail``: the shop's own reasons, such as an abandoned payment's "Payment failed"); else the
    fallback.

    Examples:
        >>> failure_sentence("CVV_FAILURE", "Authorization error") == DeclineMessage.SECURITY_CODE
        True
        >>> failure_sentence("ABANDONED", "Payment failed")
        'Payment failed'
        >>> failure_sentence(None, None)
        'Payment failed. Please try again.'
    """
    if is_known_code(code):
        return decline_message(code)
    return detail or PaymentMessage.CARD_FAILED.value
