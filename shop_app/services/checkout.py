"""Checkout: the form, the priced summary, placing and paying an order, the receipt.

The public API of the order flow (docs/architecture.md#orders-and-payment); the work is done in
:mod:`shop_app.services.ordering`:

- ``validate(form, ships_to=) -> str | None`` (``form_problem``: with the field it is about;
  ``check_form(session, form) -> FieldProblem | None``: against the store settings' countries)
  and ``quote(session, owner, destination) -> Quote`` (with those countries, taxed for
  ``destination(country, region)``; ``ships_to(session)``: the countries alone;
  ``estimate(session, view)``: a cart's totals before an address is known);
- ``place_order(owner=, user_id=, form=, provider=, shown=, engine=) -> PlacedOrder``: one write
  transaction, stock taken with conditional updates, order awaiting payment with its key;
  ``shown`` (``Quote.shown`` of the page the shopper saw) refuses a cart changed since with
  ``CartChangedError``;
- ``pay(order_id=, source_id=, gateway=, owner=, engine=) -> PaymentResult``: charges the
  order's stored total with its stored key, at most once per order;
- ``reconcile(order_id=, gateway=, owner=, engine=)``: settles an unknown outcome;
- ``pay_simulated_paypal(order_id=, owner=, engine=)``: local mode only, not charged;
- ``cancel_unpaid(order_id=, gateway=, engine=)``: gives up an abandoned order, stock back;
- ``order_receipt(session, order_id=, order_number=) -> Receipt | None``: id and number must match.

Typical use in a state handler: ``check_form`` → ``place_order`` → ``pay`` (or
``pay_simulated_paypal``); on ``DECLINED`` show ``result.message`` and keep the form (the cart
is untouched); on ``UNKNOWN`` show the message and poll ``reconcile``.
"""

from __future__ import annotations

from shop_app.services.ordering.forms import (
    FIELD_LIMITS,
    CartChangedError,
    CheckoutError,
    CheckoutForm,
    FieldProblem,
    Quote,
    check_form,
    destination,
    estimate,
    form_problem,
    quote,
    ships_to,
    validate,
)
from shop_app.services.ordering.pay import (
    PaymentResult,
    apply_outcome,
    cancel_unpaid,
    pay,
    pay_simulated_paypal,
    reconcile,
)
from shop_app.services.ordering.place import PlacedOrder, place_order
from shop_app.services.ordering.receipt import Receipt, ReceiptLine, order_receipt

__all__ = [
    "FIELD_LIMITS",
    "CartChangedError",
    "CheckoutError",
    "CheckoutForm",
    "FieldProblem",
    "PaymentResult",
    "PlacedOrder",
    "Quote",
    "Receipt",
    "ReceiptLine",
    "apply_outcome",
    "cancel_unpaid",
    "check_form",
    "destination",
    "estimate",
    "form_problem",
    "order_receipt",
    "pay",
    "pay_simulated_paypal",
    "place_order",
    "quote",
    "reconcile",
    "ships_to",
    "validate",
]
