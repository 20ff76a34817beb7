"""View Users, the customer list: stats, search, status filter, paging, last seen and details
(docs/spec/admin-people.md#users, #records; docs/spec/limits.md#back-office), and the guests who
ordered without an account (issue 17): one row per e-mail whatever its case, their order count and
total spent beside every account's, found by the same search, filter and paging.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session, select

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import AdminRole, Order, OrderAddress, Payment, Refund, User, UserSession
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

    assert stats == customers.CustomerStats(total=5, active=4, recent_signups=2, verified=2, guests=0)
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


# --------------------------------------------------------------------------- guests (issue 17)

PAID = {"status": OrderStatus.PENDING, "payment_status": PaymentStatus.COMPLETED}


def _guest_order(
    session: Session,
    email: str,
    number: str,
    *,
    at: datetime,
    total: int = 5980,
    user_id: int | None = None,
    address: dict[str, str] | None = None,
    **fields: Any,
) -> Order:
    """An order (paid unless ``fields`` say otherwise) with its shipping address."""
    order = Order(
        order_number=number,
        user_id=user_id,
        email=email,
        phone="",
        subtotal_cents=total - 1500,
        tax_cents=0,
        shipping_cents=1500,
        total_cents=total,
        created_at=at,
        **{**PAID, **fields},
    )
    session.add(order)
    session.flush()
    if address is not None:
        values = {
            "first_name": "",
            "last_name": "",
            "address_line1": "1 Main St",
            "city": "",
            "state": "",
            "zip_code": "V8V 1A1",
            "country": "Canada",
            **address,
        }
        session.add(OrderAddress(order_id=order.id, type="shipping", **values))
    session.commit()
    return order


@pytest.fixture
def guests(session: Session, shoppers: dict[str, int]) -> dict[str, Order]:
    """Guests beside the shoppers: Gail (two orders, the e-mail typed in two cases), Hugo (one), an
    order under Mia's e-mail without an account, a guest order under the admin's e-mail, and orders
    that were never paid."""
    gail = {
        "first_name": "Gail",
        "last_name": "Guest",
        "city": "Nanaimo",
        "state": "BC",
        "phone": "250-555-0142",
    }
    orders = {
        "gail_first": _guest_order(
            session,
            "Gail@Example.com",
            "ORD-G0001",
            at=NOW - timedelta(days=30),
            total=2500,
            address={**gail, "first_name": "Gabby", "city": "Duncan"},
            status=OrderStatus.DELIVERED,
        ),
        "gail_last": _guest_order(
            session,
            "gail@example.COM",
            "ORD-G0002",
            at=NOW - timedelta(days=4),
            total=4000,
            address=gail,
        ),
        "hugo": _guest_order(
            session,
            "hugo@example.org",
            "ORD-G0003",
            at=NOW - timedelta(days=45),
            total=1999,
            address={"first_name": "Hugo", "last_name": "Hale", "city": "Kelowna", "state": "BC"},
        ),
        # Mia checked out as a guest before opening her account (and once more since).
        "mia_guest": _guest_order(
            session, "MIA.CHEN@example.com", "ORD-G0004", at=NOW - timedelta(days=60), total=3000, address={}
        ),
        "mia_guest_later": _guest_order(
            session, "mia.chen@example.com", "ORD-G0005", at=NOW - timedelta(hours=1), total=1000, address={}
        ),
        "mia_account": _guest_order(
            session, "mia.chen@example.com", "ORD-G0006", at=NOW - timedelta(days=1), user_id=shoppers["mia"]
        ),
        # Ben's account ordered under another e-mail: still Ben's.
        "ben_other_email": _guest_order(
            session, "ben.work@example.net", "ORD-G0007", at=NOW - timedelta(days=3), user_id=shoppers["ben"]
        ),
        # The admin's e-mail: an account's, so no guest (and admins are not customers).
        "admin_guest": _guest_order(session, "Owner@Example.com", "ORD-G0008", at=NOW, address={}),
        # Never paid: no guest, nothing counted.
        "unpaid": _guest_order(
            session,
            "ivy@example.com",
            "ORD-G0009",
            at=NOW,
            address={},
            status=OrderStatus.AWAITING_PAYMENT,
            payment_status=PaymentStatus.PENDING,
        ),
        "declined": _guest_order(
            session,
            "gail@example.com",
            "ORD-G0010",
            at=NOW + timedelta(minutes=5),
            total=9900,
            address={"first_name": "Declined", "last_name": "Card"},
            status=OrderStatus.CANCELLED,
            payment_status=PaymentStatus.FAILED,
        ),
    }
    return orders


def _by_email(page: customers.CustomerPage) -> dict[str, customers.CustomerRow]:
    return {row.email.lower(): row for row in page.rows}


def test_a_guest_is_one_row_per_email_whatever_its_case(session: Session, guests: dict[str, Order]) -> None:
    rows = _by_email(customers.customer_page(session))

    gail = rows["gail@example.com"]
    assert gail.is_guest and gail.id is None and not gail.is_active
    # The latest paid order's address and e-mail; joined at the first paid order, seen at the last.
    assert (gail.first_name, gail.last_name, gail.email, gail.phone, gail.city, gail.state, gail.country) == (
        "Gail",
        "Guest",
        "gail@example.COM",
        "250-555-0142",
        "Nanaimo",
        "BC",
        "Canada",
    )
    assert gail.created_at == NOW - timedelta(days=30) and gail.last_seen_at == NOW - timedelta(days=4)
    assert (gail.order_count, gail.spent_cents) == (2, 6500)  # the declined order is not counted
    assert (rows["hugo@example.org"].order_count, rows["hugo@example.org"].spent_cents) == (1, 1999)
    # Never paid, and an account's e-mail (an admin's): no guest.
    assert "ivy@example.com" not in rows and "owner@example.com" not in rows
    assert sum(row.is_guest for row in rows.values()) == 2


def test_an_accounts_orders_include_its_guest_orders_under_the_same_email(
    session: Session, shoppers: dict[str, int], guests: dict[str, Order]
) -> None:
    rows = _by_email(customers.customer_page(session))

    mia, ben = rows["mia.chen@example.com"], rows["ben@shop.example"]
    assert not mia.is_guest and mia.id == shoppers["mia"]
    assert (mia.order_count, mia.spent_cents) == (3, 5980 + 3000 + 1000)  # its own and both guest orders
    assert (ben.order_count, ben.spent_cents) == (1, 5980)  # its id decides, not the e-mail
    assert (rows["off@example.com"].order_count, rows["off@example.com"].spent_cents) == (0, 0)
    # The account keeps its own dates: joined when it was opened, seen at its last sign-in.
    assert mia.created_at == NOW - timedelta(days=2) and mia.last_seen_at == NOW - timedelta(hours=3)

    details = customers.customer_details(session, shoppers["mia"])
    assert [o.order_number for o in details.orders] == ["ORD-G0005", "ORD-G0006", "ORD-G0004"]
    assert (details.row.order_count, details.row.spent_cents) == (3, 9980)


def _refund(session: Session, order: Order, amount: int, key: str) -> None:
    payment = Payment(
        order_id=order.id, provider="square", idempotency_key=f"pay-{key}", amount_cents=order.total_cents
    )
    session.add(payment)
    session.flush()
    session.add(
        Refund(
            order_id=order.id, payment_id=payment.id, kind="amount", amount_cents=amount, idempotency_key=key
        )
    )
    session.commit()


def test_spent_is_what_was_kept_paid_after_refunds(
    session: Session, shoppers: dict[str, int], guests: dict[str, Order]
) -> None:
    """A stranger found "Spent" counting money the shop had given back."""
    _refund(session, guests["gail_first"], 2500, "r-gail")  # all of it
    _refund(session, guests["gail_last"], 400, "r-gail-part")

    rows = _by_email(customers.customer_page(session))

    assert (rows["gail@example.com"].order_count, rows["gail@example.com"].spent_cents) == (2, 4000 - 400)
    assert rows["mia.chen@example.com"].spent_cents == 5980 + 3000 + 1000  # nothing refunded there
    details = customers.guest_details(session, email="gail@example.com")
    assert details is not None and details.row.spent_cents == 3600


def test_the_guest_goes_when_the_email_opens_an_account(session: Session, guests: dict[str, Order]) -> None:
    _user(session, "hugo@example.org", "Hugo", "Hale", created_at=NOW)

    rows = _by_email(customers.customer_page(session))

    hugo = rows["hugo@example.org"]
    assert not hugo.is_guest and (hugo.order_count, hugo.spent_cents) == (1, 1999)
    assert customers.customer_stats(session, now=NOW).guests == 1
    assert customers.guest_details(session, email="hugo@example.org") is None


def test_the_stats_count_guests_apart(session: Session, guests: dict[str, Order]) -> None:
    stats = customers.customer_stats(session, now=NOW)

    # Total, Active, Recent Signups and Verified count accounts, as before; Guests the guest rows.
    assert stats == customers.CustomerStats(total=5, active=4, recent_signups=2, verified=2, guests=2)
    assert customers.customer_page(session).matches == stats.total + stats.guests


def test_the_list_pages_through_accounts_and_guests_newest_first(
    session: Session, guests: dict[str, Order]
) -> None:
    everyone = [row.email for row in customers.customer_page(session, page_size=100).rows]
    assert everyone == [
        "mia.chen@example.com",  # opened 2 days ago
        "ben@shop.example",  # 6 days 23 hours
        "old_timer@example.com",  # 8 days
        "gail@example.COM",  # first order 30 days ago
        "off@example.com",  # 40 days
        "hugo@example.org",  # first order 45 days ago
        "100%real@example.com",  # 50 days
    ]
    pages = [customers.customer_page(session, page=n, page_size=3) for n in range(3)]
    assert [row.email for page in pages for row in page.rows] == everyone
    assert [(p.matches, p.page_count) for p in pages] == [(7, 3)] * 3
    assert [row.is_guest for row in pages[1].rows] == [True, False, True]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gail guest", ["gail@example.COM"]),  # the latest order's name
        ("gabby", []),  # an earlier order's name is not the guest's any more
        ("GAIL@EXAMPLE", ["gail@example.COM"]),
        ("2505550142", ["gail@example.COM"]),
        ("250-555", ["ben@shop.example", "gail@example.COM"]),
        ("hale", ["hugo@example.org"]),
        ("example.org", ["hugo@example.org"]),
        ("ivy", []),  # never paid
        ("declined", []),
    ],
)
def test_the_search_finds_guests_too(
    session: Session, guests: dict[str, Order], text: str, expected: list[str]
) -> None:
    assert _emails(customers.customer_page(session, search=text)) == expected


def test_the_status_filter_with_guests(session: Session, guests: dict[str, Order]) -> None:
    def found(status: StatusFilter, search: str = "") -> list[str]:
        return _emails(customers.customer_page(session, status=status, search=search))

    assert found(StatusFilter.GUESTS) == ["gail@example.COM", "hugo@example.org"]
    assert found(StatusFilter.GUESTS, search="hugo") == ["hugo@example.org"]
    assert found(StatusFilter.GUESTS, search="mia") == []
    assert found(StatusFilter.ACTIVE) == [
        "mia.chen@example.com",
        "ben@shop.example",
        "old_timer@example.com",
        "100%real@example.com",
    ]
    assert found(StatusFilter.INACTIVE) == ["off@example.com"]
    assert len(found(StatusFilter.ALL)) == 7
    assert customers.parse_status("guests") is StatusFilter.GUESTS
    guests_page = customers.customer_page(session, status=StatusFilter.GUESTS, page=5, page_size=1)
    assert (guests_page.page, guests_page.page_count, _emails(guests_page)) == (1, 2, ["hugo@example.org"])


def test_a_guests_details_are_their_latest_order_and_their_paid_orders(
    session: Session, guests: dict[str, Order]
) -> None:
    details = customers.guest_details(session, email="  GAIL@example.com ")

    assert details is not None and details.row.is_guest and details.row.id is None
    assert (details.row.first_name, details.row.email, details.row.order_count) == (
        "Gail",
        "gail@example.COM",
        2,
    )
    assert (details.address, details.address_line2, details.zip_code) == ("1 Main St", "", "V8V 1A1")
    assert not details.email_notifications and not details.sms_notifications
    assert [o.order_number for o in details.orders] == ["ORD-G0002", "ORD-G0001"]
    assert [o.total_cents for o in details.orders] == [4000, 2500]


@pytest.mark.parametrize(
    "email",
    [
        "",
        "   ",
        "nobody@example.com",
        "ivy@example.com",  # never paid
        "mia.chen@example.com",  # an account's (its guest orders are the account's)
        "owner@example.com",  # an admin's
        "gail@example.com" + "x" * 300,
        "%@example.com",
        None,
        42,
        ["gail@example.com"],
    ],
)
def test_a_guests_details_need_the_email_of_a_guest(
    session: Session, guests: dict[str, Order], email: Any
) -> None:
    assert customers.guest_details(session, email=email) is None


def test_a_guest_without_a_shipping_address_is_listed_by_email(session: Session) -> None:
    _guest_order(session, "Quiet@Example.com", "ORD-Q0001", at=NOW)

    (row,) = customers.customer_page(session).rows
    assert (row.email, row.first_name, row.last_name, row.city, row.order_count) == (
        "Quiet@Example.com",
        "",
        "",
        "",
        1,
    )
    details = customers.guest_details(session, email="quiet@example.com")
    assert details is not None and details.address == "" and len(details.orders) == 1
    assert customers.customer_stats(session, now=NOW) == customers.CustomerStats(0, 0, 0, 0, guests=1)


def test_every_rows_orders_and_spent_are_the_orders_its_details_list(
    session: Session, guests: dict[str, Order]
) -> None:
    rows = customers.customer_page(session, page_size=100).rows

    for row in rows:
        if row.is_guest:
            details = customers.guest_details(session, email=row.email)
        else:
            details = customers.customer_details(session, row.id)
        assert details is not None and details.row == row
        assert (row.order_count, row.spent_cents) == (
            len(details.orders),
            sum(order.total_cents for order in details.orders),
        )
    # Every paid order but the one under the admin's e-mail is counted exactly once: Gail 2, Hugo 1,
    # Mia 3, Ben 1.
    assert sum(row.order_count for row in rows) == 7
