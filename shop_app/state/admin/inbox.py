"""State of the inbox: contact messages and order inquiries, one page at a time, read and unread.

Only the page on show and the entry opened are held (small view models, never ORM rows); every
handler re-checks the admin role on the server before it reads or changes anything, so a refused
call changes and reveals nothing. The rules live in ``services.admin.inbox``. Visitor text goes
into plain string vars that the page renders as text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.inbox import MESSAGE, InboxFilter
from shop_app.domain.inbox import InboxMessage as M
from shop_app.domain.money import format_cents
from shop_app.domain.order_numbers import SHOP_TIME_ZONE
from shop_app.services.admin import inbox as svc
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

FILTERS: tuple[tuple[str, str], ...] = tuple((f.value, f.label) for f in InboxFilter)
CLIENT_CHARS = 12  # of the sender's address hash: enough to tell senders apart


@dataclass
class InboxEntryView:
    """A line of the list."""

    source: str = ""
    id: int = 0
    type_label: str = ""
    is_message: bool = False
    name: str = ""
    email: str = ""
    title: str = ""
    preview: str = ""
    received: str = ""
    read: bool = False


@dataclass
class InboxDetailView:
    """The entry opened: every stored field, formatted."""

    source: str = ""
    id: int = 0
    kind: str = ""
    type_label: str = ""
    name: str = ""
    email: str = ""
    phone: str = ""
    subject: str = ""
    message: str = ""
    received: str = ""
    read_at: str = ""
    client: str = ""
    reply_url: str = ""
    vessel_size: str = ""
    vessel_color: str = ""
    scent: str = ""
    quantity: int = 0
    special_requests: str = ""
    total_quantity: int = 0
    total: str = ""


@dataclass
class InboxProductView:
    """A product of a bulk or wholesale inquiry, at its price when the inquiry was sent."""

    name: str = ""
    quantity: int = 0
    price: str = ""
    line_total: str = ""


def when(moment: datetime) -> str:
    """A moment in the shop's time zone, e.g. "Nov 20, 2026, 9:05 AM"."""
    local = moment.astimezone(SHOP_TIME_ZONE)
    hour = local.hour % 12 or 12
    return f"{local:%b} {local.day}, {local.year}, {hour}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


def entry_view(entry: svc.InboxEntry) -> InboxEntryView:
    """Format one entry of the list."""
    return InboxEntryView(
        source=entry.source,
        id=entry.id,
        type_label=entry.type_label,
        is_message=entry.kind == MESSAGE,
        name=entry.name,
        email=entry.email,
        title=entry.title,
        preview=entry.preview,
        received=when(entry.created_at),
        read=entry.read,
    )


def detail_view(item: svc.InboxItem) -> tuple[InboxDetailView, list[InboxProductView]]:
    """Format an opened entry and, for bulk and wholesale inquiries, its products."""
    summary = item.inquiry
    products = [
        InboxProductView(
            p.name, p.quantity, format_cents(p.price_cents), format_cents(p.quantity * p.price_cents)
        )
        for p in (summary.products if summary else ())
    ]
    detail = InboxDetailView(
        source=item.source,
        id=item.id,
        kind=item.kind,
        type_label=item.type_label,
        name=item.name,
        email=item.email,
        phone=item.phone,
        subject=item.subject,
        message=item.message,
        received=when(item.created_at),
        read_at=when(item.read_at) if item.read_at else "",
        client=item.client_hash[:CLIENT_CHARS],
        reply_url=item.reply_url,
        vessel_size=summary.vessel_size if summary else "",
        vessel_color=summary.vessel_color if summary else "",
        scent=summary.scent if summary else "",
        quantity=summary.quantity if summary else 0,
        special_requests=summary.special_requests if summary else "",
        total_quantity=summary.total_quantity if summary else 0,
        total=format_cents(item.total_cents) if products else "",
    )
    return detail, products


@private_state
class InboxState(AdminGuardMixin, rx.State):
    """The list with its filters and pager, and the entry opened in the detail dialog."""

    loaded: bool = False
    entries: list[InboxEntryView] = []
    total: int = 0
    unread: int = 0
    kind: str = InboxFilter.ALL.value
    unread_only: bool = False
    offset: int = 0
    page_size: int = svc.PAGE_SIZE

    detail_open: bool = False
    detail: InboxDetailView = InboxDetailView()
    detail_products: list[InboxProductView] = []

    @rx.var
    def range_text(self) -> str:
        """Where the page is in the list, e.g. "1–20 of 45"."""
        if self.total == 0:
            return ""
        return f"{self.offset + 1}–{min(self.offset + self.page_size, self.total)} of {self.total}"

    @rx.var
    def has_previous(self) -> bool:
        """Whether a newer page exists."""
        return self.offset > 0

    @rx.var
    def has_next(self) -> bool:
        """Whether an older page exists."""
        return self.offset + self.page_size < self.total

    def _reload(self) -> None:
        with session_scope() as session:
            page = svc.inbox_page(
                session,
                kind=InboxFilter.parse(self.kind),
                unread_only=self.unread_only,
                offset=self.offset,
                limit=self.page_size,
            )
        self.entries = [entry_view(entry) for entry in page.entries]
        self.total, self.unread, self.offset = page.total, page.unread, page.offset
        self.loaded = True

    def _refresh(self):
        """Read the page again; an error notification when the database fails."""
        try:
            self._reload()
        except Exception:
            log.exception("Loading the inbox failed")
            return notify.error(M.LOAD_FAILED.value)
        return None

    @admin_event
    async def load(self):
        """Read the first page (admins only)."""
        self.offset, self.detail_open = 0, False
        return self._refresh()

    @admin_event
    async def set_kind(self, value: str):
        """Show every entry, the contact messages, or one type of inquiry."""
        self.kind, self.offset = InboxFilter.parse(value).value, 0
        return self._refresh()

    @admin_event
    async def set_unread_only(self, value: bool):
        """Show only the entries nobody has opened (or that were marked unread)."""
        self.unread_only, self.offset = bool(value), 0
        return self._refresh()

    @admin_event
    async def previous_page(self):
        """The newer page."""
        self.offset = max(0, self.offset - self.page_size)
        return self._refresh()

    @admin_event
    async def next_page(self):
        """The older page."""
        self.offset += self.page_size
        return self._refresh()

    @admin_event
    async def open_entry(self, source: str, entry_id: int):
        """Show every field of an entry and mark it read."""
        try:
            with session_scope() as session:
                item = svc.open_item(session, str(source), int(entry_id))
        except Exception:
            log.exception("Opening inbox entry %s %s failed", source, entry_id)
            return notify.error(M.LOAD_FAILED.value)
        if item is None:
            self._refresh()
            return notify.error(M.NOT_FOUND.value)
        self.detail, self.detail_products = detail_view(item)
        self.detail_open = True
        return self._refresh()

    @admin_event
    async def mark_unread(self):
        """Make the opened entry unread again and close it."""
        try:
            with session_scope() as session:
                found = svc.mark_unread(session, self.detail.source, self.detail.id)
        except Exception:
            log.exception("Marking inbox entry %s %s unread failed", self.detail.source, self.detail.id)
            return notify.error(M.UPDATE_FAILED.value)
        self.detail_open = False
        failed = self._refresh()
        if failed is not None:
            return failed
        return notify.success(M.MARKED_UNREAD.value) if found else notify.error(M.NOT_FOUND.value)

    @admin_event
    async def set_detail_open(self, value: bool) -> None:
        """Close the detail dialog (it only opens through ``open_entry``)."""
        self.detail_open = bool(value) and self.detail.id != 0
