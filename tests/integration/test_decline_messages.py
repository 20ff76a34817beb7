"""A declined card tells the shopper what to do in a plain sentence, never Square's raw code.

Orders are placed and paid through the real order flow and the real SDK gateway, against the
Square simulator with its decline test cards: the answer at checkout, the mail of a decline found
while reconciling, and that of a decline reported by Square's webhook all carry the sentence of
``domain.payment_errors``; the code stays in the payment row and the log.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.messages import DeclineMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OutgoingMail, Payment, Product
from shop_app.services import cart, checkout
from shop_app.services.cart import CartOwner
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.services.square import webhooks
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.settings import get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.checkout import FORM

DECLINE_CARDS = [
    ("cnon:card-nonce-declined", "GENERIC_DECLINE", DeclineMessage.DECLINED),
    ("cnon:card-nonce-rejected-cvv", "CVV_FAILURE", DeclineMessage.SECURITY_CODE),
    ("cnon:card-nonce-rejected-postalcode", "ADDRESS_VERIFICATION_FAILURE", DeclineMessage.POSTAL_CODE),
    ("cnon:card-nonce-rejected-expiration", "INVALID_EXPIRATION", DeclineMessage.EXPIRATION),
    ("cnon:gift-card-nonce-insufficient-funds", "INSUFFICIENT_FUNDS", DeclineMessage.FUNDS),
    (
        "cnon:card-nonce-requires-verification",
        "CARD_DECLINED_VERIFICATION_REQUIRED",
        DeclineMessage.VERIFICATION,
    ),
    ("cnon:card-nonce-already-used", "CARD_TOKEN_USED", DeclineMessage.ENTER_CARD_AGAIN),
]
RAW = re.compile(r"[A-Z]+_[A-Z_]+|Authorization error")


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def gateway(ledger: SimulatorLedger) -> SquareGateway:
    """The real SDK gateway, talking to the simulator (its ledger is the bank)."""
    return SquareGateway(
        square_client_for_app(create_simulator(ledger)), location_id=ledger.location_id, timeout_s=10
    )


class LostAnswer:
    """A gateway whose charges reach Square but whose answers are lost on the way back."""

    def __init__(self, inner: SquareGateway) -> None:
        self.inner = inner

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        self.inner.charge(request)
        raise TimeoutError("read timed out")

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        return None  # nothing known yet: pay() charges


def _place(session: Session, engine: Engine) -> int:
    product = Product(name="12oz Soy Candle - Cedar", base_price_cents=3200, stock_quantity=5)
    session.add(product)
    session.commit()
    owner = CartOwner(token=f"decline-{uuid.uuid4().hex}")
    cart.add_item(session, owner, product_id=product.id, quantity=1)
    session.commit()
    return checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine).order_id


def _payment(engine: Engine, order_id: int) -> Payment:
    with Session(engine) as session:
        return session.exec(select(Payment).where(Payment.order_id == order_id)).one()


def _mails(engine: Engine) -> list[OutgoingMail]:
    with Session(engine) as session:
        return list(session.exec(select(OutgoingMail).order_by(OutgoingMail.id)))


@pytest.mark.parametrize(("source_id", "code", "sentence"), DECLINE_CARDS)
def test_checkout_shows_the_plain_sentence_and_keeps_the_code(
    *,
    session: Session,
    engine: Engine,
    gateway: SquareGateway,
    caplog: pytest.LogCaptureFixture,
    source_id: str,
    code: str,
    sentence: DeclineMessage,
) -> None:
    order_id = _place(session, engine)

    with caplog.at_level(logging.INFO):
        result = checkout.pay(order_id=order_id, source_id=source_id, gateway=gateway, engine=engine)

    assert (result.status, result.message) == (ChargeStatus.DECLINED, sentence.value)
    assert RAW.search(result.message) is None
    payment = _payment(engine, order_id)
    assert (payment.status, payment.error_code) == (PaymentStatus.FAILED, code)
    assert payment.error_detail == sentence  # what the shopper was told
    assert code in caplog.text  # the shop keeps the code in its log
    # Asking again (a reload, a second click) tells the same sentence.
    again = checkout.pay(order_id=order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine)
    assert again.message == sentence


def test_a_decline_found_by_reconciling_is_mailed_in_a_plain_sentence(
    session: Session, engine: Engine, gateway: SquareGateway
) -> None:
    order_id = _place(session, engine)
    lost = LostAnswer(gateway)
    cvv = "cnon:card-nonce-rejected-cvv"
    waiting = checkout.pay(order_id=order_id, source_id=cvv, gateway=lost, engine=engine)
    assert waiting.status == ChargeStatus.UNKNOWN

    settled = checkout.reconcile(order_id=order_id, gateway=gateway, engine=engine)

    assert (settled.status, settled.message) == (ChargeStatus.DECLINED, DeclineMessage.SECURITY_CODE)
    [mail] = _mails(engine)
    assert mail.kind == "order_payment_failed"
    assert DeclineMessage.SECURITY_CODE in mail.body_text
    assert RAW.search(mail.body_text) is None and RAW.search(mail.body_html) is None
    assert _payment(engine, order_id).error_code == "CVV_FAILURE"


def test_a_decline_reported_by_the_webhook_is_mailed_in_a_plain_sentence(
    session: Session, engine: Engine, gateway: SquareGateway, ledger: SimulatorLedger
) -> None:
    order_id = _place(session, engine)
    checkout.pay(
        order_id=order_id,
        source_id="cnon:card-nonce-rejected-postalcode",
        gateway=LostAnswer(gateway),
        engine=engine,
    )
    [failed] = ledger.payments()
    event = {
        "type": "payment.updated",
        "event_id": str(uuid.uuid4()),
        "data": {"type": "payment", "id": failed["id"], "object": {"payment": failed}},
    }

    with Session(engine) as webhook_session:
        assert webhooks.handle(webhook_session, event).result == "applied"

    with Session(engine) as check:
        assert check.get(Order, order_id).status == OrderStatus.CANCELLED
    [mail] = _mails(engine)
    assert DeclineMessage.POSTAL_CODE in mail.body_text
    assert RAW.search(mail.body_text) is None
    assert _payment(engine, order_id).error_code == "ADDRESS_VERIFICATION_FAILURE"
