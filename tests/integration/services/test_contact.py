"""Contact messages: stored as typed, the shop notified, the sender acknowledged, bursts refused.

Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, func, select

from shop_app.domain.contact import MAX_MESSAGE_LENGTH, ContactForm
from shop_app.domain.messages import ContactText
from shop_app.models import ContactMessage, OutgoingMail, StoreSettings
from shop_app.models.base import utcnow
from shop_app.services import contact, mail, rate_limit
from shop_app.settings import get_settings

SHOP = "orders@cedar-ember.example"
CLIENT = "203.0.113.9"
FORM = ContactForm(
    name="Ana Lopez", email="Ana@Example.ca", subject="Wedding favours", message="Hello!\n\nSixty candles?"
)
HOSTILE = ContactForm(
    name='<img src=x onerror="alert(1)">',
    email="eve@example.com",
    subject="<script>alert('subject')</script>",
    message="<script>alert(1)</script>\n<b>bold</b> & <a href='javascript:alert(2)'>link</a>\x00",
)


@pytest.fixture
def shop(session: Session) -> StoreSettings:
    settings = StoreSettings(id=1, company_name="Cedar & Ember", email=SHOP)
    session.add(settings)
    session.commit()
    return settings


def _mails(session: Session, kind: str) -> list[OutgoingMail]:
    return list(session.exec(select(OutgoingMail).where(OutgoingMail.kind == kind)).all())


def _count(session: Session) -> int:
    return session.exec(select(func.count()).select_from(ContactMessage)).one()


def test_a_message_is_stored_and_mailed_to_the_shop(session: Session, shop: StoreSettings) -> None:
    stored = contact.send_message(session, form=FORM, client=CLIENT)
    session.commit()

    row = session.get(ContactMessage, stored.id)
    assert (row.name, row.email, row.subject, row.message) == (
        "Ana Lopez",
        "Ana@Example.ca",
        "Wedding favours",
        "Hello!\n\nSixty candles?",
    )
    assert row.handled_at is None
    [notification] = _mails(session, contact.NOTIFICATION_KIND)
    assert notification.to_address == SHOP
    assert notification.subject == "Contact form: Wedding favours"
    for part in ("Ana Lopez <Ana@Example.ca>", "Subject: Wedding favours", "Hello!", "Sixty candles?"):
        assert part in notification.body_text


def test_the_sender_gets_an_acknowledgement_that_repeats_nothing_they_typed(
    session: Session, shop: StoreSettings
) -> None:
    contact.send_message(session, form=HOSTILE, client=CLIENT)

    [ack] = _mails(session, contact.ACKNOWLEDGEMENT_KIND)
    assert ack.to_address == "eve@example.com"
    assert ack.subject == "We received your message | Cedar & Ember"
    for typed in ("img", "script", "alert", "bold", "javascript"):
        assert typed not in ack.body_text + ack.body_html + ack.subject


def test_without_a_shop_address_the_notification_goes_to_the_mail_from_address(
    session: Session, app_env
) -> None:
    app_env(MAIL_FROM="Cedar & Ember <hello@cedar-ember.example>")

    contact.send_message(session, form=FORM, client=CLIENT)

    [notification] = _mails(session, contact.NOTIFICATION_KIND)
    assert notification.to_address == "hello@cedar-ember.example"
    assert get_settings().mail_from.startswith("Cedar")


def test_hostile_text_is_stored_as_typed_and_escaped_in_the_mail(
    session: Session, shop: StoreSettings
) -> None:
    stored = contact.send_message(session, form=HOSTILE, client=CLIENT)
    session.commit()
    session.expire_all()

    row = session.get(ContactMessage, stored.id)
    assert row.name == HOSTILE.name
    assert row.subject == HOSTILE.subject
    assert row.message == HOSTILE.message.replace("\x00", "")  # NUL: refused by PostgreSQL, never typed
    [notification] = _mails(session, contact.NOTIFICATION_KIND)
    assert "<script>" not in notification.body_html
    assert "<img" not in notification.body_html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in notification.body_html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in notification.body_html
    assert "<script>alert(1)</script>" in notification.body_text  # the text part is text


def test_an_invalid_form_stores_and_mails_nothing(session: Session, shop: StoreSettings) -> None:
    bad = ContactForm(name="", email="not-an-email", subject="Hi", message="x" * (MAX_MESSAGE_LENGTH + 1))

    with pytest.raises(contact.ContactError) as refused:
        contact.send_message(session, form=bad, client=CLIENT)

    assert str(refused.value) == ContactText.CHECK_FIELDS
    assert refused.value.field_errors == {
        "name": "Please enter your name",
        "email": "Please enter a valid email address",
        "message": "Message can be at most 5,000 characters long",
    }
    assert _count(session) == 0
    assert mail.outbox(session) == []


def test_a_burst_from_one_client_is_refused_with_a_clear_message(
    session: Session, shop: StoreSettings
) -> None:
    for _ in range(contact.MAX_PER_WINDOW):
        contact.send_message(session, form=FORM, client=CLIENT)

    with pytest.raises(contact.ContactError) as refused:
        contact.send_message(session, form=FORM, client=CLIENT)

    assert str(refused.value) == (
        "You have sent this form several times in a short while. Please wait 15 minutes and try again."
    )
    assert refused.value.field_errors == {}
    assert _count(session) == contact.MAX_PER_WINDOW
    contact.send_message(session, form=FORM, client="198.51.100.4")  # another client is not affected
    assert _count(session) == contact.MAX_PER_WINDOW + 1


def test_the_burst_limit_lifts_when_the_window_has_passed(session: Session, shop: StoreSettings) -> None:
    earlier = utcnow() - rate_limit.WINDOW - timedelta(seconds=1)
    for _ in range(contact.MAX_PER_WINDOW):
        rate_limit.record_submission(session, form=contact.FORM, client=CLIENT, now=earlier)

    contact.send_message(session, form=FORM, client=CLIENT)

    assert _count(session) == 1
