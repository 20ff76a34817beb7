"""Outgoing mail: every message the shop sends is recorded before it leaves (the mail outbox,
docs/architecture.md#mail)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import utcnow


class MailStatus(StrEnum):
    """Where a recorded message is on its way out."""

    QUEUED = "queued"
    """Waiting for the delivery worker (``MAIL_BACKEND=smtp``): due at ``next_attempt_at``."""
    SENT = "sent"
    """The SMTP server accepted it (``sent_at``)."""
    FAILED = "failed"
    """Given up: the last of its attempts failed, or the server refused the recipient for good."""
    KEPT = "kept"
    """Recorded under ``MAIL_BACKEND=outbox`` (development): stored and logged, never delivered."""


class OutgoingMail(SQLModel, table=True):
    """A message to send (or sent), written in the transaction of the change it reports on.

    The delivery worker claims a queued message (``claimed_until``, one conditional UPDATE that
    also counts the attempt) before it talks to SMTP, so two workers never send it at once; a
    failure records ``last_error`` and the next try (``next_attempt_at``, backing off).
    """

    __tablename__ = "outgoing_mail"
    __table_args__ = (sa.Index("ix_outgoing_mail_due", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=255)
    body_text: str = Field(sa_type=sa.Text)
    body_html: str = Field(default="", sa_type=sa.Text)
    kind: str = Field(default="", max_length=50)  # e.g. order_confirmation, password_reset
    created_at: datetime = Field(default_factory=utcnow, index=True)
    status: str = Field(default=MailStatus.QUEUED.value, max_length=10)
    next_attempt_at: datetime = Field(default_factory=utcnow)
    claimed_until: datetime | None = Field(default=None)
    sent_at: datetime | None = Field(default=None)
    attempts: int = Field(default=0)
    last_error: str | None = Field(default=None, sa_type=sa.Text)
