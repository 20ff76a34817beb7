"""Mail never inside a transaction or a handler (issue 18, acceptance 4), on the shop's own paths:
the sign-up handler of the account dialog and an order paid through ``checkout.pay`` (what the
checkout handler runs in its worker thread), with ``MAIL_BACKEND=smtp`` and a real SMTP server on
loopback (aiosmtpd) that is down, or slow.

- SMTP down: the sign-up and the order succeed; their mail waits in the outbox and goes out
  once SMTP answers again.
- SMTP slow (holding every message until the test lets go): while the server holds a message,
  handlers answer; no handler waits for it (the server is still holding the message when they are
  done). The hold ends on the test's signal, not after a set time, so a busy machine's slow
  sign-ups cannot outlast it.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller
from reflex.state import State
from reflex_base.constants import RouteVar
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.api import mail_outbox
from shop_app.models import MailStatus, OutgoingMail, Product, User
from shop_app.models.base import utcnow
from shop_app.services import cart, checkout, mail
from shop_app.services.cart import CartOwner
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.state.auth_dialog import AuthDialogState
from tests.support.checkout import FORM
from tests.support.servers import free_port

LATER = timedelta(hours=2)  # past any back-off of one failed try
SLOW_S = 180.0  # a safety net only: the slow server lets go when the test says so
PAID = ChargeOutcome(
    status=ChargeStatus.COMPLETED, payment_id="sq-pay-1", card_brand="VISA", card_last4="1111"
)


class Gateway:
    """Square, accepting every charge (the payment is not what these tests are about)."""

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        return PAID

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        return None


class Inbox:
    """An SMTP server's handler keeping what it accepted; with ``gate``, it holds each message
    until the gate opens (at most ``SLOW_S``): a slow server."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.messages: list[EmailMessage] = []
        self.gate = gate
        self.holding = threading.Event()

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.gate is not None:
            self.holding.set()
            await asyncio.to_thread(self.gate.wait, SLOW_S)
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))
        return "250 Message accepted for delivery"


@contextlib.contextmanager
def smtp_server(port: int, inbox: Inbox) -> Iterator[Inbox]:
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp_port(app_env: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> int:
    """The shop (its settings and engine) on the test database, mailing by SMTP to a free port
    where nothing listens yet."""
    port = free_port()
    app_env(
        MAIL_BACKEND="smtp",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(port),
        SMTP_STARTTLS="false",
        MAIL_FROM="Cedar & Ember <hello@candles.example>",
        SQUARE_ENVIRONMENT="local",
        ACCOUNT_REQUESTS_PER_CLIENT="1000",
    )
    monkeypatch.setattr(mail, "SMTP_TIMEOUT_S", 2 * SLOW_S)  # the slow server must not time out
    return port


async def _dialog() -> AuthDialogState:
    root = State(_reflex_internal_init=True)
    root.router_data = root._update_router_vars({RouteVar.CLIENT_IP: "203.0.113.7", RouteVar.HEADERS: {}}, {})
    return await root.get_state(AuthDialogState)


def _sign_up_form(address: str) -> dict:
    return {
        "first_name": "Mia",
        "last_name": "Chen",
        "email": address,
        "password": "lavender-fields",
        "confirm_password": "lavender-fields",
        "agree_to_terms": "on",
    }


async def _sign_up(address: str) -> AuthDialogState:
    dialog = await _dialog()
    dialog.open_register()
    _ = [update async for update in dialog.submit_register(_sign_up_form(address))]
    return dialog


def _mails(session: Session) -> list[OutgoingMail]:
    session.rollback()  # a new read: see what was committed
    return list(session.exec(select(OutgoingMail).order_by(OutgoingMail.id)).all())


def _paid_order(session: Session, engine: Engine) -> checkout.PaymentResult:
    product = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=50)
    session.add(product)
    session.commit()
    owner = CartOwner(token="guest-cart-of-the-mail-test")
    cart.add_item(session, owner, product_id=product.id, quantity=1)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    return checkout.pay(
        order_id=placed.order_id,
        source_id="cnon:card-nonce-ok",
        gateway=Gateway(),
        owner=owner,
        engine=engine,
    )


def test_smtp_down_the_sign_up_and_the_order_succeed_and_mail_goes_out_when_it_returns(
    smtp_port: int, session: Session, engine: Engine
) -> None:
    dialog = asyncio.run(_sign_up("mia@example.com"))  # nothing listens on smtp_port
    paid = _paid_order(session, engine)

    assert dialog.error == "" and not dialog.is_open  # "Account created…", the dialog closed
    assert session.exec(select(User).where(User.email == "mia@example.com")).one()
    assert paid.succeeded
    queued = _mails(session)
    assert {(m.to_address, m.status) for m in queued} == {
        ("mia@example.com", MailStatus.QUEUED),
        (FORM.email, MailStatus.QUEUED),
    }

    report = mail.deliver_pending()  # SMTP is down: recorded, retried later
    assert (report.sent, report.retrying) == (0, 2)
    assert all(m.status == MailStatus.QUEUED and m.last_error for m in _mails(session))

    with smtp_server(smtp_port, Inbox()) as inbox:
        assert mail.deliver_pending(now=utcnow() + LATER).sent == 2

    assert sorted(m["To"] for m in inbox.messages) == sorted(["mia@example.com", FORM.email])
    assert any("Order confirmation" in m["Subject"] for m in inbox.messages)
    assert {(m.status, m.attempts) for m in _mails(session)} == {(MailStatus.SENT, 2)}


def test_smtp_slow_no_handler_waits_for_it(smtp_port: int, session: Session) -> None:
    """The server's delivery task holds a first mail inside an SMTP exchange that lasts until the
    test lets go; meanwhile two more sign-ups complete, and their mail follows once it does."""
    gate = threading.Event()

    async def scenario(inbox: Inbox) -> tuple[AuthDialogState, AuthDialogState, bool]:
        task = asyncio.create_task(mail_outbox.deliver_mail())
        try:
            await _sign_up("first@example.com")  # its commit wakes the task, which calls SMTP
            await _until(inbox.holding.is_set, "the delivery task never reached the SMTP server")
            second = await _sign_up("second@example.com")
            third = await _sign_up("third@example.com")
            still_held = not gate.is_set() and inbox.messages == []
            gate.set()
            await _until(lambda: len(inbox.messages) == 3, "the mail never went out")
            return second, third, still_held
        finally:
            gate.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    with smtp_server(smtp_port, Inbox(gate)) as inbox:
        second, third, still_held = asyncio.run(scenario(inbox))

    assert still_held  # both handlers were done while SMTP still held the first message
    assert (second.error, third.error) == ("", "")
    assert inbox.messages[0]["To"] == "first@example.com"
    assert sorted(m["To"] for m in inbox.messages) == [
        "first@example.com",
        "second@example.com",
        "third@example.com",
    ]
    assert {m.status for m in _mails(session)} == {MailStatus.SENT}


async def _until(condition: Callable[[], bool], problem: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, problem
        await asyncio.sleep(0.05)


def test_a_second_create_account_queued_behind_the_first_mails_nothing(
    smtp_port: int, session: Session
) -> None:
    """Stranger-found: a double-clicked Create Account ran twice, and the second mailed "you
    already have an account" beside the verification mail. The dialog the first closed ignores it."""

    async def double_click() -> list:
        dialog = await _sign_up("ada@example.com")
        return [update async for update in dialog.submit_register(_sign_up_form("ada@example.com"))]

    second = asyncio.run(double_click())

    assert second == []
    assert [m.to_address for m in _mails(session)] == ["ada@example.com"]  # the verification mail only
