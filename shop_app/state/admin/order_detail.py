"""State of one order in the back office (/admin/orders/{id}): its details and status changes.

The page shows what ``services.admin.orders.order_detail`` returns; a change goes through
``services.admin.order_changes.change_status`` (rules, lock, Square refund, restock, history,
the customer's mail) in a worker thread, with the status this page shows as the expected one,
so a change made meanwhile by another admin is refused instead of overwritten. Every handler
re-checks the admin role on the server first.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.addresses import address_lines
from shop_app.domain.messages import OrderMessage
from shop_app.domain.money import format_cents
from shop_app.domain.order_status import STOCK_HELD, money_held
from shop_app.domain.orders import OrderStatus, status_label
from shop_app.services.admin.order_changes import OrderChangeError, change_status
from shop_app.services.admin.orders import AdminOrderDetail, HistoryEntry, order_detail
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.orders import badge_colour
from shop_app.state.auth import private_state
from shop_app.state.views import image_src

log = logging.getLogger(__name__)

S = OrderStatus
ONE_CLICK = (S.PROCESSING.value, S.DELIVERED.value)  # no details to give
CONFIRMED = (S.CANCELLED.value, S.REFUNDED.value)  # asked for confirmation first


@dataclass
class LineView:
    """An item as bought (the snapshot)."""

    name: str = ""
    options: str = ""
    quantity: int = 0
    unit_price: str = ""
    total: str = ""
    image_url: str = ""


@dataclass
class HistoryView:
    """One status change."""

    at: str = ""
    change: str = ""  # "Pending → Processing"
    by: str = ""
    note: str = ""
    tracking: str = ""  # "UPS 1Z999…", or ""
    refunded: str = ""  # "$97.88 refunded", or ""


@dataclass
class OrderView:
    """The order page's content."""

    id: int = 0
    number: str = ""
    placed_at: str = ""
    status_label: str = ""
    status_colour: str = "gray"
    email: str = ""
    guest: bool = True
    notes: str = ""
    subtotal: str = ""
    shipping: str = ""
    tax: str = ""
    total: str = ""
    ship_name: str = ""
    ship_lines: list[str] = field(default_factory=list)
    ship_phone: str = ""
    tracking_number: str = ""
    carrier: str = ""
    tracking_url: str = ""
    payment_provider: str = ""
    payment_id: str = ""
    payment_status: str = ""
    payment_card: str = ""
    payment_amount: str = ""
    receipt_url: str = ""
    not_charged: bool = False  # the simulated PayPal: no money was taken, nothing to refund
    lines: list[LineView] = field(default_factory=list)
    history: list[HistoryView] = field(default_factory=list)


def _history(entry: HistoryEntry) -> HistoryView:
    tracking = f"{entry.carrier} {entry.tracking_number}".strip() if entry.tracking_number else ""
    return HistoryView(
        at=entry.at,
        change=f"{entry.from_label} → {entry.to_label}",
        by=entry.by,
        note=entry.note,
        tracking=tracking,
        refunded=f"{format_cents(entry.refunded_cents)} refunded" if entry.refunded_cents else "",
    )


def order_view(detail: AdminOrderDetail) -> OrderView:
    """Format an order for the page."""
    receipt, payment = detail.receipt, detail.payment
    return OrderView(
        id=receipt.order_id,
        number=receipt.order_number,
        placed_at=detail.placed_at,
        status_label=detail.status_label,
        status_colour=badge_colour(detail.status_colour),
        email=receipt.email,
        guest=detail.user_id is None,
        notes=receipt.notes,
        subtotal=format_cents(receipt.subtotal_cents),
        shipping=format_cents(receipt.shipping_cents),
        tax=format_cents(receipt.tax_cents),
        total=format_cents(receipt.total_cents),
        ship_name=receipt.ship_name,
        ship_lines=address_lines(
            receipt.ship_address_line1,
            receipt.ship_address_line2,
            receipt.ship_city,
            region=receipt.ship_state,
            postal_code=receipt.ship_zip,
            country=receipt.ship_country,
        ),
        ship_phone=receipt.ship_phone,
        tracking_number=detail.tracking_number,
        carrier=detail.carrier,
        tracking_url=detail.tracking_url,
        payment_provider=status_label(payment.provider) if payment else "",
        payment_id=payment.square_payment_id if payment else "",
        payment_status=status_label(payment.status) if payment else "",
        payment_card=payment.card if payment else "",
        payment_amount=format_cents(payment.amount_cents) if payment else "",
        receipt_url=payment.receipt_url if payment else "",
        not_charged=detail.not_charged,
        lines=[
            LineView(
                line.name,
                line.options_label,
                line.quantity,
                format_cents(line.unit_price_cents),
                format_cents(line.total_cents),
                image_src(line.image_url),
            )
            for line in receipt.lines
        ],
        history=[_history(entry) for entry in reversed(detail.history)],  # newest first
    )


