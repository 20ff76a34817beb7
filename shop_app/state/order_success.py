"""/order-success?order=…&number=…: the thank-you page of a real order (nothing is placed here)."""

from __future__ import annotations

from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.addresses import address_lines
from shop_app.domain.money import format_cents
from shop_app.services import checkout
from shop_app.state.views import TaxRow, discount_row_views, tax_row_views


@dataclass
class SuccessLine:
    """An item bought."""

    name: str = ""
    options: str = ""
    quantity: int = 0
    total: str = ""


@dataclass
class SuccessView:
    """The receipt shown on the page."""

    order_number: str = ""
    email: str = ""
    placed_on: str = ""
    lines: list[SuccessLine] = field(default_factory=list)
    subtotal: str = ""
    discounts: list[TaxRow] = field(default_factory=list)  # "Discount (TEN)", "-$5.00"; none without
    shipping: str = ""
    taxes: list[TaxRow] = field(default_factory=list)
    total: str = ""
    ship_to: list[str] = field(default_factory=list)
    not_charged: bool = False
    awaiting_confirmation: bool = False
    payment_problem: str = ""  # the order was cancelled: its payment failed (why, for the shopper)


class OrderSuccessState(rx.State):
    """Reads the order named by the URL; reloading shows it again and changes nothing."""

    loaded: bool = False
    found: bool = False
    receipt: SuccessView = SuccessView()

    @rx.event
    def load(self) -> None:
        """Look the order up by id and number together (so URLs cannot be guessed)."""
        params = self.router.url.query_parameters
        raw_id, number = params.get("order", ""), params.get("number", "")
        found = None
        order_id = validation.parse_id(raw_id)
        if order_id is not None and number:
            with session_scope() as session:
                found = checkout.order_receipt(session, order_id=order_id, order_number=number)
        self.found, self.loaded = found is not None, True
        if found is None:
            self.receipt = SuccessView()
            return
        self.receipt = SuccessView(
            order_number=found.order_number,
            email=found.email,
            placed_on=found.placed_on,
            lines=[
                SuccessLine(line.name, line.options_label, line.quantity, format_cents(line.total_cents))
                for line in found.lines
            ],
            subtotal=format_cents(found.subtotal_cents),
            discounts=discount_row_views(found.discount_rows),
            shipping=format_cents(found.shipping_cents),
            taxes=tax_row_views(found.tax_rows),
            total=format_cents(found.total_cents),
            ship_to=[
                *([found.ship_name] if found.ship_name else []),
                *address_lines(
                    found.ship_address_line1,
                    found.ship_address_line2,
                    found.ship_city,
                    region=found.ship_state,
                    postal_code=found.ship_zip,
                    country=found.ship_country,
                ),
            ],
            not_charged=found.not_charged,
            awaiting_confirmation=found.awaiting_confirmation,
            payment_problem=found.payment_problem,
        )
