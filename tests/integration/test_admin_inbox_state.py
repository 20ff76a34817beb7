"""The inbox screen's handlers: admins only, re-checked on the server, thin over the service.

Handlers are called the way Reflex calls them, on state instances, as a signed-out client, as a
customer and as an admin. A refused call reads nothing and changes nothing, even when the tab's
state was tampered with (an entry id set by hand).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import AdminRole, ContactMessage, OrderInquiry, User
from shop_app.services import sessions
from shop_app.state.admin.inbox import InboxDetailView, InboxState
from shop_app.state.auth import AuthState

HOSTILE = "<script>alert(1)</script><b>hi</b>"
READ_AT = datetime(2026, 11, 20, 17, 0, tzinfo=UTC)


@pytest.fixture
def people(app_env: Callable[..., None], engine: Engine, session: Session) -> dict[str, Any]:
    """A customer and an admin with their session ids, a contact message and a bulk inquiry."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner")
    session.add_all([customer, admin])
    session.flush()
    session.add(AdminRole(user_id=admin.id))
    message = ContactMessage(
        name=HOSTILE, email="eve@example.com", subject="Hello & welcome", message=HOSTILE
    )
    inquiry = OrderInquiry(
        order_type="bulk",
        name="Gifts Ltd",
        email="buyer@gifts.example",
        details={
            "selected_products": [{"id": 1, "name": "Cedar Candle", "quantity": 3, "price_cents": 2800}],
            "total_quantity": 3,
        },
    )
    session.add_all([message, inquiry])
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {
        None: None,
        "customer": customer_session.state_key,
        "admin": admin_session.state_key,
        "message": message.id,
        "inquiry": inquiry.id,
    }


async def _state(session_key: str | None) -> InboxState:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return await root.get_state(InboxState)


def _read_marks(session: Session) -> list[Any]:
    session.rollback()  # a fresh snapshot: the handlers wrote through their own sessions
    return [m.read_at for m in session.exec(select(ContactMessage))] + [
        i.read_at for i in session.exec(select(OrderInquiry))
    ]


def notice(result: Any) -> tuple[str, str]:
    """The kind and text of the notification a handler returned."""
    (_, message), (_, kind) = result.args
    return kind._var_value, message._var_value


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_read_nothing_and_change_nothing(
    people: dict[str, Any], session: Session, who: str | None
) -> None:
    session.get(ContactMessage, people["message"]).read_at = READ_AT  # read; the inquiry is not
    session.commit()
    state = await _state(people[who])

    await state.load()
    await state.set_kind("message")
    await state.set_unread_only(True)
    await state.next_page()
    await state.previous_page()
    await state.open_entry("message", people["message"])
    await state.open_entry("inquiry", people["inquiry"])
    state.detail = InboxDetailView(source="message", id=people["message"])  # tampered with
    await state.set_detail_open(True)
    assert not state.detail_open
    await state.mark_unread()

    assert state.entries == [] and state.total == 0 and state.unread == 0 and not state.loaded
    assert state.detail_products == [] and state.detail.name == ""
    assert _read_marks(session) == [READ_AT, None]


async def test_an_admin_lists_opens_marks_read_and_unread(people: dict[str, Any], session: Session) -> None:
    state = await _state(people["admin"])

    assert await state.load() is None
    assert (state.loaded, state.total, state.unread) == (True, 2, 2)
    assert [(e.source, e.read) for e in state.entries] == [("inquiry", False), ("message", False)]
    message_row = state.entries[1]
    assert (message_row.name, message_row.title, message_row.preview) == (HOSTILE, "Hello & welcome", HOSTILE)

    await state.open_entry("message", people["message"])
    assert state.detail_open
    assert (state.detail.name, state.detail.message, state.detail.subject) == (
        HOSTILE,
        HOSTILE,
        "Hello & welcome",
    )
    assert state.detail.reply_url == "mailto:eve@example.com?subject=Re%3A%20Hello%20%26%20welcome"
    assert state.detail.read_at != ""
    assert state.unread == 1 and [e.read for e in state.entries] == [False, True]
    assert _read_marks(session)[0] is not None

    result = await state.mark_unread()
    assert notice(result) == ("success", "Marked as unread")
    assert not state.detail_open and state.unread == 2
    assert _read_marks(session) == [None, None]


async def test_an_admin_sees_an_inquiry_s_products_and_total(people: dict[str, Any]) -> None:
    state = await _state(people["admin"])
    await state.load()

    await state.open_entry("inquiry", people["inquiry"])

    assert (state.detail.type_label, state.detail.total_quantity, state.detail.total) == (
        "Bulk Order",
        3,
        "$84.00",
    )
    assert [(p.name, p.quantity, p.price, p.line_total) for p in state.detail_products] == [
        ("Cedar Candle", 3, "$28.00", "$84.00")
    ]
    assert (
        state.detail.reply_url == "mailto:buyer@gifts.example?subject=Re%3A%20your%20bulk%20order%20inquiry"
    )


async def test_filters_and_a_missing_entry(people: dict[str, Any]) -> None:
    state = await _state(people["admin"])
    await state.load()

    await state.set_kind("bulk")
    assert [e.source for e in state.entries] == ["inquiry"] and state.total == 1
    await state.set_kind("no-such-type")
    assert state.kind == "all" and state.total == 2
    await state.open_entry("inquiry", people["inquiry"])
    await state.set_detail_open(False)
    await state.set_unread_only(True)
    assert [e.source for e in state.entries] == ["message"]

    result = await state.open_entry("message", 999_999)
    assert notice(result) == ("error", "This message is no longer in the inbox.")
    assert not state.detail_open
