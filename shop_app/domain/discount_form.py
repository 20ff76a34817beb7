"""The Discount Codes dialog (issue 19, acceptance 3): what the owner may type, and how it becomes
a stored code. Every field's problem is reported at once, under its own name (``errors``), and
nothing is saved while there is one.

- **Code**: trimmed and upper-cased (:func:`~shop_app.domain.discounts.normalize_code`), then
  3 to 32 letters, digits, ``-`` or ``_``. A code that has been used keeps its text: orders name
  it, and the per-customer count follows it (``stored.uses > 0``). Whether another code already
  has the text is the service's check (the database knows).
- **Kind** and **value**: a percentage typed as ``10`` or ``12.5`` (at most 2 decimals, so an
  exact number of basis points, 0.01 % to 100 %); a fixed amount in dollars ($0.01 to
  :data:`MAX_AMOUNT_CENTS`); nothing for free shipping (the value is ignored and stored as 0).
- **Minimum subtotal**: dollars, optional (empty: none).
- **Dates** (``YYYY-MM-DD``, as a date input sends them, optional) are the shop's calendar days
  (``zone``: America/Vancouver): the code starts at 00:00 of its start day and ends at 00:00 of
  the day after its end day, stored as UTC. The end day cannot be before the start day, so a code
  always lasts a day at least.
- **Usage limits**: whole numbers from 1 to :data:`MAX_LIMIT`, optional. A total limit below the
  uses so far is refused (the database would refuse it too: ``ck_discount_codes_uses``).
- **Note**: one line (``free_text.one_line``), at most :data:`NOTE_MAX` characters.
- **Products and categories** are ids chosen from lists; whether they exist is the service's
  check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Final

from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.discounts import DiscountKind, is_code, normalize_code
from shop_app.domain.form_input import text
from shop_app.domain.free_text import one_line
from shop_app.domain.money import format_cents, format_plain, parse_dollars

CODE: Final = "code"
KIND: Final = "kind"
VALUE: Final = "value"
MINIMUM: Final = "min_subtotal"
STARTS: Final = "starts_on"
ENDS: Final = "ends_on"
MAX_USES: Final = "max_uses"
PER_CUSTOMER: Final = "max_uses_per_customer"
NOTE: Final = "note"
PRODUCTS: Final = "products"
CATEGORIES: Final = "categories"
TEXT_FIELDS: Final = (CODE, VALUE, MINIMUM, STARTS, ENDS, MAX_USES, PER_CUSTOMER, NOTE)
"""The dialog's text inputs (the kind is a select, products and categories are lists)."""

MAX_AMOUNT_CENTS: Final = 1_000_000
"""The largest fixed amount or minimum subtotal: $10,000.00."""
MAX_LIMIT: Final = 1_000_000
NOTE_MAX: Final = 200
BASIS_POINTS_MAX: Final = 10_000

_PERCENT = re.compile(r"(?P<whole>[0-9]{1,3})(?:\.(?P<frac>[0-9]{0,2}))?", re.ASCII)
_WHOLE = re.compile(r"[0-9]{1,7}", re.ASCII)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


@dataclass(frozen=True, slots=True)
class StoredCode:
    """What the rules need of the code being edited: its text and how many orders used it."""

    code: str
    uses: int


@dataclass(frozen=True, slots=True)
class DiscountValues:
    """A checked form, ready to store (names are the row's columns)."""

    code: str
    kind: DiscountKind
    value: int  # percent: basis points; fixed: cents; free shipping: 0
    min_subtotal_cents: int
    starts_at: datetime | None  # aware, UTC
    ends_at: datetime | None
    max_uses: int | None
    max_uses_per_customer: int | None
    product_ids: tuple[int, ...]
    category_ids: tuple[int, ...]
    note: str
    is_active: bool


@dataclass(frozen=True, slots=True)
class DiscountFormCheck:
    """The result of checking the form: values when valid, else one message per bad field."""

    values: DiscountValues | None
    errors: dict[str, str] = field(default_factory=dict)


