"""Short derived texts: previews, overflow counts, relative and long dates.

Dates are formatted without the C library's locale, so the English month names never change
with the server's ``LANG``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Final

from shop_app.domain.messages import DisplayText

DESCRIPTION_PREVIEW_LIMIT: Final = 80
"""Characters of a product card's description preview (docs/spec/limits.md#storefront)."""
SCENT_LIST_LIMIT: Final = 8
"""Scents listed on the product page before "+N more" (docs/spec/limits.md#storefront)."""
ELLIPSIS: Final = "…"

MONTHS: Final[tuple[str, ...]] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

_SECONDS_PER_HOUR: Final = 3600
_HOURS_PER_DAY: Final = 24
_HOURS_PER_WEEK: Final = 168


def description_preview(text: str, limit: int = DESCRIPTION_PREVIEW_LIMIT) -> str:
    """Return a product card's description preview.

    Whitespace runs are collapsed first. A text of at most ``limit`` characters is returned
    whole; a longer one is cut to ``limit - 1`` characters, trailing spaces dropped, and ends
    with the single character "…", so the preview never exceeds ``limit`` characters.

    Examples:
        >>> description_preview("Hand-poured soy wax.")
        'Hand-poured soy wax.'
        >>> description_preview("abcdefghij", limit=5)
        'abcd…'

    Args:
        text: The full description.
        limit: The maximum length of the preview, at least 1.

    Returns:
        The preview.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[: limit - 1].rstrip() + ELLIPSIS


def scent_overflow(scents: Sequence[str], limit: int = SCENT_LIST_LIMIT) -> tuple[list[str], int]:
    """Split a scent list into the part shown and the number hidden behind "+N more".

    Examples:
        >>> scent_overflow(["a", "b", "c"], limit=2)
        (['a', 'b'], 1)

    Args:
        scents: All scents, in display order.
        limit: How many to show.

    Returns:
        The first ``limit`` scents and how many more there are (0 if none).
    """
    shown = list(scents[:limit])
    return shown, len(scents) - len(shown)


def showing_products(total: int) -> str:
    """The shop's count: "Showing N products", "Showing 1 product".

    Examples:
        >>> showing_products(1), showing_products(12)
        ('Showing 1 product', 'Showing 12 products')
    """
    return (
        DisplayText.SHOWING_ONE_PRODUCT.value if total == 1 else DisplayText.SHOWING_PRODUCTS.format(n=total)
    )


def counted(n: int, noun: str) -> str:
    """A count and its noun in the right number (the noun's plural takes an "s").

    Examples:
        >>> counted(1, "problem"), counted(0, "problem"), counted(3, "product")
        ('1 problem', '0 problems', '3 products')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def more_label(hidden: int) -> str:
    """Return the overflow label "+N more", or ``""`` when nothing is hidden."""
    return DisplayText.MORE_SCENTS.format(n=hidden) if hidden > 0 else ""


def short_us_date(d: date) -> str:
    """Return a date like "Nov 3, 2026"."""
    return f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}"


def long_us_date(d: date) -> str:
    """Return a date like "November 21, 2026" (order history's "placed on" date)."""
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def last_seen_text(last_sign_in: datetime | None, now: datetime) -> str:
    """Return the View Users "Last Seen" text (docs/spec/limits.md#back-office).

    Under 1 hour "Just now" (also for times in the future); under 24 hours "Nh ago"; under 168
    hours "Nd ago"; otherwise the date, "Nov 3, 2026"; no sign-in "Never". Hours and days are
    whole and rounded down. Both datetimes must be naive or both aware; with aware ones the date
    is shown in ``now``'s time zone.

    Args:
        last_sign_in: The last sign-in time, or ``None``.
        now: The current time.

    Returns:
        The text.
    """
    if last_sign_in is None:
        return DisplayText.NEVER.value
    hours = int((now - last_sign_in).total_seconds() // _SECONDS_PER_HOUR)
    if hours < 1:
        return DisplayText.JUST_NOW.value
    if hours < _HOURS_PER_DAY:
        return DisplayText.HOURS_AGO.format(n=hours)
    if hours < _HOURS_PER_WEEK:
        return DisplayText.DAYS_AGO.format(n=hours // _HOURS_PER_DAY)
    local = last_sign_in.astimezone(now.tzinfo) if now.tzinfo is not None else last_sign_in
    return short_us_date(local)


def is_recent_signup(created_at: datetime, now: datetime, *, days: int = 7) -> bool:
    """Return whether an account was created within the last ``days`` days
    (docs/spec/limits.md#back-office)."""
    return (now - created_at).total_seconds() <= days * _HOURS_PER_DAY * _SECONDS_PER_HOUR


def masked_email(address: str) -> str:
    """Return an e-mail address with its local part hidden but for the first character.

    Shown on the unsubscribe page: the visitor recognises their address, while a link forwarded
    or shown over a shoulder does not give it away.

    Examples:
        >>> masked_email("ana.lopez@example.ca")
        'a•••@example.ca'
        >>> masked_email("not an address")
        '•••'
    """
    local, at, domain = address.strip().rpartition("@")
    if not at or not local or not domain:
        return "•••"
    return f"{local[0]}•••@{domain}"
