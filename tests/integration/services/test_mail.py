"""Outgoing mail: recorded always; outbox mode stays local; SMTP mode talks to a real server.

The SMTP tests run aiosmtpd on 127.0.0.1 (a free port) and read what it received.
"""

from __future__ import annotations

import email
import logging
import smtplib
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import Session

from shop_app.services import mail
from shop_app.settings import get_settings
from tests.support.servers import free_port

SHOP_FROM = "Cedar & Ember <hello@candles.example>"
SECRET_LINK = "https://candles.example/reset?token=s3cret-token"


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


def test_outbox_mode_records_logs_a_summary_and_connects_nowhere(
    session: Session, configure, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    configure(MAIL_BACKEND="outbox")

    def refuse(*args, **kwargs):
        raise AssertionError("outbox mode must not open an SMTP connection")

    monkeypatch.setattr(smtplib, "SMTP", refuse)
    monkeypatch.setattr(smtplib, "SMTP_SSL", refuse)
    caplog.set_level(logging.INFO, logger=mail.__name__)

    row = _reset_mail(session)

    assert row.id is not None
    assert (row.sent_at, row.attempts, row.last_error) == (None, 0, None)
    assert row.kind == "password_reset"
    assert SECRET_LINK in row.body_text
    assert [m.id for m in mail.outbox(session, to="ADA@example.com")] == [row.id]
    logged = [r.getMessage() for r in caplog.records if r.name == mail.__name__]
    assert len(logged) == 1
    assert "in outbox" in logged[0]
    assert "ada@example.com" in logged[0]
    assert "Reset your password" in logged[0]
    assert "s3cret-token" not in caplog.text  # bodies (reset links) never reach the log


def test_outbox_lists_newest_first_and_filters_by_recipient(session: Session, configure) -> None:
    configure(MAIL_BACKEND="outbox")
    first = mail.send_mail(session, to="a@example.com", subject="One", text="1", kind="test")
    second = mail.send_mail(session, to="b@example.com", subject="Two", text="2", kind="test")
    third = mail.send_mail(session, to="a@example.com", subject="Three", text="3", kind="test")

    assert [m.id for m in mail.outbox(session)] == [third.id, second.id, first.id]
    assert [m.id for m in mail.outbox(session, to=" A@Example.com ")] == [third.id, first.id]
    assert mail.deliver_pending(session) == []  # outbox mail is never sent later by surprise


def test_smtp_mode_delivers_to_a_real_server(session: Session, smtp_server: Inbox) -> None:
    row = _reset_mail(session)

    assert row.sent_at is not None
    assert (row.attempts, row.last_error) == (1, None)
    assert smtp_server.envelopes == [("hello@candles.example", ["ada@example.com"])]
    [received] = smtp_server.messages
    assert received["From"] == SHOP_FROM
    assert received["To"] == "ada@example.com"
    assert received["Subject"] == "Reset your password"
    assert received["Message-ID"]
    assert received.is_multipart()
    text = received.get_body(preferencelist=("plain",)).get_content()
    html = received.get_body(preferencelist=("html",)).get_content()
    assert "Hello Ada," in text
    assert SECRET_LINK in text
    assert f'href="{SECRET_LINK}"' in html
    assert "Cedar &amp; Ember" in html


def test_smtp_mode_without_html_sends_plain_text_only(session: Session, smtp_server: Inbox) -> None:
    row = mail.send_mail(session, to="bo@example.com", subject="Thanks", text="Plain only.", kind="test")

    assert row.sent_at is not None
    [received] = smtp_server.messages
    assert not received.is_multipart()
    assert received.get_content().strip() == "Plain only."


def test_unreachable_server_is_recorded_not_raised_and_retried_later(
    session: Session, smtp_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=mail.__name__)

    row = _reset_mail(session)  # nothing listens on smtp_port yet: must not raise

    assert row.sent_at is None
    assert row.attempts == 1
    assert row.last_error and "Connection" in row.last_error
    assert "failed" in caplog.text
    assert "s3cret-token" not in caplog.text

    controller, inbox = _start_smtp_server(smtp_port)
    try:
        tried = mail.deliver_pending(session)
    finally:
        controller.stop()

    assert [m.id for m in tried] == [row.id]
    session.refresh(row)
    assert row.sent_at is not None
    assert (row.attempts, row.last_error) == (2, None)
    assert [m["Subject"] for m in inbox.messages] == ["Reset your password"]
    assert mail.deliver_pending(session) == []  # sent mail is not sent again


def test_transport_is_injectable_and_failures_stop_after_max_attempts(
    session: Session, smtp_port: int
) -> None:
    sent: list[EmailMessage] = []

    def broken(message: EmailMessage) -> None:
        raise smtplib.SMTPRecipientsRefused({"x@example.com": (550, b"no such user")})

    row = mail.send_mail(session, to="x@example.com", subject="Hi", text="Hi", kind="test", transport=broken)
    assert (row.sent_at, row.attempts) == (None, 1)
    assert "SMTPRecipientsRefused" in (row.last_error or "")

    for _ in range(mail.MAX_ATTEMPTS + 2):
        mail.deliver_pending(session, transport=broken)
    session.refresh(row)
    assert row.attempts == mail.MAX_ATTEMPTS
    assert mail.deliver_pending(session, transport=sent.append) == []
    assert sent == []


def test_a_header_breaking_subject_is_flattened_and_delivered(session: Session, smtp_server: Inbox) -> None:
    row = mail.send_mail(
        session, to="ada@example.com", subject="Hello\r\nBcc: victim@example.com", text="x", kind="test"
    )

    assert row.sent_at is not None
    [received] = smtp_server.messages
    assert received["Subject"] == "Hello Bcc: victim@example.com"
    assert received["Bcc"] is None
    assert smtp_server.envelopes[0][1] == ["ada@example.com"]


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
