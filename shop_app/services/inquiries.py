"""Order inquiries (custom, bulk, wholesale): stored, acknowledged by mail, listed for the owner.

The seed's page only logs an inquiry; here (docs/spec/README.md#gaps) :func:`submit_inquiry` validates it,
refuses a burst from one client or to one e-mail address, snapshots the chosen products from the
catalogue (id, name, quantity and price now, in cents: the browser sends only ids and
quantities), stores an ``OrderInquiry``, mails the customer an acknowledgement and the shop a
notification (store settings' e-mail, else ``MAIL_FROM``). :func:`order_inquiries` lists them for
the back office's inbox.

Texts are stored as typed (HTML included) and escaped wherever they are shown: the pages render
text, and ``mail.render_mail`` escapes the HTML part. The acknowledgement repeats none of the
sender's free text but their name, so the form is no use for mailing someone else a message.

Rate limits, counted from the stored rows within :data:`WINDOW`: :data:`MAX_PER_CLIENT` inquiries
from one client address (kept only as its SHA-256) and :data:`MAX_PER_EMAIL` to one e-mail address.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parseaddr
from typing import Any, Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain import inquiries
from shop_app.domain.inquiries import InquiryForm, InquiryMessage, OrderType
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.validation import normalize_email
from shop_app.models import OrderInquiry, Product
from shop_app.models.base import saved_id, utcnow
from shop_app.services import mail
from shop_app.services.catalog import ShopQuery, shop_page
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

WINDOW: Final = timedelta(minutes=15)
MAX_PER_CLIENT: Final = 6
MAX_PER_EMAIL: Final = 3
PRODUCT_CHOICES: Final = 8
ACKNOWLEDGEMENT_KIND: Final = "inquiry_acknowledgement"
NOTIFICATION_KIND: Final = "inquiry_notification"


class InquiryError(ValueError):
    """The inquiry was refused; the message is for the sender."""


@dataclass(frozen=True, slots=True)
class ProductChoice:
    """A catalogue product the bulk and wholesale forms can pick."""

    id: int
    name: str
    price_cents: int


@dataclass(frozen=True, slots=True)
class InquiryProduct:
    """A product of a bulk or wholesale inquiry, as it was when the inquiry was sent."""

    id: int
    name: str
    quantity: int
    price_cents: int


@dataclass(frozen=True, slots=True)
class InquirySummary:
    """An inquiry as the back office lists it."""

    id: int
    order_type: str
    type_label: str
    name: str
    email: str
    phone: str
    message: str
    created_at: datetime
    handled_at: datetime | None
    vessel_size: str = ""
    vessel_color: str = ""
    scent: str = ""
    quantity: int = 0  # custom orders
    special_requests: str = ""
    products: tuple[InquiryProduct, ...] = ()
    total_quantity: int = 0  # bulk and wholesale


def find_products(session: Session, query: str = "", *, limit: int = PRODUCT_CHOICES) -> list[ProductChoice]:
    """Listed products matching ``query`` as the shop search matches them (newest when empty)."""
    page = shop_page(session, ShopQuery(search=query.strip()[:100] or None, grouped=False, limit=limit))
    return [
        ProductChoice(v.id, v.name, display_price_cents(v.base_price_cents, v.sale_price_cents))
        for card in page.cards
        for v in card.variations
    ]


def client_hash(address: str) -> str:
    """What an inquiry keeps of the sender's network address ("" when unknown)."""
    address = address.strip()
    return hashlib.sha256(address.encode("utf-8")).hexdigest() if address else ""


def submit_inquiry(
    session: Session, form: InquiryForm, *, client_address: str, now: datetime | None = None
) -> OrderInquiry:
    """Validate, rate-limit, store and acknowledge an inquiry; return the stored row (flushed).

    Raises:
        InquiryError: With the message for the sender; nothing was stored or sent.
    """
    problem = inquiries.validate_inquiry(form)
    if problem is not None:
        raise InquiryError(problem)
    form = form.cleaned()
    moment = _aware(now)
    client = client_hash(client_address)
    email = normalize_email(form.email)
    wait = retry_after_seconds(session, client=client, email=email, now=moment)
    if wait is not None:
        raise InquiryError(InquiryMessage.TOO_MANY_INQUIRIES.format(wait=inquiries.retry_wait_text(wait)))
    order_type = OrderType(form.order_type)
    inquiry = OrderInquiry(
        order_type=order_type.value,
        name=form.name,
        email=email,
        phone=form.phone,
        message=form.message,
        details=_custom_details(form) if order_type == OrderType.CUSTOM else _product_details(session, form),
        client_hash=client,
        created_at=moment,
    )
    session.add(inquiry)
    session.flush()
    _acknowledge(session, inquiry)
    _notify_shop(session, inquiry)
    return inquiry


def retry_after_seconds(session: Session, *, client: str, email: str, now: datetime) -> int | None:
    """Seconds until one more inquiry is accepted from ``client`` to ``email``; None: now."""
    waits = [
        _wait(session, condition, limit, now)
        for condition, limit, applies in (
            (col(OrderInquiry.client_hash) == client, MAX_PER_CLIENT, bool(client)),
            (col(OrderInquiry.email) == email, MAX_PER_EMAIL, bool(email)),
        )
        if applies
    ]
    found = [wait for wait in waits if wait is not None]
    return max(found) if found else None


