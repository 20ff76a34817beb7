"""The checkout form, its validation, the checkout error and the priced summary (docs/spec/checkout.md#form,
#validation)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Final

from sqlmodel import Session

from shop_app.domain import free_text
from shop_app.domain.addresses import normalize_phone, normalize_postal_code, normalize_region
from shop_app.domain.countries import DEFAULT_SHIPPING_COUNTRIES, canonical_country
from shop_app.domain.messages import CheckoutMessage
from shop_app.domain.shipping import ShippingZone, ship_countries, shipping_for, zones_from_json
from shop_app.domain.shown_cart import shown_cart
from shop_app.domain.tax import HOME, table_from_json, taxes_for
from shop_app.domain.totals import OrderTotals, compute_totals
from shop_app.domain.validation import FieldProblem, checkout_problem
from shop_app.services import discounts
from shop_app.services.cart import CartLineView, CartOwner, CartView, view_cart
from shop_app.services.store_settings import get_store_settings, stored_zones


class CheckoutError(ValueError):
    """Placing or paying an order was refused; the message is for the shopper.

    Whenever ``place_order`` raises it, nothing was written.
    """


class CartChangedError(CheckoutError):
    """The cart is not the one the shopper's page showed (another tab or window changed it, or a
    price changed, or its discount code no longer applies): nothing was ordered or charged; show
    the cart as it is now and ask again."""


@dataclass(frozen=True, slots=True)
class CheckoutForm:
    """What the shopper typed on /checkout (docs/spec/checkout.md#form "Checkout form", plus phone and line
    2)."""

    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    address: str = ""
    address_line2: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    country: str = ""
    special_instructions: str = ""
    gift_message: str = ""  # the card in the parcel (optional; multiline)
    gift_wrap: str = ""  # "on" when ticked

    def cleaned(self) -> CheckoutForm:
        """The form as stored: every value through the one sanitiser (``domain.free_text``: one line,
        no control or bidi characters; the instructions keep their line breaks), the country
        spelled as in the list, and the province/state, postal/ZIP code and phone in their
        stored form (``BC``, ``V5K 0A1``, ``604-555-0123``: ``domain.addresses``) when they are
        valid (an invalid one stays as typed, for :func:`validate` to refuse)."""
        values = {name: free_text.one_line(value) for name, value in asdict(self).items()}
        values["special_instructions"] = free_text.multiline(self.special_instructions)
        values["gift_message"] = free_text.multiline(self.gift_message)
        values["gift_wrap"] = "on" if values["gift_wrap"].lower() in {"on", "true", "1"} else ""
        country = values["country"] = canonical_country(values["country"]) or values["country"]
        values["state"] = normalize_region(country, values["state"])
        values["zip_code"] = normalize_postal_code(country, values["zip_code"])
        values["phone"] = normalize_phone(values["phone"]) or values["phone"]
        return CheckoutForm(**values)

    @property
    def destination(self) -> tuple[str, str]:
        """Where the order goes, as its taxes are chosen (:func:`destination`)."""
        return destination(self.country, self.state)


def destination(country: str, region: str) -> tuple[str, str]:
    """The country and province/state as typed, in their stored form: what picks an order's
    taxes (``domain.tax.taxes_for``), the same whether it comes from the form or from a field
    the shopper just changed.

    Examples:
        >>> destination(" canada ", "British Columbia"), destination("United States", "wa")
        (('Canada', 'BC'), ('United States', 'WA'))
    """
    country = free_text.one_line(country)
    country = canonical_country(country) or country
    return country, normalize_region(country, free_text.one_line(region))


GIFT_MESSAGE_MAX: Final = 300
"""A gift card's worth of text (issue 19, acceptance 6)."""

FIELD_LIMITS: Final[dict[str, tuple[str, int]]] = {
    "first_name": ("First name", 100),
    "last_name": ("Last name", 100),
    "email": ("Email", 254),
    "phone": ("Phone", 40),
    "address": ("Address", 255),
    "address_line2": ("Address line 2", 255),
    "city": ("City", 100),
    "state": ("State", 100),
    "zip_code": ("ZIP code", 20),
    "country": ("Country", 100),
    "special_instructions": ("Special instructions", 2000),
    "gift_message": ("Gift message", GIFT_MESSAGE_MAX),
    "gift_wrap": ("Gift wrap", 3),
}
"""Label and maximum length of each field: the lengths of the columns they are stored in."""


def validate(form: CheckoutForm, *, ships_to: Sequence[str]) -> str | None:
    """The first problem of the form, or ``None``.

    The seed's checks first (required fields: "Please fill in all required fields", e-mail
    format), then ours: the country one the shop ships to (``ships_to``: the store settings'
    list, read by the caller), the province/state and postal/ZIP code for that country, the
    phone, and the column lengths.
    """
    problem = form_problem(form, ships_to=ships_to)
    return None if problem is None else problem.message


