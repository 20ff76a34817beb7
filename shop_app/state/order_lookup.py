"""A guest's order without an account: the signed link of its mails, and the order lookup.

``/order-status?token=…`` reads the link's secret from the address (never from an event's
arguments); ``/order-lookup`` takes the order's e-mail address and number, limited per client
address (``services.order_access``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope, write_transaction
from shop_app.domain.messages import ServiceMessage
from shop_app.services import order_access
from shop_app.services.order_access import LookupResult
from shop_app.state.orders import OrderCard, order_card

log = logging.getLogger(__name__)

LOOKUP_FIELD_IDS = {"email": "order-lookup-email", "order_number": "order-lookup-number"}


class OrderStatusState(rx.State):
    """The order a signed link opens."""

    loaded: bool = False
    found: bool = False
    order: OrderCard = OrderCard()

    @rx.event
    def load(self):
        """Open the order of the link's secret (``?token=``); anything else finds nothing."""
        if self.loaded:  # another link opened in this tab: never show the previous order meanwhile
            self.loaded, self.found, self.order = False, False, OrderCard()
            yield
        token = self.router.url.query_parameters.get("token", "")
        token = token if isinstance(token, str) else ""
        with session_scope() as session:
            found = order_access.order_by_token(session, token)
        self.found, self.loaded = found is not None, True
        self.order = OrderCard()
        if found is not None:  # the link's secret opens its order's invoice too (api/invoices.py)
            invoice = routes.invoice_url(found.id, token=token)
            self.order = dataclasses.replace(order_card(found, guest=True), invoice_url=invoice)


class OrderLookupState(rx.State):
    """The order lookup form and the order it found."""

    searching: bool = False
    error: str = ""
    found: bool = False
    order: OrderCard = OrderCard()

    @rx.event
    def load(self) -> None:
        """A fresh form: nothing found or refused yet."""
        self.searching, self.error, self.found, self.order = False, "", False, OrderCard()

    @rx.event
    async def submit(self, data: dict):
        """Look the order up by its e-mail address and number (rate-limited per client)."""
        if self.searching:
            return
        email, number = data.get("email", ""), data.get("order_number", "")
        self.searching, self.error = True, ""
        yield
        try:
            result = await asyncio.to_thread(
                _lookup,
                email if isinstance(email, str) else "",
                number if isinstance(number, str) else "",
                self.router.session.client_ip or "",
            )
        except Exception:
            log.exception("order lookup failed")
            result = LookupResult(message=ServiceMessage.TRY_AGAIN.value)
        self.searching = False
        self.found, self.error = result.order is not None, result.message
        # Found by e-mail and number only: the shipping address stays on the signed link's page.
        card = order_card(result.order, guest=True) if result.order else OrderCard()
        self.order = dataclasses.replace(card, ship_name="", ship_lines=[], ship_phone="")


def _lookup(email: str, order_number: str, client: str) -> LookupResult:
    """In a worker thread: the attempt is written (and counted) whether or not it finds an order."""
    with write_transaction() as session:
        return order_access.lookup(session, email=email, order_number=order_number, client=client)
