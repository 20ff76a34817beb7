"""State of View Users, the customer list (docs/spec/admin-people.md#users; docs/spec/limits.md#back-office),
and its User Details dialog.

Only one page of customers is ever in the state: the search, the status filter and the paging
run in the database (``services.admin.customers``, which also says who the customers are:
accounts, and guests who ordered without one). Every handler is an ``admin_event``
(the role is read again first), so nobody but an admin reads a customer's details, whatever events they send.
An account's details are asked by its id (``open_details``); a guest has none, so theirs are asked by
their e-mail (``open_guest_details``), which must be a text of e-mail length matching a guest who ordered:
anything else gets the same error notification.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.admin_messages import AdminUserMessage as M
from shop_app.domain.money import format_cents
from shop_app.domain.text import is_recent_signup, last_seen_text
from shop_app.services.admin import customers as svc
from shop_app.services.admin.customers import CustomerDetails, CustomerRow, StatusFilter
from shop_app.services.order_history import SHOP_TIME_ZONE
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

NOT_VERIFIED = "Not verified"
NO_ACCOUNT = "—"  # a guest's "Email verified" and "Notifications": they have no account
_RADIX = {"grey": "gray"}  # order badge colours named differently by Radix


@dataclass
class CustomerRowView:
    """A row of the customer table (also the head of the details dialog)."""

    id: int = 0  # the account's id; 0 for a guest (found by their e-mail)
    name: str = ""
    initial: str = ""
    email: str = ""
    phone: str = ""
    location: str = ""
    joined: str = ""
    recent: bool = False
    last_seen: str = ""
    is_active: bool = True
    verified: bool = False
    is_guest: bool = False
    order_count: int = 0
    spent: str = ""  # "$46.36"


@dataclass
class CustomerOrderView:
    """An order in the User Details dialog."""

    id: int = 0
    number: str = ""
    placed_on: str = ""
    status: str = ""
    status_colour: str = "gray"
    total: str = ""
    items: int = 0
    url: str = ""


@dataclass
class CustomerDetailView:
    """The User Details dialog's profile part beyond the row's."""

    address: str = ""
    verified_on: str = ""
    notifications: str = ""
    order_count: int = 0


def customer_row(row: CustomerRow, *, now: datetime) -> CustomerRowView:
    """Format a customer for the table; ``now`` is aware (its zone dates "Last Seen")."""
    name = f"{row.first_name} {row.last_name}".strip()
    return CustomerRowView(
        id=row.id or 0,
        name=name or row.email,
        initial=(name or row.email or "?")[:1].upper(),
        email=row.email,
        phone=row.phone,
        location=svc.location_text(row.city, row.state, row.country),
        joined=svc.shop_date(row.created_at),
        recent=not row.is_guest and is_recent_signup(row.created_at, now, days=svc.RECENT_SIGNUP_DAYS),
        last_seen=last_seen_text(row.last_seen_at, now),
        is_active=row.is_active,
        verified=row.email_confirmed_at is not None,
        is_guest=row.is_guest,
        order_count=row.order_count,
        spent=format_cents(row.spent_cents),
    )


def customer_detail(details: CustomerDetails) -> CustomerDetailView:
    """Format the dialog's profile part: postal address, verification, notification choices (a guest:
    the address of their latest order, and no account to verify or to choose notifications)."""
    row = details.row
    street = ", ".join(part.strip() for part in (details.address, details.address_line2) if part.strip())
    place = svc.location_text(row.city, f"{row.state} {details.zip_code}".strip(), row.country)
    channels = [
        name
        for name, on in (("Email", details.email_notifications), ("SMS", details.sms_notifications))
        if on
    ]
    if row.is_guest:
        verified_on, notifications = NO_ACCOUNT, NO_ACCOUNT
    else:
        verified_on = svc.shop_date(row.email_confirmed_at) if row.email_confirmed_at else NOT_VERIFIED
        notifications = ", ".join(channels) or "None"
    return CustomerDetailView(
        address=", ".join(part for part in (street, place) if part),
        verified_on=verified_on,
        notifications=notifications,
        order_count=len(details.orders),
    )


def order_views(details: CustomerDetails) -> list[CustomerOrderView]:
    """The customer's orders, each linking to its page in the back office."""
    return [
        CustomerOrderView(
            id=o.id,
            number=o.order_number,
            placed_on=o.placed_on,
            status=o.status_label,
            status_colour=_RADIX.get(o.status_colour, o.status_colour),
            total=format_cents(o.total_cents),
            items=o.item_count,
            url=routes.admin_order_url(o.id),
        )
        for o in details.orders
    ]


