"""The back office inbox in the browser: what visitors send through the public pages reaches it.

A visitor sends one contact message (with hostile text) and one custom order inquiry, then the
admin finds both in /admin/inbox, opens them (they become read), replies through a ``mailto:``
link, filters by type and marks one unread again. Non-admins are sent home.

The e2e run shares one client address (127.0.0.1) with the public pages' own journeys, whose
forms are rate limited per client: this test sends one of each and removes what it sent.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import Session

from shop_app.db import create_db_engine
from shop_app.models import ContactMessage, FormSubmission, OrderInquiry
from tests.e2e.helpers import NewCustomer, SignIn

HOSTILE = '<img src=x onerror="window.__inboxXss=1"><script>window.__inboxXss=2</script>'
UNREAD = re.compile(r"^(\d+) unread$")


@pytest.fixture
def sender(shop_database_url: str) -> Iterator[str]:
    """A visitor's unique address; what they sent is removed afterwards (rate limits included)."""
    address = f"inbox-{uuid.uuid4().hex[:8]}@example.com"
    started = datetime.now(UTC)
    yield address
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            session.execute(sa.delete(ContactMessage).where(ContactMessage.email == address))
            session.execute(sa.delete(OrderInquiry).where(OrderInquiry.email == address))
            session.execute(
                sa.delete(FormSubmission).where(
                    FormSubmission.form == "contact", FormSubmission.submitted_at >= started
                )
            )
            session.commit()
    finally:
        engine.dispose()


def _send_contact_message(page: Page, shop_url: str, *, email: str, subject: str) -> None:
    page.goto(f"{shop_url}/contact")
    page.get_by_label("Name").fill("Ana Inbox")
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Subject").fill(subject)
    page.get_by_label("Message").fill(HOSTILE)
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_text("Thank you, Ana Inbox!")).to_be_visible()


def _send_custom_inquiry(page: Page, shop_url: str, *, email: str) -> None:
    page.goto(f"{shop_url}/custom-orders")
    page.get_by_role("button", name=re.compile(r"^Custom Order")).click()
    page.get_by_label("Name", exact=True).fill("Ben Inbox")
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Vessel size", exact=True).select_option("8 oz")
    page.get_by_label("Vessel color", exact=True).select_option("Amber")
    page.get_by_label("Scent", exact=True).select_option("Vanilla Bean")
    page.get_by_label("Quantity", exact=True).fill("40")
    page.get_by_label("Special requests (optional)", exact=True).fill("Ivory ribbon, please")
    page.get_by_role("button", name="Submit Inquiry").click()
    expect(page.get_by_role("heading", name="Thank You for Your Inquiry!")).to_be_visible()


