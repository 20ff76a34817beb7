"""Paying a placed order: charge once per order, whatever the retries
(docs/architecture.md#orders-and-payment).

- The amount charged is the order's total in the database, never a figure from the browser;
  the idempotency key is the one written with the order, on every attempt.
- Before the first charge the payment is marked ``unknown`` ("a charge may be under way") in its
  own short transaction. No database transaction is open while the provider is called.
- A later ``pay`` of an order already paid returns the paid result without calling the
  provider. A ``pay`` of an order whose outcome is unknown first asks the provider what became
  of the earlier attempt (``gateway.find``) and charges again, with the same key, only when the
  provider has no answer; the provider returns the first result for a repeated key.
- ``completed``: order ``pending`` (paid), cart emptied, confirmation mail. ``declined``: order
  ``cancelled``, stock given back, the cart kept, and for the shopper the plain sentence of the
  provider's error code (``domain.payment_errors``: never the code or the provider's own text,
  which go to the log; the code stays in the payment row).
  ``unknown``: the order keeps waiting; :func:`reconcile` (polling or the webhook) settles it.
- The shopper's mail (confirmation, payment not completed) is recorded in the outbox in the very
  transaction that settles the order, in a savepoint (``mail.recording_apart``): it goes out if and
  only if the order moved, a failure to write it never undoes a payment, and no mail server is
  talked to here (the delivery worker sends it after the commit, docs/architecture.md#mail). A
  paid order also gives the shop its low-stock alerts (``services.low_stock``), in one more
  transaction that claims the crossings and records their mails.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.db import session_scope, write_transaction
from shop_app.domain.messages import OrderMessage, PaymentMessage
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.domain.payment_errors import decline_message, failure_sentence
from shop_app.services import low_stock, mail
from shop_app.services.cart import CartOwner
from shop_app.services.order_history import PLACED_PAYMENT_STATUSES
from shop_app.services.ordering import receipt, settle
from shop_app.services.ordering.forms import CheckoutError
from shop_app.services.ordering.settle import OrderState
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus, PaymentGateway
from shop_app.settings import SquareEnvironment, get_settings

log = logging.getLogger(__name__)

PLACED_STATUSES = tuple(status.value for status in PLACED_PAYMENT_STATUSES)
"""A payment already taken (or simulated): the one definition is ``services.order_history``'s."""


@dataclass(frozen=True, slots=True)
class PaymentResult:
    """What became of paying an order, for the shopper."""

    status: ChargeStatus
    order_id: int
    order_number: str
    message: str = ""  # what went wrong, in a sentence for the shopper, or "we are confirming"
    charged: bool = True  # False for the simulated PayPal of local mode

    @property
    def succeeded(self) -> bool:
        """Whether the order is placed (go to the success page)."""
        return self.status == ChargeStatus.COMPLETED


def pay(
    *,
    order_id: int,
    source_id: str,
    gateway: PaymentGateway,
    owner: CartOwner | None = None,
    engine: Engine | None = None,
) -> PaymentResult:
    """Charge the order's total with its stored idempotency key and record the outcome.

    Args:
        order_id: The order returned by ``place_order`` (held server-side, not sent by the browser).
        source_id: The card token from the payment form.
        gateway: The payment provider.
        owner: The cart to empty when the payment completes (the signed-in customer's own cart is
            found without it).
        engine: The database.

    Raises:
        CheckoutError: The order does not exist.
    """
    state = _read(engine, order_id)
    for _ in range(2):
        final = _final_result(state)
        if final is not None:
            return final
        if state.attempt_status == PaymentStatus.PENDING:
            with write_transaction(engine) as session:
                first = settle.mark_attempt(session, state, PaymentProvider.SQUARE)
            if first:
                break
            state = _read(engine, order_id)  # someone else started (or settled) it meanwhile
            continue
        earlier = _ask(gateway.find, state.idempotency_key, reference=state.order_number)
        if earlier is not None and earlier.status != ChargeStatus.UNKNOWN:
            return _apply(engine, state, earlier, owner)
        break
    request = ChargeRequest(
        idempotency_key=state.idempotency_key,
        source_id=source_id,
        amount_cents=state.total_cents,
        currency=state.currency,
        reference=state.order_number,
        buyer_email=state.email,
        note=f"Order {state.order_number}",
    )
    outcome = _ask(gateway.charge, request) or ChargeOutcome(status=ChargeStatus.UNKNOWN)
    return _apply(engine, state, outcome, owner)


