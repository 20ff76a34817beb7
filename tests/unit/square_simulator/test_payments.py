"""CreatePayment and the payment reads of the simulator, through the real SDK.

Every request and answer is checked against Square's OpenAPI subset by the ``sdk``/``raw``
fixtures (see openapi.py).
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

import httpx
import pytest
from rfc3339_validator import validate_rfc3339
from square import Square
from square.core.api_error import ApiError

from shop_app.services.square.client import square_client_for_app
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from tests.unit.square.builders import PUBLIC_URL
from tests.unit.square.openapi import SpecChecker

CAD = "CAD"


def pay(
    sdk: Square, source_id: str = "cnon:card-nonce-ok", key: str = "key-1", amount: int = 1500, **extra: Any
):
    """One CreatePayment."""
    return sdk.payments.create(
        source_id=source_id,
        idempotency_key=key,
        amount_money={"amount": amount, "currency": extra.pop("currency", CAD)},
        location_id=extra.pop("location_id", "LSIMULATOR0CA"),
        **extra,
        request_options={"max_retries": 0},
    )


def refused(sdk: Square, source_id: str, key: str = "key-1", **extra: Any) -> ApiError:
    with pytest.raises(ApiError) as caught:
        pay(sdk, source_id, key, **extra)
    return caught.value


def test_ok_nonce_completes_with_card_details_and_receipt(sdk: Square, ledger: SimulatorLedger) -> None:
    response = pay(
        sdk,
        reference_id="CE-1001",
        buyer_email_address="ada@example.com",
        note="web order",
        autocomplete=True,
    )

    payment = response.payment
    assert payment is not None
    assert payment.status == "COMPLETED"
    assert payment.amount_money.amount == 1500
    assert payment.amount_money.currency == CAD
    assert payment.total_money.amount == 1500
    assert payment.card_details.status == "CAPTURED"
    assert payment.card_details.card.card_brand == "VISA"
    assert payment.card_details.card.last4 == "1111"
    assert payment.reference_id == "CE-1001"
    assert payment.buyer_email_address == "ada@example.com"
    assert payment.receipt_url == f"{PUBLIC_URL}/receipt/preview/{payment.id}"
    assert payment.order_id
    assert validate_rfc3339(payment.created_at)
    assert payment.created_at == payment.updated_at
    assert [p["id"] for p in ledger.payments()] == [payment.id]


@pytest.mark.parametrize(
    ("source_id", "code", "details"),
    [
        ("cnon:card-nonce-declined", "GENERIC_DECLINE", {}),
        ("cnon:card-nonce-rejected-cvv", "CVV_FAILURE", {"cvv_status": "CVV_REJECTED"}),
        (
            "cnon:card-nonce-rejected-postalcode",
            "ADDRESS_VERIFICATION_FAILURE",
            {"avs_status": "AVS_REJECTED"},
        ),
        ("cnon:card-nonce-rejected-expiration", "INVALID_EXPIRATION", {}),
        ("cnon:card-nonce-requires-verification", "CARD_DECLINED_VERIFICATION_REQUIRED", {}),
        ("cnon:gift-card-nonce-insufficient-funds", "INSUFFICIENT_FUNDS", {}),
        ("cnon:gift-card-nonce-insufficient-permission", "INSUFFICIENT_PERMISSIONS", {}),
        ("ccof:customer-card-id-declined", "GENERIC_DECLINE", {}),
    ],
)
def test_decline_nonces_answer_400_with_errors_and_the_failed_payment(
    sdk: Square, ledger: SimulatorLedger, source_id: str, code: str, details: dict[str, str]
) -> None:
    error = refused(sdk, source_id)

    assert error.status_code == 400
    assert [(e.category, e.code) for e in error.errors] == [("PAYMENT_METHOD_ERROR", code)]
    assert error.errors[0].detail == f"Authorization error: '{code}'"
    payment = error.body["payment"]
    assert payment["status"] == "FAILED"
    assert payment["card_details"]["status"] == "FAILED"
    assert payment["card_details"]["errors"][0]["code"] == code
    assert details.items() <= payment["card_details"].items()
    assert [(p["id"], p["status"]) for p in ledger.payments()] == [(payment["id"], "FAILED")]


@pytest.mark.parametrize(
    ("source_id", "brand", "last_4"),
    [
        ("cnon:card-nonce-ok", "VISA", "1111"),
        ("cnon:gift-card-nonce-ok", "SQUARE_GIFT_CARD", "0000"),
        ("ccof:customer-card-id-ok", "VISA", "1111"),
        ("cnon:card-nonce-ok:3f1c2a", "VISA", "1111"),  # a unique suffix for single-use tokens
        ("cnon:CBASE-any-other-token", "VISA", "1111"),  # a freshly tokenised test card
    ],
)
def test_success_tokens(sdk: Square, source_id: str, brand: str, last_4: str) -> None:
    payment = pay(sdk, source_id).payment

    assert payment.status == "COMPLETED"
    assert (payment.card_details.card.card_brand, payment.card_details.card.last4) == (brand, last_4)


def test_a_suffixed_decline_token_still_declines(sdk: Square) -> None:
    assert refused(sdk, "cnon:card-nonce-rejected-cvv-0001").errors[0].code == "CVV_FAILURE"


def test_already_used_nonce_is_card_token_used_without_a_payment(
    sdk: Square, ledger: SimulatorLedger
) -> None:
    error = refused(sdk, "cnon:card-nonce-already-used")

    assert error.status_code == 400
    assert [(e.category, e.code, e.field) for e in error.errors] == [
        ("INVALID_REQUEST_ERROR", "CARD_TOKEN_USED", "source_id")
    ]
    assert "payment" not in error.body
    assert ledger.payments() == []


def test_a_nonce_is_single_use_across_payments(sdk: Square, ledger: SimulatorLedger) -> None:
    pay(sdk, "cnon:card-nonce-ok:once", key="first")

    error = refused(sdk, "cnon:card-nonce-ok:once", key="second")

    assert error.errors[0].code == "CARD_TOKEN_USED"
    assert len(ledger.payments()) == 1


def test_a_declined_nonce_is_spent_too(sdk: Square) -> None:
    refused(sdk, "cnon:card-nonce-declined", key="first")

    assert refused(sdk, "cnon:card-nonce-declined", key="second").errors[0].code == "CARD_TOKEN_USED"


def test_card_on_file_may_be_charged_again(sdk: Square, ledger: SimulatorLedger) -> None:
    pay(sdk, "ccof:customer-card-id-ok", key="first")
    pay(sdk, "ccof:customer-card-id-ok", key="second")

    assert len(ledger.payments()) == 2


def _sdk_on(ledger: SimulatorLedger, spec: SpecChecker) -> Square:
    return square_client_for_app(create_simulator(ledger), event_hooks=spec.hooks())


def test_nonces_may_be_reusable_when_the_ledger_says_so(spec: SpecChecker) -> None:
    ledger = SimulatorLedger(single_use_nonces=False)
    sdk = _sdk_on(ledger, spec)
    pay(sdk, "cnon:card-nonce-ok:same", key="first")
    pay(sdk, "cnon:card-nonce-ok:same", key="second")

    assert len(ledger.payments()) == 2


def test_bare_sandbox_values_may_be_reusable_as_in_squares_sandbox(spec: SpecChecker) -> None:
    ledger = SimulatorLedger(reusable_test_values=True)
    sdk = _sdk_on(ledger, spec)
    pay(sdk, "cnon:card-nonce-ok", key="first")
    pay(sdk, "cnon:card-nonce-ok", key="second")
    refused(sdk, "cnon:card-nonce-declined", key="third")
    refused(sdk, "cnon:card-nonce-declined", key="fourth")
    pay(sdk, "cnon:card-nonce-ok:unique", key="fifth")

    assert refused(sdk, "cnon:card-nonce-ok:unique", key="sixth").errors[0].code == "CARD_TOKEN_USED"
    assert refused(sdk, "cnon:card-nonce-already-used", key="seventh").errors[0].code == "CARD_TOKEN_USED"
    statuses = [p["status"] for p in ledger.payments()]
    assert statuses == ["COMPLETED", "COMPLETED", "FAILED", "FAILED", "COMPLETED"]


def test_unknown_source_is_refused(sdk: Square, ledger: SimulatorLedger) -> None:
    error = refused(sdk, "not-a-token")

    assert (error.status_code, error.errors[0].code, error.errors[0].field) == (400, "NOT_FOUND", "source_id")
    assert ledger.payments() == []


def test_same_key_and_body_replays_the_first_answer(sdk: Square, ledger: SimulatorLedger) -> None:
    first = pay(sdk, reference_id="CE-1").payment
    again = pay(sdk, reference_id="CE-1").payment

    assert again.id == first.id
    assert again.model_dump() == first.model_dump()
    assert len(ledger.payments()) == 1


def test_same_key_replays_a_decline(sdk: Square, ledger: SimulatorLedger) -> None:
    first = refused(sdk, "cnon:card-nonce-declined")
    again = refused(sdk, "cnon:card-nonce-declined")

    assert again.body == first.body
    assert len(ledger.payments()) == 1


def test_same_key_with_another_body_is_idempotency_key_reused(sdk: Square, ledger: SimulatorLedger) -> None:
    pay(sdk, amount=1500)

    with pytest.raises(ApiError) as caught:
        pay(sdk, amount=1600)

    assert caught.value.status_code == 400
    assert [(e.category, e.code, e.field) for e in caught.value.errors] == [
        ("INVALID_REQUEST_ERROR", "IDEMPOTENCY_KEY_REUSED", "idempotency_key")
    ]
    assert len(ledger.payments()) == 1


def test_concurrent_requests_with_one_key_charge_once(sdk: Square, ledger: SimulatorLedger) -> None:
    ids: list[str] = []

    def charge() -> None:
        ids.append(pay(sdk, "cnon:card-nonce-ok:parallel", key="parallel").payment.id)

    threads = [threading.Thread(target=charge) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(ids) == 8
    assert len(set(ids)) == 1
    assert len(ledger.payments()) == 1


VALID: dict[str, Any] = {
    "source_id": "cnon:card-nonce-ok",
    "idempotency_key": "k",
    "amount_money": {"amount": 100, "currency": "CAD"},
}
MISSING = object()


def _body(**changes: Any) -> dict[str, Any]:
    """A valid CreatePayment body with some fields changed (or removed with MISSING)."""
    body = {**VALID, **changes}
    return {k: v for k, v in body.items() if v is not MISSING}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"source_id": MISSING}, ("MISSING_REQUIRED_PARAMETER", "source_id")),
        ({"idempotency_key": MISSING}, ("MISSING_REQUIRED_PARAMETER", "idempotency_key")),
        ({"idempotency_key": "k" * 46}, ("VALUE_TOO_LONG", "idempotency_key")),
        ({"source_id": ""}, ("VALUE_TOO_SHORT", "source_id")),
        ({"amount_money": {"amount": "100", "currency": "CAD"}}, ("EXPECTED_INTEGER", "amount_money.amount")),
        ({"amount_money": {"amount": 4.99, "currency": "CAD"}}, ("EXPECTED_INTEGER", "amount_money.amount")),
        ({"amount_money": {"amount": 100, "currency": 7}}, ("EXPECTED_STRING", "amount_money.currency")),
        (
            {"amount_money": {"amount": 100, "currency": "dollars"}},
            ("INVALID_ENUM_VALUE", "amount_money.currency"),
        ),
        ({"amount_money": "100"}, ("EXPECTED_OBJECT", "amount_money")),
        ({"autocomplete": "yes"}, ("EXPECTED_BOOLEAN", "autocomplete")),
        ({"reference_id": "r" * 41}, ("VALUE_TOO_LONG", "reference_id")),
    ],
)
def test_requests_the_spec_refuses_are_refused(
    raw: httpx.Client,
    spec: SpecChecker,
    ledger: SimulatorLedger,
    changes: dict[str, Any],
    expected: tuple[str, str],
) -> None:
    response = raw.post("/v2/payments", json=_body(**changes))

    assert spec.request_errors(response.request), "the spec accepts this request"
    assert response.status_code == 400
    assert [(e["code"], e["field"]) for e in response.json()["errors"]] == [expected]
    assert ledger.payments() == []


@pytest.mark.parametrize(
    ("amount_money", "code", "field"),
    [
        ({"amount": 0, "currency": "CAD"}, "VALUE_TOO_LOW", "amount_money.amount"),
        ({"amount": -5, "currency": "CAD"}, "VALUE_TOO_LOW", "amount_money.amount"),
        ({"currency": "CAD"}, "MISSING_REQUIRED_PARAMETER", "amount_money.amount"),
        ({"amount": 100}, "MISSING_REQUIRED_PARAMETER", "amount_money.currency"),
        ({"amount": 100, "currency": "USD"}, "CURRENCY_MISMATCH", "amount_money.currency"),
        (None, "MISSING_REQUIRED_PARAMETER", "amount_money"),
    ],
)
def test_card_payments_need_an_amount_of_at_least_one_cent_in_the_location_currency(
    sdk: Square, ledger: SimulatorLedger, amount_money: dict[str, Any] | None, code: str, field: str
) -> None:
    arguments: dict[str, Any] = {"amount_money": amount_money} if amount_money is not None else {}
    with pytest.raises(ApiError) as caught:
        sdk.payments.create(source_id="cnon:card-nonce-ok", idempotency_key="k", **arguments)

    assert caught.value.status_code == 400
    assert [(e.code, e.field) for e in caught.value.errors] == [(code, field)]
    assert ledger.payments() == []


def test_a_body_that_is_not_json_is_refused(raw: httpx.Client) -> None:
    response = raw.post("/v2/payments", content=b"{not json", headers={"content-type": "application/json"})

    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "EXPECTED_JSON_BODY"


def test_autocomplete_false_approves_then_complete_captures(sdk: Square, raw: httpx.Client) -> None:
    approved = pay(sdk, autocomplete=False).payment
    assert (approved.status, approved.card_details.status) == ("APPROVED", "AUTHORIZED")

    completed = raw.post(f"/v2/payments/{approved.id}/complete", json={}).json()["payment"]

    assert (completed["status"], completed["card_details"]["status"]) == ("COMPLETED", "CAPTURED")
    assert sdk.payments.get(approved.id).payment.status == "COMPLETED"


def test_cancel_voids_an_approved_payment_only(sdk: Square, raw: httpx.Client) -> None:
    approved = pay(sdk, autocomplete=False, key="a").payment
    completed = pay(sdk, "cnon:card-nonce-ok:2", key="b").payment

    assert raw.post(f"/v2/payments/{approved.id}/cancel", json={}).json()["payment"]["status"] == "CANCELED"
    refused_cancel = raw.post(f"/v2/payments/{completed.id}/cancel", json={})
    assert refused_cancel.status_code == 400


def test_get_payment_and_unknown_payment(sdk: Square) -> None:
    payment = pay(sdk).payment

    assert sdk.payments.get(payment.id).payment.id == payment.id
    with pytest.raises(ApiError) as caught:
        sdk.payments.get("nope")
    assert (caught.value.status_code, caught.value.errors[0].code) == (404, "NOT_FOUND")


def test_list_payments_pages_newest_first_and_filters(sdk: Square, ledger: SimulatorLedger) -> None:
    made = [pay(sdk, f"cnon:card-nonce-ok:{i}", key=f"k{i}", amount=100 + i).payment.id for i in range(5)]

    listed = [p.id for p in sdk.payments.list(limit=2, sort_order="ASC")]
    assert listed == made
    newest = [p.id for p in sdk.payments.list(limit=2)]
    assert sorted(newest) == sorted(made)
    assert [p.id for p in sdk.payments.list(total=102)] == [made[2]]
    assert list(sdk.payments.list(location_id="LOTHER")) == []
    first = datetime.fromisoformat(ledger.payments()[0]["created_at"])
    assert len(list(sdk.payments.list(begin_time=first.isoformat()))) == 5


def test_list_payments_refuses_a_bad_cursor(raw: httpx.Client) -> None:
    response = raw.get("/v2/payments", params={"cursor": "!!"})

    assert (response.status_code, response.json()["errors"][0]["code"]) == (400, "INVALID_CURSOR")
