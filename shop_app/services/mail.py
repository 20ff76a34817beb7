"""Outgoing mail: record every message, then deliver it by SMTP or leave it in the outbox.

``send_mail`` always writes an ``outgoing_mail`` row and logs one summary line (never the body:
it may hold a password-reset link). Then, by ``MAIL_BACKEND``:

- ``outbox`` (development default): nothing leaves the machine; ``sent_at`` stays ``None``, which
  means "in the outbox". ``outbox()`` lists the recorded messages for inspection and tests.
- ``smtp``: the message goes out through stdlib ``smtplib`` at once. Success sets ``sent_at``;
  a failure records ``attempts`` and ``last_error`` and is **not raised**: a mail failure must never
  break a registration or an order. The caller gets the row and may look at ``sent_at``.
  ``deliver_pending`` retries failed SMTP messages later (a worker or CLI calls it).

The row is flushed into the caller's session, never committed here: the caller's transaction
decides whether the record persists. Delivery is injectable: pass ``transport=`` (any callable
taking an ``EmailMessage``) to ``send_mail`` / ``deliver_pending``; the default is
``smtp_transport(get_settings())``.

``render_mail`` builds the text and HTML bodies of a shop mail with every value HTML-escaped.
"""

from __future__ import annotations

import html
import logging
import smtplib
import ssl
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.models import OutgoingMail
from shop_app.models.base import utcnow
from shop_app.settings import MailBackend, Settings, get_settings

log = logging.getLogger(__name__)

SMTP_TIMEOUT_S = 10.0
SMTPS_PORT = 465  # implicit TLS (SMTPS); every other port speaks plain SMTP, upgraded by STARTTLS
MAX_ATTEMPTS = 5  # deliver_pending gives up on a message after this many failed attempts
_MAX_ERROR_CHARS = 1000
_MAX_SUBJECT_CHARS = 255  # column length
_SUBSCRIBED_BECAUSE = "You are receiving this email because you joined our mailing list."
_UNSUBSCRIBE_LABEL = "Unsubscribe"

Transport = Callable[[EmailMessage], None]
"""Delivers one message or raises. ``smtp_transport`` is the real one; tests inject fakes."""


def smtp_transport(settings: Settings) -> Transport:
    """A transport that sends through the SMTP server named in ``settings``.

    One connection per message (mail volume is small), ``SMTP_TIMEOUT_S`` for connecting and
    every command. Port 465 uses implicit TLS; otherwise ``SMTP_STARTTLS`` upgrades the
    connection (and fails, rather than sending in clear, when the server cannot). Logs in when
    ``SMTP_USERNAME`` is set.
    """

    def send(message: EmailMessage) -> None:
        context = ssl.create_default_context()
        if settings.smtp_port == SMTPS_PORT:
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT_S, context=context
            )
        else:
            client = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT_S)
        with client:
            client.ehlo()
            if settings.smtp_port != SMTPS_PORT and settings.smtp_starttls:
                client.starttls(context=context)
                client.ehlo()
            if settings.smtp_username:
                client.login(settings.smtp_username, settings.smtp_password)
            client.send_message(message)

    return send


def send_mail(
    session: Session,
    *,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    kind: str,
    transport: Transport | None = None,
) -> OutgoingMail:
    """Record a message and deliver it with the configured backend; never raises for delivery.

    Returns the (flushed) row: ``sent_at`` is set when SMTP accepted it, ``None`` when it is in the
    outbox or delivery failed (then ``attempts`` and ``last_error`` say why).
    """
    settings = get_settings()
    mail = OutgoingMail(
        to_address=to.strip(),
        subject=_one_line(subject)[:_MAX_SUBJECT_CHARS],
        body_text=text,
        body_html=html,
        kind=kind[:50],
    )
    session.add(mail)
    session.flush()
    if settings.mail_backend != MailBackend.SMTP:
        _log_summary(mail, "in outbox")
        return mail
    _attempt(session, mail, settings, transport or smtp_transport(settings))
    return mail


