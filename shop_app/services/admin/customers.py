"""View Users, the back office's customer list (docs/spec/admin-people.md#users, #records;
docs/spec/limits.md#back-office).

**Who is a customer.** Two kinds of people, one row each:

- an *account* without an active admin role (the dashboard counts customers the same way); the
  admins are on Manage Admins;
- a *guest* (ours, issue 17): an e-mail address that placed at least one paid order
  (``order_history.paid_orders()``) without an account (``orders.user_id`` NULL) and matches no
  account at all (admins' included), compared without case: ``Ana@X.ca`` and ``ana@x.ca`` are one
  guest. The row shows the e-mail, name, phone and place of the address's latest paid order (its
  shipping address; the order's own phone when the address has none); "Joined" is the first paid
  order's date and "Last Seen" the last one's. A guest has no id: User Details finds them by
  their e-mail (:func:`guest_details`).

**A person's orders** (the Orders and Spent columns and User Details): an account's are the paid
orders with its id **and** the paid orders placed without an account under its e-mail (compared
without case), before or after the account was opened: the same person, who checked out as a
guest. A guest's are the paid orders without an account under that address. So every paid order
belongs to exactly one row, and an address that opens an account takes its guest orders along
(the guest row disappears). "Spent" is what those orders kept paid: their totals less every
refund (``order_history.kept_cents``), integer cents.
Which orders count as paid is ``paid_orders()``'s alone (the one definition; nothing here adds to
it or leaves anything out). Orders with another account's id stay that account's, whatever e-mail
they carry.

**Status and stats.** "Active" means the account is enabled (``users.is_active``: it may sign in);
a deactivated account is "Inactive"; a guest is neither (the list says "Guest"). "Verified" means
the e-mail address was confirmed. A recent signup joined within the last 7 days. The filter: All
Users (accounts and guests), Active Only and Inactive Only (accounts only), Guests only. The
spec's four figures count accounts only, as before: **Total** is the number of customer
accounts (the dashboard's "customers"), Active, Recent Signups and Verified are among them; the
**Guests** figure counts the guest rows, so All Users lists Total + Guests people.

Customers can be many, so the stats, the search, the status filter and the paging all run in the
database, over the union of the accounts and the guests (a guest's latest order, first and last
dates, order count and total come from window functions over their orders): one query for the
stats; one for the page with the number of matches (a window count) and the accounts' own orders
and last request, worked out for the page's rows only; one for the orders placed without an
account under the page's accounts' e-mails (a page asked beyond the last one costs a count and the
last page again). Listing guests reads every guest order once per page (no index covers
``lower(orders.email)``): about 0.2 s for 30,000 guest orders on PostgreSQL and SQLite alike.
Names and e-mails are matched case-insensitively (``lower``: ASCII letters only on SQLite, where
guests' e-mails are also grouped and matched to accounts that way); phone numbers also by their
digits, so "604 555" finds "(604) 555-0100".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from shop_app.domain.text import short_us_date
from shop_app.domain.validation import MAX_EMAIL_LENGTH
from shop_app.models import AdminRole, Order, OrderAddress, User, UserSession
from shop_app.models.base import table_of
from shop_app.services.catalog.filters import escape_like
from shop_app.services.order_history import (
    SHIPPING_ADDRESS_TYPE,
    SHOP_TIME_ZONE,
    OrderSummary,
    kept_cents,
    list_orders_where,
    paid_orders,
)

PAGE_SIZE: Final = 20
RECENT_SIGNUP_DAYS: Final = 7
"""Recent signups: within 7 days (docs/spec/limits.md#back-office)."""
SEARCH_MAX_LENGTH: Final = 200
_PHONE_PUNCTUATION: Final = (" ", "-", "(", ")", ".", "+", "/")
_MIN_PHONE_DIGITS: Final = 3


class StatusFilter(StrEnum):
    """The status filter: All Users, Active Only, Inactive Only (docs/spec/admin-people.md#users),
    and ours, Guests only."""

    ALL = "all"
    ACTIVE = "active"
    INACTIVE = "inactive"
    GUESTS = "guests"


@dataclass(frozen=True, slots=True)
class CustomerStats:
    """The stats cards: Total, Active, Recent Signups (last 7 days), Verified (customer accounts),
    and Guests (guests who ordered)."""

    total: int
    active: int
    recent_signups: int
    verified: int
    guests: int


@dataclass(frozen=True, slots=True)
class CustomerRow:
    """A customer as the table lists them: an account, or a guest (``id`` None)."""

    id: int | None  # the account's id; None: a guest
    first_name: str
    last_name: str
    email: str
    phone: str
    city: str
    state: str
    country: str
    created_at: datetime  # a guest: their first paid order
    last_seen_at: datetime | None  # the later of the last sign-in and the last request (a guest:
    # their last paid order); None: never
    email_confirmed_at: datetime | None
    is_active: bool  # False for a guest (no account to sign in to)
    is_guest: bool = False
    order_count: int = 0  # paid orders (see the module docstring)
    spent_cents: int = 0  # their total


@dataclass(frozen=True, slots=True)
class CustomerPage:
    """One page of the matching customers, newest first."""

    rows: tuple[CustomerRow, ...]
    matches: int
    page: int  # 0-based, moved back onto the last page when the matches shrank
    page_count: int  # at least 1


@dataclass(frozen=True, slots=True)
class CustomerDetails:
    """The User Details dialog: the profile and the customer's paid orders, newest first.

    A guest's postal address is their latest paid order's; they have no notification choices.
    """

    row: CustomerRow
    address: str
    address_line2: str
    zip_code: str
    email_notifications: bool
    sms_notifications: bool
    orders: tuple[OrderSummary, ...]


def is_customer() -> sa.ColumnElement[bool]:
    """Accounts without an active admin role."""
    return ~sa.exists().where(col(AdminRole.user_id) == col(User.id), col(AdminRole.is_active))


def parse_status(value: str) -> StatusFilter:
    """The filter named by ``value``; anything unknown means All Users."""
    try:
        return StatusFilter(value)
    except ValueError:
        return StatusFilter.ALL


# --------------------------------------------------------------------------- who and whose orders


def _guest_orders() -> sa.ColumnElement[bool]:
    """Paid orders placed without an account, under an e-mail that matches no account."""
    return sa.and_(
        col(Order.user_id).is_(None),
        paid_orders(),
        # Any account, whatever encloses this: users.email is stored lower-cased.
        ~sa.exists().where(col(User.email) == sa.func.lower(Order.email)).correlate(Order),
    )


def _orders_of(user_id: Any, email_key: Any) -> sa.ColumnElement[bool]:
    """A person's orders: the account's (``user_id``: a column, an id, or None for a guest) and
    those placed without an account under ``email_key`` (a lower-cased e-mail)."""
    without_account = sa.and_(col(Order.user_id).is_(None), sa.func.lower(Order.email) == email_key)
    if user_id is None:  # (`Order.user_id == None` would be every order without an account)
        return without_account
    return sa.or_(col(Order.user_id) == user_id, without_account)


def _no_time() -> sa.Cast[Any]:
    """NULL as a moment (the type of ``users.created_at``), for a column one kind of row lacks."""
    return sa.cast(sa.null(), table_of(User).c["created_at"].type)


def _accounts(condition: sa.SQLColumnExpression[bool] | None = None) -> sa.Select:
    """The customer accounts as rows of the union (``condition``: over ``User``)."""
    conditions: list[sa.SQLColumnExpression[bool]] = [is_customer()]
    conditions += [condition] if condition is not None else []
    no_time = _no_time()
    return sa.select(
        col(User.id).label("user_id"),
        col(User.email).label("email_key"),
        col(User.email).label("email"),
        col(User.first_name).label("first_name"),
        col(User.last_name).label("last_name"),
        col(User.phone).label("phone"),
        col(User.city).label("city"),
        col(User.state).label("state"),
        col(User.country).label("country"),
        col(User.created_at).label("joined"),
        no_time.label("last_order_at"),
        col(User.last_sign_in_at).label("last_sign_in_at"),
        col(User.email_confirmed_at).label("email_confirmed_at"),
        col(User.is_active).label("is_active"),
        sa.false().label("is_guest"),
        sa.literal(0).label("guest_orders"),  # the orders under its e-mail without an account: see _rows
        sa.literal(0).label("guest_spent_cents"),
    ).where(*conditions)


def _guests(email: str | None = None) -> sa.Select:
    """The guests as rows of the union, from their latest paid order (``email``: that guest only)."""
    key = sa.func.lower(Order.email)
    conditions = [_guest_orders()] + ([key == sa.func.lower(email)] if email is not None else [])
    ranked = (
        sa.select(
            col(Order.id).label("order_id"),
            key.label("email_key"),
            col(Order.email).label("email"),
            col(Order.phone).label("order_phone"),
            sa.func.row_number()
            .over(partition_by=key, order_by=(col(Order.created_at).desc(), col(Order.id).desc()))
            .label("newest"),
            sa.func.min(Order.created_at).over(partition_by=key).label("first_at"),
            sa.func.max(Order.created_at).over(partition_by=key).label("last_at"),
            sa.func.count().over(partition_by=key).label("order_count"),
            sa.func.sum(kept_cents()).over(partition_by=key).label("spent_cents"),
        )
        .where(*conditions)
        .subquery("guest_orders")
    )
    shipping = aliased(OrderAddress)
    first_shipping = (
        sa.select(sa.func.min(col(shipping.id)))
        .where(col(shipping.order_id) == ranked.c.order_id, col(shipping.type) == SHIPPING_ADDRESS_TYPE)
        .correlate(ranked)
        .scalar_subquery()
    )

    def text(column: Any, name: str) -> sa.Label[str]:
        return sa.func.coalesce(column, "").label(name)

    no_time = _no_time()
    return (
        sa.select(
            sa.cast(sa.null(), sa.Integer).label("user_id"),
            ranked.c.email_key,
            ranked.c.email,
            text(OrderAddress.first_name, "first_name"),
            text(OrderAddress.last_name, "last_name"),
            sa.func.coalesce(sa.func.nullif(OrderAddress.phone, ""), ranked.c.order_phone, "").label("phone"),
            text(OrderAddress.city, "city"),
            text(OrderAddress.state, "state"),
            text(OrderAddress.country, "country"),
            ranked.c.first_at.label("joined"),
            ranked.c.last_at.label("last_order_at"),
            no_time.label("last_sign_in_at"),
            no_time.label("email_confirmed_at"),
            sa.false().label("is_active"),
            sa.true().label("is_guest"),
            ranked.c.order_count.label("guest_orders"),
            ranked.c.spent_cents.label("guest_spent_cents"),
        )
        .select_from(ranked.outerjoin(OrderAddress, col(OrderAddress.id) == first_shipping))
        .where(ranked.c.newest == 1)
    )


def _people(status: StatusFilter) -> sa.Subquery:
    """The customers the filter shows: accounts, guests or both (a union, in the database)."""
    if status is StatusFilter.GUESTS:
        return _guests().subquery("people")
    if status is StatusFilter.ACTIVE:
        return _accounts(col(User.is_active)).subquery("people")
    if status is StatusFilter.INACTIVE:
        return _accounts(sa.not_(col(User.is_active))).subquery("people")
    return sa.union_all(_accounts(), _guests()).subquery("people")


# --------------------------------------------------------------------------- stats, search, page


def customer_stats(session: Session, *, now: datetime) -> CustomerStats:
    """Count the customer accounts, the active, the recent signups, the verified and the guests."""

    def count_where(condition: sa.SQLColumnExpression[bool]) -> sa.ColumnElement[int]:
        return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

    since = now - timedelta(days=RECENT_SIGNUP_DAYS)
    guests = (
        sa.select(sa.func.count(sa.distinct(sa.func.lower(Order.email))))
        .where(_guest_orders())
        .scalar_subquery()
    )
    row = session.execute(
        sa.select(
            sa.func.count(),
            count_where(col(User.is_active)),
            count_where(col(User.created_at) >= since),
            count_where(col(User.email_confirmed_at).is_not(None)),
            guests,
        )
        .select_from(User)
        .where(is_customer())
    ).one()
    return CustomerStats(total=row[0], active=row[1], recent_signups=row[2], verified=row[3], guests=row[4])


def _search_condition(people: sa.Subquery, text: str) -> sa.ColumnElement[bool] | None:
    needle = " ".join(text.split())[:SEARCH_MAX_LENGTH].lower()
    if not needle:
        return None
    pattern = f"%{escape_like(needle)}%"
    full_name = sa.func.lower(people.c.first_name + " " + people.c.last_name)
    conditions = [
        full_name.like(pattern, escape="\\"),
        sa.func.lower(people.c.email).like(pattern, escape="\\"),
        sa.func.lower(people.c.phone).like(pattern, escape="\\"),
    ]
    digits = re.sub(r"\D", "", needle)
    if len(digits) >= _MIN_PHONE_DIGITS and not re.search(r"[^\d\s\-().+/]", needle):
        phone_digits: sa.ColumnElement[str] = people.c.phone
        for mark in _PHONE_PUNCTUATION:
            phone_digits = sa.func.replace(phone_digits, mark, "")
        conditions.append(phone_digits.like(f"%{digits}%"))
    return sa.or_(*conditions)


def _newest_first(rows: Any) -> tuple[sa.ColumnElement[Any], ...]:
    """Newest "Joined" first; at the same moment accounts (newest id first), then guests by e-mail."""
    return (rows.c.joined.desc(), sa.func.coalesce(rows.c.user_id, 0).desc(), rows.c.email_key)


def _rows(
    session: Session,
    people: sa.Subquery,
    conditions: list[sa.ColumnElement[bool]],
    *,
    offset: int,
    limit: int,
) -> tuple[tuple[CustomerRow, ...], int]:
    """One page of ``people`` with each row's orders, amount spent and last request, and the number
    of matches (0 when the page is empty: it may lie beyond the last one).

    Two queries whatever the page size, each using an index or one pass: the page (its guests'
    orders come with them, from the window; an account's own orders by ``orders.user_id``), then
    the orders placed without an account under the page's accounts' e-mails.
    """
    page = (
        sa.select(people, sa.func.count().over().label("matches"))
        .where(*conditions)
        .order_by(*_newest_first(people))
        .offset(offset)
        .limit(limit)
    ).subquery("page")
    own = sa.and_(col(Order.user_id) == page.c.user_id, paid_orders())  # a guest's user_id is NULL: none
    own_count = sa.select(sa.func.count()).select_from(Order).where(own)
    own_spent = sa.select(sa.func.coalesce(sa.func.sum(kept_cents()), 0)).where(own)
    last_request = sa.select(sa.func.max(col(UserSession.last_seen_at))).where(
        col(UserSession.user_id) == page.c.user_id
    )
    found = [
        found_row._mapping
        for found_row in session.execute(
            sa.select(
                page,
                own_count.correlate(page).scalar_subquery().label("own_orders"),
                own_spent.correlate(page).scalar_subquery().label("own_spent_cents"),
                last_request.correlate(page).scalar_subquery().label("last_request"),
            ).order_by(*_newest_first(page))
        )
    ]
    as_guest = _orders_without_account(session, [row["email_key"] for row in found if not row["is_guest"]])
    rows = tuple(
        _row(row, as_guest.get(row["email_key"], (0, 0)) if not row["is_guest"] else (0, 0)) for row in found
    )
    return rows, found[0]["matches"] if found else 0


def _orders_without_account(session: Session, emails: list[str]) -> dict[str, tuple[int, int]]:
    """Paid orders placed without an account under each of these (lower-cased) e-mails: (count, cents)."""
    if not emails:
        return {}
    key = sa.func.lower(Order.email)
    counted = session.execute(
        sa.select(key, sa.func.count(), sa.func.coalesce(sa.func.sum(kept_cents()), 0))
        .where(col(Order.user_id).is_(None), paid_orders(), key.in_(emails))
        .group_by(key)
    ).all()
    return {email: (count, cents) for email, count, cents in counted}


def customer_page(
    session: Session,
    *,
    search: str = "",
    status: StatusFilter = StatusFilter.ALL,
    page: int = 0,
    page_size: int = PAGE_SIZE,
) -> CustomerPage:
    """The customers matching the search (name, e-mail or phone) and status, one page of them."""
    people = _people(status)
    conditions = [c for c in (_search_condition(people, search),) if c is not None]
    page = max(0, page)
    rows, matches = _rows(session, people, conditions, offset=page * page_size, limit=page_size)
    if not rows and page > 0:  # beyond the last page (the matches shrank): back onto it
        matches = session.execute(
            sa.select(sa.func.count()).select_from(people).where(*conditions)
        ).scalar_one()
        page = max(1, math.ceil(matches / page_size)) - 1
        rows, matches = _rows(session, people, conditions, offset=page * page_size, limit=page_size)
    page_count = max(1, math.ceil(matches / page_size))
    return CustomerPage(rows=rows, matches=matches, page=page, page_count=page_count)


# --------------------------------------------------------------------------- details


def customer_details(session: Session, user_id: int) -> CustomerDetails | None:
    """The account's profile and its paid orders; None when it no longer exists (or is an admin's)."""
    people = _accounts(col(User.id) == user_id).subquery("people")
    found, _ = _rows(session, people, [], offset=0, limit=1)
    user = session.get(User, user_id)
    if not found or user is None:
        return None
    row = found[0]
    return CustomerDetails(
        row=row,
        address=user.address,
        address_line2=user.address_line2,
        zip_code=user.zip_code,
        email_notifications=user.email_notifications,
        sms_notifications=user.sms_notifications,
        orders=tuple(list_orders_where(session, _orders_of(user_id, user.email))),
    )


def guest_key(email: object) -> str | None:
    """The e-mail an admin asked a guest's details by, trimmed; None when it cannot be one (not a
    text, empty, or longer than an e-mail address may be)."""
    if not isinstance(email, str):
        return None
    typed = email.strip()
    return typed if typed and len(typed) <= MAX_EMAIL_LENGTH else None


def guest_details(session: Session, *, email: str) -> CustomerDetails | None:
    """A guest's profile (from their latest paid order) and their paid orders, found by the e-mail
    without case; None when no guest has it (nobody ordered with it, or it is an account's)."""
    typed = guest_key(email)
    if typed is None:
        return None
    people = _guests(typed).subquery("people")
    found, _ = _rows(session, people, [], offset=0, limit=1)
    if not found:
        return None
    row = found[0]
    orders = tuple(list_orders_where(session, _orders_of(None, sa.func.lower(typed))))
    latest = orders[0] if orders else None
    return CustomerDetails(
        row=row,
        address=latest.ship_line1 if latest else "",
        address_line2=latest.ship_line2 if latest else "",
        zip_code=latest.ship_zip if latest else "",
        email_notifications=False,
        sms_notifications=False,
        orders=orders,
    )


def _row(found: Any, as_guest: tuple[int, int]) -> CustomerRow:
    """A row of the page; ``as_guest``: an account's orders without an account (count, cents)."""
    is_guest = bool(found["is_guest"])
    if is_guest:
        last_seen = _aware(found["last_order_at"])
    else:
        seen = [m for m in (_aware(found["last_sign_in_at"]), _aware(found["last_request"])) if m is not None]
        last_seen = max(seen) if seen else None
    joined = _aware(found["joined"])
    if joined is None:  # never: every account has a creation time, every guest a first order
        raise ValueError("a customer without a date of joining")
    return CustomerRow(
        id=None if is_guest else found["user_id"],
        first_name=found["first_name"],
        last_name=found["last_name"],
        email=found["email"],
        phone=found["phone"],
        city=found["city"],
        state=found["state"],
        country=found["country"],
        created_at=joined,
        last_seen_at=last_seen,
        email_confirmed_at=_aware(found["email_confirmed_at"]),
        is_active=bool(found["is_active"]),
        is_guest=is_guest,
        order_count=int(found["guest_orders"] or 0) + int(found["own_orders"] or 0) + as_guest[0],
        spent_cents=int(found["guest_spent_cents"] or 0) + int(found["own_spent_cents"] or 0) + as_guest[1],
    )


def _aware(moment: datetime | None) -> datetime | None:
    """A naive value (an aggregate read back from SQLite) is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- display texts


def location_text(city: str, state: str, country: str) -> str:
    """'Vancouver, BC, Canada' from the parts given; '' when none is."""
    return ", ".join(part.strip() for part in (city, state, country) if part.strip())


def shop_date(moment: datetime) -> str:
    """The shop's calendar date of ``moment`` (America/Vancouver), e.g. 'Nov 3, 2026'."""
    return short_us_date(_in_shop_zone(moment).date())


def shop_date_time(moment: datetime) -> str:
    """Date and time in the shop's zone, e.g. 'Nov 3, 2026, 3:04 PM' (no locale involved)."""
    local = _in_shop_zone(moment)
    hour = local.hour % 12 or 12
    return f"{short_us_date(local.date())}, {hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"


def _in_shop_zone(moment: datetime) -> datetime:
    return (_aware(moment) or moment).astimezone(SHOP_TIME_ZONE)
