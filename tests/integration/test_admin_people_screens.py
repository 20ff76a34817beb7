"""Manage Admins' and View Users' handlers, driven the way Reflex calls them
(docs/spec/admin-people.md#admins, #admin-messages, #records, #admin-rules; docs/spec/README.md#roles).

Signed out, as a customer, and as an admin who was removed meanwhile, every handler reads and
changes nothing, whatever is sent over the event channel. As an admin: the list, Add Admin,
Remove with its confirmation, 'Your Session', the customer list and User Details, a guest's included
(issue 17: asked by e-mail, and only an e-mail of a guest who ordered opens them).
Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlmodel import Session, select

from shop_app.domain.admin_messages import AdminUserMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import AdminRole, Order, OrderAddress, User
from shop_app.services import sessions
from shop_app.services.admin import admins as admin_service
from shop_app.services.admin import customers as customer_service
from shop_app.state.admin.admins import ManageAdminsState
from shop_app.state.admin.guard import AdminGuardState
from shop_app.state.admin.users import ViewUsersState
from shop_app.state.auth import AuthState


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """An admin, a second admin and a customer with one paid order; session and role ids."""
    owner = User(email="owner@example.com", password_hash="x", first_name="Olive", last_name="Owner")
    helper = User(email="helper@example.com", password_hash="x", first_name="Hal", last_name="Helper")
    fan = User(
        email="fan@example.com",
        password_hash="x",
        first_name="Fan",
        last_name="Shopper",
        phone="604-555-0100",
        city="Victoria",
        state="BC",
    )
    session.add_all([owner, helper, fan])
    session.commit()
    owner_role = AdminRole(user_id=owner.id, granted_at=datetime.now(UTC) - timedelta(days=9))
    helper_role = AdminRole(user_id=helper.id, granted_by=owner.id)
    session.add_all([owner_role, helper_role])
    order = Order(
        order_number="ORD-F0001",
        user_id=fan.id,
        email=fan.email,
        status=OrderStatus.SHIPPED,
        payment_status=PaymentStatus.COMPLETED,
        subtotal_cents=2800,
        tax_cents=336,
        shipping_cents=1500,
        total_cents=4636,
    )
    session.add(order)
    session.commit()
    ids = {"owner_role": owner_role.id, "helper_role": helper_role.id, "fan": fan.id, "order": order.id}
    for name, user in (("owner", owner), ("helper", helper), ("customer", fan)):
        started = sessions.start(session, user=user, remember_me=False)
        ids[name] = started.state_key
    session.commit()
    return ids


GUEST_EMAIL = "Gwen.Guest@Example.com"


@pytest.fixture
def guest(people: dict[str, Any], session: Session) -> int:
    """A guest's paid order (no account), with its shipping address; its id."""
    order = Order(
        order_number="ORD-G0001",
        email=GUEST_EMAIL,
        status=OrderStatus.PROCESSING,
        payment_status=PaymentStatus.COMPLETED,
        subtotal_cents=2000,
        tax_cents=240,
        shipping_cents=1500,
        total_cents=3740,
    )
    session.add(order)
    session.flush()
    session.add(
        OrderAddress(
            order_id=order.id,
            first_name="Gwen",
            last_name="Guest",
            address_line1="5 Harbour Rd",
            city="Nanaimo",
            state="BC",
            zip_code="V9R 1A1",
            country="Canada",
            phone="250-555-0142",
        )
    )
    session.commit()
    return order.id


async def _screens(session_key: str | None) -> tuple[State, ManageAdminsState, ViewUsersState]:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key or ""
    return root, await root.get_state(ManageAdminsState), await root.get_state(ViewUsersState)


def _roles(session: Session) -> list[int]:
    session.rollback()
    session.expire_all()
    return sorted(session.exec(select(AdminRole.user_id)).all())


async def _try_everything(admins: ManageAdminsState, users: ViewUsersState, people: dict[str, Any]) -> None:
    """Every handler of both screens, with the values a crafted event could carry."""
    await admins.load()
    await admins.set_search("o")
    await admins.open_add()
    await admins.set_add_open(True)
    await admins.set_add_role("admin")
    await admins.save_add({"email": "fan@example.com"})
    await admins.ask_remove(people["owner_role"])
    admins.remove_id = people["owner_role"]  # as if a crafted event had opened the confirmation
    await admins.confirm_remove()
    await users.load()
    await users.set_search("fan")
    await users.set_status("inactive")
    await users.turn_page(1)
    await users.open_details(people["fan"])
    await users.open_guest_details(GUEST_EMAIL)
    await users.set_details_open(False)


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_read_and_change_nothing(
    who: str | None, people: dict[str, Any], guest: int, session: Session
) -> None:
    _, admins, users = await _screens(people[who] if who else None)
    before = _roles(session)

    await _try_everything(admins, users, people)

    assert _roles(session) == before
    assert admins.rows == [] and admins.total == 0 and admins.me_email == "" and not admins.add_open
    assert users.rows == [] and users.total == 0 and not users.details_open and users.orders == []
    assert users.person.email == "" and not users.loaded