def deliver_pending(
    session: Session, *, limit: int = 50, transport: Transport | None = None
) -> list[OutgoingMail]:
    """Retry SMTP messages that failed before (oldest first); return the rows tried.

    Only messages that SMTP delivery already attempted are retried (``attempts`` ≥ 1), so mail
    recorded while the backend was ``outbox`` is never sent later by surprise; after
    ``MAX_ATTEMPTS`` a message is left alone. Each message is claimed with a conditional update
    on its attempt count, so two workers running this at once never send the same message twice.
    Does nothing when ``MAIL_BACKEND`` is not ``smtp``.
    """
    settings = get_settings()
    if settings.mail_backend != MailBackend.SMTP:
        return []
    send = transport or smtp_transport(settings)
    pending = session.exec(
        select(OutgoingMail)
        .where(
            col(OutgoingMail.sent_at).is_(None),
            col(OutgoingMail.attempts) >= 1,
            col(OutgoingMail.attempts) < MAX_ATTEMPTS,
        )
        .order_by(col(OutgoingMail.created_at), col(OutgoingMail.id))
        .limit(limit)
    ).all()
    tried = []
    for mail in pending:
        if _attempt(session, mail, settings, send):
            tried.append(mail)
    return tried


def outbox(session: Session, *, to: str | None = None) -> list[OutgoingMail]:
    """Every recorded message, newest first; only those to ``to`` (any letter case) when given.

    In the ``outbox`` backend nothing is sent, so this is the mail the shop would have sent.
    Unsent rows have ``sent_at`` ``None``.
    """
    query = select(OutgoingMail)
    if to is not None:
        query = query.where(sa.func.lower(OutgoingMail.to_address) == to.strip().lower())
    return list(
        session.exec(query.order_by(col(OutgoingMail.created_at).desc(), col(OutgoingMail.id).desc())).all()
    )


def build_message(mail: OutgoingMail, *, mail_from: str) -> EmailMessage:
    """The MIME message for a recorded mail: plain text, plus an HTML alternative when present."""
    message = EmailMessage()
    message["From"] = mail_from
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    message["Date"] = format_datetime(mail.created_at)
    domain = parseaddr(mail_from)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(idstring=f"mail{mail.id}", domain=domain)
    message.set_content(mail.body_text)
    if mail.body_html:
        message.add_alternative(mail.body_html, subtype="html")
    return message


def send_shop_mail(
    session: Session,
    *,
    to: str,
    subject: str,
    kind: str,
    brand: str,
    greeting: str,
    paragraphs: list[str],
    action_label: str | None = None,
    action_url: str | None = None,
    unsubscribe_url: str | None = None,
) -> OutgoingMail:
    """:func:`render_mail` the shop mail, then :func:`send_mail` it (recorded, delivered)."""
    text, html = render_mail(
        brand=brand,
        greeting=greeting,
        paragraphs=paragraphs,
        action_label=action_label,
        action_url=action_url,
        unsubscribe_url=unsubscribe_url,
    )
    return send_mail(session, to=to, subject=subject, text=text, html=html, kind=kind)


