"""Stock display rules and the admin product status badge (docs/spec/storefront.md#stock;
docs/spec/admin.md#dashboard-products; docs/spec/limits.md#back-office).

The seeds define "low stock" twice:

- storefront and admin grouped view: above 0 and up to 5 (:func:`is_low_stock`); an empty
  shelf is "Out of Stock", not low;
- admin individual view: "5 units or fewer" (:func:`is_low_stock_admin`), which also counts
  products at 0 so they show up in the Low Stock card.
"""

from __future__ import annotations

from typing import Final

from shop_app.domain.admin_messages import AdminLabel
from shop_app.domain.messages import StockText

LOW_STOCK_THRESHOLD: Final = 5


def is_out_of_stock(quantity: int) -> bool:
    """Return whether nothing can be sold: quantity 0 or less (Add is disabled)."""
    return quantity <= 0


def is_low_stock(quantity: int) -> bool:
    """Return whether stock is low on the storefront and admin grouped view: 1 to 5."""
    return 0 < quantity <= LOW_STOCK_THRESHOLD


def is_low_stock_admin(quantity: int) -> bool:
    """Return whether the admin individual view flags the stock as low: 5 units or fewer."""
    return quantity <= LOW_STOCK_THRESHOLD


def stock_text(quantity: int) -> str:
    """Return the stock text of a product card or page.

    Examples:
        >>> stock_text(0), stock_text(5), stock_text(6)
        ('Out of Stock', 'Only 5 left', '6 in stock')

    Args:
        quantity: Units in stock; negative values are treated as 0.

    Returns:
        "Out of Stock", "Only N left" (1 to 5) or "N in stock" (above 5).
    """
    if is_out_of_stock(quantity):
        return StockText.OUT_OF_STOCK.value
    if is_low_stock(quantity):
        return StockText.ONLY_N_LEFT.format(n=quantity)
    return StockText.N_IN_STOCK.format(n=quantity)


def stock_badge(quantity: int) -> str:
    """Return the admin grouped view's badge: "In Stock" above 0, else "Out of Stock"."""
    return (StockText.OUT_OF_STOCK if is_out_of_stock(quantity) else StockText.IN_STOCK).value


def admin_status_badge(is_new: bool, sale_cents: int | None) -> str:
    """Return the status badge of the admin product list (docs/spec/admin.md#dashboard-products).

    "New" if the product is flagged new, else "Sale" if a sale price exists, else "Active".
    A sale price exists when it is set and above 0: the back office stores a sale price of 0 or
    less as null (docs/spec/admin-products.md#edit), so 0 is treated as no sale price. Whether it is below the
    base price does not matter here; the seed's list badge does not compare.

    Args:
        is_new: The product's new-arrival flag.
        sale_cents: The stored sale price, or ``None``.

    Returns:
        "New", "Sale" or "Active".
    """
    if is_new:
        return AdminLabel.STATUS_NEW.value
    if sale_cents is not None and sale_cents > 0:
        return AdminLabel.STATUS_SALE.value
    return AdminLabel.STATUS_ACTIVE.value
