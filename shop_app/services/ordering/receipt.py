"""What the order success page shows, and the mails about an order's payment.

:func:`order_receipt` answers only when both the order id and its (unguessable) number match, so
success-page URLs cannot be enumerated by counting ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from shop_app.domain.addresses import address_lines
from shop_app.domain.discounts import discount_rows
from shop_app.domain.messages import OrderLookupMessage, OrderMessage
from shop_app.domain.money import format_cents
from shop_app.domain.order_numbers import normalize_order_number
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.payment_errors import failure_sentence
from shop_app.domain.pricing import line_label
from shop_app.domain.tax import TAX_ROW_LABEL, TaxLine, lines_from_json, tax_rows
from shop_app.models import Order, OrderAddress, OrderItem, Payment, Product
from shop_app.models.base import saved_id
from shop_app.routes import order_url
from shop_app.services import mail, order_access
from shop_app.services.order_history import item_snapshot, placed_on_text
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

CONFIRMATION_KIND = "order_confirmation"
PAYMENT_FAILED_KIND = "order_payment_failed"


@dataclass(frozen=True, slots=True)
class ReceiptLine:
    """An item of the order as bought (snapshot name and the price paid)."""

    name: str
    options_label: str
    quantity: int
    unit_price_cents: int
    total_cents: int
    image_url: str


@dataclass(frozen=True, slots=True)
class Receipt:
    """The order success page's summary of one order."""

    order_id: int
    order_number: str
    email: str
    placed_on: str  # "November 21, 2026"
    status: str
    payment_status: str
    subtotal_cents: int
    shipping_cents: int
    tax_cents: int
    total_cents: int
    lines: tuple[ReceiptLine, ...]
    ship_name: str
    ship_first_name: str
    ship_address_line1: str
    ship_address_line2: str
    ship_city: str
    ship_state: str
    ship_zip: str
    ship_country: str
    ship_phone: str
    notes: str
    payment_problem: str = ""  # why the payment failed, for an order cancelled without payment
    tax_lines: tuple[TaxLine, ...] = ()  # the taxes charged, one per line (none: an export, or older)
    gift_message: str = ""  # for the card in the parcel
    gift_wrap: bool = False
    discount_cents: int = 0  # a discount code's amount off the goods, before tax
    discount_code: str = ""  # "" when none (or not known)

    @property
    def tax_rows(self) -> tuple[tuple[str, int], ...]:
        """The summary's tax rows: "GST 5%", "PST 7%"… or a single "Tax" row."""
        return tax_rows(self.tax_lines, self.tax_cents)

    @property
    def discount_rows(self) -> tuple[tuple[str, int], ...]:
        """The summary's discount row ("Discount (TEN)", -500), none without a discount."""
        return discount_rows(self.discount_cents, self.discount_code)

    @property
    def is_placed(self) -> bool:
        """Paid (or simulated PayPal): the thank-you page applies."""
        return self.payment_status in (PaymentStatus.COMPLETED, PaymentStatus.NOT_CHARGED)

    @property
    def not_charged(self) -> bool:
        """Placed with the simulated PayPal of local mode: no money was taken."""
        return self.payment_status == PaymentStatus.NOT_CHARGED

    @property
    def awaiting_confirmation(self) -> bool:
        """The payment's outcome is not known yet (being reconciled)."""
        return self.status == OrderStatus.AWAITING_PAYMENT

    @property
    def ship_to(self) -> str:
        """The shipping address on one line."""
        address = address_lines(
            self.ship_address_line1,
            self.ship_address_line2,
            self.ship_city,
            region=self.ship_state,
            postal_code=self.ship_zip,
            country=self.ship_country,
        )
        return ", ".join([self.ship_name, *address] if self.ship_name else address)


def order_receipt(session: Session, *, order_id: int, order_number: str) -> Receipt | None:
    """The receipt of the order with this id **and** this number, else ``None``."""
    order = session.exec(
        select(Order).where(Order.id == order_id, Order.order_number == normalize_order_number(order_number))
    ).first()
    return None if order is None else _receipt(session, order)


def load_receipt(session: Session, order_id: int) -> Receipt | None:
    """The receipt of an order by id alone (for the services' own mails, never for a URL)."""
    order = session.get(Order, order_id)
    return None if order is None else _receipt(session, order)


def _receipt(session: Session, order: Order) -> Receipt:
    address = session.exec(
        select(OrderAddress)
        .where(col(OrderAddress.order_id) == order.id, col(OrderAddress.type) == "shipping")
        .order_by(col(OrderAddress.id))
    ).first()
    rows = session.execute(
        select(OrderItem, col(Product.name))
        .outerjoin(Product, col(Product.id) == col(OrderItem.product_id))
        .where(col(OrderItem.order_id) == order.id)
        .order_by(col(OrderItem.id))
    ).all()
    return Receipt(
        order_id=saved_id(order),
        order_number=order.order_number,
        email=order.email,
        placed_on=placed_on_text(order.created_at),
        status=order.status,
        payment_status=order.payment_status,
        subtotal_cents=order.subtotal_cents,
        discount_cents=order.discount_cents,
        discount_code=order.discount_code or "",
        shipping_cents=order.shipping_cents,
        tax_cents=order.tax_cents,
        tax_lines=lines_from_json(order.tax_lines),
        total_cents=order.total_cents,
        lines=tuple(_line(item, name) for item, name in rows),
        ship_name=f"{address.first_name} {address.last_name}".strip() if address else "",
        ship_first_name=address.first_name if address else "",
        ship_address_line1=address.address_line1 if address else "",
        ship_address_line2=address.address_line2 if address else "",
        ship_city=address.city if address else "",
        ship_state=address.state if address else "",
        ship_zip=address.zip_code if address else "",
        ship_country=address.country if address else "",
        ship_phone=address.phone if address else "",
        notes=order.notes or "",
        gift_message=order.gift_message or "",
        gift_wrap=bool(order.gift_wrap),
        payment_problem=_payment_problem(session, order),
    )


