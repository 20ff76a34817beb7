"""The pure parts of Manage Admins and View Users: display texts, rows and the admin search."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from shop_app.services.admin.admins import AdminEntry, admin_entry, admin_stats, search_admins
from shop_app.services.admin.customers import (
    CustomerDetails,
    CustomerRow,
    location_text,
    shop_date,
    shop_date_time,
)
from shop_app.state.admin.admins import admin_row
from shop_app.state.admin.users import customer_detail, customer_row

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)  # noon in Vancouver (PST, UTC-8)


def _query_row(**fields: object) -> SimpleNamespace:
    values = {
        "id": 7,
        "user_id": 3,
        "role": "admin",
        "granted_at": NOW,
        "is_active": True,
        "account_id": 3,
        "first_name": "Olive",
        "last_name": "Owner",
        "email": "olive@example.com",
        "account_active": True,
        "granter_first": None,
        "granter_last": None,
        "granter_email": None,
    }
    return SimpleNamespace(**{**values, **fields})


def _entry(**fields: object) -> AdminEntry:
    return admin_entry(_query_row(**fields))


def test_an_account_that_cannot_be_read_shows_as_unknown_user() -> None:
    entry = _entry(account_id=None, first_name=None, last_name=None, email=None, account_active=None)

    assert (entry.first_name, entry.last_name, entry.name, entry.email) == (
        "Unknown",
        "User",
        "Unknown User",
        "",
    )
    assert not entry.is_active  # nobody can sign in to it
    assert admin_row(entry, me=1).name == "Unknown User"


def test_granted_by_is_the_granters_name_else_their_email_else_empty() -> None:
    assert (
        _entry(granter_first="Hal", granter_last="Helper", granter_email="h@x.ca").granted_by == "Hal Helper"
    )
    assert _entry(granter_first="", granter_last="", granter_email="h@x.ca").granted_by == "h@x.ca"
    assert _entry().granted_by == ""


def test_active_admins_need_an_active_role_and_an_enabled_account() -> None:
    entries = [_entry(), _entry(is_active=False), _entry(account_active=False)]

    assert [e.is_active for e in entries] == [True, False, False]
    assert (admin_stats(entries).total, admin_stats(entries).active) == (3, 1)


def test_the_admin_search_ignores_case_and_extra_spaces() -> None:
    entries = [_entry(), _entry(id=8, first_name="Hal", last_name="Helper", email="hal@shop.ca")]

    assert [e.role_id for e in search_admins(entries, " olive  OWNER ")] == [7]
    assert [e.role_id for e in search_admins(entries, "shop.CA")] == [8]
    assert [e.role_id for e in search_admins(entries, "ADMIN")] == [7, 8]


def test_an_admin_row_tags_the_current_user_and_falls_back_to_the_email() -> None:
    mine, nameless = _entry(user_id=3), _entry(user_id=4, first_name="", last_name="")

    assert admin_row(mine, me=3).is_you and not admin_row(nameless, me=3).is_you
    assert admin_row(nameless, me=3).name == "olive@example.com"
    assert admin_row(mine, me=3).granted_at == "Nov 21, 2026"


def test_dates_and_times_are_the_shops_in_vancouver() -> None:
    late = datetime(2026, 11, 22, 7, 30, tzinfo=UTC)  # still the 21st in Vancouver
    summer = datetime(2026, 7, 1, 19, 5, tzinfo=UTC)  # PDT, UTC-7

    assert shop_date(late) == "Nov 21, 2026"
    assert shop_date_time(late) == "Nov 21, 2026, 11:30 PM"
    assert shop_date_time(NOW) == "Nov 21, 2026, 12:00 PM"
    assert shop_date_time(summer) == "Jul 1, 2026, 12:05 PM"
    assert shop_date_time(datetime(2026, 1, 2, 8, 9, tzinfo=UTC)) == "Jan 2, 2026, 12:09 AM"
    assert shop_date(datetime(2026, 11, 22, 7, 30)) == "Nov 21, 2026"  # naive values are UTC


def test_location_joins_the_parts_given() -> None:
    assert location_text("Vancouver", "BC", "Canada") == "Vancouver, BC, Canada"
    assert location_text(" ", "WA", "") == "WA"
    assert location_text("", "", "") == ""


def _customer(**fields: object) -> CustomerRow:
    values = {
        "id": 5,
        "first_name": "Mia",
        "last_name": "Chen",
        "email": "mia@example.com",
        "phone": "",
        "city": "",
        "state": "",
        "country": "",
        "created_at": NOW - timedelta(days=3),
        "last_seen_at": None,
        "email_confirmed_at": None,
        "is_active": True,
    }
    return CustomerRow(**{**values, **fields})


def test_last_seen_follows_the_seeds_steps() -> None:
    def seen(ago: timedelta | None) -> str:
        return customer_row(_customer(last_seen_at=NOW - ago if ago else None), now=NOW).last_seen

    assert seen(timedelta(minutes=59)) == "Just now"
    assert seen(timedelta(hours=1)) == "1h ago"
    assert seen(timedelta(hours=23, minutes=59)) == "23h ago"
    assert seen(timedelta(hours=24)) == "1d ago"
    assert seen(timedelta(hours=167)) == "6d ago"
    assert seen(timedelta(hours=168)) == "Nov 14, 2026"
    assert seen(None) == "Never"


def test_a_recent_signup_joined_within_seven_days() -> None:
    assert customer_row(_customer(created_at=NOW - timedelta(days=7)), now=NOW).recent
    assert not customer_row(_customer(created_at=NOW - timedelta(days=7, seconds=1)), now=NOW).recent


def test_a_customer_row_and_the_details_texts() -> None:
    nameless = customer_row(_customer(first_name="", last_name="", email="zed@example.com"), now=NOW)
    assert (nameless.name, nameless.initial) == ("zed@example.com", "Z")

    details = CustomerDetails(
        row=_customer(city="Victoria", state="BC", country="Canada", email_confirmed_at=NOW),
        address="12 Cedar St",
        address_line2="Unit 4",
        zip_code="V8W 1A1",
        email_notifications=True,
        sms_notifications=True,
        orders=(),
    )
    view = customer_detail(details)

    assert view.address == "12 Cedar St, Unit 4, Victoria, BC V8W 1A1, Canada"
    assert (view.verified_on, view.notifications, view.order_count) == ("Nov 21, 2026", "Email, SMS", 0)
    bare = customer_detail(
        CustomerDetails(
            _customer(), "", "", "", email_notifications=False, sms_notifications=False, orders=()
        )
    )
    assert (bare.address, bare.verified_on, bare.notifications) == ("", "Not verified", "None")


def test_a_guest_row_shows_orders_and_spent_and_is_never_a_recent_signup() -> None:
    guest = _customer(id=None, is_guest=True, is_active=False, order_count=2, spent_cents=650_005)

    row = customer_row(guest, now=NOW)

    assert (row.id, row.is_guest, row.recent, row.order_count, row.spent) == (0, True, False, 2, "$6,500.05")
    assert customer_row(_customer(), now=NOW).spent == "$0.00"
    details = customer_detail(
        CustomerDetails(
            guest,
            "5 Harbour Rd",
            "",
            "V9R 1A1",
            email_notifications=False,
            sms_notifications=False,
            orders=(),
        )
    )
    assert (details.address, details.verified_on, details.notifications) == (
        "5 Harbour Rd, V9R 1A1",
        "—",
        "—",
    )
