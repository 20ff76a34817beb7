"""The contact form: store the message, tell the shop, acknowledge the sender (docs/spec/README.md#gaps).

The seed's form makes no call; here a message is validated field by field, refused when the same
client sent ``MAX_PER_WINDOW`` messages within ``rate_limit.WINDOW``, then stored as a
``ContactMessage`` (listed by ``contact_messages`` in the back office inbox) and mailed to the
shop's address (store settings, else the From address of the shop's mail).

The acknowledgement to the sender echoes nothing the sender typed: whoever fills in the form
chooses the recipient, so a mail carrying their text would let anyone send their words, under the
shop's name, to any address. The shop's notification carries everything, escaped by
``mail.render_mail``.
"""

from __future__ import annotations

from collections.abc import Mapping
from email.utils import parseaddr

from sqlmodel import Session

from shop_app.domain.contact import ContactForm, contact_form_errors
from shop_app.domain.messages import ContactText
from shop_app.models import ContactMessage, StoreSettings
from shop_app.services import mail, rate_limit
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

FORM = "contact"  # the rate limiter's name for this form
MAX_PER_WINDOW = 5  # messages one client may send within rate_limit.WINDOW (15 minutes)
NOTIFICATION_KIND = "contact_notification"
ACKNOWLEDGEMENT_KIND = "contact_acknowledgement"


class ContactError(ValueError):
    """The message was refused. ``str(error)`` is for the visitor; ``field_errors`` maps each
    failing field to its problem (empty when the refusal is not about a field)."""

    def __init__(self, message: str, field_errors: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.field_errors = dict(field_errors or {})


def send_message(session: Session, *, form: ContactForm, client: str) -> ContactMessage:
    """Validate, rate-limit, store and mail a contact message; return the stored row.

    ``client`` is the sender's address (rate limiting; "" when unknown). Raises ``ContactError``
    and writes nothing when the form is invalid or the client sent too many messages.
    """
    errors = contact_form_errors(form)
    if errors:
        raise ContactError(ContactText.CHECK_FIELDS.value, errors)
    throttle = rate_limit.check_submissions(session, form=FORM, client=client, limit=MAX_PER_WINDOW)
    if throttle is not None:
        raise ContactError(throttle.message)
    clean = form.cleaned()
    message = ContactMessage(name=clean.name, email=clean.email, subject=clean.subject, message=clean.message)
    session.add(message)
    session.flush()
    rate_limit.record_submission(session, form=FORM, client=client)
    settings = get_store_settings(session)
    _notify_shop(session, message, settings)
    _acknowledge(session, message, settings)
    return message


def shop_inbox_address(settings: StoreSettings) -> str:
    """Where the shop reads its mail: the store settings' e-mail, else the From of shop mail."""
    return settings.email.strip() or parseaddr(get_settings().mail_from)[1]


def _notify_shop(session: Session, message: ContactMessage, settings: StoreSettings) -> None:
    lines = [line for line in message.message.split("\n") if line.strip()]
    mail.send_shop_mail(
        session,
        to=shop_inbox_address(settings),
        subject=f"Contact form: {message.subject}",
        kind=NOTIFICATION_KIND,
        brand=settings.company_name,
        greeting="Hello,",
        paragraphs=[
            f"{message.name} <{message.email}> wrote through the contact form.",
            f"Subject: {message.subject}",
            *lines,
            f"To answer, write to {message.email}. The message is also in the back office inbox.",
        ],
    )


def _acknowledge(session: Session, message: ContactMessage, settings: StoreSettings) -> None:
    brand = settings.company_name
    mail.send_shop_mail(
        session,
        to=message.email,
        subject=f"We received your message | {brand}",
        kind=ACKNOWLEDGEMENT_KIND,
        brand=brand,
        greeting="Hello,",
        paragraphs=[
            "Thank you for getting in touch. Your message has reached us: we read every one ourselves "
            "and usually reply within one to two business days.",
            "If you did not write to us, someone may have typed your address by mistake; "
            "you can simply ignore this email.",
        ],
    )
