"""The sandbox test payment tokens the simulator understands (docs/architecture.md#square-simulator).

A token is the magic value itself (``cnon:card-nonce-ok``) or the magic value followed by ``-`` or
``:`` and any suffix (``cnon:card-nonce-ok:7f3a…``): card nonces are single-use, so a local card
form that makes one token per attempt appends a unique suffix. Any other ``cnon:`` token is a
freshly tokenised Visa test card that succeeds. ``ccof:`` card-on-file ids may be reused; the
bare values may be reused when the ledger says ``reusable_test_values`` (the shop's own instance).
"""

from __future__ import annotations

from dataclasses import dataclass

DECLINE = "PAYMENT_METHOD_ERROR"
NEW_DECLINE_CODE = "NEW_DECLINE_CODE"
"""The decline code of the ``decline_new_code`` fault: not in Square's ``ErrorCode`` enum (API
version 2025-08-20), it stands for a decline reason Square adds after this release."""


@dataclass(frozen=True, slots=True)
class SandboxCard:
    """The card behind a token and what charging it does."""

    brand: str = "VISA"
    last_4: str = "1111"
    bin: str = "411111"
    exp_month: int = 11
    exp_year: int = 2030
    card_type: str = "CREDIT"
    prepaid_type: str = "NOT_PREPAID"
    error_code: str | None = None  # a decline code (category PAYMENT_METHOD_ERROR)
    cvv_status: str = "CVV_ACCEPTED"
    avs_status: str = "AVS_ACCEPTED"
    already_used: bool = False  # the token is spent: CARD_TOKEN_USED
    reusable: bool = False  # card on file: may be charged again


_VISA = SandboxCard()
_GIFT = SandboxCard(
    brand="SQUARE_GIFT_CARD",
    last_4="0000",
    bin="778332",
    card_type="UNKNOWN_CARD_TYPE",
    prepaid_type="PREPAID",
)

SANDBOX_TOKENS: dict[str, SandboxCard] = {
    "cnon:card-nonce-ok": _VISA,
    "cnon:card-nonce-declined": SandboxCard(error_code="GENERIC_DECLINE"),
    "cnon:card-nonce-rejected-cvv": SandboxCard(error_code="CVV_FAILURE", cvv_status="CVV_REJECTED"),
    "cnon:card-nonce-rejected-postalcode": SandboxCard(
        error_code="ADDRESS_VERIFICATION_FAILURE", avs_status="AVS_REJECTED"
    ),
    "cnon:card-nonce-rejected-expiration": SandboxCard(error_code="INVALID_EXPIRATION"),
    "cnon:card-nonce-already-used": SandboxCard(already_used=True),
    "cnon:card-nonce-requires-verification": SandboxCard(error_code="CARD_DECLINED_VERIFICATION_REQUIRED"),
    "cnon:gift-card-nonce-ok": _GIFT,
    "cnon:gift-card-nonce-insufficient-funds": SandboxCard(
        brand=_GIFT.brand,
        last_4=_GIFT.last_4,
        bin=_GIFT.bin,
        card_type=_GIFT.card_type,
        prepaid_type=_GIFT.prepaid_type,
        error_code="INSUFFICIENT_FUNDS",
    ),
    "cnon:gift-card-nonce-insufficient-permission": SandboxCard(
        brand=_GIFT.brand,
        last_4=_GIFT.last_4,
        bin=_GIFT.bin,
        card_type=_GIFT.card_type,
        prepaid_type=_GIFT.prepaid_type,
        error_code="INSUFFICIENT_PERMISSIONS",
    ),
    "ccof:customer-card-id-ok": SandboxCard(reusable=True),
    "ccof:customer-card-id-declined": SandboxCard(error_code="GENERIC_DECLINE", reusable=True),
    "ccof:customer-card-id-rejected-postalcode": SandboxCard(
        error_code="ADDRESS_VERIFICATION_FAILURE", avs_status="AVS_REJECTED", reusable=True
    ),
    "ccof:customer-card-id-rejected-expiration": SandboxCard(error_code="INVALID_EXPIRATION", reusable=True),
    "ccof:customer-card-id-requires-verification": SandboxCard(
        error_code="CARD_DECLINED_VERIFICATION_REQUIRED", reusable=True
    ),
}

# Longest first, so ``…-rejected-cvv`` wins over a shorter magic value it starts with.
_BY_LENGTH = sorted(SANDBOX_TOKENS, key=len, reverse=True)


def sandbox_card(source_id: str) -> SandboxCard | None:
    """The test card a ``source_id`` stands for, or None when the simulator does not know it."""
    for magic in _BY_LENGTH:
        if source_id == magic or (source_id.startswith(magic) and source_id[len(magic)] in "-:"):
            return SANDBOX_TOKENS[magic]
    if source_id.startswith("cnon:") and len(source_id) > len("cnon:"):
        return _VISA
    return None


def decline_detail(code: str) -> str:
    """Square's text for a declined authorisation."""
    return f"Authorization error: '{code}'"
