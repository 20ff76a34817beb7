"""View Users, the customer list: stats, search, status filter, paging, last seen and details
(docs/spec/admin-people.md#users, #records; docs/spec/limits.md#back-office).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session, select

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import AdminRole, Order, User, UserSession
from shop_app.services import sessions
from shop_app.services.admin import customers
from shop_app.services.admin.customers import StatusFilter
from shop_app.services.admin_dashboard import store_counts

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _emptied_after(session: Session) -> None:
    """Every test starts on an empty database (the session fixture empties it afterwards)."""


def _user(session: Session, email: str, first: str = "", last: str = "", **fields: Any) -> User:
    user = User(email=email, password_hash="x", first_name=first, last_name=last, **fields)
    session.add(user)
    session.commit()
    return user


def _admin(session: Session, user: User, **fields: Any) -> AdminRole:
    role = AdminRole(user_id=user.id, **fields)
    session.add(role)
    session.commit()
    return role


# --------------------------------------------------------------------------- customers


@pytest.fixture
def shoppers(session: Session) -> dict[str, int]:
    """Five customers and an admin, created at known times."""
    rows = {
        "mia": _user(
            session,
            "mia.chen@example.com",
            "Mia",
            "Chen",
            phone="(604) 555-0100",
            city="Vancouver",
            state="BC",
            country="Canada",
            created_at=NOW - timedelta(days=2),
            email_confirmed_at=NOW - timedelta(days=2),
            last_sign_in_at=NOW - timedelta(hours=3),
        ),
        "ben": _user(
            session,
            "ben@shop.example",
            "Ben",
            "Okafor",
            phone="250 555 0199",
            created_at=NOW - timedelta(days=6, hours=23),
        ),
        "old": _user(
            session,
            "old_timer@example.com",
            "Olga",
            "Timmer",
            created_at=NOW - timedelta(days=8),
            email_confirmed_at=NOW - timedelta(days=8),
        ),
        "off": _user(
            session,
            "off@example.com",
            "Otto",
            "Off",
            is_active=False,
            created_at=NOW - timedelta(days=40),
        ),
        "pct": _user(session, "100%real@example.com", "Per", "Cent", created_at=NOW - timedelta(days=50)),
        "admin": _user(
            session,
            "owner@example.com",
            "Olive",
            "Owner",
            created_at=NOW - timedelta(days=1),
            email_confirmed_at=NOW,
        ),
    }
    _admin(session, rows["admin"])
    return {name: user.id for name, user in rows.items()}


def _emails(page: customers.CustomerPage) -> list[str]:
    return [row.email for row in page.rows]


def test_the_stats_count_customers_only(session: Session, shoppers: dict[str, int]) -> None:
    stats = customers.customer_stats(session, now=NOW)

    assert stats == customers.CustomerStats(total=5, active=4, recent_signups=2, verified=2)
    assert store_counts(session).customers == stats.total  # the dashboard agrees


def test_the_list_is_newest_first_and_paged_in_the_database(
    session: Session, shoppers: dict[str, int]
) -> None:
    first = customers.customer_page(session, page_size=2)
    last = customers.customer_page(session, page=2, page_size=2)
    beyond = customers.customer_page(session, page=9, page_size=2)

    assert _emails(first) == ["mia.chen@example.com", "ben@shop.example"]
    assert (first.matches, first.page, first.page_count) == (5, 0, 3)
    assert _emails(last) == ["100%real@example.com"] and last.page == 2
    assert beyond.page == 2 and _emails(beyond) == _emails(last)
    assert customers.customer_page(session, page=-3).page == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mia chen", ["mia.chen@example.com"]),
        ("  MIA   CHEN ", ["mia.chen@example.com"]),
        ("okafor", ["ben@shop.example"]),
        ("SHOP.EXAMPLE", ["ben@shop.example"]),
        ("555-0100", ["mia.chen@example.com"]),
        ("6045550100", ["mia.chen@example.com"]),
        ("250-555", ["ben@shop.example"]),
        ("100%", ["100%real@example.com"]),
        ("%", ["100%real@example.com"]),
        ("_", ["old_timer@example.com"]),
        ("owner", []),  # admins are not customers
        ("nobody", []),
    ],
)
def test_the_search_matches_name_email_or_phone(
    session: Session, shoppers: dict[str, int], text: str, expected: list[str]
) -> None:
    assert _emails(customers.customer_page(session, search=text)) == expected


def test_the_status_filter(session: Session, shoppers: dict[str, int]) -> None:
    def found(status: StatusFilter, search: str = "") -> list[str]:
        return _emails(customers.customer_page(session, status=status, search=search))

    assert found(StatusFilter.INACTIVE) == ["off@example.com"]
    assert "off@example.com" not in found(StatusFilter.ACTIVE) and len(found(StatusFilter.ACTIVE)) == 4
    assert len(found(StatusFilter.ALL)) == 5
    assert found(StatusFilter.ACTIVE, search="otto") == []
    assert customers.parse_status("inactive") is StatusFilter.INACTIVE
    assert customers.parse_status("bogus") is StatusFilter.ALL


def test_last_seen_is_the_later_of_the_last_sign_in_and_the_last_request(
    session: Session, shoppers: dict[str, int]
) -> None:
    mia = session.get(User, shoppers["mia"])
    started = sessions.start(session, user=mia, remember_me=True).row
    started.last_seen_at = NOW - timedelta(minutes=5)
    session.add(started)
    session.commit()

    rows = {row.email: row for row in customers.customer_page(session).rows}

    assert rows["mia.chen@example.com"].last_seen_at == NOW - timedelta(minutes=5)
    assert rows["ben@shop.example"].last_seen_at is None  # never signed in
    session.exec(select(UserSession)).one().last_seen_at = NOW - timedelta(days=3)
    session.commit()
    rows = {row.email: row for row in customers.customer_page(session).rows}
    assert rows["mia.chen@example.com"].last_seen_at == NOW - timedelta(hours=3)


def _order(session: Session, user_id: int, number: str, status: str, minutes: int, **fields: Any) -> Order:
    order = Order(
        order_number=number,
        user_id=user_id,
        email="mia.chen@example.com",
        status=status,
        subtotal_cents=4000,
        tax_cents=480,
        shipping_cents=1500,
        total_cents=5980,
        created_at=NOW + timedelta(minutes=minutes),
        **fields,
    )
    session.add(order)
    session.commit()
    return order


def test_the_details_list_the_profile_and_the_paid_orders_newest_first(
    session: Session, shoppers: dict[str, int]
) -> None:
    mia = shoppers["mia"]
    first = _order(
        session, mia, "ORD-P0001", OrderStatus.DELIVERED, 1, payment_status=PaymentStatus.COMPLETED
    )
    second = _order(session, mia, "ORD-P0002", OrderStatus.PENDING, 2, payment_status=PaymentStatus.COMPLETED)
    _order(session, mia, "ORD-P0003", OrderStatus.AWAITING_PAYMENT, 3)  # never paid: not shown
    _order(session, shoppers["ben"], "ORD-P0004", OrderStatus.PENDING, 4)

    details = customers.customer_details(session, mia)

    assert details.row.email == "mia.chen@example.com" and details.row.city == "Vancouver"
    assert [(o.id, o.order_number, o.total_cents) for o in details.orders] == [
        (second.id, "ORD-P0002", 5980),
        (first.id, "ORD-P0001", 5980),
    ]
    assert customers.customer_details(session, 999_999) is None