def _payment_problem(session: Session, order: Order) -> str:
    """Why an order cancelled without payment was not paid (a decline, an abandoned payment)."""
    if order.status != OrderStatus.CANCELLED or order.payment_status != PaymentStatus.FAILED:
        return ""
    payment = session.exec(
        select(Payment).where(col(Payment.order_id) == order.id).order_by(col(Payment.id).desc())
    ).first()
    return (
        failure_sentence(payment.error_code, payment.error_detail)
        if payment
        else failure_sentence(None, None)
    )


def _line(item: OrderItem, product_name: str | None) -> ReceiptLine:
    recorded = item_snapshot(item)
    return ReceiptLine(
        name=recorded.name or product_name or OrderMessage.UNKNOWN_PRODUCT.value,
        options_label=line_label(recorded.options, recorded.custom_note),
        quantity=item.quantity,
        unit_price_cents=item.unit_price_cents,
        total_cents=item.total_price_cents,
        image_url=recorded.image_url,
    )


def send_confirmation(session: Session, order_id: int) -> None:
    """Record (and, with SMTP, send) the order confirmation: number, items, totals, address.

    A customer's mail links to the order in their account; a guest's to a signed order link (a
    new secret, kept hashed, in the same transaction as the mail).

    Nothing is sent when the owner switched order confirmations off in the store settings.
    """
    settings = get_store_settings(session)
    receipt = load_receipt(session, order_id)
    if receipt is None or not settings.notify_order_confirmation:
        return
    order = session.get(Order, order_id)
    paragraphs = [f"Thank you for your order! Your order number is {receipt.order_number}."]
    if receipt.not_charged:
        paragraphs.append(
            "This order was paid with the simulated PayPal of the shop's local test mode: "
            "nothing was charged."
        )
    for line in receipt.lines:
        options = f" ({line.options_label})" if line.options_label else ""
        paragraphs.append(
            f"{line.quantity} × {line.name}{options}: {format_cents(line.total_cents)} "
            f"({format_cents(line.unit_price_cents)} each)"
        )
    taxes = ", ".join(
        f"{label.lower() if label == TAX_ROW_LABEL else label} {format_cents(cents)}"
        for label, cents in receipt.tax_rows
    )
    discount = "".join(f"{label} {format_cents(cents)}, " for label, cents in receipt.discount_rows)
    paragraphs += [
        f"Subtotal {format_cents(receipt.subtotal_cents)}, {discount}"
        f"shipping {format_cents(receipt.shipping_cents)}, {taxes}. "
        f"Total {format_cents(receipt.total_cents)} (CAD).",
        f"Shipping to: {receipt.ship_to}.",
        "We will let you know when it ships. Orders are processed in 1 to 3 business days.",
    ]
    action: tuple[str, str] | tuple[None, None] = (None, None)
    if order is not None and order.user_id is not None:
        action = ("View your order", f"{get_settings().site_url}{order_url(order_id)}")
    elif order is not None:
        # A guest has no account page: a signed link to this order (services/order_access.py).
        paragraphs.append(OrderLookupMessage.HOW_TO_FIND.value)
        action = ("View your order", order_access.new_link(session, order_id=order_id))
    _send(
        session,
        receipt,
        brand=settings.company_name,
        kind=CONFIRMATION_KIND,
        subject="Order confirmation",
        paragraphs=paragraphs,
        action=action,
    )


def send_payment_failed(session: Session, order_id: int, message: str) -> None:
    """Tell a shopper who was told "we are confirming your payment" that it did not go through."""
    settings = get_store_settings(session)
    receipt = load_receipt(session, order_id)
    if receipt is None:
        return
    paragraphs = [
        f"We could not complete the payment for order {receipt.order_number}: {message}",
        "Nothing was charged and the order was cancelled. Your items are still in your cart "
        "if you would like to try again.",
    ]
    _send(
        session,
        receipt,
        brand=settings.company_name,
        kind=PAYMENT_FAILED_KIND,
        subject="Payment not completed",
        paragraphs=paragraphs,
    )


def _send(
    session: Session,
    receipt: Receipt,
    *,
    brand: str,
    kind: str,
    subject: str,
    paragraphs: list[str],
    action: tuple[str, str] | tuple[None, None] = (None, None),
) -> None:
    mail.send_shop_mail(
        session,
        to=receipt.email,
        subject=f"{subject} {receipt.order_number} | {brand}",
        kind=kind,
        brand=brand,
        greeting=f"Hello {receipt.ship_first_name or 'there'},",
        paragraphs=paragraphs,
        action_label=action[0],
        action_url=action[1],
    )