def parse_percent(typed: str) -> int | None:
    """A percentage as typed, in basis points (1 to 10,000), or ``None`` if it is not one.

    Examples:
        >>> parse_percent("10"), parse_percent(" 12.5 % "), parse_percent("0.01"), parse_percent("100")
        (1000, 1250, 1, 10000)
        >>> parse_percent("0"), parse_percent("100.01"), parse_percent("12.345"), parse_percent("-5")
        (None, None, None, None)
    """
    match = _PERCENT.fullmatch(typed.strip().removesuffix("%").strip())
    if match is None:
        return None
    points = int(match["whole"]) * 100 + int((match["frac"] or "").ljust(2, "0"))
    return points if 0 < points <= BASIS_POINTS_MAX else None


def percent_text(basis_points: int) -> str:
    """Basis points as the owner types a percentage.

    Examples:
        >>> percent_text(1000), percent_text(1250), percent_text(1), percent_text(10000)
        ('10', '12.5', '0.01', '100')
    """
    whole, frac = divmod(basis_points, 100)
    return f"{whole}.{frac:02d}".rstrip("0").rstrip(".")


def day_start(day: date, zone: tzinfo) -> datetime:
    """00:00 of ``day`` in ``zone``, as an aware UTC datetime.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> day_start(date(2026, 7, 1), ZoneInfo("America/Vancouver")).isoformat()
        '2026-07-01T07:00:00+00:00'
    """
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def local_day(moment: datetime, zone: tzinfo) -> date:
    """The calendar day in ``zone`` that an aware ``moment`` falls on."""
    return moment.astimezone(zone).date()


def last_day(ends_at: datetime, zone: tzinfo) -> date:
    """The last day a code ending at ``ends_at`` can be used: the day of the instant before it.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> van = ZoneInfo("America/Vancouver")
        >>> last_day(day_start(date(2027, 1, 1), van), van)
        datetime.date(2026, 12, 31)
    """
    return local_day(ends_at - timedelta(microseconds=1), zone)


def form_texts(
    *,
    code: str,
    kind: DiscountKind,
    value: int,
    min_subtotal_cents: int,
    starts_at: datetime | None,
    ends_at: datetime | None,
    max_uses: int | None,
    max_uses_per_customer: int | None,
    note: str,
    zone: tzinfo,
) -> dict[str, str]:
    """A stored code as the dialog's text inputs show it (what :func:`check_discount_form` reads back)."""
    if kind is DiscountKind.PERCENT:
        value_text = percent_text(value)
    elif kind is DiscountKind.FIXED:
        value_text = format_plain(value)
    else:
        value_text = ""
    return {
        CODE: code,
        VALUE: value_text,
        MINIMUM: format_plain(min_subtotal_cents) if min_subtotal_cents else "",
        STARTS: local_day(starts_at, zone).isoformat() if starts_at else "",
        ENDS: last_day(ends_at, zone).isoformat() if ends_at else "",
        MAX_USES: str(max_uses) if max_uses is not None else "",
        PER_CUSTOMER: str(max_uses_per_customer) if max_uses_per_customer is not None else "",
        NOTE: note,
    }


