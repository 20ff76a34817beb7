"""The back office inbox: contact messages and order inquiries in one list, with read state.

The list is computed by the database a page at a time: a ``UNION ALL`` of both tables' keys
(narrowed by the type filter and "unread only"), newest first, of which one page is read in full.
Opening an entry marks it read (``read_at``, see ``models.content``); "Mark as unread" clears it.

Visitors wrote every text here. It is returned exactly as stored (HTML included): the screen
shows it as text, and the reply link is built by ``domain.inbox.mailto_link``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, TypeVar

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.inbox import MESSAGE, InboxFilter, kind_label, mailto_link, preview, reply_subject
from shop_app.domain.inquiries import OrderType
from shop_app.models import ContactMessage, OrderInquiry
from shop_app.models.base import saved_id, utcnow
from shop_app.services.inquiries import InquirySummary, inquiry_summary

SOURCE_MESSAGE: Final = "message"  # a row of contact_messages
SOURCE_INQUIRY: Final = "inquiry"  # a row of order_inquiries
SOURCES: Final = (SOURCE_MESSAGE, SOURCE_INQUIRY)
PAGE_SIZE: Final = 20

_MODELS: Final[dict[str, type[ContactMessage] | type[OrderInquiry]]] = {
    SOURCE_MESSAGE: ContactMessage,
    SOURCE_INQUIRY: OrderInquiry,
}
_Entry = TypeVar("_Entry", ContactMessage, OrderInquiry)


@dataclass(frozen=True, slots=True)
class InboxEntry:
    """A line of the inbox list."""

    source: str  # SOURCE_MESSAGE or SOURCE_INQUIRY
    id: int
    kind: str  # "message", or the inquiry's order type
    type_label: str
    name: str
    email: str
    title: str  # the message's subject, or what the inquiry asks for
    preview: str
    created_at: datetime
    read: bool


@dataclass(frozen=True, slots=True)
class InboxPage:
    """One page of the list."""

    entries: list[InboxEntry]
    total: int  # entries matching the filters
    unread: int  # unread entries in the whole inbox
    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class InboxItem:
    """An entry opened: every stored field, and the link that answers it."""

    source: str
    id: int
    kind: str
    type_label: str
    name: str
    email: str
    phone: str
    subject: str  # "" for an inquiry
    message: str
    created_at: datetime
    read_at: datetime | None
    client_hash: str  # "" for a contact message
    reply_url: str
    inquiry: InquirySummary | None = None

    @property
    def total_cents(self) -> int:
        """A bulk or wholesale inquiry's products at the prices they had when it was sent."""
        products = self.inquiry.products if self.inquiry else ()
        return sum(p.quantity * p.price_cents for p in products)