async def test_a_removed_admin_is_refused_on_their_very_next_request(
    people: dict[str, Any], session: Session
) -> None:
    helper_root, helper_admins, helper_users = await _screens(people["helper"])
    await helper_admins.load()
    assert helper_admins.total == 2  # the helper was an admin a moment ago

    _, owner_admins, _ = await _screens(people["owner"])
    await owner_admins.load()
    await owner_admins.ask_remove(people["helper_role"])
    result = await owner_admins.confirm_remove()
    assert AdminUserMessage.ADMIN_REMOVED.value in str(result)

    # The helper's open tab: the guard sends them home and no handler answers any more.
    guard = await helper_root.get_state(AdminGuardState)
    assert "_redirect" in str(await guard.check()) and not guard.allowed
    helper_admins.rows, helper_admins.total = [], 0
    await _try_everything(helper_admins, helper_users, people)
    assert helper_admins.rows == [] and helper_users.rows == [] and not helper_users.details_open
    assert _roles(session) == sorted([session.get(AdminRole, people["owner_role"]).user_id])


async def test_an_admin_lists_searches_adds_and_removes_admins(
    people: dict[str, Any], session: Session
) -> None:
    _, screen, _ = await _screens(people["owner"])

    await screen.load()

    assert screen.loaded and (screen.total, screen.active) == (2, 2)
    assert [(r.name, r.granted_by, r.is_you) for r in screen.rows] == [
        ("Hal Helper", "Olive Owner", False),
        ("Olive Owner", "", True),
    ]
    assert (screen.me_name, screen.me_email, screen.me_role) == ("Olive Owner", "owner@example.com", "admin")
    assert screen.me_since and screen.me_expires and not screen.me_remembered

    await screen.set_search("HELPER")
    assert [r.email for r in screen.rows] == ["helper@example.com"]
    await screen.set_search("")

    # Your own row has no Remove: asking for it opens nothing; the service refuses it anyway.
    await screen.ask_remove(people["owner_role"])
    assert screen.remove_id == 0
    screen.remove_id = people["owner_role"]
    result = await screen.confirm_remove()
    assert AdminUserMessage.CANNOT_REMOVE_SELF.value in str(result)

    # Add Admin: the seed's messages, the dialog stays open with the reason until it succeeds.
    await screen.open_add()
    assert screen.add_open and screen.add_role == "admin" and screen.roles == ["admin"]
    for email, message in (
        ("", AdminUserMessage.ALL_FIELDS),
        ("nobody@example.com", AdminUserMessage.USER_NOT_FOUND),
        ("helper@example.com", AdminUserMessage.ALREADY_ADMIN),
    ):
        result = await screen.save_add({"email": email})
        assert screen.add_open and screen.add_error == message.value and message.value in str(result)
    result = await screen.save_add({"email": "Fan@example.com"})
    assert AdminUserMessage.ADMIN_ADDED.value in str(result)
    assert not screen.add_open and screen.add_error == "" and (screen.total, screen.active) == (3, 3)
    assert screen.rows[0].email == "fan@example.com" and screen.rows[0].granted_by == "Olive Owner"

    # Remove, after the confirmation; Cancel removes nothing.
    fan_role = screen.rows[0].role_id
    await screen.ask_remove(fan_role)
    assert screen.remove_id == fan_role and "Fan Shopper (fan@example.com)" in screen.remove_question
    await screen.set_remove_open(False)
    assert screen.remove_id == 0 and screen.total == 3
    await screen.ask_remove(fan_role)
    result = await screen.confirm_remove()
    assert AdminUserMessage.ADMIN_REMOVED.value in str(result) and screen.total == 2
    assert people["fan"] not in _roles(session)


