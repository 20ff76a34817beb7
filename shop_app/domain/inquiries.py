"""Order inquiries: custom, bulk and wholesale (docs/spec/content.md#custom-orders, #custom-orders-rules;
docs/spec/limits.md#back-office; docs/spec/README.md#gaps).

Validation follows the seed's rules (name and e-mail required, phone optional; custom needs a
vessel size, vessel color, scent and a quantity of at least 1; bulk and wholesale need at least
one selected product, whose quantity 0 or empty removes it; wholesale also needs the message),
then the lengths the database keeps. The seed shows no wording for these errors: the texts of
:class:`InquiryMessage` are ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.addresses import normalize_phone, phone_problem
from shop_app.domain.custom_candle import SCENTS
from shop_app.domain.messages import AuthMessage, CheckoutMessage
from shop_app.domain.product_names import VESSELS
from shop_app.domain.validation import is_valid_email

RESET_SECONDS: Final = 5  # docs/spec/limits.md#back-office: back to type selection after a submission

VESSEL_SIZES: Final[tuple[str, ...]] = ("4 oz", "8 oz", "10 oz", "12 oz", "16 oz")
VESSEL_COLORS: Final[tuple[str, ...]] = VESSELS
SCENT_NAMES: Final[tuple[str, ...]] = tuple(scent.name for scent in SCENTS)

MAX_NAME_LENGTH: Final = 200  # order_inquiries.name
MAX_EMAIL_LENGTH: Final = 254
MAX_PHONE_LENGTH: Final = 40
MAX_MESSAGE_LENGTH: Final = 2000
MAX_SPECIAL_REQUESTS_LENGTH: Final = 1000
MIN_QUANTITY: Final = 1
MAX_QUANTITY: Final = 10_000  # per custom order and per selected product
MAX_PRODUCTS: Final = 30
_WHOLE_NUMBER: Final = re.compile(r"-?[0-9]{1,9}")


class OrderType(StrEnum):
    """The three kinds of inquiry (docs/spec/content.md#custom-orders-rules: orderType)."""

    CUSTOM = "custom"
    BULK = "bulk"
    WHOLESALE = "wholesale"

    @property
    def label(self) -> str:
        """The type's name on the page and in the mails."""
        return _LABELS[self]


_LABELS: Final = {
    OrderType.CUSTOM: "Custom Order",
    OrderType.BULK: "Bulk Order",
    OrderType.WHOLESALE: "Wholesale",
}


class InquiryMessage(StrEnum):
    """The inquiry form's texts (ours: the seed names the rules, not their wording)."""

    CHOOSE_TYPE = "Please choose an order type"
    NAME_REQUIRED = "Please enter your name"
    EMAIL_REQUIRED = "Please enter your email address"
    VESSEL_SIZE_REQUIRED = "Please choose a vessel size"
    VESSEL_COLOR_REQUIRED = "Please choose a vessel color"
    SCENT_REQUIRED = "Please choose a scent"
    QUANTITY_TOO_LOW = "Quantity must be at least 1"
    QUANTITY_TOO_HIGH = "Quantity can be at most 10,000"
    PRODUCT_REQUIRED = "Please select at least one product"
    TOO_MANY_PRODUCTS = "You can select up to 30 products"
    MESSAGE_REQUIRED = "Please tell us about your business in the message"
    UNKNOWN_CHOICE = "Please choose one of the options in the list"
    PRODUCT_UNAVAILABLE = "A product you selected is no longer available. Please remove it and try again."
    TOO_MANY_INQUIRIES = "You have sent several inquiries in a short time. Please wait {wait} and try again."
    SUBMIT_FAILED = "Sorry, we could not send your inquiry. Please try again."
    SUBMITTED = "Thank You for Your Inquiry!"
    CONFIRMATION = (  # name, type, email
        "Thank you, {name}! We have received your {type} inquiry and will reply to {email} "
        "within 1-2 business days."
    )
    RETURNING = "You will return to the order types in a few seconds."


@dataclass(frozen=True, slots=True)
class InquiryForm:
    """What the shopper filled in, as typed (quantities as text; products as (id, quantity))."""

    order_type: str
    name: str = ""
    email: str = ""
    phone: str = ""
    message: str = ""
    vessel_size: str = ""
    vessel_color: str = ""
    scent: str = ""
    quantity: str = ""
    special_requests: str = ""
    products: tuple[tuple[int, str], ...] = field(default=())

    def cleaned(self) -> InquiryForm:
        """The form with its texts trimmed and the removed products (quantity 0 or empty) dropped."""
        return replace(
            self,
            name=free_text.one_line(self.name),
            email=free_text.one_line(self.email),
            phone=_phone(self.phone),
            message=free_text.multiline(self.message),
            vessel_size=free_text.one_line(self.vessel_size),
            vessel_color=free_text.one_line(self.vessel_color),
            scent=free_text.one_line(self.scent),
            special_requests=free_text.multiline(self.special_requests),
            quantity=free_text.one_line(self.quantity),
            products=tuple((pid, str(quantity)) for pid, quantity in selected_products(self.products)),
        )


def _phone(typed: str) -> str:
    """The phone as stored everywhere (``domain.addresses``), or as typed when it is not one."""
    phone = free_text.one_line(typed)
    return normalize_phone(phone) or phone


def parse_quantity(typed: str) -> int | None:
    """A quantity as typed: a whole number, or ``None`` when empty or not a number.

    Examples:
        >>> parse_quantity(" 12 "), parse_quantity(""), parse_quantity("1.5")
        (12, None, None)
    """
    typed = typed.strip()
    return int(typed) if _WHOLE_NUMBER.fullmatch(typed) else None


def selected_products(products: Iterable[tuple[int, str]]) -> list[tuple[int, int]]:
    """The products that stay selected: quantity 0, empty or not a number removes one
    (docs/spec/content.md#custom-orders-rules).

    A product listed twice keeps its first quantity above 0.

    Examples:
        >>> selected_products([(1, "3"), (2, "0"), (3, ""), (4, "x"), (1, "9")])
        [(1, 3)]
    """
    kept: dict[int, int] = {}
    for product_id, typed in products:
        quantity = parse_quantity(typed)
        if quantity is not None and quantity > 0 and product_id not in kept:
            kept[product_id] = quantity
    return list(kept.items())


def validate_inquiry(form: InquiryForm) -> str | None:
    """The first problem of the form, in the order it reads, or ``None``.

    Examples:
        >>> validate_inquiry(InquiryForm("bulk", name="Ana", email="ana@example.ca", products=((1, "0"),)))
        'Please select at least one product'
    """
    form = form.cleaned()
    if form.order_type not in tuple(OrderType):
        return InquiryMessage.CHOOSE_TYPE.value
    problem = _contact_problem(form)
    if problem is not None:
        return problem
    if form.order_type == OrderType.CUSTOM:
        return _custom_problem(form)
    return _products_problem(form)


def _too_long(label: str, value: str, limit: int) -> str | None:
    return CheckoutMessage.FIELD_TOO_LONG.format(field=label, limit=limit) if len(value) > limit else None


def _contact_problem(form: InquiryForm) -> str | None:
    if not form.name:
        return InquiryMessage.NAME_REQUIRED.value
    if not form.email:
        return InquiryMessage.EMAIL_REQUIRED.value
    return (
        _too_long("Name", form.name, MAX_NAME_LENGTH)
        or _too_long("Email", form.email, MAX_EMAIL_LENGTH)
        or (None if is_valid_email(form.email) else AuthMessage.INVALID_EMAIL.value)
        or _too_long("Phone", form.phone, MAX_PHONE_LENGTH)
        or phone_problem(form.phone)
        or _too_long("Message", form.message, MAX_MESSAGE_LENGTH)
    )


def _custom_problem(form: InquiryForm) -> str | None:
    for value, offered, missing in (
        (form.vessel_size, VESSEL_SIZES, InquiryMessage.VESSEL_SIZE_REQUIRED),
        (form.vessel_color, VESSEL_COLORS, InquiryMessage.VESSEL_COLOR_REQUIRED),
        (form.scent, SCENT_NAMES, InquiryMessage.SCENT_REQUIRED),
    ):
        if not value:
            return missing.value
        if value not in offered:
            return InquiryMessage.UNKNOWN_CHOICE.value
    quantity = parse_quantity(form.quantity)
    if quantity is None or quantity < MIN_QUANTITY:
        return InquiryMessage.QUANTITY_TOO_LOW.value
    if quantity > MAX_QUANTITY:
        return InquiryMessage.QUANTITY_TOO_HIGH.value
    return _too_long("Special requests", form.special_requests, MAX_SPECIAL_REQUESTS_LENGTH)


def _products_problem(form: InquiryForm) -> str | None:
    products = selected_products(form.products)
    if not products:
        return InquiryMessage.PRODUCT_REQUIRED.value
    if len(products) > MAX_PRODUCTS:
        return InquiryMessage.TOO_MANY_PRODUCTS.value
    if any(quantity > MAX_QUANTITY for _, quantity in products):
        return InquiryMessage.QUANTITY_TOO_HIGH.value
    if form.order_type == OrderType.WHOLESALE and not form.message:
        return InquiryMessage.MESSAGE_REQUIRED.value
    return None


def retry_wait_text(seconds: int) -> str:
    """How long to wait, in whole minutes (at least one): "1 minute", "12 minutes"."""
    minutes = max(1, -(-seconds // 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
