"""Site content and inbound messages: website images, store settings, contact messages,
order inquiries, newsletter subscribers (with their unsubscribe tokens) and the public forms'
submission log that rate-limits them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import JSONType, utcnow


class WebsiteImage(SQLModel, table=True):
    """The image of one slot of the site (hero, category cards, mission, about)."""

    __tablename__ = "website_images"

    id: int | None = Field(default=None, primary_key=True)
    image_type: str = Field(max_length=50, unique=True)
    image_url: str = Field(max_length=1024)
    # Pixel size of the stored largest rendition (services.media); None for external URLs.
    width: int | None = Field(default=None)
    height: int | None = Field(default=None)
    alt_text: str = Field(default="", max_length=255)
    is_active: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class StoreSettings(SQLModel, table=True):
    """The shop's settings: a single row (id 1) edited in the back office."""

    __tablename__ = "store_settings"
    __table_args__ = (sa.CheckConstraint("id = 1", name="ck_store_settings_single_row"),)

    id: int | None = Field(default=1, primary_key=True)
    company_name: str = Field(default="Shop", max_length=255)
    email: str = Field(default="", max_length=254)
    phone: str = Field(default="", max_length=40)
    address: str = Field(default="", max_length=500)
    instagram: str = Field(default="", max_length=255)
    facebook: str = Field(default="", max_length=255)
    twitter: str = Field(default="", max_length=255)
    notify_order_confirmation: bool = Field(default=True)
    notify_low_stock: bool = Field(default=True)
    notify_new_reviews: bool = Field(default=False)
    # Taxes by province or territory (domain.tax.table_to_json); None: Canada's default table
    # (domain.tax.CANADA_TAXES). Read through domain.tax.table_from_json.
    tax_table: dict[str, Any] | None = Field(default=None, sa_type=JSONType)
    gst_hst_number: str = Field(default="", max_length=30)  # printed on invoices
    currency_symbol: str = Field(default="$", max_length=8)
    # Shipping zones (domain.shipping.zones_to_json): each a group of countries with a flat rate
    # and a free-shipping threshold; the countries of the active ones are where the shop ships.
    # None: the default (domain.shipping.DEFAULT_ZONES). Read through domain.shipping.zones_from_json.
    shipping_zones: list[dict[str, Any]] | None = Field(default=None, sa_type=JSONType)
    updated_at: datetime = Field(default_factory=utcnow)


class ContactMessage(SQLModel, table=True):
    """A message sent through the contact form.

    ``read_at`` is when an admin opened it in the back office inbox (None: unread; "Mark as
    unread" clears it). ``handled_at`` is a separate fact, left for a "done" state: reading a
    message is not answering it.
    """

    __tablename__ = "contact_messages"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    email: str = Field(max_length=254)
    subject: str = Field(max_length=255)
    message: str = Field(sa_type=sa.Text)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    handled_at: datetime | None = Field(default=None)
    read_at: datetime | None = Field(default=None)


class OrderInquiry(SQLModel, table=True):
    """A custom, bulk or wholesale order inquiry.

    ``client_hash`` is the SHA-256 of the sender's network address: enough to rate-limit a burst
    from one client (``services.inquiries``) without keeping the address itself. ``read_at``:
    as for :class:`ContactMessage`.
    """

    __tablename__ = "order_inquiries"
    __table_args__ = (
        sa.Index("ix_order_inquiries_client_created", "client_hash", "created_at"),
        sa.Index("ix_order_inquiries_email_created", "email", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    order_type: str = Field(max_length=20)  # custom | bulk | wholesale
    name: str = Field(max_length=200)
    email: str = Field(max_length=254)
    phone: str = Field(default="", max_length=40)
    message: str = Field(default="", sa_type=sa.Text)
    # custom: vessel_size, vessel_color, scent, quantity, special_requests;
    # bulk/wholesale: selected_products [{id, name, quantity, price_cents}], total_quantity
    details: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    client_hash: str = Field(default="", max_length=64)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    handled_at: datetime | None = Field(default=None)
    read_at: datetime | None = Field(default=None)


class Subscriber(SQLModel, table=True):
    """A newsletter / mailing-list subscriber."""

    __tablename__ = "subscribers"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True)
    source: str = Field(default="footer", max_length=32)
    created_at: datetime = Field(default_factory=utcnow)
    unsubscribed_at: datetime | None = Field(default=None)


class UnsubscribeToken(SQLModel, table=True):
    """The secret of one unsubscribe link mailed to a subscriber; only its SHA-256 is kept.

    Every mail to a subscriber carries a fresh link, and every link stays valid: an old mail
    still unsubscribes. The link is random, so addresses cannot be guessed or enumerated.
    """

    __tablename__ = "unsubscribe_tokens"

    id: int | None = Field(default=None, primary_key=True)
    subscriber_id: int = Field(foreign_key="subscribers.id", ondelete="CASCADE", index=True)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


class FormSubmission(SQLModel, table=True):
    """One accepted submission of a public form (contact, newsletter …) by one client.

    Counted by ``services.rate_limit`` in a sliding window so a burst from one client is refused,
    across every backend worker.
    """

    __tablename__ = "form_submissions"
    __table_args__ = (sa.Index("ix_form_submissions_form_client_time", "form", "client", "submitted_at"),)

    id: int | None = Field(default=None, primary_key=True)
    form: str = Field(max_length=32)
    client: str = Field(max_length=64)  # the client address
    submitted_at: datetime = Field(default_factory=utcnow)
