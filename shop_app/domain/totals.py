"""Order totals: subtotal, shipping, tax and total in cents (docs/spec/limits.md#storefront;
docs/architecture.md#money).

- Shipping is a flat 15.00 whatever the country, and free from a subtotal of 100.00.
- An empty cart (subtotal 0) costs nothing: no shipping is charged on it. The seed's rule would
  charge 15.00 for nothing; checkout refuses empty carts anyway, and a zero total is the honest
  figure to show in an empty summary.
- Tax depends on where the order goes (``taxes``: :func:`shop_app.domain.tax.taxes_for`, British
  Columbia's by default, the shop's own province): one line per tax, each on the goods and,
  where it applies, the shipping, rounded half up to the cent
  (:func:`shop_app.domain.tax.tax_lines`; docs/tax.md); the tax is their sum, and the lines are
  kept with the totals. An export pays none.
- Total = subtotal + shipping + tax.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from shop_app.domain.money import require_cents
from shop_app.domain.tax import HOME, TaxLine, TaxRate, tax_lines, taxes_for, total_tax

HOME_TAXES: Final = taxes_for(*HOME)
"""The shop's own province's taxes: what a cart is estimated with before an address is known."""
DEFAULT_SHIPPING_FLAT_CENTS: Final = 1500
DEFAULT_FREE_SHIPPING_THRESHOLD_CENTS: Final = 10_000


@dataclass(frozen=True, slots=True)
class OrderTotals:
    """The money lines of an order summary, all in cents."""

    subtotal_cents: int
    shipping_cents: int
    tax_cents: int
    total_cents: int
    tax_lines: tuple[TaxLine, ...] = ()  # one per tax charged (none for an export)


def shipping_cents(
    subtotal_cents: int,
    *,
    shipping_flat_cents: int = DEFAULT_SHIPPING_FLAT_CENTS,
    free_shipping_threshold_cents: int = DEFAULT_FREE_SHIPPING_THRESHOLD_CENTS,
) -> int:
    """Return the shipping charge for a subtotal.

    Examples:
        >>> shipping_cents(9999), shipping_cents(10000), shipping_cents(0)
        (1500, 0, 0)

    Args:
        subtotal_cents: The sum of the line totals.
        shipping_flat_cents: The flat charge below the threshold.
        free_shipping_threshold_cents: The subtotal from which shipping is free (inclusive).

    Returns:
        0 for an empty cart or a subtotal at or above the threshold, else the flat charge.
    """
    require_cents(subtotal_cents, "subtotal_cents")
    if subtotal_cents == 0 or subtotal_cents >= free_shipping_threshold_cents:
        return 0
    return shipping_flat_cents


def compute_totals(
    subtotal_cents: int,
    *,
    shipping_flat_cents: int = DEFAULT_SHIPPING_FLAT_CENTS,
    free_shipping_threshold_cents: int = DEFAULT_FREE_SHIPPING_THRESHOLD_CENTS,
    taxes: Iterable[TaxRate] = HOME_TAXES,
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
        shipping_flat_cents: The flat shipping charge, zero or more.
        free_shipping_threshold_cents: The subtotal from which shipping is free.
        taxes: The destination's taxes (British Columbia's by default).

    Returns:
        The subtotal, shipping, tax and total.

    Raises:
        ValueError: If the subtotal or the shipping charge is negative.
    """
    require_cents(subtotal_cents, "subtotal_cents")
    require_cents(shipping_flat_cents, "shipping_flat_cents")
    require_cents(free_shipping_threshold_cents, "free_shipping_threshold_cents")
    if subtotal_cents < 0:
        raise ValueError("subtotal_cents must not be negative")
    if shipping_flat_cents < 0:
        raise ValueError("shipping_flat_cents must not be negative")
    shipping = shipping_cents(
        subtotal_cents,
        shipping_flat_cents=shipping_flat_cents,
        free_shipping_threshold_cents=free_shipping_threshold_cents,
    )
    lines = tax_lines(subtotal_cents, shipping, taxes)
    tax = total_tax(lines)
    return OrderTotals(
        subtotal_cents=subtotal_cents,
        shipping_cents=shipping,
        tax_cents=tax,
        total_cents=subtotal_cents + shipping + tax,
        tax_lines=lines,
    )
