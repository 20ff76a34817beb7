"""/account/orders and /account/orders/{id}: the signed-in customer's own orders only."""

from __future__ import annotations

from dataclasses import dataclass, field

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.addresses import address_lines
from shop_app.domain.messages import OrderMessage
from shop_app.domain.money import format_cents
from shop_app.services import order_history
from shop_app.services.cart import CartOwner
from shop_app.state import notify
from shop_app.state.auth import AuthState, private_state
from shop_app.state.cart import CartState
from shop_app.state.views import TaxRow, discount_row_views, image_src, tax_row_views


@dataclass
class OrderLineRow:
    """An item of an order."""

    name: str = ""
    options: str = ""
    unit_price: str = ""
    quantity: int = 0
    total: str = ""
    image_url: str = ""
    url: str = ""


@dataclass
class OrderCard:
    """An order as the history and the detail page show it."""

    id: int = 0
    order_number: str = ""
    placed_on: str = ""
    status_label: str = ""
    status_colour: str = "gray"
    subtotal: str = ""
    discounts: list[TaxRow] = field(default_factory=list)  # "Discount (TEN)", "-$5.00"; none without
    shipping: str = ""
    taxes: list[TaxRow] = field(default_factory=list)
    total: str = ""
    refunded: str = ""  # "" when nothing was refunded
    lines: list[OrderLineRow] = field(default_factory=list)
    ship_name: str = ""
    ship_lines: list[str] = field(default_factory=list)
    ship_phone: str = ""
    email: str = ""
    notes: str = ""
    tracking_number: str = ""
    tracking_url: str = ""
    can_reorder: bool = False
    not_charged: bool = False  # placed with the simulated PayPal of local mode: no money was taken
    url: str = ""
    invoice_url: str = ""  # the printable invoice, "" where the viewer has no right to it


# Radix colour names for the seed's badge colours.
_RADIX = {"yellow": "amber", "blue": "blue", "purple": "purple", "green": "green", "red": "red"}


def order_card(order: order_history.OrderSummary, *, guest: bool = False) -> OrderCard:
    """The view of an order. ``guest``: seen through a signed link or the order lookup, not an
    account: no Reorder (a customer's action), no link to the account's order page and none to
    the invoice (a signed link adds its own: ``state.order_lookup``)."""
    return OrderCard(
        id=order.id,
        order_number=order.order_number,
        placed_on=order.placed_on,
        status_label=order.status_label,
        status_colour=_RADIX.get(order.status_colour, "gray"),
        subtotal=format_cents(order.subtotal_cents),
        discounts=discount_row_views(order.discount_rows),
        shipping=format_cents(order.shipping_cents),
        taxes=tax_row_views(order.tax_rows),
        total=format_cents(order.total_cents),
        refunded=format_cents(order.refunded_cents) if order.refunded_cents else "",
        lines=[
            OrderLineRow(
                line.name,
                line.options_label,
                format_cents(line.unit_price_cents),
                line.quantity,
                format_cents(line.total_cents),
                image_src(line.image_url),
                routes.product_url(line.product_id) if line.listed else routes.CUSTOM_CREATOR,
            )
            for line in order.lines
        ],
        ship_name=order.ship_name,
        ship_lines=address_lines(
            order.ship_line1,
            order.ship_line2,
            order.ship_city,
            region=order.ship_state,
            postal_code=order.ship_zip,
            country=order.ship_country,
        ),
        ship_phone=order.ship_phone,
        email=order.email,
        notes=order.notes,
        tracking_number=order.tracking_number,
        tracking_url=order.tracking_url,
        can_reorder=order.can_reorder and not guest,
        not_charged=order.not_charged,
        url="" if guest else routes.order_url(order.id),
        invoice_url="" if guest else routes.invoice_url(order.id),
    )


@private_state
class OrdersState(rx.State):
    """The customer's orders, and the one the detail page shows."""

    loading: bool = True
    orders: list[OrderCard] = []
    order: OrderCard = OrderCard()
    order_found: bool = False
    order_page: str = ""  # the page (path) whose order ``order`` is: another page waits for its own

    async def _user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        return current.user_id if current else None

    @rx.event
    async def load(self):
        """Load the signed-in customer's paid orders, newest first."""
        self.loading = True
        yield
        user_id = await self._user_id()
        try:
            with session_scope() as session:
                found = order_history.list_orders(session, user_id=user_id) if user_id else []
        except Exception:
            found = []  # seed: a fetch failure is logged and the list shows as empty
            yield notify.error(OrderMessage.FETCH_ORDERS_FAILED.value)
        self.orders = [order_card(o) for o in found]
        self.loading = False

    @rx.event
    async def load_one(self):
        """Load the order of the detail page (only if it is the customer's own)."""
        self.loading = True
        yield
        user_id = await self._user_id()
        raw = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        found = None
        order_id = validation.parse_id(raw)
        if user_id and order_id is not None:
            with session_scope() as session:
                found = order_history.get_order(session, user_id=user_id, order_id=order_id)
        self.order_found = found is not None
        self.order = order_card(found) if found else OrderCard()
        self.order_page = self.router.url.path
        self.loading = False

    @rx.event
    async def reorder(self, order_id: int):
        """Put a delivered order's items back in the cart at today's prices."""
        user_id = await self._user_id()
        if user_id is None:
            return rx.redirect(routes.AUTH)
        cart = await self.get_state(CartState)
        try:
            with session_scope() as session:
                result = order_history.reorder(
                    session,
                    user_id=user_id,
                    order_id=int(order_id),
                    cart_owner=CartOwner(token=cart._durable_token(), user_id=user_id),
                )
        except order_history.ReorderError as error:
            return notify.error(str(error))
        show = {"success": notify.success, "warning": notify.warning}.get(result.kind, notify.error)
        return [show(result.message), CartState.load]
