"""What the grouped view's Add Scent dialog stores for what was typed
(docs/spec/admin-products.md#add-scent), and the list filters' category ids.

The dialog sends text; these pure rules turn it into stored values the way the seed does:
unparsable numbers become 0, a sale price of 0 or less is null, an empty category is null. (The
three product editors are held to ``domain.product_editing`` instead.)
"""

from __future__ import annotations

from shop_app.domain.money import parse_dollars


def price_or_zero(text: str) -> int:
    """A typed dollar amount in cents; what does not parse (or is negative) is 0."""
    try:
        return parse_dollars(text)
    except (TypeError, ValueError):
        return 0


def count_or_zero(text: str) -> int:
    """A typed whole number; what does not parse is 0, and stock never goes below 0."""
    try:
        return max(0, int(str(text).strip()))
    except ValueError:
        return 0


def id_or_none(text: str | int | None) -> int | None:
    """A category id from a select: empty (or not a number) means none."""
    try:
        return int(str(text).strip()) if text not in (None, "") else None
    except ValueError:
        return None


def sale_price_or_none(text: str) -> int | None:
    """A sale price of 0 or less (or unparsable) is stored as null."""
    cents = price_or_zero(text)
    return cents if cents > 0 else None
