"""Payments API of the simulator: CreatePayment plus Get/List/Complete/Cancel.

CreatePayment (``POST /v2/payments``) follows Square's sandbox: the test tokens of
``nonces`` decide the outcome; a decline answers 400 with ``errors[]`` *and* the FAILED
``payment``; a spent nonce answers 400 CARD_TOKEN_USED; the same idempotency key with the same
body replays the first answer, with another body IDEMPOTENCY_KEY_REUSED. ``amount_money`` is
required for card payments, at least 1 (smallest unit), in the location's currency.
Get/List/Complete/Cancel are not in the OpenAPI subset; they follow Square's reference so the
shop can look a payment up and finish a delayed capture.

A new payment is built as the SDK's ``Payment`` (``square.types``: ``Money``, ``CardPaymentDetails``,
``Card`` …), so its fields are the SDK's, and kept in the ledger as Square's JSON (``sdk_json``);
Complete and Cancel change that JSON in place.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from square.types.application_details import ApplicationDetails
from square.types.card import Card
from square.types.card_payment_details import CardPaymentDetails
from square.types.card_payment_timeline import CardPaymentTimeline
from square.types.error import Error
from square.types.money import Money
from square.types.payment import Payment
from square.types.risk_evaluation import RiskEvaluation

from shop_app.square_simulator.http import (
    SimRequest,
    SimResponse,
    decode_cursor,
    encode_cursor,
    error,
    idempotency_key,
    invalid,
    money,
    not_found,
    ok,
    optional_bool,
    optional_str,
    parse_time,
    require_str,
    run_idempotent,
    sdk_json,
)
from shop_app.square_simulator.nonces import (
    DECLINE,
    NEW_DECLINE_CODE,
    SANDBOX_TOKENS,
    SandboxCard,
    decline_detail,
    sandbox_card,
)
from shop_app.square_simulator.state import Json, new_id, rfc3339

PAYMENT_KEY_MAX = 45
DELAY_DURATION = "PT168H"  # card-not-present authorisations are held for seven days
STATEMENT = "SQ *LOCAL SIMULATOR"
LIST_PAGE_MAX = 100
_OPTIONAL_TEXT: tuple[tuple[str, int | None], ...] = (
    ("reference_id", 40),
    ("note", 500),
    ("buyer_email_address", 255),
    ("statement_description_identifier", 20),
    ("buyer_phone_number", None),
    ("customer_id", None),
    ("order_id", None),
    ("team_member_id", None),
    ("verification_token", None),
)


def create_payment(req: SimRequest) -> SimResponse:
    """POST /v2/payments."""
    body, ledger = req.body, req.ledger
    key = idempotency_key(body, PAYMENT_KEY_MAX)
    source_id = require_str(body, "source_id")
    amount = money(body, "amount_money")
    tip = money(body, "tip_money", minimum=0) if body.get("tip_money") is not None else None
    text = {name: optional_str(body, name, max_length=limit) for name, limit in _OPTIONAL_TEXT}
    autocomplete = optional_bool(body, "autocomplete")
    location_id = optional_str(body, "location_id", max_length=50) or ledger.location_id
    for name, value in (("amount_money", amount), ("tip_money", tip)):
        if value is not None and value["currency"] != ledger.currency:
            raise invalid(
                "CURRENCY_MISMATCH",
                f"This merchant can only process payments in {ledger.currency}, "
                f"but amount was provided in {value['currency']}.",
                f"{name}.currency",
            )

    def charge() -> SimResponse:
        card = sandbox_card(source_id)
        if card is None:
            raise invalid(
                "NOT_FOUND", "Card nonce not found in this `local` application environment.", "source_id"
            )
        single_use = ledger.single_use_nonces and not card.reusable
        if single_use and ledger.reusable_test_values and source_id in SANDBOX_TOKENS:
            single_use = False
        if card.already_used or (single_use and source_id in ledger.state.used_sources):
            raise invalid(
                "CARD_TOKEN_USED", "Card nonce already used; please request new nonce.", "source_id"
            )
        if single_use:
            ledger.state.used_sources.add(source_id)
        if req.fault == "decline_new_code":
            card = replace(card, error_code=NEW_DECLINE_CODE)
        payment = _new_payment(
            req,
            card=card,
            amount=amount,
            tip=tip,
            text=text,
            location_id=location_id,
            autocomplete=autocomplete is not False,
        )
        ledger.state.payments[payment["id"]] = payment
        if card.error_code:
            return SimResponse(400, {"errors": payment["card_details"]["errors"], "payment": payment})
        return ok({"payment": payment})

    return run_idempotent(ledger, "CreatePayment", key, body, charge)


def _new_payment(
    req: SimRequest,
    *,
    card: SandboxCard,
    amount: Json,
    tip: Json | None,
    text: dict[str, str | None],
    location_id: str,
    autocomplete: bool,
) -> Json:
    now = req.ledger.now()
    created = rfc3339(now)
    payment_id = new_id()
    total = Money(amount=amount["amount"] + (tip["amount"] if tip else 0), currency=amount["currency"])
    failed = card.error_code is not None
    status = "FAILED" if failed else ("COMPLETED" if autocomplete else "APPROVED")
    code = card.error_code or "GENERIC_DECLINE"
    card_details = CardPaymentDetails(
        status={"FAILED": "FAILED", "COMPLETED": "CAPTURED", "APPROVED": "AUTHORIZED"}[status],
        card=Card(
            card_brand=card.brand,
            last4=card.last_4,
            exp_month=card.exp_month,
            exp_year=card.exp_year,
            fingerprint=f"sq-1-local-simulator-{card.bin}-{card.last_4}",
            card_type=card.card_type,
            prepaid_type=card.prepaid_type,
            bin=card.bin,
        ),
        entry_method="KEYED",
        cvv_status=card.cvv_status,
        avs_status=card.avs_status,
        auth_result_code=None if failed else new_id(6).upper(),
        statement_description=STATEMENT,
        card_payment_timeline=CardPaymentTimeline(
            authorized_at=None if failed else created,
            captured_at=created if status == "COMPLETED" else None,
        ),
        errors=[Error.model_validate(error(DECLINE, code, decline_detail(code)))] if failed else None,
    )
    payment = Payment(
        id=payment_id,
        created_at=created,
        updated_at=created,
        amount_money=Money.model_validate(amount),
        tip_money=Money.model_validate(tip) if tip else None,
        total_money=total,
        approved_money=None if failed else total,
        status=status,
        delay_duration=DELAY_DURATION,
        delay_action="CANCEL",
        delayed_until=rfc3339(now + timedelta(days=7)),
        source_type="CARD",
        card_details=card_details,
        location_id=location_id,
        order_id=text.get("order_id") or new_id(),
        reference_id=text.get("reference_id") or None,
        customer_id=text.get("customer_id") or None,
        team_member_id=text.get("team_member_id") or None,
        risk_evaluation=None if failed else RiskEvaluation(created_at=created, risk_level="NORMAL"),
        buyer_email_address=text.get("buyer_email_address") or None,
        note=text.get("note") or None,
        statement_description_identifier=text.get("statement_description_identifier") or None,
        capabilities=(
            ["EDIT_AMOUNT_UP", "EDIT_AMOUNT_DOWN", "EDIT_TIP_AMOUNT_UP", "EDIT_TIP_AMOUNT_DOWN"]
            if status == "APPROVED"
            else None
        ),
        receipt_number=payment_id[:4],
        receipt_url=f"{req.public_url}/receipt/preview/{payment_id}",
        application_details=ApplicationDetails(
            square_product="ECOMMERCE_API", application_id="sq0idp-local-simulator"
        ),
        version_token=new_id(),
    )
    return sdk_json(payment)


def _stored_payment(req: SimRequest) -> Json:
    payment_id = req.path_params["payment_id"]
    payment = req.ledger.state.payments.get(payment_id)
    if payment is None:
        raise not_found(f"Could not find payment with id: {payment_id}")
    return payment


def get_payment(req: SimRequest) -> SimResponse:
    """GET /v2/payments/{payment_id}."""
    with req.ledger.lock:
        return ok({"payment": _stored_payment(req)})


def _settle_approved(req: SimRequest, status: str, card_status: str, timeline_key: str) -> SimResponse:
    """Move an APPROVED payment to ``status`` (asking again once it is there is a no-op)."""
    with req.ledger.lock:
        payment = _stored_payment(req)
        if payment["status"] == "APPROVED":
            now = req.ledger.timestamp()
            payment.update(status=status, updated_at=now, version_token=new_id())
            payment.pop("capabilities", None)
            payment["card_details"]["status"] = card_status
            payment["card_details"]["card_payment_timeline"][timeline_key] = now
        elif payment["status"] != status:
            raise invalid("BAD_REQUEST", f"Payment {payment['id']} is {payment['status']}.", "payment_id")
        return ok({"payment": payment})


def complete_payment(req: SimRequest) -> SimResponse:
    """POST /v2/payments/{payment_id}/complete: capture an APPROVED payment."""
    return _settle_approved(req, "COMPLETED", "CAPTURED", "captured_at")


def cancel_payment(req: SimRequest) -> SimResponse:
    """POST /v2/payments/{payment_id}/cancel: void an APPROVED payment."""
    return _settle_approved(req, "CANCELED", "VOIDED", "voided_at")


def _time_param(req: SimRequest, name: str, default: datetime) -> datetime:
    text = req.query.get(name)
    return parse_time(text, name) if text else default


def _int_param(req: SimRequest, name: str) -> int | None:
    text = req.query.get(name)
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise invalid("EXPECTED_INTEGER", f"`{name}` must be an integer.", name) from None


def list_payments(req: SimRequest) -> SimResponse:
    """GET /v2/payments: filters begin/end time, location, total, last_4, card brand; pages of 100."""
    now = req.ledger.now()
    begin = _time_param(req, "begin_time", now - timedelta(days=365))
    end = _time_param(req, "end_time", now + timedelta(seconds=1))
    order = (req.query.get("sort_order") or "DESC").upper()
    if order not in ("ASC", "DESC"):
        raise invalid("INVALID_SORT_ORDER", "sort_order must be ASC or DESC.", "sort_order")
    limit = min(_int_param(req, "limit") or LIST_PAGE_MAX, LIST_PAGE_MAX)
    if limit < 1:
        raise invalid("VALUE_TOO_LOW", "limit must be at least 1.", "limit")
    total = _int_param(req, "total")
    offset = decode_cursor(req.query.get("cursor"))
    location_id = req.query.get("location_id")
    last_4 = req.query.get("last_4")
    brand = req.query.get("card_brand")
    with req.ledger.lock:
        found = [
            p
            for p in req.ledger.state.payments.values()
            if begin <= datetime.fromisoformat(p["created_at"]) < end
            and (not location_id or p["location_id"] == location_id)
            and (total is None or p["total_money"]["amount"] == total)
            and (not last_4 or p["card_details"]["card"]["last_4"] == last_4)
            and (not brand or p["card_details"]["card"]["card_brand"] == brand)
        ]
        found.sort(key=lambda p: p["created_at"], reverse=order == "DESC")
        page = found[offset : offset + limit]
        body: Json = {"payments": page} if page else {}
        if offset + limit < len(found):
            body["cursor"] = encode_cursor(offset + limit)
        return ok(body)
