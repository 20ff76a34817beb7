"""Outgoing mail: record every message in the outbox; a delivery worker sends it later.

Handlers and services never talk to a mail server. ``send_mail`` (and ``send_shop_mail``) only
writes an ``outgoing_mail`` row into the caller's session, so the message commits if and only if
the change it reports on commits (docs/architecture.md#mail), and logs one summary line (never the
body: it may hold a password-reset link). By ``MAIL_BACKEND``:

- ``outbox`` (development default): the row is ``kept``; nothing ever leaves the machine.
  ``outbox()`` lists the recorded messages for inspection and tests.
- ``smtp``: the row is ``queued``. :func:`deliver_pending` sends it, after the commit, from a
  delivery worker: the server's background task (``api.mail_outbox``, woken by the commit of a
  transaction that recorded mail, and every few seconds) or ``python -m shop_app deliver-mail``
  from cron.

Delivery, per message, with no transaction open while SMTP is talked to:

1. **Claim** it: one conditional UPDATE sets ``claimed_until`` (a lease longer than any SMTP
   exchange can last) and counts the attempt, only if it is still queued, due and unclaimed.
   Two workers (two server processes, the server and cron) never both win a message, so none is
   sent twice. A worker that died holding a claim gives the message up when the lease ends.
2. **Send** it through the transport (``smtp_transport``: stdlib ``smtplib``, ``SMTP_TIMEOUT_S``
   on every command).
3. **Settle** it, only while still holding that claim: ``sent`` (``sent_at``); or, on a failure,
   ``last_error`` and the next try after ``retry_delay`` (1 min, 2, 4 … up to 1 h); after
   ``MAX_ATTEMPTS`` attempts, or when the server refused every recipient for good (5xx), ``failed``.

Delivery is injectable: pass ``transport=`` (any callable taking an ``EmailMessage``) to
:func:`deliver_pending`; the default is ``smtp_transport(get_settings())``. A rolled-back
transaction takes its mail with it; :func:`recording_apart` records a mail in a savepoint so a
failure to write it never undoes the change itself.

``render_mail`` builds the text and HTML bodies of a shop mail with every value HTML-escaped.
"""

from __future__ import annotations

import html
import logging
import smtplib
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from typing import Any, Final
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import session_scope
from shop_app.models import MailStatus, OutgoingMail
from shop_app.models.base import utcnow
from shop_app.settings import MailBackend, Settings, get_settings

log = logging.getLogger(__name__)

SMTP_TIMEOUT_S = 10.0
SMTPS_PORT = 465  # implicit TLS (SMTPS); every other port speaks plain SMTP, upgraded by STARTTLS
MAX_ATTEMPTS = 10  # a message is marked failed after this many failed attempts (about 4 hours)
FIRST_RETRY_S = 60
LAST_RETRY_S = 3600
LEASE: Final = timedelta(minutes=10)
"""How long a claim keeps other workers off a message: far longer than one SMTP exchange (a few
commands of at most ``SMTP_TIMEOUT_S`` each), so a claim never ends while its sender still talks."""
BATCH = 50
_MAX_ERROR_CHARS = 1000
_MAX_SUBJECT_CHARS = 255  # column length
_SUBSCRIBED_BECAUSE = "You are receiving this email because you joined our mailing list."
_UNSUBSCRIBE_LABEL = "Unsubscribe"
_RECORDED: Final = "outgoing_mail_recorded"

Transport = Callable[[EmailMessage], None]
"""Delivers one message or raises. ``smtp_transport`` is the real one; tests inject fakes."""


@dataclass(frozen=True)
class DeliveryReport:
    """What one :func:`deliver_pending` did, in messages."""

    sent: int = 0
    retrying: int = 0
    """Failed this time; another try is scheduled."""
    failed: int = 0
    """Failed this time and given up (``failed``)."""

    @property
    def tried(self) -> int:
        return self.sent + self.retrying + self.failed


def retry_delay(attempts: int) -> timedelta:
    """The wait before the next try after ``attempts`` failed ones: 1 min, 2, 4 … up to 1 hour.

    >>> [int(retry_delay(n).total_seconds()) for n in (1, 2, 3, 7, 20)]
    [60, 120, 240, 3600, 3600]
    """
    return timedelta(seconds=min(LAST_RETRY_S, FIRST_RETRY_S * 2 ** max(0, min(attempts - 1, 20))))


