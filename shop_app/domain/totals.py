"""Order totals: subtotal, shipping, tax and total in cents (docs/spec/limits.md#storefront;
docs/architecture.md#money).

- Shipping is the rule of the zone the order goes to (:mod:`shop_app.domain.shipping`: a flat
  rate, free from the zone's threshold); the default is the seed's flat 15.00, free from 100.00.
- An empty cart (subtotal 0) costs nothing: no shipping is charged on it. The seed's rule would
  charge 15.00 for nothing; checkout refuses empty carts anyway, and a zero total is the honest
  figure to show in an empty summary.
- Tax depends on where the order goes (``taxes``: :func:`shop_app.domain.tax.taxes_for`, British
  Columbia's by default, the shop's own province): one line per tax, each on the goods and,
  where it applies, the shipping, rounded half up to the cent
  (:func:`shop_app.domain.tax.tax_lines`; docs/tax.md); the tax is their sum, and the lines are
  kept with the totals. An export pays none.
- A discount code (:mod:`shop_app.domain.discounts`) comes off the goods before tax; shipping
  is decided on the subtotal before it (the free-shipping threshold is what the cart says it is
  away from: a code never takes free shipping away), or waived by a free-shipping code; each tax
  is on the goods after the discount, plus the shipping.
- Total = subtotal - discount + shipping + tax.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from shop_app.domain.discounts import AppliedDiscount
from shop_app.domain.money import require_cents
from shop_app.domain.shipping import DEFAULT_ZONES, ShippingZone
from shop_app.domain.tax import HOME, TaxLine, TaxRate, tax_lines, taxes_for, total_tax

HOME_TAXES: Final = taxes_for(*HOME)
"""The shop's own province's taxes: what a cart is estimated with before an address is known."""
HOME_ZONE: Final = DEFAULT_ZONES[0]
"""The seed's shipping rule: a flat 15.00, free from a subtotal of 100.00 (Canada's default zone)."""


@dataclass(frozen=True, slots=True)
class OrderTotals:
    """The money lines of an order summary, all in cents."""

    subtotal_cents: int
    shipping_cents: int
    tax_cents: int
    total_cents: int
    tax_lines: tuple[TaxLine, ...] = ()  # one per tax charged (none for an export)
    discount_cents: int = 0  # taken off the goods by a discount code
    discount: AppliedDiscount | None = None  # the code, when one applies

    @property
    def goods_cents(self) -> int:
        """The goods after the discount: what shipping and tax are figured on."""
        return self.subtotal_cents - self.discount_cents


def compute_totals(
    subtotal_cents: int,
    *,
    zone: ShippingZone | None = HOME_ZONE,
    taxes: Iterable[TaxRate] = HOME_TAXES,
    discount: AppliedDiscount | None = None,
) -> OrderTotals:
    """Compute the totals of an order from its subtotal.

    Examples:
        >>> totals = compute_totals(5000)  # to British Columbia: GST 5 % and PST 7 %, on 65.00
        >>> totals.shipping_cents, totals.tax_cents, totals.total_cents
        (1500, 780, 7280)
        >>> compute_totals(5000, taxes=taxes_for("United States", "WA")).tax_cents  # an export
        0

    Args:
        subtotal_cents: The sum of the line totals, zero or more.
        zone: The shipping zone of the destination (the seed's rule by default); ``None``
            (the shop ships nowhere) charges no shipping.
        taxes: The destination's taxes (British Columbia's by default).
        discount: A discount code that applies (``domain.discounts.apply``): its amount comes
            off the goods (never more than them), or the shipping is waived.

    Returns:
        The subtotal, shipping, tax and total.

    Raises:
        ValueError: If the subtotal is negative.
    """
    require_cents(subtotal_cents, "subtotal_cents")
    if subtotal_cents < 0:
        raise ValueError("subtotal_cents must not be negative")
    off = min(discount.amount_cents, subtotal_cents) if discount is not None else 0
    goods = subtotal_cents - off
    waived = discount is not None and discount.free_shipping
    shipping = zone.charge(subtotal_cents) if zone is not None and not waived and subtotal_cents > 0 else 0
    # (a code that takes every cent off the goods still leaves the parcel to pay for)
    lines = tax_lines(goods, shipping, taxes)
    tax = total_tax(lines)
    return OrderTotals(
        subtotal_cents=subtotal_cents,
        shipping_cents=shipping,
        tax_cents=tax,
        total_cents=goods + shipping + tax,
        tax_lines=lines,
        discount_cents=off,
        discount=discount,
    )
