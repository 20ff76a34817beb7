"""What a checkout page showed: its cart's lines and total, reduced to one comparable text.

The checkout summary (``services.checkout.quote``) and the order placement (``reprice``, inside
the order's transaction) price the same cart from the database. A tab keeps the text of what it
showed; placing its order compares it with the cart as the transaction reads it, so a cart
changed since (in another tab or window, or a price changed by the shop) is never charged at an
amount the shopper did not see on the Place Order button.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Protocol


class ShownLine(Protocol):
    """A priced cart line (the summary's ``CartLineView`` or the order's ``OrderLine``)."""

    @property
    def product_id(self) -> int: ...

    @property
    def selected_options(self) -> Mapping[str, str]: ...

    @property
    def quantity(self) -> int: ...

    @property
    def unit_price_cents(self) -> int: ...


def shown_cart(lines: Iterable[ShownLine], total_cents: int) -> str:
    """The lines (product, options, quantity, unit price; in any order) and the total as one text.

    Two carts give the same text exactly when they would be ordered and charged the same.
    """
    rows = sorted(
        [line.product_id, sorted(dict(line.selected_options).items()), line.quantity, line.unit_price_cents]
        for line in lines
    )
    return json.dumps({"lines": rows, "total_cents": total_cents}, separators=(",", ":"))
