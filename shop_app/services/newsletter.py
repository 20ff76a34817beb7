"""Mailing-list sign-ups (footer box and home newsletter) and unsubscribing.

An address is stored once: signing up again is not an error and gets the same answer, so the box
never tells whether an address is on the list. A new subscriber (or one coming back after
unsubscribing) gets a welcome mail; a repeat gets nothing, so the box cannot be used to flood
someone's inbox, and one client may sign up at most ``MAX_PER_WINDOW`` times per
``rate_limit.WINDOW``.

Every mail to a subscriber goes through ``mail_subscriber``, which adds a fresh unsubscribe link.
The link's token is random (256 bits) and only its SHA-256 is stored (``UnsubscribeToken``), one
per mail, so every link ever mailed keeps working and no address can be guessed from a link or
unsubscribed without one. Looking a token up (``subscriber_for_token``) changes nothing: only
``unsubscribe`` does, from the confirmation page's button, so link scanners that open every
link of a mail cannot unsubscribe anybody.
"""

from __future__ import annotations

from urllib.parse import urlencode

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from shop_app import routes
from shop_app.domain.messages import AuthMessage
from shop_app.domain.validation import is_valid_email, normalize_email, validate_newsletter_email
from shop_app.models import OutgoingMail, Subscriber, UnsubscribeToken
from shop_app.models.base import utcnow
from shop_app.services import mail, rate_limit
from shop_app.services.sessions import hash_secret, new_secret
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

FORM = "newsletter"  # the rate limiter's name for the sign-up boxes
MAX_PER_WINDOW = 5  # sign-ups one client may make within rate_limit.WINDOW (15 minutes)
WELCOME_KIND = "newsletter_welcome"
_MAX_TOKEN_CHARS = 128  # new_secret() makes 43; anything much longer is not ours


class NewsletterError(ValueError):
    """The address was refused; the message is for the visitor."""


def subscribe(session: Session, *, email: str, source: str, client: str = "") -> Subscriber:
    """Add ``email`` to the list (again, if it had unsubscribed); the same answer either way.

    ``client`` is the visitor's address for rate limiting ("" when unknown).
    """
    problem = validate_newsletter_email(email)
    if problem:
        raise NewsletterError(problem)
    if not is_valid_email(email.strip()):
        raise NewsletterError(AuthMessage.INVALID_EMAIL)
    throttle = rate_limit.check_submissions(session, form=FORM, client=client, limit=MAX_PER_WINDOW)
    if throttle is not None:
        raise NewsletterError(throttle.message)
    address = normalize_email(email)
    subscriber, created = _find(session, address), False
    if subscriber is None:
        subscriber, created = _insert(session, address, source)
    welcome = created or subscriber.unsubscribed_at is not None
    subscriber.unsubscribed_at = None
    session.add(subscriber)
    session.flush()
    rate_limit.record_submission(session, form=FORM, client=client)
    if welcome:
        _send_welcome(session, subscriber)
    return subscriber


def mail_subscriber(
    session: Session,
    subscriber: Subscriber,
    *,
    subject: str,
    paragraphs: list[str],
    kind: str,
    action: tuple[str, str] | None = None,
) -> OutgoingMail:
    """Send one mail to a subscriber, with its own unsubscribe link under the signature."""
    brand = get_store_settings(session).company_name
    return mail.send_shop_mail(
        session,
        to=subscriber.email,
        subject=f"{subject} | {brand}",
        kind=kind,
        brand=brand,
        greeting="Hello,",
        paragraphs=paragraphs,
        action_label=action[0] if action else None,
        action_url=action[1] if action else None,
        unsubscribe_url=unsubscribe_url(session, subscriber),
    )


def unsubscribe_url(session: Session, subscriber: Subscriber) -> str:
    """A new unsubscribe link for ``subscriber`` (its token's hash is stored, not the token)."""
    if subscriber.id is None:
        raise ValueError("the subscriber must be stored first")
    token = new_secret()
    session.add(UnsubscribeToken(subscriber_id=subscriber.id, token_hash=hash_secret(token)))
    session.flush()
    return f"{get_settings().site_url}{routes.NEWSLETTER_UNSUBSCRIBE}?{urlencode({'token': token})}"


def subscriber_for_token(session: Session, token: str) -> Subscriber | None:
    """The subscriber an unsubscribe link belongs to, or None for a link that is not ours.

    Reads only: opening the link must not unsubscribe anybody.
    """
    if not token or len(token) > _MAX_TOKEN_CHARS:
        return None
    return session.exec(
        select(Subscriber)
        .join(UnsubscribeToken, col(UnsubscribeToken.subscriber_id) == col(Subscriber.id))
        .where(col(UnsubscribeToken.token_hash) == hash_secret(token))
    ).first()


def unsubscribe(session: Session, token: str) -> Subscriber | None:
    """Take the link's subscriber off the list (again is fine); None for a link that is not ours."""
    subscriber = subscriber_for_token(session, token)
    if subscriber is None:
        return None
    if subscriber.unsubscribed_at is None:
        subscriber.unsubscribed_at = utcnow()
        session.add(subscriber)
        session.flush()
    return subscriber


def _find(session: Session, address: str) -> Subscriber | None:
    return session.exec(select(Subscriber).where(Subscriber.email == address)).first()


def _insert(session: Session, address: str, source: str) -> tuple[Subscriber, bool]:
    """Store the address: (row, True); or (the row, False) when a simultaneous sign-up stored it
    first, which the unique address tells."""
    subscriber = Subscriber(email=address, source=source[:32])
    try:
        with session.begin_nested():
            session.add(subscriber)
    except IntegrityError:
        found = _find(session, address)
        if found is None:
            raise
        return found, False
    return subscriber, True


def _send_welcome(session: Session, subscriber: Subscriber) -> None:
    mail_subscriber(
        session,
        subscriber,
        subject="Welcome to our mailing list",
        paragraphs=[
            "Thank you for joining our mailing list! A few times a season we will write about new "
            "scents, restocks and small-batch releases, and the odd candle-care tip.",
            "Every candle is hand-poured in small batches in British Columbia, and part of every "
            "sale supports cancer research and care.",
        ],
        kind=WELCOME_KIND,
        action=("Browse the shop", f"{get_settings().site_url}{routes.SHOP}"),
    )
