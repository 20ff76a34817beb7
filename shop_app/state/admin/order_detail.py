"""State of one order in the back office (/admin/orders/{id}): its details, status changes and
refunds.

The page shows what ``services.admin.orders.order_detail`` returns; a change goes through
``services.admin.order_changes.change_status`` (rules, lock, Square refund, restock, history,
the customer's mail) and a refund through ``order_changes.refund_order``, in a worker thread,
with the status (and the amount refunded) this page shows as the expected ones, so a change made
meanwhile by another admin is refused instead of overwritten. Every handler re-checks the admin
role on the server first.

The Refund dialog (items with a quantity each, an amount in dollars, or everything left; "Return
items to stock"; a note) keeps what the admin chose in this state: each handler checks its
arguments (this order's own line ids, quantities within what can still be refunded, text
lengths) and refuses anything else with a message, changing nothing; the amount is computed here
by the same rules (``domain.refunds``) the service applies again before refunding. The dialog's
idempotency key is made here, never sent by the browser: kept until its refund is recorded or
Square refuses it, so a retried click or a lost answer can never refund twice.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.addresses import address_lines
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.messages import OrderMessage
from shop_app.domain.money import format_cents, parse_dollars
from shop_app.domain.order_status import NOTE_MAX, STOCK_HELD, can_restock, money_held, restock_by_default
from shop_app.domain.orders import OrderStatus, status_label
from shop_app.domain.refunds import RefundMode, RefundRefused, RefundSituation, plan_refund
from shop_app.services.admin.order_changes import OrderChangeError, change_status, refund_order
from shop_app.services.admin.orders import (
    PARTIALLY_REFUNDED,
    AdminOrderDetail,
    HistoryEntry,
    RefundChoice,
    RefundEntry,
    order_detail,
)
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.orders import badge_colour
from shop_app.state.auth import private_state
from shop_app.state.views import TaxRow, discount_row_views, image_src, tax_row_views

log = logging.getLogger(__name__)

S = OrderStatus
ONE_CLICK = (S.PROCESSING.value, S.DELIVERED.value)  # no details to give
CONFIRMED = (S.CANCELLED.value,)  # asked for confirmation first (a refund has its own dialog)
REFUND_MODES = tuple(mode.value for mode in RefundMode)
AMOUNT_TEXT_MAX = 32


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
class RefundView:
    """One refund of the order."""

    at: str = ""
    amount: str = ""
    what: str = ""  # "1 × Candle, 2 × Lotion"; "" for an amount
    stock: str = ""  # "Returned to stock", "Not returned to stock"; "" for an amount
    by: str = ""
    note: str = ""


@dataclass
class RefundLineView:
    """A line of the order in the Refund dialog, with the quantity chosen."""

    item_id: int = 0
    name: str = ""
    options: str = ""
    unit_price: str = ""
    ordered: int = 0
    refundable: int = 0  # 0: refunded already
    chosen: str = "0"  # the quantity to refund, as the input shows it


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
    gift_message: str = ""  # for the card in the parcel
    gift_wrap: bool = False
    subtotal: str = ""
    discounts: list[TaxRow] = field(default_factory=list)  # "Discount (TEN)", "-$5.00"; none without
    shipping: str = ""
    taxes: list[TaxRow] = field(default_factory=list)
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
    partially_refunded: bool = False  # some money went back, some is still charged
    refunded: str = ""  # every refund so far, "" when none
    still_charged: str = ""  # what remains charged once some was refunded, else ""
    lines: list[LineView] = field(default_factory=list)
    history: list[HistoryView] = field(default_factory=list)
    refunds: list[RefundView] = field(default_factory=list)  # oldest first
    invoice_url: str = ""  # the printable invoice (api/invoices.py)
    packing_slip_url: str = ""  # the printable packing slip


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


def _refund(entry: RefundEntry) -> RefundView:
    stock = ("Returned to stock" if entry.restocked else "Not returned to stock") if entry.items else ""
    return RefundView(
        at=entry.at,
        amount=format_cents(entry.amount_cents),
        what=", ".join(entry.items),
        stock=stock,
        by=entry.by,
        note=entry.note,
    )


def _refund_line(choice: RefundChoice, chosen: int = 0) -> RefundLineView:
    return RefundLineView(
        item_id=choice.item_id,
        name=choice.name,
        options=choice.options,
        unit_price=format_cents(choice.unit_price_cents),
        ordered=choice.quantity,
        refundable=choice.refundable,
        chosen=str(chosen),
    )


def _chosen_line(line: RefundLineView, chosen: int) -> RefundLineView:
    """The same line with another quantity chosen (a new row: Reflex sends the change)."""
    return RefundLineView(
        item_id=line.item_id,
        name=line.name,
        options=line.options,
        unit_price=line.unit_price,
        ordered=line.ordered,
        refundable=line.refundable,
        chosen=str(chosen),
    )


def order_view(detail: AdminOrderDetail) -> OrderView:
    """Format an order for the page."""
    receipt, payment = detail.receipt, detail.payment
    paid = payment.amount_cents if payment else receipt.total_cents
    payment_status = PARTIALLY_REFUNDED if detail.partially_refunded else payment.status if payment else ""
    return OrderView(
        id=receipt.order_id,
        number=receipt.order_number,
        placed_at=detail.placed_at,
        status_label=detail.status_label,
        status_colour=badge_colour(detail.status_colour),
        email=receipt.email,
        guest=detail.user_id is None,
        notes=receipt.notes,
        gift_message=receipt.gift_message,
        gift_wrap=receipt.gift_wrap,
        subtotal=format_cents(receipt.subtotal_cents),
        discounts=discount_row_views(receipt.discount_rows),
        shipping=format_cents(receipt.shipping_cents),
        taxes=tax_row_views(receipt.tax_rows),
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
        payment_status=status_label(payment_status),
        payment_card=payment.card if payment else "",
        payment_amount=format_cents(payment.amount_cents) if payment else "",
        receipt_url=payment.receipt_url if payment else "",
        not_charged=detail.not_charged,
        partially_refunded=detail.partially_refunded,
        refunded=format_cents(detail.refunded_cents) if detail.refunded_cents else "",
        still_charged=format_cents(max(0, paid - detail.refunded_cents)) if detail.partially_refunded else "",
        refunds=[_refund(entry) for entry in detail.refunds],
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
        invoice_url=routes.invoice_url(receipt.order_id),
        packing_slip_url=routes.packing_slip_url(receipt.order_id),
    )


@private_state
class AdminOrderState(AdminGuardMixin, rx.State):
    """One order, the changes its status allows, the Ship and Cancel dialogs and the Refund dialog."""

    _order_id: int = 0
    _status: str = ""  # the status on show: the expected status of a change
    _payment_status: str = ""
    _refunded_cents: int = 0  # the amount refunded on show: the expected one of a refund
    _situation: RefundSituation | None = None  # what can be refunded now (None: nothing)
    _refund_key: str = ""  # the Refund dialog's idempotency key (module docstring)
    charged: bool = False  # a card payment is held: cancelling or refunding gives it back
    holds_stock: bool = False  # cancelling gives the items back to stock; a refund may
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

    refund_open: bool = False
    refund_mode: str = RefundMode.ITEMS.value
    refund_lines: list[RefundLineView] = []
    refund_amount_text: str = ""
    refund_restock: bool = False
    refund_note: str = ""
    refund_total: str = ""  # the amount this refund gives back, "" until it is a valid refund
    refund_after: str = ""  # what remains charged after it
    refund_problem: str = ""  # why the refund as chosen is not possible ("" when it is, or nothing chosen)
    refund_error: str = ""  # why the last event or refund was refused
    refund_remaining: str = ""  # what can still be refunded
    refund_has_items: bool = False  # some item can still be refunded by line

    @rx.var
    def confirm_title(self) -> str:
        """The confirmation's title."""
        return "Cancel Order"

    @rx.var
    def confirm_text(self) -> str:
        """What the confirmation says will happen (money and stock)."""
        money = (
            "What remains charged will be refunded to the customer's card through Square."
            if self.charged
            else "Nothing was charged, so there is nothing to refund."
        )
        restock = " The items go back to stock." if self.holds_stock else ""
        return f"{money}{restock} The customer is told by e-mail. This cannot be undone."

    @rx.var
    def refund_button(self) -> str:
        """The dialog's confirm button: "Refund $31.36"."""
        return f"Refund {self.refund_total}" if self.refund_total else "Refund"

    def _read(self) -> None:
        with session_scope() as session:
            detail = order_detail(session, self._order_id) if self._order_id else None
        self.found = detail is not None
        self.loaded = True
        if detail is None:
            self.order, self.allowed, self._status, self._payment_status = OrderView(), [], "", ""
            self.charged = self.holds_stock = False
            self._situation, self._refunded_cents = None, 0
            return
        self.order = order_view(detail)
        self.allowed = [target.value for target in detail.allowed]
        self._status, self._payment_status = detail.receipt.status, detail.receipt.payment_status
        self.charged = money_held(detail.receipt.payment_status)
        self.holds_stock = self._status in STOCK_HELD
        self._refunded_cents = detail.refunded_cents
        self._situation = detail.refund_situation
        chosen = {line.item_id: line.chosen for line in self.refund_lines}
        self.refund_lines = [  # what the admin chose is kept, within what is refundable now
            _refund_line(
                choice,
                min(validation.parse_whole_number(chosen.get(choice.item_id, "0")) or 0, choice.refundable),
            )
            for choice in detail.refund_choices
        ]
        self.refund_has_items = any(line.refundable for line in self.refund_lines)
        remaining = self._situation.remaining_cents if self._situation else 0
        self.refund_remaining = format_cents(remaining)
        if self.refund_open and self._situation is None:
            self.refund_open = False  # refunded meanwhile (or not refundable any more)
        self._preview()

    @admin_event
    async def load(self):
        """Read the order of the URL (admins only)."""
        raw = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]  # /admin/orders/{order_id}
        order_id = validation.parse_id(raw) or 0
        if order_id != self._order_id:
            self._refund_key, self.refund_lines = "", []
        self._order_id = order_id
        self.ship_open = self.confirm_open = self.refund_open = False
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

    # ------------------------------------------------------------------ cancel

    @admin_event
    async def open_confirm(self, target: str) -> None:
        """Ask before cancelling (money and stock move)."""
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
        """Cancel the order (what remains charged back through Square, the items back to stock)."""
        if self.confirm_target not in CONFIRMED or not self._order_id or self.busy:
            return
        self.confirm_open, self.busy = False, True
        yield
        outcome, _ = await self._apply(admin_id, self.confirm_target, note=self.confirm_note)
        yield outcome

    # ------------------------------------------------------------------ refund

    def _preview(self) -> None:
        """The amount of the refund as chosen, by the rules the service applies (or why not)."""
        self.refund_total = self.refund_after = self.refund_problem = ""
        if self._situation is None:
            return
        quantities: dict[int, int] = {}
        amount: int | None = None
        if self.refund_mode == RefundMode.ITEMS:
            quantities = self._chosen()
            if not quantities:
                return  # nothing chosen yet: nothing to say
        elif self.refund_mode == RefundMode.AMOUNT:
            if not self.refund_amount_text.strip():
                return
            try:
                amount = parse_dollars(self.refund_amount_text)
            except ValueError as bad:
                self.refund_problem = str(bad)
                return
        try:
            plan = plan_refund(
                self._situation,
                status=self._status,
                payment_status=self._payment_status,
                mode=self.refund_mode,
                quantities=quantities,
                amount_cents=amount,
                restock=self._restock_asked(),
            )
        except RefundRefused as refused:
            self.refund_problem = str(refused)
            return
        self.refund_total = format_cents(plan.amount_cents)
        self.refund_after = format_cents(plan.remaining_after_cents)

    def _restock_asked(self) -> bool:
        return self.refund_restock and self.refund_mode != RefundMode.AMOUNT and can_restock(self._status)

    def _chosen(self) -> dict[int, int]:
        """Item id → quantity, for the lines with a quantity chosen."""
        return {line.item_id: int(line.chosen) for line in self.refund_lines if line.chosen != "0"}

    def _refund_line(self, item_id: int) -> RefundLineView | None:
        return next((line for line in self.refund_lines if line.item_id == item_id), None)

    @admin_event
    async def open_refund(self) -> None:
        """Open the Refund dialog: nothing chosen, "Return items to stock" as the status suggests."""
        if S.REFUNDED.value not in self.allowed or self._situation is None or self.busy:
            return
        self.refund_lines = [_chosen_line(line, 0) for line in self.refund_lines]
        self.refund_mode = (RefundMode.ITEMS if self.refund_has_items else RefundMode.AMOUNT).value
        self.refund_amount_text, self.refund_note, self.refund_error = "", "", ""
        self.refund_restock = restock_by_default(self._status)
        self._refund_key = self._refund_key or uuid.uuid4().hex
        self._preview()
        self.refund_open = True

    @admin_event
    def set_refund_open(self, value: bool) -> None:
        """Close the dialog (it opens only through Refund)."""
        if not value:
            self.refund_open = False

    @admin_event
    def set_refund_mode(self, value: str) -> None:
        """Items, an amount, or everything left."""
        if value not in REFUND_MODES or (value == RefundMode.ITEMS and not self.refund_has_items):
            self.refund_error = M.REFUND_MODE_INVALID.value
            return
        self.refund_mode, self.refund_error = value, ""
        self._preview()

    @admin_event
    def set_refund_quantity(self, item_id: int, value: str) -> None:
        """The quantity of one of this order's lines to refund: 0 to what can still be refunded."""
        line = self._refund_line(item_id) if isinstance(item_id, int) else None
        if line is None:
            self.refund_error = M.REFUND_NOT_A_LINE.value
            return
        quantity = validation.parse_whole_number(value, maximum=line.refundable)
        if quantity is None:
            self.refund_error = M.REFUND_QUANTITY_INVALID.format(name=line.name, n=line.refundable)
            return
        self.refund_error = ""
        self.refund_lines = [
            _chosen_line(row, quantity) if row.item_id == item_id else row for row in self.refund_lines
        ]
        self._preview()

    @admin_event
    def set_refund_amount(self, value: str) -> None:
        """The amount to refund, in dollars, as typed (checked as the admin types)."""
        self.refund_amount_text, self.refund_error = str(value)[:AMOUNT_TEXT_MAX], ""
        self._preview()

    @admin_event
    def set_refund_restock(self, value: bool) -> None:
        """Return the refunded items to stock (only while the order holds them)."""
        self.refund_restock = bool(value) and can_restock(self._status)
        self.refund_error = ""
        self._preview()

    @admin_event
    def set_refund_note(self, value: str) -> None:
        """The admin's note (the reason), kept with the refund."""
        self.refund_note = str(value)[:NOTE_MAX]

    @admin_event
    async def confirm_refund(self, admin_id: int):
        """Refund as chosen: Square gives back exactly the amount shown; the dialog stays open
        with the reason when it is refused."""
        if not self.refund_open or not self._order_id or self.busy or self._situation is None:
            return
        self.busy, self.refund_error = True, ""
        yield
        mode = self.refund_mode
        try:
            result = await asyncio.to_thread(
                refund_order,
                order_id=self._order_id,
                admin_user_id=admin_id,
                mode=mode,
                quantities=self._chosen() if mode == RefundMode.ITEMS else None,
                amount_cents=self._typed_amount() if mode == RefundMode.AMOUNT else None,
                restock=self._restock_asked(),
                note=self.refund_note,
                idempotency_key=self._refund_key or None,
                expected_status=self._status,
                expected_refunded_cents=self._refunded_cents,
            )
        except OrderChangeError as refused:
            if not refused.unanswered:  # Square refunded nothing: a new request may use a new key
                self._refund_key = uuid.uuid4().hex
            self.refund_error, outcome = str(refused), notify.error(str(refused))
        except Exception:
            log.exception("Refunding order %s failed", self._order_id)
            self.refund_error = OrderMessage.UPDATE_STATUS_FAILED.value
            outcome = notify.error(self.refund_error)
        else:
            self._refund_key, self.refund_open = "", False
            outcome = notify.success(result.message)
        self._read()
        self.busy = False
        yield outcome

    def _typed_amount(self) -> int | None:
        try:
            return parse_dollars(self.refund_amount_text)
        except ValueError:
            return None