def _store_bulk_inquiry(database_url: str, email: str) -> None:
    """A bulk inquiry as the custom orders page stores it (sent there by the page's own journey)."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            products = [
                {"id": 1, "name": "Cedar Candle", "quantity": 10, "price_cents": 2800},
                {"id": 2, "name": "Rose Candle", "quantity": 5, "price_cents": 2450},
            ]
            session.add(
                OrderInquiry(
                    order_type="bulk",
                    name="Cleo Bulk",
                    email=email,
                    details={"selected_products": products, "total_quantity": 15},
                )
            )
            session.commit()
    finally:
        engine.dispose()


def _unread_text(count: int) -> str:
    return f"{count} unread" if count else "All read"


def _unread(page: Page) -> int:
    badge = page.get_by_text(UNREAD)
    expect(badge).to_be_visible()
    match = UNREAD.match(badge.inner_text().strip())
    assert match is not None
    return int(match.group(1))


def _read_the_message(page: Page, *, subject: str, sender: str, unread: int) -> None:
    """Open the contact message: every field as text, the reply link; it becomes read."""
    message_row = page.get_by_role("row").filter(has=page.get_by_role("button", name=subject))
    expect(message_row).to_contain_text("Ana Inbox")
    expect(message_row).to_contain_text("Unread")
    expect(message_row.get_by_text(HOSTILE)).to_be_visible()  # the preview, as text
    message_row.get_by_role("button", name=subject).click()
    dialog = page.get_by_role("dialog", name=subject)
    expect(dialog.get_by_text(HOSTILE, exact=True)).to_be_visible()
    expect(dialog.get_by_text(sender, exact=True)).to_be_visible()
    expect(dialog.get_by_role("link", name="Reply by e-mail")).to_have_attribute(
        "href", f"mailto:{sender}?subject={quote(f'Re: {subject}', safe='')}"
    )
    assert page.evaluate("() => window.__inboxXss") is None
    expect(page.locator("img[src='x']")).to_have_count(0)
    dialog.get_by_role("button", name="Close").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(message_row).to_contain_text("Read")
    expect(page.get_by_text(_unread_text(unread - 1), exact=True)).to_be_visible()


def _read_the_custom_inquiry_then_mark_it_unread(page: Page, *, sender: str, unread: int) -> None:
    page.get_by_role("group", name="Show").get_by_role("button", name="Custom").click()
    expect(page.get_by_role("button", name="Custom", exact=True)).to_have_attribute("aria-pressed", "true")
    inquiry_row = page.get_by_role("row").filter(has_text="Ben Inbox")
    expect(inquiry_row).to_contain_text("Custom Order")
    expect(page.get_by_role("row").filter(has_text="Ana Inbox")).to_have_count(0)
    inquiry_row.get_by_role("button", name="8 oz · Amber · Vanilla Bean × 40").click()
    dialog = page.get_by_role("dialog", name="Custom Order inquiry")
    for text in ("Ben Inbox", "8 oz", "Amber", "Vanilla Bean", "40", "Ivory ribbon, please"):
        expect(dialog.get_by_text(text, exact=True)).to_be_visible()
    expect(dialog.get_by_role("link", name="Reply by e-mail")).to_have_attribute(
        "href", f"mailto:{sender}?subject=Re%3A%20your%20custom%20order%20inquiry"
    )
    expect(page.get_by_text(_unread_text(unread - 1), exact=True)).to_be_visible()

    dialog.get_by_role("button", name="Mark as unread").click()
    expect(page.get_by_text("Marked as unread")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_text(_unread_text(unread), exact=True)).to_be_visible()
    page.get_by_role("switch", name="Unread only").click()
    expect(inquiry_row).to_contain_text("Unread")


def _read_the_bulk_inquiry(page: Page) -> None:
    page.get_by_role("group", name="Show").get_by_role("button", name="Bulk").click()
    page.get_by_role("button", name="2 products, 15 units").click()
    dialog = page.get_by_role("dialog", name="Bulk Order inquiry")
    expect(dialog.get_by_role("row", name=re.compile("^Cedar Candle"))).to_have_text(
        re.compile(r"Cedar Candle\s*10\s*\$28\.00\s*\$280\.00")
    )
    expect(dialog.get_by_role("row", name=re.compile("^Rose Candle"))).to_contain_text("$122.50")
    expect(dialog.get_by_text("$402.50", exact=True)).to_be_visible()


def test_visitors_messages_reach_the_admin_inbox_and_are_read_and_answered(
    shop_url: str, shop_database_url: str, page: Page, sender: str, sign_in: SignIn
) -> None:
    subject = f"Wedding favours {uuid.uuid4().hex[:6]}"
    _send_contact_message(page, shop_url, email=sender, subject=subject)
    _send_custom_inquiry(page, shop_url, email=sender)
    _store_bulk_inquiry(shop_database_url, sender)

    sign_in(page)
    page.goto(f"{shop_url}/admin/inbox")
    expect(page.get_by_role("heading", name="Inbox", level=1)).to_be_visible()
    nav = page.get_by_role("navigation", name="Admin")
    expect(nav.get_by_role("link", name="Inbox")).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("row").filter(has_text="Ben Inbox")).to_contain_text(
        "8 oz · Amber · Vanilla Bean × 40"
    )
    unread = _unread(page)

    _read_the_message(page, subject=subject, sender=sender, unread=unread)
    _read_the_custom_inquiry_then_mark_it_unread(page, sender=sender, unread=unread - 1)
    page.get_by_role("group", name="Show").get_by_role("button", name="Messages").click()
    expect(page.get_by_role("button", name=subject)).to_have_count(0)  # read: not unread only
    _read_the_bulk_inquiry(page)


def test_non_admins_are_sent_home(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    page.goto(f"{shop_url}/admin/inbox")
    expect(page).to_have_url(f"{shop_url}/")

    sign_in(page, new_customer())
    page.goto(f"{shop_url}/admin/inbox")
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("heading", name="Inbox")).to_have_count(0)
