"""What the back office's product dialogs store for what was typed (docs/spec/admin-products.md#edit).

The dialogs send text; these pure rules turn it into stored values the way the seed does:
unparsable numbers become 0, a sale price of 0 or less is null, an empty category is null.
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


def can_update(name: str, base_price: str) -> bool:
    """Whether Edit Product's Update is enabled: a name and a base price above 0."""
    return bool(name.strip()) and price_or_zero(base_price) > 0
