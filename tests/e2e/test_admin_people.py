"""Manage Admins and Customers in the browser (issue 7, acceptance 3 and 4).

A shopper registers; the demo admin makes them an admin (they can now open the back office),
then removes them (their next admin page load sends them home). The admin's own row is tagged
and has no Remove. The customer list finds the shopper by e-mail and opens User Details. A
non-admin is sent home from /admin/manage-admins. The demo admin is never changed; the shopper's
role is withdrawn afterwards even if the test fails half-way.

A guest who pays through checkout (issue 17) is a customer too: found under 'Guests only' by their
e-mail in another case, with the 'Guest' badge, one order and its total, and their User Details
list that order.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect

from shop_app.db import create_db_engine
from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL
from shop_app.domain.admin_messages import AdminLabel, AdminUserMessage
from shop_app.domain.money import format_cents
from tests.e2e.helpers import SignIn
from tests.e2e.test_accounts import _register_in_dialog, _sign_in_in_dialog, _wait_for_cookie
from tests.e2e.test_checkout import ADDRESS
from tests.e2e.test_order_lookup import _guest_pays

FIRST, LAST = "Nora", "Lindqvist"


@pytest.fixture
def shopper(shop_database_url: str) -> Iterator[str]:
    """A fresh shopper's e-mail; any admin role they were given is withdrawn afterwards."""
    email = f"people-{uuid.uuid4().hex[:8]}@example.com"
    yield email
    engine = create_db_engine(shop_database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "DELETE FROM admin_roles WHERE user_id IN (SELECT id FROM users WHERE email = :email)"
                ),
                {"email": email},
            )
    finally:
        engine.dispose()


def _row(page: Page, text: str):
    return page.get_by_role("row").filter(has_text=text)


def test_an_admin_adds_and_removes_an_admin_and_finds_a_customer(
    shop_url: str, page: Page, browser: Browser, shopper: str, sign_in: SignIn
) -> None:
    customer_context = browser.new_context()
    customer = customer_context.new_page()
    customer.goto(f"{shop_url}/")
    _register_in_dialog(customer, shopper, first=FIRST, last=LAST)
    _sign_in_in_dialog(customer, shopper)
    _wait_for_cookie(customer, "shop_session")
    customer.goto(f"{shop_url}/admin/manage-admins")
    expect(customer).to_have_url(f"{shop_url}/")  # a customer is sent home

    sign_in(page)
    page.goto(f"{shop_url}/admin/manage-admins")
    expect(page.get_by_role("heading", name="Manage Admins")).to_be_visible()
    _own_row_and_session(page)
    _add_admin(page, shopper)

    # The shopper can now open the back office.
    customer.goto(f"{shop_url}/admin/manage-admins")
    expect(customer.get_by_role("heading", name="Manage Admins")).to_be_visible()
    expect(_row(customer, shopper)).to_contain_text("You")

    _remove_admin(page, shopper)

    # Their very next admin page load is refused.
    customer.goto(f"{shop_url}/admin/view-users")
    expect(customer).to_have_url(f"{shop_url}/")
    customer_context.close()

    _find_the_customer(page, shopper)


def _own_row_and_session(page: Page) -> None:
    mine = _row(page, DEMO_ADMIN_EMAIL)
    expect(mine).to_contain_text("You")
    expect(mine).to_contain_text("Current User")
    expect(mine.get_by_role("button", name=re.compile("^Remove"))).to_have_count(0)
    session_card = page.get_by_role("region", name="Your Session")
    expect(session_card).to_contain_text(DEMO_ADMIN_EMAIL)
    expect(session_card).to_contain_text("Signed in since")


def _add_admin(page: Page, shopper: str) -> None:
    """Add Admin: the seed's refusals, then the shopper."""
    page.get_by_role("button", name="Add Admin").click()
    dialog = page.get_by_role("dialog", name="Add Admin")
    dialog.get_by_role("button", name="Add Admin").click()
    expect(dialog.get_by_text(AdminUserMessage.ALL_FIELDS.value)).to_be_visible()
    dialog.get_by_label("User email").fill(f"nobody-{uuid.uuid4().hex[:6]}@example.com")
    dialog.get_by_role("button", name="Add Admin").click()
    expect(dialog.get_by_text(AdminUserMessage.USER_NOT_FOUND.value)).to_be_visible()
    dialog.get_by_label("User email").fill(DEMO_ADMIN_EMAIL)
    dialog.get_by_role("button", name="Add Admin").click()
    expect(dialog.get_by_text(AdminUserMessage.ALREADY_ADMIN.value)).to_be_visible()
    expect(dialog.get_by_role("combobox", name="Role")).to_have_text("admin")
    dialog.get_by_label("User email").fill(shopper.upper())
    dialog.get_by_role("button", name="Add Admin").click()
    expect(page.get_by_text(AdminUserMessage.ADMIN_ADDED.value)).to_be_visible()
    expect(dialog).to_have_count(0)
    expect(_row(page, shopper)).to_contain_text(f"{FIRST} {LAST}")


