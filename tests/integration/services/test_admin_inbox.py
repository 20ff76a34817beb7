"""The back office inbox: both kinds in one list newest first, type and unread filters, paging,
read/unread, every field of an entry, the reply link, hostile text kept verbatim.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlmodel import Session

from shop_app.domain.contact import ContactForm
from shop_app.domain.inbox import InboxFilter
from shop_app.domain.inquiries import InquiryForm
from shop_app.models import ContactMessage, OrderInquiry, Product
from shop_app.models.base import utcnow
from shop_app.services import contact, inquiries
from shop_app.services.admin import inbox
from shop_app.settings import get_settings

HOSTILE = '<script>alert("owned")</script><img src=x onerror=alert(1)>'
T0 = datetime(2026, 11, 20, 17, 0, tzinfo=utcnow().tzinfo)


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _message(
    session: Session, minutes: int, subject: str = "Wedding favours", **fields: object
) -> ContactMessage:
    values = {"name": "Ana Lopez", "email": "ana@example.com", "message": "Sixty candles?\nIn June."}
    row = ContactMessage(subject=subject, created_at=T0 + timedelta(minutes=minutes), **{**values, **fields})
    session.add(row)
    session.flush()
    return row


def _inquiry(session: Session, minutes: int, order_type: str, **fields: object) -> OrderInquiry:
    details: dict[str, object] = {
        "custom": {
            "vessel_size": "8 oz",
            "vessel_color": "Amber",
            "scent": "Vanilla Bean",
            "quantity": 40,
            "special_requests": "Ivory ribbon",
        },
        "bulk": {
            "selected_products": [
                {"id": 1, "name": "Cedar Candle", "quantity": 10, "price_cents": 2800},
                {"id": 2, "name": "Rose Candle", "quantity": 5, "price_cents": 2450},
            ],
            "total_quantity": 15,
        },
    }.get(order_type, {"selected_products": [], "total_quantity": 0})
    values = {
        "name": "Gifts Ltd",
        "email": "buyer@gifts.example",
        "phone": "250-555-0100",
        "details": details,
    }
    row = OrderInquiry(
        order_type=order_type, created_at=T0 + timedelta(minutes=minutes), **{**values, **fields}
    )
    session.add(row)
    session.flush()
    return row


@pytest.fixture
def mixed(session: Session) -> dict[str, int]:
    """Five entries: a message, a custom, a bulk, a wholesale inquiry and an older message."""
    return {
        "old_message": _message(session, 0, "First question").id,
        "custom": _inquiry(session, 10, "custom").id,
        "bulk": _inquiry(session, 20, "bulk").id,
        "message": _message(session, 30).id,
        "wholesale": _inquiry(session, 40, "wholesale", message="Opening a shop in Tofino").id,
    }


def _keys(page: inbox.InboxPage) -> list[tuple[str, int]]:
    return [(e.source, e.id) for e in page.entries]


def test_one_list_of_messages_and_inquiries_newest_first(session: Session, mixed: dict[str, int]) -> None:
    page = inbox.inbox_page(session)

    assert _keys(page) == [
        ("inquiry", mixed["wholesale"]),
        ("message", mixed["message"]),
        ("inquiry", mixed["bulk"]),
        ("inquiry", mixed["custom"]),
        ("message", mixed["old_message"]),
    ]
    assert (page.total, page.unread, page.offset) == (5, 5, 0)
    wholesale, message, bulk, custom, _ = page.entries
    assert (wholesale.type_label, wholesale.title, wholesale.preview) == (
        "Wholesale",
        "0 products, 0 units",
        "Opening a shop in Tofino",
    )
    assert (message.kind, message.type_label, message.title) == ("message", "Message", "Wedding favours")
    assert message.preview == "Sixty candles? In June."  # on one line
    assert (bulk.type_label, bulk.title) == ("Bulk Order", "2 products, 15 units")
    assert (custom.type_label, custom.title, custom.preview) == (
        "Custom Order",
        "8 oz · Amber · Vanilla Bean × 40",
        "Ivory ribbon",
    )
    assert message.created_at == T0 + timedelta(minutes=30) and not message.read


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (InboxFilter.MESSAGES, ["message", "old_message"]),
        (InboxFilter.CUSTOM, ["custom"]),
        (InboxFilter.BULK, ["bulk"]),
        (InboxFilter.WHOLESALE, ["wholesale"]),
    ],
)
def test_the_type_filter(
    session: Session, mixed: dict[str, int], kind: InboxFilter, expected: list[str]
) -> None:
    page = inbox.inbox_page(session, kind=kind)

    assert [e.id for e in page.entries] == [mixed[name] for name in expected]
    assert page.total == len(expected)
    assert page.unread == 5  # the header counts the whole inbox


def test_opening_marks_read_and_mark_as_unread_undoes_it(session: Session, mixed: dict[str, int]) -> None:
    opened_at = T0 + timedelta(days=1)

    item = inbox.open_item(session, "inquiry", mixed["bulk"], now=opened_at)

    assert item is not None and item.read_at == opened_at
    assert inbox.unread_count(session) == 4
    unread = inbox.inbox_page(session, unread_only=True)
    assert ("inquiry", mixed["bulk"]) not in _keys(unread) and unread.total == 4
    assert [e.read for e in inbox.inbox_page(session, kind=InboxFilter.BULK).entries] == [True]
    again = inbox.open_item(session, "inquiry", mixed["bulk"], now=opened_at + timedelta(hours=1))
    assert again is not None and again.read_at == opened_at  # the first reading is kept

    assert inbox.mark_unread(session, "inquiry", mixed["bulk"])
    assert inbox.unread_count(session) == 5
    assert session.get(OrderInquiry, mixed["bulk"]).read_at is None
    assert inbox.inbox_page(session, kind=InboxFilter.BULK, unread_only=True).total == 1


def test_unread_only_combines_with_the_type_filter(session: Session, mixed: dict[str, int]) -> None:
    inbox.open_item(session, "message", mixed["message"])

    page = inbox.inbox_page(session, kind=InboxFilter.MESSAGES, unread_only=True)

    assert _keys(page) == [("message", mixed["old_message"])]


def test_a_page_at_a_time_and_an_offset_past_the_end_gives_the_last_page(
    session: Session, mixed: dict[str, int]
) -> None:
    first = inbox.inbox_page(session, limit=2)
    second = inbox.inbox_page(session, limit=2, offset=2)
    past = inbox.inbox_page(session, limit=2, offset=40)

    assert [e.id for e in first.entries] == [mixed["wholesale"], mixed["message"]]
    assert [e.id for e in second.entries] == [mixed["bulk"], mixed["custom"]]
    assert (past.offset, [e.id for e in past.entries]) == (4, [mixed["old_message"]])
    assert (first.total, second.total, past.total) == (5, 5, 5)


def test_an_empty_inbox(session: Session) -> None:
    page = inbox.inbox_page(session, kind=InboxFilter.CUSTOM, unread_only=True, offset=20)

    assert (page.entries, page.total, page.unread, page.offset) == ([], 0, 0, 0)


def test_a_bulk_inquiry_shows_its_products_with_quantities_prices_and_total(
    session: Session, mixed: dict[str, int]
) -> None:
    item = inbox.open_item(session, "inquiry", mixed["bulk"])

    assert item is not None and item.inquiry is not None
    assert (item.kind, item.type_label, item.name, item.email, item.phone) == (
        "bulk",
        "Bulk Order",
        "Gifts Ltd",
        "buyer@gifts.example",
        "250-555-0100",
    )
    assert [(p.name, p.quantity, p.price_cents) for p in item.inquiry.products] == [
        ("Cedar Candle", 10, 2800),
        ("Rose Candle", 5, 2450),
    ]
    assert (item.inquiry.total_quantity, item.total_cents) == (15, 10 * 2800 + 5 * 2450)
    assert item.reply_url == "mailto:buyer@gifts.example?subject=Re%3A%20your%20bulk%20order%20inquiry"


def test_a_custom_inquiry_shows_vessel_colour_scent_and_requests(
    session: Session, mixed: dict[str, int]
) -> None:
    item = inbox.open_item(session, "inquiry", mixed["custom"])

    assert item is not None and item.inquiry is not None
    summary = item.inquiry
    assert (summary.vessel_size, summary.vessel_color, summary.scent, summary.quantity) == (
        "8 oz",
        "Amber",
        "Vanilla Bean",
        40,
    )
    assert summary.special_requests == "Ivory ribbon"
    assert item.reply_url.endswith("?subject=Re%3A%20your%20custom%20order%20inquiry")


def test_a_message_s_reply_link_answers_its_subject(session: Session, mixed: dict[str, int]) -> None:
    item = inbox.open_item(session, "message", mixed["message"])

    assert item is not None and item.inquiry is None
    assert (item.subject, item.message, item.client_hash) == (
        "Wedding favours",
        "Sixty candles?\nIn June.",
        "",
    )
    assert item.reply_url == "mailto:ana@example.com?subject=Re%3A%20Wedding%20favours"


def test_unknown_entries_are_none(session: Session, mixed: dict[str, int]) -> None:
    assert inbox.open_item(session, "message", 999_999) is None
    assert inbox.open_item(session, "orders", mixed["message"]) is None
    assert not inbox.mark_unread(session, "inquiry", 999_999)
    assert inbox.unread_count(session) == 5


def test_hostile_text_is_stored_and_returned_verbatim_and_the_link_stays_a_link(session: Session) -> None:
    session.add(Product(name="Cedar Candle", base_price_cents=2800, stock_quantity=9))
    session.flush()
    sent = contact.send_message(
        session,
        form=ContactForm(name=HOSTILE, email="eve@example.com", subject=f"{HOSTILE}&cc=x", message=HOSTILE),
        client="203.0.113.9",
    )
    custom = inquiries.submit_inquiry(
        session,
        InquiryForm(
            order_type="custom",
            name=HOSTILE,
            email="eve@example.com",
            message=HOSTILE,
            vessel_size="8 oz",
            vessel_color="Amber",
            scent="Vanilla Bean",
            quantity="2",
            special_requests=HOSTILE,
        ),
        client_address="203.0.113.9",
    )

    entries = {(e.source, e.id): e for e in inbox.inbox_page(session).entries}
    assert entries[("message", sent.id)].name == HOSTILE
    assert entries[("message", sent.id)].title == f"{HOSTILE}&cc=x"
    assert entries[("inquiry", custom.id)].preview == HOSTILE
    message = inbox.open_item(session, "message", sent.id)
    inquiry = inbox.open_item(session, "inquiry", custom.id)
    assert message is not None and inquiry is not None and inquiry.inquiry is not None
    assert (message.name, message.subject, message.message) == (HOSTILE, f"{HOSTILE}&cc=x", HOSTILE)
    assert (inquiry.name, inquiry.message, inquiry.inquiry.special_requests) == (HOSTILE, HOSTILE, HOSTILE)
    assert len(inquiry.client_hash) == 64
    assert message.reply_url.startswith("mailto:eve@example.com?subject=Re%3A%20%3Cscript%3E")
    assert message.reply_url.count("?") == 1 and "&" not in message.reply_url and "<" not in message.reply_url
