"""Outgoing mail (issue 18, acceptance 4): recorded in the caller's transaction, never sent there;
outbox mode stays local; with SMTP the delivery worker sends committed mail once, with retries
and back-off, and marks it sent or failed; two workers never send one message twice.

The SMTP tests run aiosmtpd on 127.0.0.1 (a free port) and read what it received.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import logging
import smtplib
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.api import mail_outbox
from shop_app.db import session_scope
from shop_app.models import MailStatus
from shop_app.models.base import utcnow
from shop_app.services import mail
from shop_app.settings import get_settings
from tests.support.servers import free_port

SHOP_FROM = "Cedar & Ember <hello@candles.example>"
SECRET_LINK = "https://candles.example/reset?token=s3cret-token"
LATER = timedelta(hours=2)  # past any back-off of one failed try


class Inbox:
    """aiosmtpd handler that keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))
        return "250 Message accepted for delivery"


def _start_smtp_server(port: int) -> tuple[Controller, Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, inbox


@pytest.fixture
def configure(monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """Set mail settings through the environment, as in production."""

    def apply(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()

    apply(MAIL_FROM=SHOP_FROM)
    yield apply
    get_settings.cache_clear()


@pytest.fixture
def smtp_port(configure) -> int:
    """MAIL_BACKEND=smtp pointed at a free loopback port (nothing listening yet)."""
    port = free_port()
    configure(MAIL_BACKEND="smtp", SMTP_HOST="127.0.0.1", SMTP_PORT=str(port), SMTP_STARTTLS="false")
    return port


@pytest.fixture
def smtp_server(smtp_port: int) -> Iterator[Inbox]:
    controller, inbox = _start_smtp_server(smtp_port)
    yield inbox
    controller.stop()


def _reset_mail(session: Session, **overrides) -> mail.OutgoingMail:
    text, html = mail.render_mail(
        brand="Cedar & Ember",
        greeting="Hello Ada,",
        paragraphs=["Use the link below to choose a new password."],
        action_label="Reset my password",
        action_url=SECRET_LINK,
    )
    fields = {"to": "ada@example.com", "subject": "Reset your password", "text": text, "html": html}
    return mail.send_mail(session, kind="password_reset", **{**fields, **overrides})


@pytest.fixture
def no_smtp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any SMTP connection fails the test: recording mail never talks to a server."""

    def refuse(*args, **kwargs):
        raise AssertionError("recording mail must not open an SMTP connection")

    monkeypatch.setattr(smtplib, "SMTP", refuse)
    monkeypatch.setattr(smtplib, "SMTP_SSL", refuse)


def _row(session: Session, row: mail.OutgoingMail) -> mail.OutgoingMail:
    session.commit()
    session.expire_all()
    fresh = session.get(mail.OutgoingMail, row.id)
    assert fresh is not None
    return fresh


def test_outbox_mode_records_logs_a_summary_and_connects_nowhere(
    session: Session, configure, no_smtp: None, caplog: pytest.LogCaptureFixture
) -> None:
    configure(MAIL_BACKEND="outbox")
    caplog.set_level(logging.INFO, logger=mail.__name__)

    row = _reset_mail(session)

    assert row.id is not None
    assert (row.status, row.sent_at, row.attempts, row.last_error) == (MailStatus.KEPT, None, 0, None)
    assert row.kind == "password_reset"
    assert SECRET_LINK in row.body_text
    assert [m.id for m in mail.outbox(session, to="ADA@example.com")] == [row.id]
    logged = [r.getMessage() for r in caplog.records if r.name == mail.__name__]
    assert len(logged) == 1
    assert "in outbox" in logged[0]
    assert "ada@example.com" in logged[0]
    assert "Reset your password" in logged[0]
    assert "s3cret-token" not in caplog.text  # bodies (reset links) never reach the log


def test_outbox_lists_newest_first_and_filters_by_recipient(
    session: Session, engine: Engine, configure
) -> None:
    configure(MAIL_BACKEND="outbox")
    first = mail.send_mail(session, to="a@example.com", subject="One", text="1", kind="test")
    second = mail.send_mail(session, to="b@example.com", subject="Two", text="2", kind="test")
    third = mail.send_mail(session, to="a@example.com", subject="Three", text="3", kind="test")
    session.commit()

    assert [m.id for m in mail.outbox(session)] == [third.id, second.id, first.id]
    assert [m.id for m in mail.outbox(session, to=" A@Example.com ")] == [third.id, first.id]
    assert mail.deliver_pending(engine).tried == 0  # outbox mail is never sent later by surprise
    configure(MAIL_BACKEND="smtp", SMTP_HOST="127.0.0.1", SMTP_PORT=str(free_port()))
    assert mail.deliver_pending(engine, transport=_never).tried == 0  # not even once SMTP is on


def _never(message: EmailMessage) -> None:
    raise AssertionError(f"{message['Subject']!r} must not be sent")


def test_smtp_mode_only_queues_the_mail_in_the_callers_transaction(
    session: Session, engine: Engine, smtp_port: int, no_smtp: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Mail never leaves inside a transaction or a handler: ``send_mail`` only records it."""
    caplog.set_level(logging.INFO, logger=mail.__name__)

    row = _reset_mail(session)

    assert (row.status, row.sent_at, row.attempts) == (MailStatus.QUEUED, None, 0)
    assert "queued" in caplog.text
    assert "s3cret-token" not in caplog.text


def test_the_worker_delivers_committed_mail_once(
    session: Session, engine: Engine, smtp_server: Inbox
) -> None:
    row = _reset_mail(session)
    assert mail.deliver_pending(engine).tried == 0  # not committed yet: nothing to send
    session.commit()

    report = mail.deliver_pending(engine)

    assert (report.sent, report.retrying, report.failed) == (1, 0, 0)
    row = _row(session, row)
    assert (row.status, row.attempts, row.last_error, row.claimed_until) == (MailStatus.SENT, 1, None, None)
    assert row.sent_at is not None
    assert smtp_server.envelopes == [("hello@candles.example", ["ada@example.com"])]
    [received] = smtp_server.messages
    assert received["From"] == SHOP_FROM
    assert received["To"] == "ada@example.com"
    assert received["Subject"] == "Reset your password"
    assert received["Message-ID"] == f"<mail-{row.id}.{row.created_at:%Y%m%d%H%M%S%f}@candles.example>"
    assert received.is_multipart()
    text = received.get_body(preferencelist=("plain",)).get_content()
    html = received.get_body(preferencelist=("html",)).get_content()
    assert "Hello Ada," in text
    assert SECRET_LINK in text
    assert f'href="{SECRET_LINK}"' in html
    assert "Cedar &amp; Ember" in html
    assert mail.deliver_pending(engine, now=utcnow() + LATER).tried == 0  # sent mail is not sent again
    assert len(smtp_server.messages) == 1


def test_mail_of_a_rolled_back_transaction_never_leaves(
    session: Session, engine: Engine, smtp_server: Inbox
) -> None:
    _reset_mail(session)
    session.rollback()

    assert mail.deliver_pending(engine).tried == 0
    assert smtp_server.messages == []
    assert mail.outbox(session) == []


def test_smtp_mode_without_html_sends_plain_text_only(
    session: Session, engine: Engine, smtp_server: Inbox
) -> None:
    mail.send_mail(session, to="bo@example.com", subject="Thanks", text="Plain only.", kind="test")
    session.commit()

    assert mail.deliver_pending(engine).sent == 1
    [received] = smtp_server.messages
    assert not received.is_multipart()
    assert received.get_content().strip() == "Plain only."


def test_an_unreachable_server_is_retried_with_back_off_until_it_answers(
    session: Session, engine: Engine, smtp_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=mail.__name__)
    row = _reset_mail(session)
    session.commit()

    report = mail.deliver_pending(engine)  # nothing listens on smtp_port yet: must not raise

    assert (report.sent, report.retrying) == (0, 1)
    row = _row(session, row)
    assert (row.status, row.sent_at, row.attempts, row.claimed_until) == (MailStatus.QUEUED, None, 1, None)
    assert row.last_error and "Connection" in row.last_error
    assert row.next_attempt_at >= utcnow() + mail.retry_delay(1) - timedelta(seconds=5)
    assert "failed, will retry" in caplog.text
    assert "s3cret-token" not in caplog.text

    controller, inbox = _start_smtp_server(smtp_port)
    try:
        assert mail.deliver_pending(engine).tried == 0  # its next try is not due yet
        assert mail.deliver_pending(engine, now=utcnow() + LATER).sent == 1
    finally:
        controller.stop()

    row = _row(session, row)
    assert (row.status, row.attempts, row.last_error) == (MailStatus.SENT, 2, None)
    assert row.sent_at is not None
    assert [m["Subject"] for m in inbox.messages] == ["Reset your password"]
    assert mail.deliver_pending(engine, now=utcnow() + LATER).tried == 0


def test_failures_stop_after_max_attempts(session: Session, engine: Engine, smtp_port: int) -> None:
    def down(message: EmailMessage) -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    row = mail.send_mail(session, to="x@example.com", subject="Hi", text="Hi", kind="test")
    session.commit()

    later = utcnow()
    for _ in range(mail.MAX_ATTEMPTS + 2):
        later += LATER
        mail.deliver_pending(engine, transport=down, now=later)

    row = _row(session, row)
    assert (row.status, row.attempts) == (MailStatus.FAILED, mail.MAX_ATTEMPTS)
    assert "ConnectionRefusedError" in (row.last_error or "")
    assert mail.deliver_pending(engine, transport=_never, now=later + LATER).tried == 0


def test_a_recipient_refused_for_good_is_not_retried(
    session: Session, engine: Engine, smtp_port: int
) -> None:
    def no_such_user(message: EmailMessage) -> None:
        raise smtplib.SMTPRecipientsRefused({"x@example.com": (550, b"no such user")})

    def greylisted(message: EmailMessage) -> None:
        raise smtplib.SMTPRecipientsRefused({"y@example.com": (451, b"try again later")})

    gone = mail.send_mail(session, to="x@example.com", subject="Hi", text="Hi", kind="test")
    session.commit()
    assert mail.deliver_pending(engine, transport=no_such_user).failed == 1
    waiting = mail.send_mail(session, to="y@example.com", subject="Hi", text="Hi", kind="test")
    session.commit()
    assert mail.deliver_pending(engine, transport=greylisted).retrying == 1

    assert (_row(session, gone).status, _row(session, gone).attempts) == (MailStatus.FAILED, 1)
    assert "SMTPRecipientsRefused" in (_row(session, gone).last_error or "")
    assert _row(session, waiting).status == MailStatus.QUEUED


def test_two_workers_never_send_one_message_twice(session: Session, engine: Engine, smtp_port: int) -> None:
    """While one worker is inside SMTP with a message, another (the server's task in a second
    process, or cron) finds it claimed and leaves it; the first settles it once."""
    mail.send_mail(session, to="a@example.com", subject="One", text="1", kind="test")
    session.commit()
    inside, release = threading.Event(), threading.Event()
    first_sent: list[str] = []
    second_sent: list[str] = []

    def slow(message: EmailMessage) -> None:
        inside.set()
        assert release.wait(30), "the test never released the first worker"
        first_sent.append(message["Subject"])

    worker = threading.Thread(target=lambda: mail.deliver_pending(engine, transport=slow))
    worker.start()
    try:
        assert inside.wait(30), "the first worker never reached SMTP"
        report = mail.deliver_pending(engine, transport=lambda m: second_sent.append(m["Subject"]))
    finally:
        release.set()
        worker.join(30)

    assert report.tried == 0
    assert (first_sent, second_sent) == (["One"], [])
    [row] = mail.outbox(session)
    session.refresh(row)
    assert (row.status, row.attempts) == (MailStatus.SENT, 1)


def test_a_claim_left_by_a_worker_that_died_is_taken_up_after_its_lease(
    session: Session, engine: Engine, smtp_server: Inbox
) -> None:
    row = mail.send_mail(session, to="a@example.com", subject="One", text="1", kind="test")
    row.claimed_until, row.attempts = utcnow() + mail.LEASE, 1  # a worker took it, then died
    session.add(row)
    session.commit()

    assert mail.deliver_pending(engine).tried == 0
    assert mail.deliver_pending(engine, now=utcnow() + mail.LEASE + timedelta(seconds=1)).sent == 1
    assert (_row(session, row).status, _row(session, row).attempts) == (MailStatus.SENT, 2)


def test_a_header_breaking_subject_is_flattened_and_delivered(
    session: Session, engine: Engine, smtp_server: Inbox
) -> None:
    mail.send_mail(
        session, to="ada@example.com", subject="Hello\r\nBcc: victim@example.com", text="x", kind="test"
    )
    session.commit()

    assert mail.deliver_pending(engine).sent == 1
    [received] = smtp_server.messages
    assert received["Subject"] == "Hello Bcc: victim@example.com"
    assert received["Bcc"] is None
    assert smtp_server.envelopes[0][1] == ["ada@example.com"]


def test_the_servers_task_delivers_after_each_commit(
    app_env, session: Session, smtp_server: Inbox, smtp_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lifespan task sends mail as soon as the transaction that queued it commits (woken by
    the commit, not by its poll), in a worker thread."""
    monkeypatch.setattr(mail_outbox, "POLL_S", 3600.0)  # only a commit can wake it in time

    async def scenario() -> None:
        task = asyncio.create_task(mail_outbox.deliver_mail())
        try:
            with session_scope() as writer:
                mail.send_mail(writer, to="ada@example.com", subject="Welcome", text="Hi", kind="test")
            await _until(lambda: len(smtp_server.messages) == 1)
            with session_scope() as writer:
                mail.send_mail(writer, to="bo@example.com", subject="Again", text="Hi", kind="test")
            await _until(lambda: len(smtp_server.messages) == 2)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    asyncio.run(scenario())

    assert [m["Subject"] for m in smtp_server.messages] == ["Welcome", "Again"]
    assert {row.status for row in mail.outbox(session)} == {MailStatus.SENT}


def test_the_servers_task_does_nothing_with_the_outbox_backend(app_env, configure) -> None:
    configure(MAIL_BACKEND="outbox")

    asyncio.run(asyncio.wait_for(mail_outbox.deliver_mail(), 30))  # returns at once


async def _until(condition, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the mail never arrived"
        await asyncio.sleep(0.05)


def test_render_mail_escapes_every_value_in_the_html_part() -> None:
    text, html = mail.render_mail(
        brand="<Brand & Co>",
        greeting='Hello <script>alert("x")</script>,',
        paragraphs=["Price < 5 & > 2", 'It\'s "quoted"'],
        action_label="<b>Go</b>",
        action_url='https://candles.example/a?b=1&c="><script>x</script>',
    )

    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "&lt;Brand &amp; Co&gt;" in html
    assert "Price &lt; 5 &amp; &gt; 2" in html
    assert "It&#x27;s &quot;quoted&quot;" in html
    assert "&lt;b&gt;Go&lt;/b&gt;" in html
    assert 'href="https://candles.example/a?b=1&amp;c=&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in html
    # The text part is plain text: nothing is escaped there.
    assert text.startswith('Hello <script>alert("x")</script>,\n\nPrice < 5 & > 2')
    assert '<b>Go</b>: https://candles.example/a?b=1&c="><script>x</script>' in text
    assert text.rstrip().endswith("— <Brand & Co>")


def test_render_mail_without_action_and_with_bad_actions() -> None:
    text, html = mail.render_mail(brand="Shop", greeting="Hi,", paragraphs=["Thanks for your order."])
    assert text == "Hi,\n\nThanks for your order.\n\n— Shop\n"
    assert "<a " not in html

    with pytest.raises(ValueError, match="together"):
        mail.render_mail(brand="Shop", greeting="Hi", paragraphs=[], action_label="Go")
    with pytest.raises(ValueError, match="http"):
        mail.render_mail(
            brand="Shop", greeting="Hi", paragraphs=[], action_label="Go", action_url="javascript:alert(1)"
        )


def test_render_mail_adds_the_unsubscribe_footer_under_the_signature() -> None:
    url = 'https://candles.example/newsletter/unsubscribe?token=a&b="><x>'

    text, html = mail.render_mail(brand="Shop", greeting="Hi,", paragraphs=["News."], unsubscribe_url=url)

    assert text.endswith(
        "— Shop\n\nYou are receiving this email because you joined our mailing list. Unsubscribe: "
        + url
        + "\n"
    )
    assert (
        'joined our mailing list. <a href="https://candles.example/newsletter/unsubscribe?token=a&amp;b='
        '&quot;&gt;&lt;x&gt;" style="color:#6b6b6b">Unsubscribe</a>' in html
    )
    assert html.index("— Shop") < html.index("Unsubscribe")
    with pytest.raises(ValueError, match="http"):
        mail.render_mail(brand="Shop", greeting="Hi", paragraphs=[], unsubscribe_url="javascript:alert(1)")
