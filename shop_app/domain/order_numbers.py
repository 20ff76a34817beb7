"""Order numbers: short, readable, unguessable (docs/architecture.md#orders-and-payment;
docs/spec/README.md#gaps).

Format: ``CE-20261121-7K3QX9``

- ``CE``: a fixed prefix (Cedar & Ember). It does not follow the brand name in the store
  settings, so a renamed shop keeps one recognisable format.
- ``20261121``: the shop's calendar date (British Columbia) when the order was placed.
- ``7K3QX9``: 6 characters drawn with a cryptographic random source from a 32-symbol alphabet
  without the look-alikes ``0``/``O`` and ``1``/``I``. That is 30 random bits per day: a number
  cannot be guessed from another one, and a receipt is only shown when the order id matches too.

Uniqueness is not this module's job: the ``orders.order_number`` column is unique and the
placing service draws a new number when an insert collides.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import Final, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

ORDER_NUMBER_PREFIX: Final = "CE"
ALPHABET: Final = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""32 symbols: digits 2-9 and the capital letters without ``I`` and ``O``."""
RANDOM_LENGTH: Final = 6
SHOP_TIME_ZONE_NAME: Final = "America/Vancouver"

_PATTERN: Final = re.compile(rf"[A-Z]{{2,5}}-\d{{8}}-[{ALPHABET}]{{{RANDOM_LENGTH}}}")


class RandomSource(Protocol):
    """Anything with ``choice``: :class:`secrets.SystemRandom` (default) or a seeded
    :class:`random.Random` in tests."""

    def choice(self, seq: Sequence[str], /) -> str:
        """Return one element of ``seq``."""
        ...


def _shop_time_zone() -> tzinfo:
    try:
        return ZoneInfo(SHOP_TIME_ZONE_NAME)
    except ZoneInfoNotFoundError:  # no time zone database on this machine
        return UTC


SHOP_TIME_ZONE: Final = _shop_time_zone()

_SYSTEM_RANDOM: Final = secrets.SystemRandom()


def new_order_number(
    now: datetime,
    random_source: RandomSource | None = None,
    *,
    prefix: str = ORDER_NUMBER_PREFIX,
    time_zone: tzinfo | None = None,
) -> str:
    """Return a new order number for an order placed at ``now``.

    Examples:
        >>> import random
        >>> new_order_number(datetime(2026, 11, 21, 18, 0, tzinfo=UTC), random.Random(7))
        'CE-20261121-...'
        >>> new_order_number(datetime(2026, 11, 22, 3, 0, tzinfo=UTC), random.Random(7))[:11]
        'CE-20261121'

    Args:
        now: The moment of placing; a naive datetime is read as UTC.
        random_source: Where the random characters come from; a cryptographic source by default.
        prefix: Two to five capital letters.
        time_zone: The shop's time zone (British Columbia by default).

    Returns:
        ``PREFIX-YYYYMMDD-XXXXXX``.

    Raises:
        ValueError: If the prefix is not 2 to 5 capital letters.
    """
    if not re.fullmatch(r"[A-Z]{2,5}", prefix):
        msg = "prefix must be 2 to 5 capital letters"
        raise ValueError(msg)
    aware = now if now.tzinfo is not None else now.replace(tzinfo=UTC)
    local_date = aware.astimezone(time_zone or SHOP_TIME_ZONE).date()
    source = random_source or _SYSTEM_RANDOM
    suffix = "".join(source.choice(ALPHABET) for _ in range(RANDOM_LENGTH))
    return f"{prefix}-{local_date:%Y%m%d}-{suffix}"


_TYPED: Final = re.compile(rf"([A-Z]{{2,5}})[\s-]*(\d{{8}})[\s-]*([{ALPHABET}]{{{RANDOM_LENGTH}}})")


def normalize_order_number(text: str) -> str:
    """Return a typed order number as stored: trimmed, upper case, its dashes where they belong
    (typed without them, or with spaces, as people copy numbers).

    Examples:
        >>> normalize_order_number("  ce-20261121-7k3qx9 ")
        'CE-20261121-7K3QX9'
        >>> normalize_order_number("CE20261121 7K3QX9")
        'CE-20261121-7K3QX9'
        >>> normalize_order_number("not a number")
        'NOT A NUMBER'
    """
    upper = text.strip().upper()
    typed = _TYPED.fullmatch(upper)
    return "-".join(typed.groups()) if typed else upper


def is_order_number(text: str) -> bool:
    """Return whether ``text`` has the shape of an order number (exactly, no normalising).

    Examples:
        >>> is_order_number("CE-20261121-7K3QX9"), is_order_number("CE-20261121-7K3QX0")
        (True, False)
    """
    return _PATTERN.fullmatch(text) is not None
