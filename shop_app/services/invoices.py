"""Printable invoices and packing slips of an order (issue 19, acceptance 4): their data, and who
may see them.

An order's document is its :class:`~shop_app.services.ordering.receipt.Receipt` (lines, totals and
tax lines as stored when the order was placed: nothing is priced again here) with the shop's
details from the store settings, the payment (the newest attempt: card, status, paid date) and
the refunds so far. ``api/invoices.py`` renders it as HTML (``api/invoice_html.py``).

Who may see which (:func:`may_see`): an admin sees any placed order's invoice and packing slip; a
signed-in customer the invoice of their own order; a guest the invoice of the order a signed
order link opens (``services.order_access``, the same secret the link's ``?token=`` carries).
Never an order that was not placed (``order_history.placed_orders``), as every other view.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from sqlmodel import Session, col, select

from shop_app.domain.orders import PaymentStatus, status_label
from shop_app.models import Order, Payment, Refund
from shop_app.services import order_access
from shop_app.services.admin.orders import PARTIALLY_REFUNDED
from shop_app.services.order_history import placed_on_text, placed_orders
from shop_app.services.ordering.receipt import Receipt, load_receipt
from shop_app.services.sessions import SessionUser
from shop_app.services.store_settings import get_store_settings

MAX_BATCH: Final = 100
"""Orders one batch print may hold."""
CURRENCY: Final = "CAD"


class DocumentKind(StrEnum):
    """What is printed of an order (the batch print's ``doc=``)."""

    INVOICE = "invoice"
    PACKING_SLIP = "packing-slip"


@dataclass(frozen=True, slots=True)
class ShopDetails:
    """The seller, as the store settings name it."""

    company_name: str
    address: str
    email: str
    phone: str
    gst_hst_number: str  # "" when the owner has not entered one


@dataclass(frozen=True, slots=True)
class PaymentSummary:
    """The order's payment as an invoice states it."""

    provider: str  # "Square", "Paypal"
    card: str  # "VISA •••• 1111", "" when unknown
    status: str  # "Completed", "Partially refunded", "Not charged" …
    paid_on: str  # "November 21, 2026", "" when not paid


@dataclass(frozen=True, slots=True)
class RefundSummary:
    """One refund of the order."""

    refunded_on: str  # "November 22, 2026"
    amount_cents: int


@dataclass(frozen=True, slots=True)
class OrderDocument:
    """Everything an invoice or a packing slip of one order shows."""

    shop: ShopDetails
    receipt: Receipt  # number, date, e-mail, address, lines, totals, tax lines, notes
    payment: PaymentSummary | None
    refunds: tuple[RefundSummary, ...] = ()  # oldest first
    currency: str = CURRENCY

    @property
    def refunded_cents(self) -> int:
        """Every refund so far."""
        return sum(refund.amount_cents for refund in self.refunds)


def shop_details(session: Session) -> ShopDetails:
    """The seller's details from the store settings."""
    settings = get_store_settings(session)
    return ShopDetails(
        company_name=settings.company_name.strip(),
        address=settings.address.strip(),
        email=settings.email.strip(),
        phone=settings.phone.strip(),
        gst_hst_number=settings.gst_hst_number.strip(),
    )


def may_see(
    session: Session, *, order_id: int, kind: DocumentKind, user: SessionUser | None, token: str = ""
) -> bool:
    """Whether this visitor may see this document of a placed order.

    Args:
        order_id: The order asked for.
        kind: The invoice or the packing slip (admins only).
        user: Who the session cookie belongs to (``sessions.resolve_cookie``), None when signed out.
        token: A signed order link's secret (``?token=``), "" when none: opens its own order's invoice.
    """
    if user is not None and user.is_admin:
        return _placed(session, order_id, None)
    if kind != DocumentKind.INVOICE:
        return False
    if user is not None and _placed(session, order_id, user.user_id):
        return True
    if token:
        found = order_access.order_by_token(session, token)
        return found is not None and found.id == order_id
    return False


def _placed(session: Session, order_id: int, user_id: int | None) -> bool:
    query = select(Order.id).where(Order.id == order_id, placed_orders())
    if user_id is not None:
        query = query.where(Order.user_id == user_id)
    return session.exec(query).first() is not None


def placed_ids(session: Session, order_ids: Iterable[int]) -> set[int]:
    """Which of these ids are placed orders (for the admin's batch print)."""
    wanted = set(order_ids)
    if not wanted:
        return set()
    found = session.exec(select(Order.id).where(col(Order.id).in_(wanted), placed_orders())).all()
    return {order_id for order_id in found if order_id is not None}


def order_document(
    session: Session, order_id: int, *, shop: ShopDetails | None = None
) -> OrderDocument | None:
    """The document of one order, or None when there is no such order. Checks nobody's rights:
    the caller has (:func:`may_see`). ``shop``: the seller's details, when already read (a batch)."""
    order = session.get(Order, order_id)
    receipt = load_receipt(session, order_id) if order is not None else None
    if order is None or receipt is None:
        return None
    payment = session.exec(
        select(Payment).where(col(Payment.order_id) == order_id).order_by(col(Payment.id).desc()).limit(1)
    ).first()
    refunds = tuple(
        RefundSummary(refunded_on=placed_on_text(created_at), amount_cents=amount)
        for created_at, amount in session.exec(
            select(col(Refund.created_at), col(Refund.amount_cents))
            .where(col(Refund.order_id) == order_id)
            .order_by(col(Refund.created_at), col(Refund.id))
        ).all()
    )
    return OrderDocument(
        shop=shop or shop_details(session),
        receipt=receipt,
        payment=_payment(order, payment, refunded=sum(r.amount_cents for r in refunds)),
        refunds=refunds,
    )


def order_documents(session: Session, order_ids: Iterable[int]) -> list[OrderDocument]:
    """The documents of these orders, in the order given (a batch print; unknown ids left out)."""
    shop = shop_details(session)
    found = (order_document(session, order_id, shop=shop) for order_id in order_ids)
    return [document for document in found if document is not None]


def _payment(order: Order, payment: Payment | None, *, refunded: int) -> PaymentSummary | None:
    if payment is None:
        return None
    card = " •••• ".join(part for part in (payment.card_brand or "", payment.card_last4 or "") if part)
    status = payment.status
    if status == PaymentStatus.COMPLETED and refunded > 0:
        status = PARTIALLY_REFUNDED  # as the back office shows it
    return PaymentSummary(
        provider=status_label(payment.provider),
        card=card,
        status=status_label(status),
        paid_on=placed_on_text(order.paid_at) if order.paid_at is not None else "",
    )