def smtp_transport(settings: Settings) -> Transport:
    """A transport that sends through the SMTP server named in ``settings``.

    One connection per message (mail volume is small), ``SMTP_TIMEOUT_S`` for connecting and
    every command. Port 465 uses implicit TLS; otherwise ``SMTP_STARTTLS`` upgrades the
    connection (and fails, rather than sending in clear, when the server cannot). Logs in when
    ``SMTP_USERNAME`` is set. Blocks: only the delivery worker calls it, in a worker thread.
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
) -> OutgoingMail:
    """Record a message in the caller's transaction (never sent here; see the module docstring).

    Returns the flushed row: ``queued`` with ``MAIL_BACKEND=smtp`` (the delivery worker sends it
    once the transaction commits), ``kept`` with ``outbox``.
    """
    settings = get_settings()
    queued = settings.mail_backend == MailBackend.SMTP
    mail = OutgoingMail(
        to_address=to.strip(),
        subject=_one_line(subject)[:_MAX_SUBJECT_CHARS],
        body_text=text,
        body_html=html,
        kind=kind[:50],
        status=(MailStatus.QUEUED if queued else MailStatus.KEPT).value,
    )
    session.add(mail)
    session.flush()
    if queued:
        session.connection().info[_RECORDED] = True
    _log_summary(mail, "queued" if queued else "in outbox")
    return mail


@contextmanager
def recording_apart(session: Session, about: str) -> Iterator[None]:
    """Record mail in a savepoint of the caller's transaction: it commits with the change, but a
    failure to write it (a bug in a template, a missing row) is logged and undoes only the mail.

    For changes that must stand whatever becomes of their mail (a paid order, a refund made).
    """
    try:
        with session.begin_nested():
            yield
    except Exception:  # the change stands; the mail is never worth undoing it
        log.exception("mail about %s could not be recorded", about)


_wakers: list[Callable[[], None]] = []


def on_commit_of_mail(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback`` (from the committing thread) when a transaction that queued mail commits;
    returns the function that stops it (the delivery worker's wake-up)."""
    _wakers.append(callback)
    return lambda: _wakers.remove(callback)


@sa.event.listens_for(sa.Engine, "commit")
def _wake_deliverers(connection: sa.Connection) -> None:
    if connection.info.pop(_RECORDED, False):
        for wake in list(_wakers):
            wake()


@sa.event.listens_for(sa.Engine, "rollback")
def _forget(connection: sa.Connection) -> None:
    connection.info.pop(_RECORDED, None)


def has_due(engine: Engine | None = None, *, now: datetime | None = None) -> bool:
    """Whether a queued message is due and unclaimed (a cheap, indexed look for the worker)."""
    with session_scope(engine) as session:
        return (
            session.exec(select(col(OutgoingMail.id)).where(*_due(now or utcnow())).limit(1)).first()
            is not None
        )


def deliver_pending(
    engine: Engine | None = None,
    *,
    limit: int = BATCH,
    transport: Transport | None = None,
    now: datetime | None = None,
) -> DeliveryReport:
    """Send the queued messages that are due (oldest first, at most ``limit``); see the module
    docstring. Never raises for a delivery failure. Does nothing when ``MAIL_BACKEND`` is not
    ``smtp``: mail recorded by the ``outbox`` backend is never sent later by surprise.

    Blocks on SMTP: call it from a worker thread (the server's task does) or from a command.
    """
    settings = get_settings()
    if settings.mail_backend != MailBackend.SMTP:
        return DeliveryReport()
    send = transport or smtp_transport(settings)
    moment = now or utcnow()
    with session_scope(engine) as session:
        due = session.exec(
            select(col(OutgoingMail.id))
            .where(*_due(moment))
            .order_by(col(OutgoingMail.next_attempt_at), col(OutgoingMail.id))
            .limit(limit)
        ).all()
    counts = {MailStatus.SENT: 0, MailStatus.QUEUED: 0, MailStatus.FAILED: 0}
    for mail_id in due:
        claim = _claim(engine, int(mail_id or 0), moment, settings.mail_from)
        if claim is None:
            continue  # another worker has it, or sent it
        error, permanent = None, False
        try:
            send(claim.message)
        except Exception as failure:  # any delivery failure is recorded, never raised
            error = f"{type(failure).__name__}: {failure}"[:_MAX_ERROR_CHARS]
            permanent = _refused_for_good(failure)
        counts[_settle(engine, claim, error, permanent=permanent)] += 1
    return DeliveryReport(
        sent=counts[MailStatus.SENT], retrying=counts[MailStatus.QUEUED], failed=counts[MailStatus.FAILED]
    )


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
    # The same on every attempt: a mail client shows a message that arrives twice once.
    message["Message-ID"] = f"<mail-{mail.id}.{mail.created_at:%Y%m%d%H%M%S%f}@{domain}>"
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