def _remove_admin(page: Page, shopper: str) -> None:
    """Remove, after the confirmation (Cancel first keeps them)."""
    page.get_by_label("Search admins").fill(LAST.lower())
    expect(page.get_by_role("rowheader")).to_have_count(1)
    remove = _row(page, shopper).get_by_role("button", name=f"Remove {FIRST} {LAST}")
    remove.click()
    confirm = page.get_by_role("alertdialog", name="Remove Admin")
    expect(confirm).to_contain_text(shopper)
    confirm.get_by_role("button", name="Cancel").click()
    expect(_row(page, shopper)).to_have_count(1)
    remove.click()
    page.get_by_role("alertdialog", name="Remove Admin").get_by_role("button", name="Remove").click()
    expect(page.get_by_text(AdminUserMessage.ADMIN_REMOVED.value)).to_be_visible()
    expect(_row(page, shopper)).to_have_count(0)


def _find_the_customer(page: Page, shopper: str) -> None:
    """Customers: found by e-mail, User Details opens from the row."""
    page.get_by_role("navigation", name="Admin").get_by_role("link", name="Customers").click()
    expect(page.get_by_role("heading", name="Customers")).to_be_visible()
    page.get_by_label("Search customers").fill(shopper)
    expect(page.get_by_role("rowheader")).to_have_count(1)
    row = _row(page, shopper)
    expect(row).to_contain_text("Just now")
    expect(row).to_contain_text(AdminLabel.STATUS_ACTIVE.value)
    row.get_by_role("button", name=f"View details of {FIRST} {LAST}").click()
    details = page.get_by_role("dialog", name="User Details")
    expect(details).to_contain_text(shopper)
    expect(details).to_contain_text("Orders (0)")
    expect(details).to_contain_text("No orders yet.")
    details.get_by_role("button", name="Close").click()
    expect(details).to_have_count(0)

    page.get_by_label("Search customers").fill(f"no-such-{uuid.uuid4().hex[:6]}")
    expect(page.get_by_text(AdminLabel.NO_USERS.value)).to_be_visible()


def _order_total(database_url: str, number: str) -> int:
    engine = create_db_engine(database_url)
    try:
        with engine.connect() as connection:
            return connection.execute(
                sa.text("SELECT total_cents FROM orders WHERE order_number = :number"), {"number": number}
            ).scalar_one()
    finally:
        engine.dispose()


def test_a_guest_who_ordered_is_a_customer_marked_as_a_guest(
    shop_url: str, shop_database_url: str, page: Page, browser: Browser, sign_in: SignIn
) -> None:
    email = f"Guest-{uuid.uuid4().hex[:8]}@Example.com"
    name = f"{ADDRESS['First name']} {ADDRESS['Last name']}"
    guest_context = browser.new_context()
    try:
        number = _guest_pays(guest_context.new_page(), shop_url, email)
    finally:
        guest_context.close()
    total = format_cents(_order_total(shop_database_url, number))

    sign_in(page)
    page.goto(f"{shop_url}/admin/view-users")
    expect(page.get_by_role("heading", name="Customers")).to_be_visible()
    page.get_by_role("combobox", name="Status filter").click()
    page.get_by_role("option", name="Guests only").click()
    page.get_by_label("Search customers").fill(email.lower())
    expect(page.get_by_role("rowheader")).to_have_count(1)
    row = _row(page, email)
    expect(row.get_by_text(AdminLabel.STATUS_GUEST.value, exact=True)).to_be_visible()
    expect(row.get_by_text(AdminLabel.STATUS_ACTIVE.value, exact=True)).to_have_count(0)
    expect(row.get_by_role("cell", name="1", exact=True)).to_be_visible()  # Orders
    expect(row.get_by_role("cell", name=total, exact=True)).to_be_visible()  # Spent
    expect(row).to_contain_text("Victoria, BC")  # from the order's shipping address
    expect(row).to_contain_text("Just now")  # Last Seen: the order a moment ago

    row.get_by_role("button", name=f"View details of {name}").click()
    details = page.get_by_role("dialog", name="User Details")
    expect(details).to_contain_text(email)
    expect(details).to_contain_text("12 Cedar Lane")
    expect(details.get_by_text(AdminLabel.STATUS_GUEST.value, exact=True)).to_be_visible()
    expect(details).to_contain_text("Orders (1)")
    expect(details.get_by_role("link", name=f"Order {number}")).to_be_visible()
    expect(details.get_by_role("row").filter(has_text=number)).to_contain_text(total)
    details.get_by_role("button", name="Close").click()
    expect(details).to_have_count(0)

    page.get_by_role("combobox", name="Status filter").click()
    page.get_by_role("option", name="Active Only", exact=True).click()  # accounts only
    expect(page.get_by_text(AdminLabel.NO_USERS.value)).to_be_visible()
