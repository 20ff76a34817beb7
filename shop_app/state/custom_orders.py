"""/custom-orders: choose custom, bulk or wholesale, fill the form, see the confirmation.

The fields live here, so going back to the order types and forward again keeps what was typed.
``submit`` stores the inquiry through ``services.inquiries`` (validated, rate limited, mailed);
the page then returns to the type selection ``RESET_SECONDS`` later with every form cleared,
by a background task (no script in the browser: the CSP forbids eval).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain import inquiries as rules
from shop_app.domain.inquiries import InquiryForm, InquiryMessage, OrderType
from shop_app.domain.money import format_cents
from shop_app.services import inquiries

log = logging.getLogger(__name__)

# What each text field keeps: one character past its limit, so the length message still shows
# while a forged event cannot grow the tab's state.
FIELD_LIMITS = {
    "name": rules.MAX_NAME_LENGTH,
    "email": rules.MAX_EMAIL_LENGTH,
    "phone": rules.MAX_PHONE_LENGTH,
    "message": rules.MAX_MESSAGE_LENGTH,
    "vessel_size": 50,
    "vessel_color": 50,
    "scent": 100,
    "quantity": 12,
    "special_requests": rules.MAX_SPECIAL_REQUESTS_LENGTH,
}
MAX_SEARCH_LENGTH = 100


@dataclass
class ProductOptionRow:
    """A catalogue product the bulk and wholesale forms can add."""

    id: int = 0
    name: str = ""
    price: str = ""


@dataclass
class SelectedProductRow:
    """A product of the inquiry; its quantity as typed (0 or empty removes it)."""

    id: int = 0
    name: str = ""
    price: str = ""
    quantity: str = "1"


class CustomOrdersState(rx.State):
    """The order-inquiry page: select → form → submitted → select (docs/spec/content.md#custom-orders)."""

    step: str = "select"  # select | form | submitted
    order_type: str = ""
    name: str = ""
    email: str = ""
    phone: str = ""
    message: str = ""
    vessel_size: str = ""
    vessel_color: str = ""
    scent: str = ""
    quantity: str = "1"
    special_requests: str = ""
    search: str = ""
    results: list[ProductOptionRow] = []
    selected: list[SelectedProductRow] = []
    error: str = ""
    submitting: bool = False
    confirmation: str = ""
    _submission: int = 0

    @rx.var
    def type_label(self) -> str:
        """The chosen type's name ("Custom Order", "Bulk Order", "Wholesale")."""
        return OrderType(self.order_type).label if self.order_type in tuple(OrderType) else ""

    @rx.var
    def total_quantity(self) -> int:
        """The products' quantities added up (those that stay selected)."""
        return sum(q for _, q in rules.selected_products((row.id, row.quantity) for row in self.selected))

    @rx.var
    def selected_ids(self) -> list[int]:
        """The products already on the inquiry (their Add buttons are off)."""
        return [row.id for row in self.selected]

    @rx.event
    def load(self) -> None:
        """On a page load: a confirmation left behind starts over; the product list is filled."""
        if self.step == "submitted":
            self._clear()
        if not self.results:
            self._find("")

    @rx.event
    def choose_type(self, order_type: str) -> None:
        """Open the form of ``order_type``."""
        if order_type in tuple(OrderType):
            self.order_type, self.step, self.error = order_type, "form", ""

    @rx.event
    def back_to_types(self) -> None:
        """'Back to Order Types', from the form or the confirmation."""
        self.step, self.error = "select", ""

    @rx.event
    def set_field(self, field: str, value: str) -> None:
        """Keep what was typed in a text field (any other name is ignored)."""
        limit = FIELD_LIMITS.get(field)
        if limit is not None:
            setattr(self, field, str(value)[: limit + 1])

    @rx.event
    def search_products(self, text: str) -> None:
        """Look the catalogue up as the shopper types (the shop's own search)."""
        self.search = str(text)[:MAX_SEARCH_LENGTH]
        self._find(self.search)

    def _find(self, text: str) -> None:
        with session_scope() as session:
            found = inquiries.find_products(session, text)
        self.results = [ProductOptionRow(p.id, p.name, format_cents(p.price_cents)) for p in found]

    @rx.event
    def add_product(self, product_id: int) -> None:
        """Add a product of the list with a quantity of 1 (once)."""
        product_id = int(product_id)
        if any(row.id == product_id for row in self.selected) or len(self.selected) >= rules.MAX_PRODUCTS:
            return
        found = next((row for row in self.results if row.id == product_id), None)
        if found is not None:
            self.selected = [*self.selected, SelectedProductRow(found.id, found.name, found.price, "1")]
            if self.error == InquiryMessage.PRODUCT_REQUIRED:  # answered: the list has a product now
                self.error = ""

    @rx.event
    def set_product_quantity(self, product_id: int, text: str) -> None:
        """A product's quantity, when its field is left: 0 or empty removes it
        (docs/spec/content.md#custom-orders-rules)."""
        self.selected = [
            SelectedProductRow(row.id, row.name, row.price, str(text)[:9])
            if row.id == int(product_id)
            else row
            for row in self.selected
        ]
        self._drop_removed()

    def _drop_removed(self) -> None:
        kept = {pid for pid, _ in rules.selected_products((row.id, row.quantity) for row in self.selected)}
        self.selected = [row for row in self.selected if row.id in kept]

    @rx.event
    def remove_product(self, product_id: int) -> None:
        """Take a product off the inquiry."""
        self.selected = [row for row in self.selected if row.id != int(product_id)]

    def _form(self) -> InquiryForm:
        return InquiryForm(
            order_type=self.order_type,
            name=self.name,
            email=self.email,
            phone=self.phone,
            message=self.message,
            vessel_size=self.vessel_size,
            vessel_color=self.vessel_color,
            scent=self.scent,
            quantity=self.quantity,
            special_requests=self.special_requests,
            products=tuple((row.id, row.quantity) for row in self.selected),
        )

    def _take(self, form_data: dict) -> None:
        """What the fields hold as the form is submitted (the field being typed in is not left)."""
        for field, limit in FIELD_LIMITS.items():
            if isinstance(form_data.get(field), str):
                setattr(self, field, form_data[field][: limit + 1])
        self.selected = [
            SelectedProductRow(
                row.id, row.name, row.price, str(form_data.get(f"quantity-{row.id}", row.quantity))[:9]
            )
            for row in self.selected
        ]

    @rx.event
    def submit(self, form_data: dict | None = None):
        """Send the inquiry; on success show the confirmation and start the 5-second return."""
        self._take(form_data or {})
        self._drop_removed()
        self.submitting, self.error = True, ""
        yield
        try:
            with session_scope() as session:
                inquiry = inquiries.submit_inquiry(
                    session, self._form(), client_address=self.router.session.client_ip or ""
                )
                name, email, label = inquiry.name, inquiry.email, OrderType(inquiry.order_type).label
        except inquiries.InquiryError as error:
            self.submitting, self.error = False, str(error)
            return
        except Exception:
            log.exception("an order inquiry could not be stored")
            self.submitting, self.error = False, InquiryMessage.SUBMIT_FAILED.value
            return
        self._clear()
        self.step = "submitted"
        self.confirmation = InquiryMessage.CONFIRMATION.format(name=name, type=label.lower(), email=email)
        self._submission += 1
        yield CustomOrdersState.return_to_types(self._submission)

    @rx.event(background=True)
    async def return_to_types(self, submission: int):
        """docs/spec/limits.md#back-office: back to the type selection 5 s after a submission (unless left
        already)."""
        await asyncio.sleep(rules.RESET_SECONDS)
        async with self:
            if self.step == "submitted" and self._submission == int(submission):
                self.step = "select"

    def _clear(self) -> None:
        """Every form empty again (the product list stays)."""
        self.step, self.order_type, self.error, self.submitting = "select", "", "", False
        for field in FIELD_LIMITS:
            setattr(self, field, "")
        self.quantity = "1"
        self.selected = []