def form_problem(form: CheckoutForm, *, ships_to: Sequence[str]) -> FieldProblem | None:
    """:func:`validate`'s first problem with the name of the field it is about, or ``None``."""
    cleaned = form.cleaned()
    problem = checkout_problem(asdict(cleaned), ships_to=ships_to)
    if problem is not None:
        return problem
    for field in fields(cleaned):
        label, limit = FIELD_LIMITS[field.name]
        if len(getattr(cleaned, field.name)) > limit:
            return FieldProblem(field.name, CheckoutMessage.FIELD_TOO_LONG.format(field=label, limit=limit))
    return None


def ships_to(session: Session) -> tuple[str, ...]:
    """The countries the store settings ship to now (those of the active shipping zones)."""
    return ship_countries(stored_zones(session))


def check_form(session: Session, form: CheckoutForm) -> FieldProblem | None:
    """:func:`form_problem` against the countries the store settings ship to now."""
    return form_problem(form, ships_to=ships_to(session))


@dataclass(frozen=True, slots=True)
class Quote:
    """The checkout summary: the cart's lines and totals, priced from the database now, with the
    taxes of where the order goes."""

    lines: list[CartLineView]
    totals: OrderTotals
    destination: tuple[str, str] = HOME  # (country, province/state) the taxes are those of
    ships_to: tuple[str, ...] = DEFAULT_SHIPPING_COUNTRIES  # the active shipping zones' countries
    free_shipping_in: int | None = None  # cents more for free shipping in its zone (None: never)
    discount: discounts.CodeCheck = discounts.NO_CODE  # the cart's code, checked now

    @property
    def is_empty(self) -> bool:
        """Whether there is nothing to order ("Your Cart is Empty")."""
        return not self.lines

    @property
    def count(self) -> int:
        """Number of items (sum of quantities)."""
        return sum(line.quantity for line in self.lines)

    @property
    def shown(self) -> str:
        """This summary as ``place_order(shown=…)`` compares it with the cart it orders."""
        return shown_cart(self.lines, self.totals.total_cents)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A cart's totals before its address is known, and how far it is from free shipping."""

    totals: OrderTotals
    free_shipping_in: int | None  # cents more to ship free (0: it does; None: it never will)
    discount: discounts.CodeCheck = discounts.NO_CODE  # the cart's code, checked now


def _free_shipping_in(zone: ShippingZone | None, totals: OrderTotals) -> int | None:
    if zone is None or totals.subtotal_cents <= 0:
        return None
    if totals.discount is not None and totals.discount.free_shipping:
        return 0  # a free-shipping code
    return zone.away_from_free(totals.subtotal_cents)  # the threshold is on the subtotal


def estimate(session: Session, view: CartView, *, email: str | None = None) -> Estimate:
    """The totals of a cart before an address is known (the cart drawer): its discount code, the
    shipping of the default zone (the shop's own country's: ``domain.shipping.default_zone``),
    and the taxes of the shop's own province (``domain.tax.HOME``)."""
    settings = get_store_settings(session)
    zone = shipping_for(zones_from_json(settings.shipping_zones), None)
    code = discounts.check(session.connection(), view.discount_code, discounts.lines_of(view), email=email)
    totals = compute_totals(
        view.subtotal_cents,
        zone=zone,
        taxes=taxes_for(*HOME, table=table_from_json(settings.tax_table)),
        discount=code.applied,
    )
    return Estimate(totals=totals, free_shipping_in=_free_shipping_in(zone, totals), discount=code)


def quote(
    session: Session, owner: CartOwner, destination: tuple[str, str] = HOME, *, email: str | None = None
) -> Quote:
    """Price the owner's cart with the shipping of ``destination``'s zone and the taxes of
    ``destination`` (country, province/state in stored form: :func:`destination`) from the
    store settings' tax table, and say where the shop ships.

    Lines of archived products are left out, exactly as ``place_order`` leaves them out.
    """
    view = view_cart(session, owner)
    settings = get_store_settings(session)
    zones = zones_from_json(settings.shipping_zones)
    zone = shipping_for(zones, destination[0])
    code = discounts.check(session.connection(), view.discount_code, discounts.lines_of(view), email=email)
    totals = compute_totals(
        view.subtotal_cents,
        zone=zone,
        taxes=taxes_for(*destination, table=table_from_json(settings.tax_table)),
        discount=code.applied,
    )
    shipped = ship_countries(zones)
    return Quote(
        lines=list(view.lines),
        totals=totals,
        destination=destination,
        ships_to=shipped,
        # nothing said for a country not shipped to (a forged choice: checkout refuses it)
        free_shipping_in=_free_shipping_in(zone, totals) if destination[0] in shipped else None,
        discount=code,
    )