async def test_failures_show_the_seeds_messages(
    people: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, screen, users = await _screens(people["owner"])
    await screen.load()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(admin_service, "add_admin", broken)
    monkeypatch.setattr(admin_service, "remove_admin", broken)
    monkeypatch.setattr(admin_service, "list_admins", broken)

    result = await screen.save_add({"email": "fan@example.com"})
    assert screen.add_error == AdminUserMessage.ADD_FAILED.value and AdminUserMessage.ADD_FAILED.value in str(
        result
    )
    await screen.ask_remove(people["helper_role"])
    result = await screen.confirm_remove()
    assert AdminUserMessage.REMOVE_FAILED.value in str(result)
    result = await screen.load()
    assert AdminUserMessage.LOAD_ADMINS_FAILED.value in str(result)
    assert isinstance(result, rx.event.EventSpec)

    monkeypatch.setattr(customer_service, "customer_stats", broken)
    monkeypatch.setattr(customer_service, "customer_details", broken)
    assert AdminUserMessage.LOAD_USERS_FAILED.value in str(await users.load())
    assert AdminUserMessage.LOAD_USERS_FAILED.value in str(await users.open_details(people["fan"]))
    assert not users.details_open


async def test_an_admin_browses_customers_and_opens_their_details(people: dict[str, Any]) -> None:
    _, _, users = await _screens(people["owner"])

    await users.load()

    assert users.loaded and (users.total, users.active, users.recent_signups, users.verified) == (1, 1, 1, 0)
    (row,) = users.rows
    assert (row.name, row.email, row.phone, row.location, row.last_seen) == (
        "Fan Shopper",
        "fan@example.com",
        "604-555-0100",
        "Victoria, BC",
        "Just now",  # the session started a moment ago
    )
    assert row.recent and row.is_active and not row.verified
    assert users.range_text == "Showing 1–1 of 1" and users.page_count == 1

    await users.set_search("6045550100")
    assert [r.email for r in users.rows] == ["fan@example.com"]
    await users.set_status("inactive")
    assert users.rows == [] and users.matches == 0 and users.range_text == ""
    await users.set_status("all")
    await users.set_search("")

    await users.open_details(row.id)

    assert users.details_open and users.person.email == "fan@example.com"
    assert users.details.order_count == 1 and users.details.verified_on == "Not verified"
    (order,) = users.orders
    assert (order.number, order.status, order.total, order.url) == (
        "ORD-F0001",
        "Shipped",
        "$46.36",
        f"/admin/orders/{people['order']}",
    )
    await users.set_details_open(False)
    assert not users.details_open and users.orders == [] and users.person.email == ""


async def test_an_admin_sees_a_guest_and_opens_their_details_by_email(
    people: dict[str, Any], guest: int
) -> None:
    _, _, users = await _screens(people["owner"])

    await users.load()

    assert (users.total, users.guests) == (1, 1)  # Total counts accounts; the guest has a card of their own
    gwen, fan = users.rows  # the guest ordered a moment after the account was opened
    assert (gwen.name, gwen.email, gwen.phone, gwen.location, gwen.id) == (
        "Gwen Guest",
        GUEST_EMAIL,
        "250-555-0142",
        "Nanaimo, BC, Canada",
        0,
    )
    assert gwen.is_guest and not gwen.recent and gwen.last_seen == "Just now"
    assert (gwen.order_count, gwen.spent) == (1, "$37.40")
    assert not fan.is_guest and (fan.order_count, fan.spent) == (1, "$46.36")
    await users.set_status("guests")
    assert [r.email for r in users.rows] == [GUEST_EMAIL] and users.status == "guests"
    await users.set_status("active")
    assert [r.email for r in users.rows] == ["fan@example.com"]

    await users.open_guest_details(GUEST_EMAIL.lower())

    assert users.details_open and users.person.is_guest and users.person.name == "Gwen Guest"
    assert users.details.address == "5 Harbour Rd, Nanaimo, BC V9R 1A1, Canada"
    assert (users.details.verified_on, users.details.notifications, users.details.order_count) == (
        "—",
        "—",
        1,
    )
    (order,) = users.orders
    assert (order.number, order.status, order.total, order.url) == (
        "ORD-G0001",
        "Processing",
        "$37.40",
        f"/admin/orders/{guest}",
    )
    await users.set_details_open(False)
    assert not users.details_open and users.orders == []


@pytest.mark.parametrize(
    "email", ["", "nobody@example.com", "fan@example.com", "owner@example.com", "g" * 10_000, 7, None]
)
async def test_a_guests_details_asked_by_anything_else_say_so_and_show_nothing(
    people: dict[str, Any], guest: int, email: Any
) -> None:
    _, _, users = await _screens(people["owner"])
    await users.load()

    result = await users.open_guest_details(email)

    assert AdminUserMessage.GUEST_NOT_FOUND.value in str(result)
    assert not users.details_open and users.person.email == "" and users.orders == []
    assert len(users.rows) == 2  # the list is still there