def reconcile(
    *,
    order_id: int,
    gateway: PaymentGateway,
    owner: CartOwner | None = None,
    engine: Engine | None = None,
) -> PaymentResult:
    """Settle an order whose payment outcome is unknown by asking the provider.

    Idempotent: an order already paid or cancelled is reported as it is, without a call. A
    decline found here is also mailed to the shopper, who was told the payment was being
    confirmed.
    """
    state = _read(engine, order_id)
    final = _final_result(state)
    if final is not None:
        return final
    found = _ask(gateway.find, state.idempotency_key, reference=state.order_number)
    if found is None or found.status == ChargeStatus.UNKNOWN:
        never_sent = state.attempt_status == PaymentStatus.PENDING
        message = "" if never_sent else PaymentMessage.BEING_CONFIRMED.value
        return PaymentResult(ChargeStatus.UNKNOWN, state.order_id, state.order_number, message)
    return _apply(engine, state, found, owner, mail_decline=True)


def cancel_unpaid(*, order_id: int, gateway: PaymentGateway, engine: Engine | None = None) -> PaymentResult:
    """Give up an order still awaiting payment (for a clean-up job): its stock comes back.

    The provider is asked first; a payment it has decided is applied as found, and the order is
    cancelled only when the provider answers that it has no payment for the key (an error or an
    undecided payment leaves the order waiting). Meant for orders well past any payment attempt
    (say 30 minutes): a charge still under way would complete on a cancelled order, which is then
    recorded as paid-and-cancelled for a refund.
    """
    state = _read(engine, order_id)
    final = _final_result(state)
    if final is not None:
        return final
    waiting = PaymentResult(ChargeStatus.UNKNOWN, state.order_id, state.order_number, "")
    try:
        found = gateway.find(state.idempotency_key, reference=state.order_number)
    except Exception:  # no answer is not "no payment": keep waiting
        log.exception("payment provider lookup failed")
        return waiting
    if found is not None:
        return waiting if found.status == ChargeStatus.UNKNOWN else _apply(engine, state, found, None)
    with write_transaction(engine) as session:
        settle.decline(session, state, error_code=settle.ABANDONED_CODE, message=PaymentMessage.FAILED.value)
    return _final_result(_read(engine, order_id)) or waiting


def pay_simulated_paypal(
    *, order_id: int, owner: CartOwner | None = None, engine: Engine | None = None
) -> PaymentResult:
    """The seed's simulated PayPal: the order is placed and marked as not charged.

    Only in the local Square mode (docs/architecture.md#orders-and-payment); the caller shows the seed's 1.5 s
    delay.

    Raises:
        CheckoutError: "PayPal payment failed. Please try again." outside local mode, or when a
            card payment of the order has already been attempted; the seed's fetch error when the
            order does not exist.
    """
    if get_settings().square_environment != SquareEnvironment.LOCAL:
        raise CheckoutError(PaymentMessage.PAYPAL_FAILED.value)
    state = _read(engine, order_id)
    with write_transaction(engine) as session:
        moved = settle.complete_not_charged(session, state, owner)
        if moved:
            _confirm(session, order_id)
    if moved:
        _alert_low_stock(engine, order_id)
        return PaymentResult(ChargeStatus.COMPLETED, state.order_id, state.order_number, charged=False)
    final = _final_result(_read(engine, order_id))
    if final is not None and final.succeeded and not final.charged:
        return final
    raise CheckoutError(PaymentMessage.PAYPAL_FAILED.value)


