"""View Users, the back office's customer list (docs/spec/admin-people.md#users, #records;
docs/spec/limits.md#back-office).

A customer is an account without an active admin role (the dashboard counts customers the same
way); the admins are on Manage Admins. "Active" means the account is enabled (``users.is_active``:
it may sign in); a deactivated account is "Inactive". "Verified" means the e-mail address was
confirmed. A recent signup joined within the last 7 days.

Customers can be many, so the stats, the search, the status filter and the paging all run in the
database: one query for the four figures, one for the number of matches, one for the page.
Names and e-mails are matched case-insensitively (``lower``: ASCII letters only on SQLite);
phone numbers also by their digits, so "604 555" finds "(604) 555-0100".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Final

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlmodel import Session, col, select

from shop_app.domain.text import short_us_date
from shop_app.models import AdminRole, User, UserSession
from shop_app.models.base import saved_id
from shop_app.services.catalog.filters import escape_like
from shop_app.services.order_history import SHOP_TIME_ZONE, OrderSummary, list_orders

PAGE_SIZE: Final = 20
RECENT_SIGNUP_DAYS: Final = 7
"""Recent signups: within 7 days (docs/spec/limits.md#back-office)."""
SEARCH_MAX_LENGTH: Final = 200
_PHONE_PUNCTUATION: Final = (" ", "-", "(", ")", ".", "+", "/")
_MIN_PHONE_DIGITS: Final = 3


class StatusFilter(StrEnum):
    """The status filter: All Users, Active Only, Inactive Only (docs/spec/admin-people.md#users)."""

    ALL = "all"
    ACTIVE = "active"
    INACTIVE = "inactive"


@dataclass(frozen=True, slots=True)
class CustomerStats:
    """The stats cards: Total, Active, Recent Signups (last 7 days), Verified."""

    total: int
    active: int
    recent_signups: int
    verified: int


@dataclass(frozen=True, slots=True)
class CustomerRow:
    """A customer as the table lists them."""

    id: int
    first_name: str
    last_name: str
    email: str
    phone: str
    city: str
    state: str
    country: str
    created_at: datetime
    last_seen_at: datetime | None  # the later of the last sign-in and the last request; None: never
    email_confirmed_at: datetime | None
    is_active: bool


@dataclass(frozen=True, slots=True)
class CustomerPage:
    """One page of the matching customers, newest first."""

    rows: tuple[CustomerRow, ...]
    matches: int
    page: int  # 0-based, moved back onto the last page when the matches shrank
    page_count: int  # at least 1


@dataclass(frozen=True, slots=True)
class CustomerDetails:
    """The User Details dialog: the profile and the customer's paid orders, newest first."""

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


def customer_stats(session: Session, *, now: datetime) -> CustomerStats:
    """Count all customers, the active, the recent signups and the verified, in one query."""

    def count_where(condition: sa.SQLColumnExpression[bool]) -> sa.ColumnElement[int]:
        return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

    since = now - timedelta(days=RECENT_SIGNUP_DAYS)
    row = session.execute(
        select(
            sa.func.count(),
            count_where(col(User.is_active)),
            count_where(col(User.created_at) >= since),
            count_where(col(User.email_confirmed_at).is_not(None)),
        )
        .select_from(User)
        .where(is_customer())
    ).one()
    return CustomerStats(total=row[0], active=row[1], recent_signups=row[2], verified=row[3])


def _search_condition(text: str) -> sa.ColumnElement[bool] | None:
    needle = " ".join(text.split())[:SEARCH_MAX_LENGTH].lower()
    if not needle:
        return None
    pattern = f"%{escape_like(needle)}%"
    full_name = sa.func.lower(User.first_name + " " + User.last_name)
    conditions = [
        full_name.like(pattern, escape="\\"),
        sa.func.lower(User.email).like(pattern, escape="\\"),
        sa.func.lower(User.phone).like(pattern, escape="\\"),
    ]
    digits = re.sub(r"\D", "", needle)
    if len(digits) >= _MIN_PHONE_DIGITS and not re.search(r"[^\d\s\-().+/]", needle):
        phone_digits: sa.ColumnElement[str] | Mapped[str] = col(User.phone)
        for mark in _PHONE_PUNCTUATION:
            phone_digits = sa.func.replace(phone_digits, mark, "")
        conditions.append(phone_digits.like(f"%{digits}%"))
    return sa.or_(*conditions)


def _status_condition(status: StatusFilter) -> sa.SQLColumnExpression[bool] | None:
    if status is StatusFilter.ACTIVE:
        return col(User.is_active)
    if status is StatusFilter.INACTIVE:
        return sa.not_(col(User.is_active))
    return None


def _last_request() -> sa.ScalarSelect:
    return (
        select(sa.func.max(UserSession.last_seen_at))
        .where(UserSession.user_id == User.id)
        .correlate(User)
        .scalar_subquery()
    )


def customer_page(
    session: Session,
    *,
    search: str = "",
    status: StatusFilter = StatusFilter.ALL,
    page: int = 0,
    page_size: int = PAGE_SIZE,
) -> CustomerPage:
    """The customers matching the search (name, e-mail or phone) and status, one page of them."""
    conditions: list[sa.SQLColumnExpression[bool]] = [is_customer()]
    conditions += [c for c in (_search_condition(search), _status_condition(status)) if c is not None]
    matches = session.execute(select(sa.func.count()).select_from(User).where(*conditions)).scalar_one()
    page_count = max(1, math.ceil(matches / page_size))
    page = min(max(0, page), page_count - 1)
    rows = session.execute(
        select(User, _last_request().label("last_request"))
        .where(*conditions)
        .order_by(col(User.created_at).desc(), col(User.id).desc())
        .offset(page * page_size)
        .limit(page_size)
    ).all()
    return CustomerPage(
        rows=tuple(_row(user, last_request) for user, last_request in rows),
        matches=matches,
        page=page,
        page_count=page_count,
    )


def customer_details(session: Session, user_id: int) -> CustomerDetails | None:
    """The account's profile and its paid orders; None when the account no longer exists."""
    found = session.execute(
        select(User, _last_request().label("last_request")).where(User.id == user_id)
    ).first()
    if found is None:
        return None
    user, last_request = found
    return CustomerDetails(
        row=_row(user, last_request),
        address=user.address,
        address_line2=user.address_line2,
        zip_code=user.zip_code,
        email_notifications=user.email_notifications,
        sms_notifications=user.sms_notifications,
        orders=tuple(list_orders(session, user_id=user_id)),
    )


def _row(user: User, last_request: datetime | None) -> CustomerRow:
    seen = [moment for moment in (user.last_sign_in_at, _aware(last_request)) if moment is not None]
    return CustomerRow(
        id=saved_id(user),
        first_name=user.first_name,
        last_name=user.last_name,
        email=user.email,
        phone=user.phone,
        city=user.city,
        state=user.state,
        country=user.country,
        created_at=user.created_at,
        last_seen_at=max(seen) if seen else None,
        email_confirmed_at=user.email_confirmed_at,
        is_active=user.is_active,
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
