"""Refunds of a paid order, full or partial: what may be refunded and how much
(docs/spec/admin.md#refunds; docs/architecture.md#orders-and-payment).

The rules, all pure, all in integer cents:

- **What remains.** At most what was paid less what was refunded so far can be refunded
  (:attr:`RefundSituation.remaining_cents`); every refund is at least 1 cent. The order becomes
  ``refunded`` when, and only when, nothing remains (:attr:`RefundPlan.completes`); until then it
  keeps its status and is shown "Partially refunded".
- **By items.** Per line, a quantity from 0 to what was ordered less what earlier refunds by
  line took back (:attr:`RefundableLine.refundable_quantity`); at least one item. The amount is
  the items' unit prices × quantities (the *goods*) **less their share of the order's discount**
  **plus their share of each tax**. With ``G`` the goods refunded by line so far, this refund
  included, ``T`` the goods of the whole order (its subtotal) and ``D`` its discount (a code's
  amount off the goods, before tax):

  - the discount refunded by line so far is ``round_half_up(D × G / T)``
    (:func:`shop_app.domain.discounts.share_cents`);
  - each tax was charged on the goods after the discount, ``T - D``, plus the shipping where it
    applies (its *base*); its goods part is ``tax × (T - D) / base``, and the part refunded by
    line so far is ``round_half_up(tax × (T - D) × G / (base × T))``, one rounding over exact
    integers (:func:`tax_share_cents`);

  and a refund gives back each figure after it less the figure before it. Refunding every item,
  in any number of refunds and in any order, therefore gives back exactly ``T - D`` and each
  tax's goods part, never a cent more or less. Without a discount that is the goods and the
  taxes on them.
- **Shipping** is never part of a refund by items: it goes back by amount, or with the rest.
- **By amount.** Any amount from $0.01 up to what remains. It returns no items, so nothing goes
  back to stock, and it does not change what can still be refunded by items (only the total:
  a refund by items that would now exceed what remains is refused; refund an amount or the rest).
- **The rest** (the full refund). Exactly what remains, with every item not yet refunded by line.
  The order's Refund button and a cancel (``order_status``) give back the rest.
- **Return items to stock?** Only the quantities this refund takes back (by items, or the rest),
  and only while the order holds its items (:func:`~shop_app.domain.order_status.can_restock`:
  not a cancelled order, whose items went back when it was cancelled). The box starts ticked
  before shipping (pending, processing) and unticked once shipped or delivered
  (:func:`~shop_app.domain.order_status.restock_by_default`). Each unit goes back at most once:
  a unit refunded by line, restocked or not, is never part of a later refund.
- Only an order that :func:`~shop_app.domain.order_status.refundable` allows can be refunded:
  paid, not refunded yet, and never a ``not_charged`` one (the simulated PayPal took no money).

Every refusal carries its message (``admin_messages.OrderAdminMessage``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.discounts import share_cents
from shop_app.domain.money import format_cents, round_half_up_div
from shop_app.domain.order_status import NOTE_MAX, can_restock, refund_refusal

MAX_QUANTITY: Final = 10_000
"""No order line is larger (the cart allows 99); anything above is refused before arithmetic."""


class RefundMode(StrEnum):
    """How the admin asked for the refund."""

    ITEMS = "items"  # per line a quantity: goods less their share of discount, plus their share of tax
    AMOUNT = "amount"  # an amount typed in dollars: no items
    REST = "rest"  # everything that remains, with every item not yet refunded


class RefundRefused(ValueError):
    """A refund the rules do not allow; the message says why, for the admin."""


@dataclass(frozen=True, slots=True)
class RefundableLine:
    """A line of the order as far as refunds go."""

    item_id: int
    name: str
    quantity: int  # ordered
    unit_price_cents: int
    refunded_quantity: int = 0  # taken back by earlier refunds (by items, or the rest)

    @property
    def refundable_quantity(self) -> int:
        """How many may still be refunded by line."""
        return max(0, self.quantity - self.refunded_quantity)


@dataclass(frozen=True, slots=True)
class RefundSituation:
    """An order's money and lines, and what earlier refunds took back."""

    lines: tuple[RefundableLine, ...]
    tax_cents: int
    shipping_cents: int
    paid_cents: int  # the payment's amount (the order's total)
    refunded_cents: int = 0  # every refund so far
    # Each tax's (amount, base) as the order was charged (its tax lines); none: the whole tax on
    # the goods alone (an order placed before its lines were kept).
    tax_bases: tuple[tuple[int, int], ...] = ()
    discount_cents: int = 0  # a discount code's amount off the goods, before tax

    @property
    def net_goods_cents(self) -> int:
        """The goods after the discount: what each tax's goods part was charged on."""
        return self.goods_cents - min(max(self.discount_cents, 0), self.goods_cents)

    @property
    def remaining_cents(self) -> int:
        """What can still be refunded: paid less refunded."""
        return max(0, self.paid_cents - self.refunded_cents)

    @property
    def goods_cents(self) -> int:
        """The goods of the whole order: unit prices × quantities (the subtotal)."""
        return sum(line.unit_price_cents * line.quantity for line in self.lines)

    @property
    def goods_refunded_cents(self) -> int:
        """The goods refunded by line so far."""
        return sum(line.unit_price_cents * min(line.refunded_quantity, line.quantity) for line in self.lines)

    @property
    def partially_refunded(self) -> bool:
        """Some money went back, and some remains charged."""
        return 0 < self.refunded_cents < self.paid_cents

    def line(self, item_id: int) -> RefundableLine | None:
        """The order's line with this id, or ``None`` (not a line of this order)."""
        return next((line for line in self.lines if line.item_id == item_id), None)