@dataclass(frozen=True)
class _Claim:
    mail_id: int
    lease: datetime
    attempts: int
    message: EmailMessage
    summary: dict[str, Any]


def _due(moment: datetime) -> tuple[sa.ColumnElement[bool], ...]:
    return (
        col(OutgoingMail.status) == MailStatus.QUEUED.value,
        col(OutgoingMail.next_attempt_at) <= moment,
        sa.or_(col(OutgoingMail.claimed_until).is_(None), col(OutgoingMail.claimed_until) < moment),
    )


def _claim(engine: Engine | None, mail_id: int, moment: datetime, mail_from: str) -> _Claim | None:
    """Take the message for this worker (and count the attempt), or None when another worker has
    it or it is no longer queued. Committed before anything is sent."""
    lease = moment + LEASE
    with session_scope(engine) as session:
        taken = session.exec(
            sa.update(OutgoingMail)
            .where(col(OutgoingMail.id) == mail_id, *_due(moment))
            .values(claimed_until=lease, attempts=OutgoingMail.attempts + 1)
            .execution_options(synchronize_session=False)
        ).rowcount
        if taken != 1:
            session.rollback()
            return None
        mail = session.get(OutgoingMail, mail_id)
        if mail is None:  # pragma: no cover - the row was just updated in this transaction
            return None
        message = build_message(mail, mail_from=mail_from)
        summary = {"id": mail.id, "kind": mail.kind, "to": mail.to_address, "subject": mail.subject}
        return _Claim(mail_id, lease, mail.attempts, message, summary)


def _settle(engine: Engine | None, claim: _Claim, error: str | None, *, permanent: bool) -> MailStatus:
    """Record what became of a claimed message (only while the claim is still this worker's)."""
    moment = utcnow()
    values: dict[str, object]
    if error is None:
        status = MailStatus.SENT
        values = {"sent_at": moment, "last_error": None}
    elif permanent or claim.attempts >= MAX_ATTEMPTS:
        status = MailStatus.FAILED
        values = {"last_error": error}
    else:
        status = MailStatus.QUEUED
        values = {"last_error": error, "next_attempt_at": moment + retry_delay(claim.attempts)}
    with session_scope(engine) as session:
        settled = session.exec(
            sa.update(OutgoingMail)
            .where(col(OutgoingMail.id) == claim.mail_id, col(OutgoingMail.claimed_until) == claim.lease)
            .values(status=status.value, claimed_until=None, **values)
            .execution_options(synchronize_session=False)
        ).rowcount
    if settled != 1:
        log.warning("mail #%s: its claim ended before it was settled (%s)", claim.mail_id, status)
    outcome = {MailStatus.SENT: "sent", MailStatus.QUEUED: "failed, will retry", MailStatus.FAILED: "failed"}
    _log_line(
        logging.INFO if error is None else logging.WARNING,
        outcome[status],
        attempts=claim.attempts,
        error=error,
        **claim.summary,
    )
    return status


def _refused_for_good(failure: Exception) -> bool:
    """Whether retrying cannot help: the server refused every recipient with a permanent (5xx)
    answer (no such mailbox). Anything else (down, slow, 4xx, a login refused) is retried."""
    if isinstance(failure, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _reason in failure.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    return False


def _log_summary(mail: OutgoingMail, outcome: str) -> None:
    """One line per message; the body is never logged."""
    _log_line(
        logging.INFO,
        outcome,
        id=mail.id,
        kind=mail.kind,
        to=mail.to_address,
        subject=mail.subject,
        attempts=mail.attempts,
        error=None,
    )


def _log_line(
    level: int,
    outcome: str,
    *,
    id: object,
    kind: str,
    to: str,
    subject: str,
    attempts: int,
    error: str | None,
) -> None:
    log.log(
        level,
        "mail #%s %s: kind=%s to=%s subject=%r attempts=%s%s",
        id,
        outcome,
        kind,
        to,
        subject,
        attempts,
        f" error={error!r}" if error else "",
    )


def _one_line(value: str) -> str:
    """Collapse whitespace, including line breaks (which would break a mail header)."""
    return " ".join(value.split())


def _escape(value: str) -> str:
    return html.escape(value, quote=True)