def _now() -> datetime:
    return datetime.now(SHOP_TIME_ZONE)


@private_state
class ViewUsersState(AdminGuardMixin, rx.State):
    """Stats, search, status filter, one page of customers and the User Details dialog."""

    loaded: bool = False
    total: int = 0
    active: int = 0
    recent_signups: int = 0
    verified: int = 0
    guests: int = 0
    search: str = ""
    status: str = StatusFilter.ALL.value
    page: int = 0
    page_count: int = 1
    matches: int = 0
    rows: list[CustomerRowView] = []

    details_open: bool = False
    person: CustomerRowView = CustomerRowView()
    details: CustomerDetailView = CustomerDetailView()
    orders: list[CustomerOrderView] = []

    @rx.var
    def range_text(self) -> str:
        """'Showing 1–20 of 57'; '' when nothing matches."""
        if not self.matches:
            return ""
        first = self.page * svc.PAGE_SIZE + 1
        return f"Showing {first}–{min(self.matches, first + svc.PAGE_SIZE - 1)} of {self.matches}"

    def _read(self, *, stats: bool) -> None:
        now = _now()
        with session_scope() as session:
            if stats:
                figures = svc.customer_stats(session, now=now)
                self.total, self.active = figures.total, figures.active
                self.recent_signups, self.verified = figures.recent_signups, figures.verified
                self.guests = figures.guests
            found = svc.customer_page(
                session, search=self.search, status=svc.parse_status(self.status), page=self.page
            )
        self.page, self.page_count, self.matches = found.page, found.page_count, found.matches
        self.rows = [customer_row(row, now=now) for row in found.rows]
        self.loaded = True

    async def _refresh(self, *, stats: bool = False):
        try:
            self._read(stats=stats)
        except Exception:
            log.exception("Loading the customer list failed")
            return notify.error(M.LOAD_USERS_FAILED.value)
        return None

    @admin_event
    async def load(self):
        """Read the stats and the first page (admins only)."""
        self.details_open = False
        return await self._refresh(stats=True)

    @admin_event
    async def set_search(self, value: str):
        """Search by name, e-mail or phone; back to the first page."""
        self.search, self.page = str(value)[: svc.SEARCH_MAX_LENGTH], 0
        return await self._refresh()

    @admin_event
    async def set_status(self, value: str):
        """All Users, Active Only, Inactive Only or Guests only; back to the first page."""
        self.status, self.page = svc.parse_status(value).value, 0
        return await self._refresh()

    @admin_event
    async def turn_page(self, step: int):
        """Previous (-1) or next (+1) page."""
        self.page = max(0, self.page + int(step))
        return await self._refresh()

    @admin_event
    async def open_details(self, user_id: int):
        """Open User Details for an account of the list."""
        try:
            with session_scope() as session:
                details = svc.customer_details(session, int(user_id))
        except Exception:
            log.exception("Loading customer %s failed", user_id)
            return notify.error(M.LOAD_USERS_FAILED.value)
        if details is None:
            return await self._refresh(stats=True)
        self._show(details)
        return None

    @admin_event
    async def open_guest_details(self, email: str):
        """Open User Details for a guest of the list, named by their e-mail (a guest has no id).

        Anything but a text of e-mail length matching a guest who ordered gets one error
        notification; for an e-mail no guest has (any more) the list is read again too (the guest
        may have opened an account since).
        """
        typed = svc.guest_key(email)
        if typed is None:
            return notify.error(M.GUEST_NOT_FOUND.value)
        try:
            with session_scope() as session:
                details = svc.guest_details(session, email=typed)
        except Exception:
            log.exception("Loading a guest's details failed")
            return notify.error(M.LOAD_USERS_FAILED.value)
        if details is None:
            return await self._refresh(stats=True) or notify.error(M.GUEST_NOT_FOUND.value)
        self._show(details)
        return None

    def _show(self, details: CustomerDetails) -> None:
        self.person = customer_row(details.row, now=_now())
        self.details, self.orders = customer_detail(details), order_views(details)
        self.details_open = True

    @admin_event
    async def set_details_open(self, value: bool) -> None:
        """Close the dialog (its data is forgotten)."""
        if value:
            return
        self.details_open = False
        self.person, self.details, self.orders = CustomerRowView(), CustomerDetailView(), []
