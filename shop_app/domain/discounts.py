"""Discount codes (issue 19, acceptance 3): who may use a code, and how much it takes off.

- **Kinds.** A percentage of the eligible goods (``value``: basis points, 1–10,000), a fixed
  amount (``value``: cents, at most the eligible goods), or free shipping (the order's shipping is
  waived; ``value`` unused).
- **Eligible goods.** Every line, or, when the code names products or categories, the lines of
  those products and of products filed under those categories (main category or collection).
- **Applied before tax.** The discount comes off the goods; shipping is decided on the subtotal
  before it (the free-shipping threshold the cart counts down to; a code never takes free
  shipping away), and each tax is on the goods after it plus the shipping
  (:func:`~shop_app.domain.totals.compute_totals`). So ``total = lines - discount + shipping +
  taxes`` to the cent.
- **Refusals**, checked in this order, each with its reason for the shopper
  (:func:`refusal`): unknown, switched off, not started, expired, used up, already used by this
  customer, not for these items, minimum subtotal not met.
- **Codes are matched without regard to case or surrounding spaces** (:func:`normalize_code`)
  and are stored in upper case: letters, digits, ``-`` and ``_``, 3 to 32 of them.

Usage limits are enforced again, atomically, where the order is written
(``services.discounts.redeem``): what is checked here is what the shopper is told.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Final

from shop_app.domain.messages import DiscountMessage
from shop_app.domain.money import BASIS_POINTS_PER_WHOLE, format_cents, round_half_up_div

CODE_PATTERN: Final = re.compile(r"[A-Z0-9_-]{3,32}", re.ASCII)
CODE_MAX: Final = 32
DISCOUNT_ROW_LABEL: Final = "Discount"


class DiscountKind(StrEnum):
    """What a code takes off."""

    PERCENT = "percent"
    FIXED = "fixed"
    FREE_SHIPPING = "free_shipping"


@dataclass(frozen=True, slots=True)
class DiscountCode:
    """A code as the rules see it (the database row's values)."""

    code: str
    kind: DiscountKind
    value: int = 0  # percent: basis points; fixed: cents; free shipping: unused
    min_subtotal_cents: int = 0
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    max_uses: int | None = None
    max_uses_per_customer: int | None = None
    product_ids: frozenset[int] = field(default_factory=frozenset)
    category_ids: frozenset[int] = field(default_factory=frozenset)
    active: bool = True
    uses: int = 0

    @property
    def restricted(self) -> bool:
        """Whether the code is only for some products or categories."""
        return bool(self.product_ids or self.category_ids)


@dataclass(frozen=True, slots=True)
class DiscountLine:
    """A cart line as far as a code goes."""

    product_id: int
    category_ids: frozenset[int]  # the product's main category and collection (either may be absent)
    line_total_cents: int


@dataclass(frozen=True, slots=True)
class AppliedDiscount:
    """A code that applies to a cart: its amount off the goods, and whether shipping is waived."""

    code: str
    amount_cents: int
    free_shipping: bool = False

    @property
    def label(self) -> str:
        """The summary row's label: "Discount (SPRING10)"."""
        return discount_label(self.code)


def discount_label(code: str | None) -> str:
    """The label of a discount's row in a summary: "Discount (SPRING10)", or "Discount" when
    the code is not known.

    Examples:
        >>> discount_label("SPRING10"), discount_label(None)
        ('Discount (SPRING10)', 'Discount')
    """
    return f"{DISCOUNT_ROW_LABEL} ({code})" if code else DISCOUNT_ROW_LABEL


def discount_rows(discount_cents: int, code: str | None) -> tuple[tuple[str, int], ...]:
    """The discount row an order's summary shows between the subtotal and the shipping: its label
    and the amount taken off, negative; no row when nothing was taken off (no code, or a
    free-shipping code, whose effect is the shipping's $0.00).

    Every summary (the success page, the account's and the guest's order pages, the back
    office, the confirmation mail, the invoice) shows these rows, as :func:`~shop_app.domain.tax.tax_rows`.

    Examples:
        >>> discount_rows(500, "TEN"), discount_rows(0, "SHIPFREE"), discount_rows(0, None)
        ((('Discount (TEN)', -500),), (), ())
    """
    return ((discount_label(code), -discount_cents),) if discount_cents > 0 else ()


def normalize_code(text: object) -> str:
    """A code as typed, as stored: trimmed, upper case; ``""`` for anything that is not text.

    Examples:
        >>> normalize_code("  spring-10 "), normalize_code(None)
        ('SPRING-10', '')
    """
    return text.strip().upper() if isinstance(text, str) else ""


def is_code(text: str) -> bool:
    """Whether ``text`` (normalised) has a code's form.

    Examples:
        >>> is_code("SPRING-10"), is_code("AB"), is_code("NO SPACES"), is_code("É-TÉ")
        (True, False, False, False)
    """
    return CODE_PATTERN.fullmatch(text) is not None


def eligible_cents(code: DiscountCode, lines: Iterable[DiscountLine]) -> int:
    """The goods the code applies to: every line, or those of its products and categories."""
    return sum(line.line_total_cents for line in lines if _eligible(code, line))


def _eligible(code: DiscountCode, line: DiscountLine) -> bool:
    if not code.restricted:
        return True
    return line.product_id in code.product_ids or bool(line.category_ids & code.category_ids)


def refusal(
    code: DiscountCode | None,
    lines: Sequence[DiscountLine],
    *,
    now: datetime,
    customer_uses: int = 0,
) -> str | None:
    """Why ``code`` cannot be used on these lines now (the shopper's message), or ``None``.

    Args:
        code: The code found for what was typed (``None``: no such code).
        lines: The cart's lines.
        now: The moment of the check (aware).
        customer_uses: How many orders of this customer already carry the code.
    """
    if code is None:
        return DiscountMessage.UNKNOWN.value
    if not code.active:
        return DiscountMessage.INACTIVE.value
    subtotal = sum(line.line_total_cents for line in lines)
    checks = (
        (code.starts_at is not None and now < code.starts_at, DiscountMessage.NOT_STARTED.value),
        (code.ends_at is not None and now >= code.ends_at, DiscountMessage.EXPIRED.value),
        (code.max_uses is not None and code.uses >= code.max_uses, DiscountMessage.USED_UP.value),
        (
            code.max_uses_per_customer is not None and customer_uses >= code.max_uses_per_customer,
            DiscountMessage.ALREADY_USED.value,
        ),
        (eligible_cents(code, lines) <= 0, DiscountMessage.NOT_FOR_ITEMS.value),
        (
            subtotal < code.min_subtotal_cents,
            DiscountMessage.MINIMUM.format(amount=format_cents(code.min_subtotal_cents)),
        ),
    )
    return next((reason for failed, reason in checks if failed), None)


def apply(code: DiscountCode, lines: Iterable[DiscountLine]) -> AppliedDiscount:
    """What a code (that :func:`refusal` accepts) takes off these lines.

    Examples:
        >>> lines = [DiscountLine(1, frozenset({7}), 3000), DiscountLine(2, frozenset({8}), 1999)]
        >>> apply(DiscountCode("TEN", DiscountKind.PERCENT, 1000), lines).amount_cents  # 10 % of 49.99
        500
        >>> for_seven = DiscountCode("C7", DiscountKind.FIXED, 5000, category_ids=frozenset({7}))
        >>> apply(for_seven, lines).amount_cents  # $50 off, but only $30 of category 7 in the cart
        3000
        >>> apply(DiscountCode("SHIP", DiscountKind.FREE_SHIPPING), lines)
        AppliedDiscount(code='SHIP', amount_cents=0, free_shipping=True)
    """
    eligible = eligible_cents(code, lines)
    if code.kind is DiscountKind.PERCENT:
        amount = round_half_up_div(eligible * code.value, BASIS_POINTS_PER_WHOLE)
    elif code.kind is DiscountKind.FIXED:
        amount = code.value
    else:
        return AppliedDiscount(code.code, 0, free_shipping=True)
    return AppliedDiscount(code.code, min(max(amount, 0), eligible))


def share_cents(discount_cents: int, goods_cents: int, goods_part_cents: int) -> int:
    """The discount that goes with ``goods_part_cents`` of ``goods_cents`` (cumulative: refunds
    by line give back the goods less this share, so refunding every item gives back exactly the
    goods less the discount).

    Examples:
        >>> [share_cents(500, 4999, part) for part in (0, 3000, 4999)]
        [0, 300, 500]
    """
    if goods_cents <= 0:
        return 0
    part = min(max(goods_part_cents, 0), goods_cents)
    return round_half_up_div(discount_cents * part, goods_cents)
