"""Product card badges, discount and margin previews (docs/spec/storefront.md#badges;
docs/spec/admin-products.md#wizard)."""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.money import require_cents, round_half_up_div
from shop_app.domain.pricing import effective_sale_price


class Badge(StrEnum):
    """The badge a product card shows; the value is its label."""

    ON_SALE = "On Sale"
    NEW = "New"
    FEATURED = "Featured"


def card_badge(*, base_cents: int, sale_cents: int | None, is_new: bool, is_featured: bool) -> Badge | None:
    """Return the one badge of a product card, by the seed's precedence.

    On Sale when the sale price is above 0 and below the base price; otherwise New when the
    product is new; otherwise Featured when it is featured; otherwise no badge.

    Examples:
        >>> card_badge(base_cents=2000, sale_cents=1500, is_new=True, is_featured=True)
        <Badge.ON_SALE: 'On Sale'>

    Args:
        base_cents: The regular price.
        sale_cents: The stored sale price, or ``None``.
        is_new: The new-arrival flag.
        is_featured: The featured flag.

    Returns:
        The badge, or ``None``.
    """
    if effective_sale_price(base_cents, sale_cents) is not None:
        return Badge.ON_SALE
    if is_new:
        return Badge.NEW
    if is_featured:
        return Badge.FEATURED
    return None


def discount_percent(base_cents: int, sale_cents: int | None) -> int:
    """Return the sale discount in whole percent, rounded half up.

    Examples:
        >>> discount_percent(2000, 1500), discount_percent(3000, 2000), discount_percent(100, 100)
        (25, 33, 0)

    Args:
        base_cents: The regular price.
        sale_cents: The sale price, or ``None``.

    Returns:
        ``(base - sale) / base x 100`` when the sale price is a discount (above 0 and below the
        base price), else 0.
    """
    sale = effective_sale_price(base_cents, sale_cents)
    if sale is None:
        return 0
    return round_half_up_div((base_cents - sale) * 100, base_cents)


def profit_margin(price_cents: int, cost_cents: int) -> tuple[int, int]:
    """Return the wizard's profit preview: margin in cents and as a percent of the price.

    The caller passes the price the product sells at (the sale price when it is a discount,
    else the regular price). The percent is the margin over the selling price, rounded half up
    to a whole percent; it is negative when selling below cost and 0 for a price of 0.

    Examples:
        >>> profit_margin(2000, 800), profit_margin(1500, 1000), profit_margin(1000, 1500)
        ((1200, 60), (500, 33), (-500, -50))

    Args:
        price_cents: The selling price.
        cost_cents: The cost price.

    Returns:
        ``(margin_cents, percent)``.
    """
    require_cents(price_cents, "price_cents")
    require_cents(cost_cents, "cost_cents")
    margin = price_cents - cost_cents
    if price_cents <= 0:
        return margin, 0
    return margin, round_half_up_div(margin * 100, price_cents)