@dataclass(frozen=True, slots=True)
class RefundPlan:
    """A refund the rules allow, and what goes with it."""

    mode: RefundMode
    amount_cents: int  # at least 1, at most what remained
    lines: tuple[tuple[int, int], ...]  # (item id, quantity > 0) in the order's line order
    restock: bool  # return ``lines`` to stock
    note: str
    remaining_after_cents: int

    @property
    def completes(self) -> bool:
        """Nothing remains after it: the order becomes ``refunded``."""
        return self.remaining_after_cents == 0


def tax_share_cents(situation: RefundSituation, goods_before: int, goods_after: int) -> int:
    """The tax that goes back with goods refunded by line, ``goods_before`` → ``goods_after``
    (both cumulative: every refund by line so far, before the discount).

    Each tax gives back its share of the goods in its base: a tax charged on the goods and the
    shipping (docs/tax.md) keeps the shipping's part until the shipping itself is refunded (the
    rest of the order); the goods in its base are those after the discount.

    Examples:
        >>> order = RefundSituation((RefundableLine(1, "Candle", 3, 1000),), tax_cents=360,
        ...                         shipping_cents=1500, paid_cents=4860)
        >>> [tax_share_cents(order, n * 1000, (n + 1) * 1000) for n in range(3)]
        [120, 120, 120]
        >>> taxed = RefundSituation((RefundableLine(1, "Candle", 3, 1000),), tax_cents=540,
        ...     shipping_cents=1500, paid_cents=5040, tax_bases=((225, 4500), (315, 4500)))
        >>> tax_share_cents(taxed, 0, 3000)  # GST 5 % and PST 7 % of the goods; 180 is the shipping's
        360
        >>> off = RefundSituation((RefundableLine(1, "Candle", 3, 1000),), tax_cents=504,
        ...     shipping_cents=1500, paid_cents=4704, tax_bases=((210, 4200), (294, 4200)),
        ...     discount_cents=300)  # 10 % off: the taxes are on 27.00 of goods and 15.00 shipping
        >>> [tax_share_cents(off, n * 1000, (n + 1) * 1000) for n in range(3)], tax_share_cents(off, 0, 3000)
        ([108, 108, 108], 324)
    """
    total = situation.goods_cents
    if total <= 0:
        return 0
    net = situation.net_goods_cents
    bases = situation.tax_bases or ((situation.tax_cents, net),)

    def shared(goods: int) -> int:
        goods = min(max(goods, 0), total)
        return sum(
            round_half_up_div(amount * net * goods, max(base, net) * total)
            for amount, base in bases
            if max(base, net) > 0
        )

    return shared(goods_after) - shared(goods_before)


def discount_share_cents(situation: RefundSituation, goods_before: int, goods_after: int) -> int:
    """The discount that stays off goods refunded by line, ``goods_before`` → ``goods_after``
    (cumulative, as :func:`tax_share_cents`).

    Examples:
        >>> off = RefundSituation((RefundableLine(1, "Candle", 3, 1000),), tax_cents=0,
        ...     shipping_cents=0, paid_cents=2000, discount_cents=1000)
        >>> [discount_share_cents(off, n * 1000, (n + 1) * 1000) for n in range(3)]
        [333, 334, 333]
    """
    total, discount = situation.goods_cents, situation.discount_cents
    return share_cents(discount, total, goods_after) - share_cents(discount, total, goods_before)


def items_amount_cents(situation: RefundSituation, lines: tuple[tuple[int, int], ...]) -> int:
    """The amount of a refund of these (valid) lines: their goods less their share of the
    discount, plus their share of tax.

    Examples:
        >>> order = RefundSituation(
        ...     (RefundableLine(1, "Candle", 2, 2800), RefundableLine(2, "Lotion", 1, 1800)),
        ...     tax_cents=888, shipping_cents=1500, paid_cents=9788)
        >>> items_amount_cents(order, ((1, 1),)), items_amount_cents(order, ((1, 2), (2, 1)))
        (3136, 8288)
        >>> off = RefundSituation(order.lines, tax_cents=799, shipping_cents=1500, paid_cents=8959,
        ...     discount_cents=740)  # 10 % off the goods: tax 12 % of 66.60
        >>> items_amount_cents(off, ((1, 1),)), items_amount_cents(off, ((1, 2), (2, 1)))
        (2822, 7459)
    """
    prices = {line.item_id: line.unit_price_cents for line in situation.lines}
    goods = sum(prices[item_id] * quantity for item_id, quantity in lines)
    before = situation.goods_refunded_cents
    after = before + goods
    return goods - discount_share_cents(situation, before, after) + tax_share_cents(situation, before, after)


