"""How the back office's Discount Codes list describes a code (issue 19, acceptance 3): what it
gives, its limits in a line, and its status now.

The status is the first that holds of: **Off** (switched off by the owner), **Expired** (its end
has passed), **Used up** (as many uses as its total limit), **Scheduled** (its start is still
ahead), else **Active**. It is what a shopper typing the code would meet first
(``domain.discounts.refusal`` checks in that spirit), but without a cart: a code that is Active
may still refuse a cart under its minimum or without its products.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import Final

from shop_app.domain.admin_messages import DiscountLabel as L
from shop_app.domain.discount_form import last_day, local_day, percent_text
from shop_app.domain.discounts import DiscountCode, DiscountKind
from shop_app.domain.money import format_cents
from shop_app.domain.text import short_us_date

STATUS_COLOURS: Final[dict[str, str]] = {
    L.STATUS_ACTIVE: "green",
    L.STATUS_SCHEDULED: "blue",
    L.STATUS_EXPIRED: "gray",
    L.STATUS_USED_UP: "orange",
    L.STATUS_OFF: "gray",
}
"""The Radix colour of each status's badge."""


def gives_text(kind: DiscountKind, value: int) -> str:
    """What the code takes off, in words.

    Examples:
        >>> gives_text(DiscountKind.PERCENT, 1250), gives_text(DiscountKind.FIXED, 500)
        ('12.5% off', '$5.00 off')
        >>> gives_text(DiscountKind.FREE_SHIPPING, 0)
        'Free shipping'
    """
    if kind is DiscountKind.PERCENT:
        return L.PERCENT_OFF.format(percent=percent_text(value))
    if kind is DiscountKind.FIXED:
        return L.AMOUNT_OFF.format(amount=format_cents(value))
    return L.FREE_SHIPPING.value


def dates_text(starts_at: datetime | None, ends_at: datetime | None, zone: tzinfo) -> str:
    """The days a code runs, as the owner typed them (the end day is the last day it works).

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> from shop_app.domain.discount_form import day_start
        >>> van = ZoneInfo("America/Vancouver")
        >>> dates_text(day_start(date(2026, 12, 1), van), day_start(date(2027, 1, 1), van), van)
        'Dec 1, 2026 – Dec 31, 2026'
        >>> dates_text(None, day_start(date(2027, 1, 1), van), van), dates_text(None, None, van)
        ('Until Dec 31, 2026', '')
    """
    first: date | None = local_day(starts_at, zone) if starts_at else None
    last: date | None = last_day(ends_at, zone) if ends_at else None
    if first and last:
        return f"{short_us_date(first)} – {short_us_date(last)}"
    if first:
        return f"From {short_us_date(first)}"
    if last:
        return f"Until {short_us_date(last)}"
    return ""


def limits_text(code: DiscountCode, zone: tzinfo) -> str:
    """The code's limits in one line: minimum, dates, uses, per customer, products and categories.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> code = DiscountCode("TEN", DiscountKind.PERCENT, 1000, min_subtotal_cents=5000,
        ...                     max_uses=50, uses=12, max_uses_per_customer=1,
        ...                     product_ids=frozenset({3}), category_ids=frozenset({1, 2}))
        >>> limits_text(code, ZoneInfo("America/Vancouver"))
        'Minimum $50.00 · 12 / 50 uses · 1 per customer · 1 product · 2 categories'
        >>> limits_text(DiscountCode("FREE", DiscountKind.FREE_SHIPPING), ZoneInfo("UTC"))
        'No limits'
    """
    parts = [
        L.MINIMUM.format(amount=format_cents(code.min_subtotal_cents)) if code.min_subtotal_cents else "",
        dates_text(code.starts_at, code.ends_at, zone),
        L.USES_OF.format(used=code.uses, limit=code.max_uses) if code.max_uses is not None else "",
        L.PER_CUSTOMER.format(n=code.max_uses_per_customer) if code.max_uses_per_customer is not None else "",
        _count(len(code.product_ids), L.FOR_ONE_PRODUCT, L.FOR_PRODUCTS),
        _count(len(code.category_ids), L.FOR_ONE_CATEGORY, L.FOR_CATEGORIES),
    ]
    return " · ".join(part for part in parts if part) or L.NO_LIMITS.value


def _count(n: int, one: L, many: L) -> str:
    if n == 0:
        return ""
    return one.value if n == 1 else many.format(n=n)


def status_of(code: DiscountCode, now: datetime) -> L:
    """The code's status at ``now`` (aware); see the module docstring for the order.

    Examples:
        >>> from datetime import UTC
        >>> now = datetime(2026, 12, 1, tzinfo=UTC)
        >>> status_of(DiscountCode("A", DiscountKind.FIXED, 100, max_uses=2, uses=2), now).value
        'Used up'
        >>> later = DiscountCode("A", DiscountKind.FIXED, 100, starts_at=datetime(2027, 1, 1, tzinfo=UTC))
        >>> status_of(later, now).value
        'Scheduled'
    """
    if not code.active:
        return L.STATUS_OFF
    if code.ends_at is not None and now >= code.ends_at:
        return L.STATUS_EXPIRED
    if code.max_uses is not None and code.uses >= code.max_uses:
        return L.STATUS_USED_UP
    if code.starts_at is not None and now < code.starts_at:
        return L.STATUS_SCHEDULED
    return L.STATUS_ACTIVE