def check_discount_form(
    form: Mapping[str, object],
    *,
    zone: tzinfo,
    product_ids: Iterable[int] = (),
    category_ids: Iterable[int] = (),
    is_active: bool = True,
    stored: StoredCode | None = None,
) -> DiscountFormCheck:
    """Check the dialog's fields (texts as typed, the kind's value) and return every problem at once.

    Args:
        form: The submitted texts, by the names of :data:`TEXT_FIELDS`, and :data:`KIND`.
        zone: The shop's time zone: the dates are its calendar days.
        product_ids: The products chosen (duplicates are dropped).
        category_ids: The categories chosen.
        is_active: The Active switch.
        stored: The code being edited, ``None`` for a new one.

    Examples:
        >>> from zoneinfo import ZoneInfo
        >>> van = ZoneInfo("America/Vancouver")
        >>> good = check_discount_form({"code": " spring-10 ", "kind": "percent", "value": "12.5"}, zone=van)
        >>> good.values.code, good.values.value, good.errors
        ('SPRING-10', 1250, {})
        >>> bad = check_discount_form({"code": "x", "kind": "fixed", "value": "0"}, zone=van)
        >>> sorted(bad.errors), bad.values is None
        (['code', 'value'], True)
    """
    errors: dict[str, str] = {}
    code = _code(form, stored, errors)
    kind = _kind(form, errors)
    value = _value(form, kind, errors)
    minimum = _amount(form, MINIMUM, errors, M.MINIMUM_INVALID, least=0)
    starts_at = _day(form, STARTS, errors, zone, after=0)
    ends_at = _day(form, ENDS, errors, zone, after=1)
    if starts_at is not None and ends_at is not None and ends_at <= starts_at:
        errors[ENDS] = M.ENDS_BEFORE_STARTS.value
    max_uses = _limit(form, MAX_USES, errors)
    if max_uses is not None and stored is not None and max_uses < stored.uses:
        errors[MAX_USES] = M.LIMIT_BELOW_USES.format(n=stored.uses)
    per_customer = _limit(form, PER_CUSTOMER, errors)
    if per_customer is not None and max_uses is not None and per_customer > max_uses:
        errors[PER_CUSTOMER] = M.PER_CUSTOMER_ABOVE_TOTAL.format(n=max_uses)
    note = one_line(form.get(NOTE))
    if len(note) > NOTE_MAX:
        errors[NOTE] = M.NOTE_TOO_LONG.format(limit=NOTE_MAX)
    if errors or kind is None:
        return DiscountFormCheck(values=None, errors=errors)
    return DiscountFormCheck(
        values=DiscountValues(
            code=code,
            kind=kind,
            value=value or 0,
            min_subtotal_cents=minimum or 0,
            starts_at=starts_at,
            ends_at=ends_at,
            max_uses=max_uses,
            max_uses_per_customer=per_customer,
            product_ids=_ids(product_ids),
            category_ids=_ids(category_ids),
            note=note,
            is_active=bool(is_active),
        )
    )


def _code(form: Mapping[str, object], stored: StoredCode | None, errors: dict[str, str]) -> str:
    code = normalize_code(form.get(CODE))
    if stored is not None and stored.uses > 0 and code != stored.code:
        errors[CODE] = M.CODE_KEPT.value
    elif not is_code(code):
        errors[CODE] = M.CODE_INVALID.value
    return code


def _kind(form: Mapping[str, object], errors: dict[str, str]) -> DiscountKind | None:
    try:
        return DiscountKind(text(form, KIND))
    except ValueError:
        errors[KIND] = M.KIND_INVALID.value
        return None


def _value(form: Mapping[str, object], kind: DiscountKind | None, errors: dict[str, str]) -> int | None:
    if kind is DiscountKind.PERCENT:
        points = parse_percent(text(form, VALUE))
        if points is None:
            errors[VALUE] = M.PERCENT_INVALID.value
        return points
    if kind is DiscountKind.FIXED:
        return _amount(form, VALUE, errors, M.AMOUNT_INVALID, least=1, required=True)
    return 0  # free shipping (or no kind: its own error says so)


def _amount(
    form: Mapping[str, object],
    name: str,
    errors: dict[str, str],
    message: M,
    *,
    least: int,
    required: bool = False,
) -> int | None:
    typed = text(form, name)
    if not typed and not required:
        return None
    try:
        cents: int | None = parse_dollars(typed)
    except ValueError:
        cents = None
    if cents is None or not least <= cents <= MAX_AMOUNT_CENTS:
        errors[name] = message.format(amount=format_cents(MAX_AMOUNT_CENTS))
        return None
    return cents


def _day(
    form: Mapping[str, object], name: str, errors: dict[str, str], zone: tzinfo, *, after: int
) -> datetime | None:
    """The start of the typed day plus ``after`` days (an end day ends when the next one starts)."""
    typed = text(form, name)
    if not typed:
        return None
    try:
        if not _DATE.fullmatch(typed):
            raise ValueError(typed)
        day = date.fromisoformat(typed)
        if not 2000 <= day.year <= 2999:
            raise ValueError(typed)
    except ValueError:
        errors[name] = M.DATE_INVALID.value
        return None
    return day_start(day + timedelta(days=after), zone)


def _limit(form: Mapping[str, object], name: str, errors: dict[str, str]) -> int | None:
    typed = text(form, name)
    if not typed:
        return None
    if not _WHOLE.fullmatch(typed) or not 1 <= int(typed) <= MAX_LIMIT:
        errors[name] = M.LIMIT_INVALID.value
        return None
    return int(typed)


def _ids(ids: Iterable[int]) -> tuple[int, ...]:
    """Whole positive ids, each once, in the order chosen."""
    return tuple(dict.fromkeys(i for i in ids if type(i) is int and i > 0))