def render_mail(
    *,
    brand: str,
    greeting: str,
    paragraphs: list[str],
    action_label: str | None = None,
    action_url: str | None = None,
    unsubscribe_url: str | None = None,
) -> tuple[str, str]:
    """The (text, html) bodies of a shop mail: greeting, paragraphs, optional button, signature.

    Every interpolated value is HTML-escaped in the HTML part. ``action_label`` and ``action_url``
    go together; the URL must be http(s). Mail to newsletter subscribers passes
    ``unsubscribe_url`` (http(s)): a footer under the signature then says why the mail came and
    links to it.
    """
    if (action_label is None) != (action_url is None):
        raise ValueError("action_label and action_url go together")
    for url in (action_url, unsubscribe_url):
        if url is not None and urlsplit(url).scheme not in ("http", "https"):
            raise ValueError("action_url and unsubscribe_url must be http(s) URLs")

    text_parts = [greeting, *paragraphs]
    if action_label and action_url:
        text_parts.append(f"{action_label}: {action_url}")
    text_parts.append(f"— {brand}")
    if unsubscribe_url:
        text_parts.append(f"{_SUBSCRIBED_BECAUSE} {_UNSUBSCRIBE_LABEL}: {unsubscribe_url}")
    text = "\n\n".join(text_parts) + "\n"

    e = _escape
    blocks = [f'<p style="margin:0 0 16px">{e(greeting)}</p>']
    blocks += [f'<p style="margin:0 0 16px">{e(paragraph)}</p>' for paragraph in paragraphs]
    if action_label and action_url:
        blocks.append(
            '<p style="margin:24px 0">'
            f'<a href="{e(action_url)}" style="background:#6b4f3a;color:#ffffff;padding:12px 20px;'
            f'border-radius:6px;text-decoration:none;display:inline-block">{e(action_label)}</a></p>'
            '<p style="margin:0 0 16px;font-size:13px;color:#6b6b6b">If the button does not work, '
            f"copy this link into your browser:<br>{e(action_url)}</p>"
        )
    blocks.append(f'<p style="margin:24px 0 0">— {e(brand)}</p>')
    if unsubscribe_url:
        blocks.append(
            '<p style="margin:32px 0 0;font-size:12px;color:#6b6b6b">'
            f'{e(_SUBSCRIBED_BECAUSE)} <a href="{e(unsubscribe_url)}" style="color:#6b6b6b">'
            f"{e(_UNSUBSCRIBE_LABEL)}</a></p>"
        )
    body = "\n".join(blocks)
    html_part = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(brand)}</title></head>\n"
        '<body style="margin:0;padding:24px;background:#faf7f2;font-family:Georgia,serif;color:#2b2b2b">\n'
        '<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:32px;border-radius:8px">\n'
        f'<h1 style="margin:0 0 24px;font-size:22px">{e(brand)}</h1>\n{body}\n</div>\n</body></html>\n'
    )
    return text, html_part


def _attempt(session: Session, mail: OutgoingMail, settings: Settings, send: Transport) -> bool:
    """Claim the message (attempts + 1 if nobody else did), send it, record the outcome.

    Returns False when another worker claimed or sent it first.
    """
    claimed = session.exec(
        sa.update(OutgoingMail)
        .where(
            col(OutgoingMail.id) == mail.id,
            col(OutgoingMail.attempts) == mail.attempts,
            col(OutgoingMail.sent_at).is_(None),
        )
        .values(attempts=OutgoingMail.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        session.refresh(mail)
        return False
    mail.attempts += 1
    try:
        send(build_message(mail, mail_from=settings.mail_from))
    except Exception as error:  # any delivery failure is recorded, never raised
        mail.last_error = f"{type(error).__name__}: {error}"[:_MAX_ERROR_CHARS]
        session.add(mail)
        session.flush()
        _log_summary(mail, "failed", level=logging.WARNING)
        return True
    mail.sent_at = utcnow()
    mail.last_error = None
    session.add(mail)
    session.flush()
    _log_summary(mail, "sent")
    return True


def _log_summary(mail: OutgoingMail, outcome: str, *, level: int = logging.INFO) -> None:
    """One line per message; the body is never logged."""
    log.log(
        level,
        "mail #%s %s: kind=%s to=%s subject=%r attempts=%s%s",
        mail.id,
        outcome,
        mail.kind,
        mail.to_address,
        mail.subject,
        mail.attempts,
        f" error={mail.last_error!r}" if outcome == "failed" else "",
    )


def _one_line(value: str) -> str:
    """Collapse whitespace, including line breaks (which would break a mail header)."""
    return " ".join(value.split())


def _escape(value: str) -> str:
    return html.escape(value, quote=True)