def _wait(session: Session, condition: sa.ColumnElement[bool], limit: int, now: datetime) -> int | None:
    """Refused while ``limit`` inquiries lie in the window: until the oldest of them leaves it."""
    oldest_that_counts = session.exec(
        select(OrderInquiry.created_at)
        .where(condition, col(OrderInquiry.created_at) > now - WINDOW)
        .order_by(col(OrderInquiry.created_at).desc())
        .offset(limit - 1)
        .limit(1)
    ).first()
    if oldest_that_counts is None:
        return None
    return max(1, math.ceil((_aware(oldest_that_counts) + WINDOW - now).total_seconds()))


def _custom_details(form: InquiryForm) -> dict[str, Any]:
    return {
        "vessel_size": form.vessel_size,
        "vessel_color": form.vessel_color,
        "scent": form.scent,
        "quantity": inquiries.parse_quantity(form.quantity),
        "special_requests": form.special_requests,
    }


def _product_details(session: Session, form: InquiryForm) -> dict[str, Any]:
    """The chosen products with their name and price from the catalogue now."""
    chosen = inquiries.selected_products(form.products)
    ids = [product_id for product_id, _ in chosen]
    rows = {
        product.id: product
        for product in session.exec(
            select(Product).where(col(Product.id).in_(ids), Product.is_active, Product.is_listed)
        ).all()
    }
    if len(rows) != len(ids):
        raise InquiryError(InquiryMessage.PRODUCT_UNAVAILABLE.value)
    products = [
        {
            "id": product_id,
            "name": rows[product_id].name,
            "quantity": quantity,
            "price_cents": display_price_cents(
                rows[product_id].base_price_cents, rows[product_id].sale_price_cents
            ),
        }
        for product_id, quantity in chosen
    ]
    return {"selected_products": products, "total_quantity": sum(p["quantity"] for p in products)}


def _summary_lines(inquiry: OrderInquiry) -> list[str]:
    """The order's facts (chosen from the shop's lists and catalogue) for the mails."""
    details = inquiry.details or {}
    if inquiry.order_type == OrderType.CUSTOM:
        return [
            f"Vessel: {details.get('vessel_size', '')}, {details.get('vessel_color', '')}",
            f"Scent: {details.get('scent', '')}",
            f"Quantity: {details.get('quantity', '')}",
        ]
    lines = [
        f"{p['quantity']} × {p['name']} ({format_cents(p['price_cents'])} each)"
        for p in details.get("selected_products", [])
    ]
    return [*lines, f"Total quantity: {details.get('total_quantity', 0)}"]


def _acknowledge(session: Session, inquiry: OrderInquiry) -> None:
    brand = get_store_settings(session).company_name
    label = OrderType(inquiry.order_type).label
    mail.send_shop_mail(
        session,
        to=inquiry.email,
        subject=f"We received your {label.lower()} inquiry",
        kind=ACKNOWLEDGEMENT_KIND,
        brand=brand,
        greeting=f"Hello {inquiry.name},",
        paragraphs=[
            f"Thank you for your {label.lower()} inquiry. We have received it and will reply within "
            "1-2 business days.",
            *_summary_lines(inquiry),
        ],
    )


def _notify_shop(session: Session, inquiry: OrderInquiry) -> None:
    settings = get_store_settings(session)
    to = settings.email.strip() or parseaddr(get_settings().mail_from)[1]
    if not to:
        return
    details = inquiry.details or {}
    label = OrderType(inquiry.order_type).label
    extra = [f"Special requests: {details['special_requests']}"] if details.get("special_requests") else []
    mail.send_shop_mail(
        session,
        to=to,
        subject=f"New {label.lower()} inquiry from {inquiry.name}",
        kind=NOTIFICATION_KIND,
        brand=settings.company_name,
        greeting=f"New {label.lower()} inquiry #{inquiry.id}.",
        paragraphs=[
            f"From: {inquiry.name} <{inquiry.email}>" + (f", phone {inquiry.phone}" if inquiry.phone else ""),
            *_summary_lines(inquiry),
            *extra,
            *([f"Message: {inquiry.message}"] if inquiry.message else []),
        ],
    )


def inquiry_summary(row: OrderInquiry) -> InquirySummary:
    """An inquiry with its details read from the stored JSON (missing or odd values: empty)."""
    details = row.details if isinstance(row.details, dict) else {}
    try:
        label = OrderType(row.order_type).label
    except ValueError:
        label = row.order_type
    products = tuple(
        InquiryProduct(
            int(p.get("id", 0)),
            str(p.get("name", "")),
            int(p.get("quantity", 0)),
            int(p.get("price_cents", 0)),
        )
        for p in details.get("selected_products", [])
        if isinstance(p, dict)
    )
    return InquirySummary(
        id=saved_id(row),
        order_type=row.order_type,
        type_label=label,
        name=row.name,
        email=row.email,
        phone=row.phone,
        message=row.message,
        created_at=_aware(row.created_at),
        handled_at=row.handled_at,
        vessel_size=str(details.get("vessel_size", "")),
        vessel_color=str(details.get("vessel_color", "")),
        scent=str(details.get("scent", "")),
        quantity=int(details.get("quantity") or 0),
        special_requests=str(details.get("special_requests", "")),
        products=products,
        total_quantity=int(details.get("total_quantity") or 0),
    )


def _aware(moment: datetime | None) -> datetime:
    """``moment`` (default: now) as an aware UTC datetime; naive values are taken as UTC."""
    if moment is None:
        return utcnow()
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
