"""Outgoing mail: every message the shop sends is recorded before it leaves."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import utcnow


class OutgoingMail(SQLModel, table=True):
    """A message to send (or sent). In the ``outbox`` mail backend it is only stored and logged."""

    __tablename__ = "outgoing_mail"

    id: int | None = Field(default=None, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=255)
    body_text: str = Field(sa_type=sa.Text)
    body_html: str = Field(default="", sa_type=sa.Text)
    kind: str = Field(default="", max_length=50)  # e.g. order_confirmation, password_reset
    created_at: datetime = Field(default_factory=utcnow, index=True)
    sent_at: datetime | None = Field(default=None)
    attempts: int = Field(default=0)
    last_error: str | None = Field(default=None, sa_type=sa.Text)