@private_state
class AdminOrderState(AdminGuardMixin, rx.State):
    """One order, the changes its status allows, and the Ship and Cancel/Refund dialogs."""

    _order_id: int = 0
    _status: str = ""  # the status on show: the expected status of a change
    charged: bool = False  # a card payment is held: cancelling or refunding gives it back
    holds_stock: bool = False  # cancelling or refunding gives the items back to stock
    loaded: bool = False
    found: bool = False
    busy: bool = False
    order: OrderView = OrderView()
    allowed: list[str] = []

    ship_open: bool = False
    ship_carrier: str = ""
    ship_tracking: str = ""
    ship_note: str = ""
    ship_error: str = ""

    confirm_open: bool = False
    confirm_target: str = ""
    confirm_note: str = ""

    @rx.var
    def confirm_title(self) -> str:
        """The confirmation's title."""
        return "Refund Order" if self.confirm_target == S.REFUNDED else "Cancel Order"

    @rx.var
    def confirm_text(self) -> str:
        """What the confirmation says will happen (money and stock)."""
        money = (
            f"{self.order.total} will be refunded in full to the customer's card through Square."
            if self.charged
            else "Nothing was charged, so there is nothing to refund."
        )
        restock = " The items go back to stock." if self.holds_stock else ""
        return f"{money}{restock} The customer is told by e-mail. This cannot be undone."

    def _read(self) -> None:
        with session_scope() as session:
            detail = order_detail(session, self._order_id) if self._order_id else None
        self.found = detail is not None
        self.loaded = True
        if detail is None:
            self.order, self.allowed, self._status = OrderView(), [], ""
            self.charged = self.holds_stock = False
            return
        self.order = order_view(detail)
        self.allowed = [target.value for target in detail.allowed]
        self._status = detail.receipt.status
        self.charged = money_held(detail.receipt.payment_status)
        self.holds_stock = self._status in STOCK_HELD

    @admin_event
    async def load(self):
        """Read the order of the URL (admins only)."""
        raw = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]  # /admin/orders/{order_id}
        self._order_id = validation.parse_id(raw) or 0
        self.ship_open = self.confirm_open = False
        try:
            self._read()
        except Exception:
            log.exception("Loading order %s for the back office failed", raw)
            self.loaded, self.found = True, False
            return notify.error(OrderMessage.FETCH_ORDER_FAILED.value)
        return None

    async def _apply(self, admin_id: int, target: str, **details: str):
        """Make the change, then show the order as it is now (changed or not)."""
        try:
            result = await asyncio.to_thread(
                change_status,
                order_id=self._order_id,
                target=target,
                admin_user_id=admin_id,
                expected_status=self._status,
                **details,
            )
        except OrderChangeError as refused:
            outcome = notify.error(str(refused))
            failed = str(refused)
        except Exception:
            log.exception("Changing order %s to %s failed", self._order_id, target)
            outcome = notify.error(OrderMessage.UPDATE_STATUS_FAILED.value)
            failed = OrderMessage.UPDATE_STATUS_FAILED.value
        else:
            outcome, failed = notify.success(result.message), ""
        self._read()
        self.busy = False
        return outcome, failed

    @admin_event
    async def mark(self, target: str, admin_id: int):
        """Processing or Delivered: the next step, in one click."""
        if target not in ONE_CLICK or not self._order_id or self.busy:
            return
        self.busy = True
        yield
        outcome, _ = await self._apply(admin_id, target)
        yield outcome

    # ------------------------------------------------------------------ ship

    @admin_event
    async def open_ship(self) -> None:
        """Open Mark as Shipped: carrier, tracking number, note."""
        self.ship_carrier, self.ship_tracking, self.ship_note, self.ship_error = "", "", "", ""
        self.ship_open = True

    @admin_event
    def set_ship_open(self, value: bool) -> None:
        """Open or close the dialog."""
        self.ship_open = bool(value)

    @admin_event
    def set_ship_field(self, name: str, value: str) -> None:
        """Keep what the admin chose or typed in the dialog."""
        if name in {"carrier", "tracking", "note"}:
            setattr(self, f"ship_{name}", str(value)[:600])
            self.ship_error = ""

    @admin_event
    async def save_ship(self, admin_id: int):
        """Mark the order shipped with the tracking number and carrier (both required)."""
        if not self._order_id or self.busy:
            return
        self.busy = True
        yield
        outcome, failed = await self._apply(
            admin_id,
            S.SHIPPED.value,
            tracking_number=self.ship_tracking,
            carrier=self.ship_carrier,
            note=self.ship_note,
        )
        self.ship_error = failed
        self.ship_open = bool(failed) and S.SHIPPED.value in self.allowed  # keep it open to fix the input
        yield outcome

    # ------------------------------------------------------------------ cancel and refund

    @admin_event
    async def open_confirm(self, target: str) -> None:
        """Ask before cancelling or refunding (money and stock move)."""
        if target not in CONFIRMED:
            return
        self.confirm_target, self.confirm_note = target, ""
        self.confirm_open = True

    @admin_event
    def set_confirm_open(self, value: bool) -> None:
        """Open or close the confirmation."""
        self.confirm_open = bool(value)

    @admin_event
    def set_confirm_note(self, value: str) -> None:
        """Keep the note typed in the confirmation."""
        self.confirm_note = str(value)[:600]

    @admin_event
    async def confirm(self, admin_id: int):
        """Cancel or refund the order (a full Square refund and restock, as the rules say)."""
        if self.confirm_target not in CONFIRMED or not self._order_id or self.busy:
            return
        self.confirm_open, self.busy = False, True
        yield
        outcome, _ = await self._apply(admin_id, self.confirm_target, note=self.confirm_note)
        yield outcome