def rest_lines(situation: RefundSituation) -> tuple[tuple[int, int], ...]:
    """Every item not yet refunded by line: what the rest (a full refund, a cancel) takes back."""
    return tuple(
        (line.item_id, line.refundable_quantity) for line in situation.lines if line.refundable_quantity
    )


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _chosen_lines(situation: RefundSituation, quantities: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    for item_id, quantity in quantities.items():
        line = situation.line(item_id) if _whole(item_id) is not None else None
        if line is None:
            raise RefundRefused(M.REFUND_NOT_A_LINE.value)
        count = _whole(quantity)
        if count is None or not 0 <= count <= min(line.refundable_quantity, MAX_QUANTITY):
            raise RefundRefused(M.REFUND_QUANTITY_INVALID.format(name=line.name, n=line.refundable_quantity))
    chosen = tuple(
        (line.item_id, quantities[line.item_id]) for line in situation.lines if quantities.get(line.item_id)
    )
    if not chosen:
        raise RefundRefused(M.REFUND_NOTHING_CHOSEN.value)
    return chosen


def _lines_and_amount(
    situation: RefundSituation,
    how: RefundMode,
    quantities: Mapping[int, int],
    amount_cents: int | None,
    *,
    restock: bool,
) -> tuple[tuple[tuple[int, int], ...], int]:
    """The items and the amount of a refund asked ``how``, within what remains."""
    remaining = situation.remaining_cents
    if how == RefundMode.REST:
        return rest_lines(situation), remaining
    if how == RefundMode.AMOUNT:
        if restock:
            raise RefundRefused(M.REFUND_AMOUNT_NO_RESTOCK.value)
        amount = _whole(amount_cents) or 0
        if amount < 1:
            raise RefundRefused(M.REFUND_AMOUNT_TOO_SMALL.value)
        if amount > remaining:
            raise RefundRefused(M.REFUND_AMOUNT_TOO_MUCH.format(remaining=format_cents(remaining)))
        return (), amount
    lines = _chosen_lines(situation, quantities)
    amount = items_amount_cents(situation, lines)
    if amount <= 0:
        raise RefundRefused(M.REFUND_FREE_ITEMS.value)
    if amount > remaining:
        raise RefundRefused(
            M.REFUND_ITEMS_TOO_MUCH.format(amount=format_cents(amount), remaining=format_cents(remaining))
        )
    return lines, amount


def plan_refund(
    situation: RefundSituation,
    *,
    status: str,
    payment_status: str,
    mode: str,
    quantities: Mapping[int, int] | None = None,
    amount_cents: int | None = None,
    restock: bool = False,
    note: str = "",
) -> RefundPlan:
    """Check a refund against the rules (module docstring) and say what it is.

    Args:
        situation: The order's lines and money now.
        status: The order's status now.
        payment_status: The order's payment status now.
        mode: A :class:`RefundMode` value.
        quantities: For ``items``: item id → quantity to refund (0 allowed; ids of this order only).
        amount_cents: For ``amount``: the amount to refund.
        restock: Return the refunded items to stock (``items`` and ``rest`` only).
        note: The admin's optional note (reason), at most :data:`~shop_app.domain.order_status.NOTE_MAX`.

    Raises:
        RefundRefused: With the reason; nothing may be refunded then.
    """
    refusal = refund_refusal(status, payment_status)
    if refusal is not None:
        raise RefundRefused(refusal)
    try:
        how = RefundMode(mode)
    except ValueError:
        raise RefundRefused(M.REFUND_MODE_INVALID.value) from None
    cleaned_note = free_text.multiline(note)
    if len(cleaned_note) > NOTE_MAX:
        raise RefundRefused(M.NOTE_TOO_LONG.format(n=NOTE_MAX))
    if not isinstance(restock, bool):
        raise RefundRefused(M.REFUND_MODE_INVALID.value)
    remaining = situation.remaining_cents
    if remaining <= 0:
        raise RefundRefused(M.REFUND_NOTHING_LEFT.value)
    lines, amount = _lines_and_amount(situation, how, quantities or {}, amount_cents, restock=restock)
    if restock and lines and not can_restock(status):
        raise RefundRefused(M.REFUND_STOCK_BACK_ALREADY.value)
    return RefundPlan(
        mode=how,
        amount_cents=amount,
        lines=lines,
        restock=restock and bool(lines),
        note=cleaned_note,
        remaining_after_cents=remaining - amount,
    )