def inbox_page(
    session: Session,
    *,
    kind: InboxFilter = InboxFilter.ALL,
    unread_only: bool = False,
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> InboxPage:
    """A page of the inbox, newest first (an offset past the end gives the last page)."""
    limit = max(1, limit)
    keys = _keys(kind, unread_only)
    total = session.execute(sa.select(sa.func.count()).select_from(keys)).scalar_one()
    offset = max(0, min(offset, (max(total, 1) - 1) // limit * limit))
    page = session.execute(
        sa.select(keys.c.source, keys.c.id)
        .order_by(keys.c.created_at.desc(), keys.c.source, keys.c.id.desc())
        .offset(offset)
        .limit(limit)
    ).all()
    rows = {
        source: _rows(session, source, [entry_id for s, entry_id in page if s == source])
        for source in SOURCES
    }
    entries = [
        _entry(source, rows[source][entry_id]) for source, entry_id in page if entry_id in rows[source]
    ]
    return InboxPage(entries, total, unread_count(session), offset, limit)


def unread_count(session: Session) -> int:
    """Entries of the whole inbox that no admin has opened (or that were marked unread)."""
    counts = [
        sa.select(sa.func.count()).select_from(model).where(col(model.read_at).is_(None)).scalar_subquery()
        for model in _MODELS.values()
    ]
    return session.execute(sa.select(counts[0] + counts[1])).scalar_one()


def open_item(
    session: Session, source: str, item_id: int, *, now: datetime | None = None
) -> InboxItem | None:
    """Every field of an entry, which is marked read; None when it does not exist."""
    row = _row(session, source, item_id)
    if row is None:
        return None
    if row.read_at is None:
        row.read_at = now or utcnow()
        session.add(row)
        session.flush()
    return _item(source, row)


def mark_unread(session: Session, source: str, item_id: int) -> bool:
    """Make an entry unread again; False when it does not exist."""
    row = _row(session, source, item_id)
    if row is None:
        return False
    row.read_at = None
    session.add(row)
    session.flush()
    return True


def _keys(kind: InboxFilter, unread_only: bool) -> sa.Subquery:
    """(source, id, created_at) of every entry the filters let through."""
    parts = []
    if kind in (InboxFilter.ALL, InboxFilter.MESSAGES):
        parts.append(_key_query(SOURCE_MESSAGE, unread_only))
    if kind != InboxFilter.MESSAGES:
        query = _key_query(SOURCE_INQUIRY, unread_only)
        if kind != InboxFilter.ALL:
            query = query.where(col(OrderInquiry.order_type) == kind.value)
        parts.append(query)
    compound = sa.union_all(*parts) if len(parts) > 1 else parts[0]
    return compound.subquery("inbox")


def _key_query(source: str, unread_only: bool) -> sa.Select:
    model = _MODELS[source]
    query: sa.Select[str, int, datetime] = sa.select(
        sa.literal_column(f"'{source}'", sa.String).label("source"),
        col(model.id).label("id"),
        col(model.created_at).label("created_at"),
    )
    return query.where(col(model.read_at).is_(None)) if unread_only else query


def _rows(session: Session, source: str, ids: list[int]) -> Mapping[int, ContactMessage | OrderInquiry]:
    if not ids:
        return {}
    if source == SOURCE_MESSAGE:
        return _rows_of(session, ContactMessage, ids)
    return _rows_of(session, OrderInquiry, ids)


def _rows_of(session: Session, model: type[_Entry], ids: list[int]) -> dict[int, _Entry]:
    return {saved_id(row): row for row in session.exec(select(model).where(col(model.id).in_(ids))).all()}


def _row(session: Session, source: str, item_id: int) -> ContactMessage | OrderInquiry | None:
    if source == SOURCE_MESSAGE:
        return session.get(ContactMessage, item_id)
    if source == SOURCE_INQUIRY:
        return session.get(OrderInquiry, item_id)
    return None


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _entry(source: str, row: ContactMessage | OrderInquiry) -> InboxEntry:
    if isinstance(row, ContactMessage):
        kind, title, text = MESSAGE, row.subject, row.message
    else:
        summary = inquiry_summary(row)
        kind, title = row.order_type, _inquiry_title(summary)
        text = row.message or summary.special_requests
    return InboxEntry(
        source=source,
        id=saved_id(row),
        kind=kind,
        type_label=kind_label(kind),
        name=row.name,
        email=row.email,
        title=title,
        preview=preview(text),
        created_at=_aware(row.created_at),
        read=row.read_at is not None,
    )


def _inquiry_title(summary: InquirySummary) -> str:
    """What an inquiry asks for, on one line."""
    if summary.order_type == OrderType.CUSTOM:
        parts = [p for p in (summary.vessel_size, summary.vessel_color, summary.scent) if p]
        return f"{' · '.join(parts)} × {summary.quantity}" if parts else summary.type_label
    count = len(summary.products)
    products = "1 product" if count == 1 else f"{count} products"
    units = "1 unit" if summary.total_quantity == 1 else f"{summary.total_quantity} units"
    return f"{products}, {units}"


def _item(source: str, row: ContactMessage | OrderInquiry) -> InboxItem:
    if isinstance(row, ContactMessage):
        kind, subject, phone, client, inquiry = MESSAGE, row.subject, "", "", None
    else:
        kind, subject, phone, client = row.order_type, "", row.phone, row.client_hash
        inquiry = inquiry_summary(row)
    return InboxItem(
        source=source,
        id=saved_id(row),
        kind=kind,
        type_label=kind_label(kind),
        name=row.name,
        email=row.email,
        phone=phone,
        subject=subject,
        message=row.message,
        created_at=_aware(row.created_at),
        read_at=_aware(row.read_at) if row.read_at else None,
        client_hash=client,
        reply_url=mailto_link(row.email, reply_subject(kind, subject)),
        inquiry=inquiry,
    )
