"""Mailing-list sign-ups (footer box and home newsletter)."""

from __future__ import annotations

from sqlmodel import Session, select

from shop_app.domain.messages import AuthMessage
from shop_app.domain.validation import is_valid_email, normalize_email, validate_newsletter_email
from shop_app.models import Subscriber


class NewsletterError(ValueError):
    """The address was refused; the message is for the visitor."""


def subscribe(session: Session, *, email: str, source: str) -> Subscriber:
    """Add ``email`` to the list (again, if it had unsubscribed); the same answer either way."""
    problem = validate_newsletter_email(email)
    if problem:
        raise NewsletterError(problem)
    if not is_valid_email(email):
        raise NewsletterError(AuthMessage.INVALID_EMAIL)
    address = normalize_email(email)
    subscriber = session.exec(select(Subscriber).where(Subscriber.email == address)).first()
    if subscriber is None:
        subscriber = Subscriber(email=address, source=source[:32])
    subscriber.unsubscribed_at = None
    session.add(subscriber)
    session.flush()
    return subscriber
