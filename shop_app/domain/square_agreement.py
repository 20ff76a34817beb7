"""Which side changed a product since the shop and Square last agreed on it (docs/spec/square.md#sync).

The shop owns names, descriptions and prices; Square is where the owner may also rename or
reprice an item at the till. Each linked product keeps a fingerprint of what Square held after
they last agreed (the values the shop pushed, or the values a sync found equal on both sides).
At the next "Sync from Square":

- both sides equal: nothing to do (the fingerprint is renewed);
- only Square changed (the shop still has what Square had): take Square's values;
- the shop changed, or both did, or nothing is known (no fingerprint yet): keep the shop's values
  and say so; an owner's edit is never silently undone.

Examples:
    >>> pushed = fingerprint("Cedar Candle", "Warm.", 3000)
    >>> decide(shop=pushed, square=fingerprint("Cedar Candle", "Warm.", 3200), known=pushed)
    <Agreement.TAKE_SQUARES: 'take_squares'>
    >>> decide(shop=fingerprint("Cedar Candle", "Warm.", 2800), square=pushed, known=pushed)
    <Agreement.KEEP_SHOPS: 'keep_shops'>
    >>> decide(shop=pushed, square=pushed, known=None)
    <Agreement.EQUAL: 'equal'>
"""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum


class Agreement(StrEnum):
    """What a sync does with one linked product."""

    EQUAL = "equal"
    TAKE_SQUARES = "take_squares"
    KEEP_SHOPS = "keep_shops"


def fingerprint(name: str, description: str, price_cents: int | None) -> str:
    """A digest of the fields the shop and Square share (64 hex characters)."""
    shared = json.dumps([name.strip(), description, price_cents], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(shared.encode()).hexdigest()


def decide(*, shop: str, square: str, known: str | None) -> Agreement:
    """What to do, from the fingerprints of the shop's values, Square's, and the last agreed."""
    if shop == square:
        return Agreement.EQUAL
    if known is not None and shop == known:
        return Agreement.TAKE_SQUARES
    return Agreement.KEEP_SHOPS


NAMES_SHOWN = 5


def kept_names(names: tuple[str, ...] | list[str]) -> str:
    """The products a sync kept, for a message: at most five names, then how many more.

    Examples:
        >>> kept_names(["A", "B"])
        'A, B'
        >>> kept_names([str(n) for n in range(7)])
        '0, 1, 2, 3, 4 and 2 more'
    """
    shown = ", ".join(names[:NAMES_SHOWN])
    rest = len(names) - NAMES_SHOWN
    return f"{shown} and {rest} more" if rest > 0 else shown