def apply_outcome(
    *, order_id: int, outcome: ChargeOutcome, engine: Engine | None = None
) -> PaymentResult | None:
    """Apply an outcome learned elsewhere (a provider webhook) to an order awaiting payment.

    Idempotent: an order already settled is left as it is. None when the order does not exist.
    """
    with session_scope(engine) as session:
        state = settle.read_state(session, order_id)
    if state is None:
        return None
    if state.status != OrderStatus.AWAITING_PAYMENT:
        return _final_result(state)
    return _apply(engine, state, outcome, None, mail_decline=True)


def _read(engine: Engine | None, order_id: int) -> OrderState:
    with session_scope(engine) as session:
        state = settle.read_state(session, order_id)
    if state is None:
        raise CheckoutError(OrderMessage.FETCH_ORDER_FAILED.value)
    return state


def _final_result(state: OrderState) -> PaymentResult | None:
    """The result of an order whose payment is decided, or ``None`` while it awaits payment."""
    if state.payment_status in PLACED_STATUSES:
        charged = state.payment_status != PaymentStatus.NOT_CHARGED
        return PaymentResult(ChargeStatus.COMPLETED, state.order_id, state.order_number, charged=charged)
    if state.status == OrderStatus.AWAITING_PAYMENT:
        return None
    message = failure_sentence(state.error_code, state.error_detail)
    return PaymentResult(ChargeStatus.DECLINED, state.order_id, state.order_number, message)


def _ask(call: Callable[..., ChargeOutcome | None], *args: object, **kwargs: object) -> ChargeOutcome | None:
    """Call the provider; an exception means we do not know (never that it failed)."""
    try:
        return call(*args, **kwargs)
    except Exception:  # the provider's transport: any failure leaves the outcome unknown
        log.exception("payment provider call failed")
        return None


def _apply(
    engine: Engine | None,
    state: OrderState,
    outcome: ChargeOutcome,
    owner: CartOwner | None,
    *,
    mail_decline: bool = False,
) -> PaymentResult:
    order_id, number = state.order_id, state.order_number
    if outcome.status == ChargeStatus.COMPLETED:
        with write_transaction(engine) as session:
            moved = settle.complete(session, state, outcome, owner)
            if moved:
                _confirm(session, order_id)
        if moved:
            _alert_low_stock(engine, order_id)
        paid = PaymentResult(ChargeStatus.COMPLETED, order_id, number)
        return _final_result(_read(engine, order_id)) or paid
    if outcome.status == ChargeStatus.DECLINED:
        message = decline_message(outcome.error_code)
        code, detail = outcome.error_code or "no code", outcome.message or ""
        log.info("payment of order %s declined: %s (%s)", number, code, detail)
        with write_transaction(engine) as session:
            moved = settle.decline(session, state, error_code=outcome.error_code, message=message)
            if moved and mail_decline:
                with mail.recording_apart(session, f"order {number}"):
                    receipt.send_payment_failed(session, order_id, message)
        return _final_result(_read(engine, order_id)) or PaymentResult(
            ChargeStatus.DECLINED, order_id, number, message
        )
    with write_transaction(engine) as session:
        settle.still_unknown(session, state, outcome)
    # A webhook or another request may have settled it meanwhile.
    return _final_result(_read(engine, order_id)) or PaymentResult(
        ChargeStatus.UNKNOWN, order_id, number, PaymentMessage.BEING_CONFIRMED.value
    )


def _confirm(session: Session, order_id: int) -> None:
    """Record the shopper's confirmation in the transaction that marks the order paid."""
    with mail.recording_apart(session, f"order #{order_id}"):
        receipt.send_confirmation(session, order_id)


def _alert_low_stock(engine: Engine | None, order_id: int) -> None:
    """The shop's low-stock alerts of a paid order, in their own transaction; a failure is logged,
    never raised (the payment is committed: the shopper must not see an error for a mail)."""
    try:
        with write_transaction(engine) as session:  # reads settings, then writes: IMMEDIATE
            low_stock.alert_after_order(session, order_id)
    except Exception:
        log.exception("could not record the low-stock alerts of order #%s", order_id)
