"""Carrier tracking links for shipped orders (docs/spec/README.md#gaps: "Track Package" opens the carrier).

The back office stores a tracking number and, optionally, the carrier that took the parcel. The
order history turns them into a link to the carrier's public tracking page. When no carrier was
chosen, the carrier is guessed from the shape of the number; when the shape is ambiguous or
unknown there is no link (the number is still shown as text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Final
from urllib.parse import quote


class Carrier(StrEnum):
    """Carriers we link to. The value is the name stored on the order and shown in the dropdown."""

    CANADA_POST = "Canada Post"
    UPS = "UPS"
    FEDEX = "FedEx"
    USPS = "USPS"
    PUROLATOR = "Purolator"


CARRIERS: Final[tuple[str, ...]] = tuple(carrier.value for carrier in Carrier)
"""Carrier names for the back office dropdown, in display order (none of them is empty)."""

TRACKING_PAGES: Final[Mapping[Carrier, str]] = MappingProxyType(
    {
        Carrier.CANADA_POST: "https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={n}",
        Carrier.UPS: "https://www.ups.com/track?tracknum={n}",
        Carrier.FEDEX: "https://www.fedex.com/fedextrack/?trknbr={n}",
        Carrier.USPS: "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}",
        Carrier.PUROLATOR: "https://www.purolator.com/en/shipping/tracker?pin={n}",
    }
)
"""Public tracking page per carrier; ``{n}`` is the URL-encoded tracking number."""

# Number shapes used to guess the carrier when none was chosen. Purolator's 12-digit PINs look
# like FedEx numbers, so Purolator is never guessed: it needs the carrier to be given.
_GUESSES: Final[tuple[tuple[re.Pattern[str], Carrier], ...]] = (
    (re.compile(r"1Z[0-9A-Z]{16}", re.ASCII), Carrier.UPS),
    (re.compile(r"[0-9]{16}|[A-Z]{2}[0-9]{9}CA", re.ASCII), Carrier.CANADA_POST),
    (re.compile(r"9[0-9]{19,21}", re.ASCII), Carrier.USPS),
    (re.compile(r"[0-9]{12}|[0-9]{15}", re.ASCII), Carrier.FEDEX),
)

_NOT_ALNUM: Final = re.compile(r"[^0-9a-z]+")


def normalize_tracking_number(tracking_number: str | None) -> str:
    """Return the number without any whitespace, upper-cased ("1z 999 aa1" -> "1Z999AA1").

    Examples:
        >>> normalize_tracking_number(" 1z 999aa1 0123 4567 84 ")
        '1Z999AA10123456784'
        >>> normalize_tracking_number(None)
        ''
    """
    return "".join((tracking_number or "").split()).upper()


def carrier_from_name(name: str | None) -> Carrier | None:
    """Return the carrier a stored or typed name means, or ``None`` if it is not one we know.

    Case, spaces and punctuation are ignored, so ``"canada_post"`` and ``"Canada Post"`` match.

    Examples:
        >>> carrier_from_name("canada-post"), carrier_from_name("fedex"), carrier_from_name("DHL")
        (<Carrier.CANADA_POST: 'Canada Post'>, <Carrier.FEDEX: 'FedEx'>, None)
    """
    key = _NOT_ALNUM.sub("", (name or "").casefold())
    for carrier in Carrier:
        if _NOT_ALNUM.sub("", carrier.value.casefold()) == key:
            return carrier
    return None


def guess_carrier(tracking_number: str | None) -> Carrier | None:
    """Guess the carrier from the shape of a tracking number; ``None`` when it cannot tell.

    Shapes: UPS "1Z" + 16 letters or digits; Canada Post 16 digits, or 2 letters + 9 digits +
    "CA"; USPS 20 to 22 digits starting with 9; FedEx 12 or 15 digits. Purolator is never
    guessed (its 12-digit PINs clash with FedEx).

    Examples:
        >>> guess_carrier("1Z999AA10123456784"), guess_carrier("RR123456789CA")
        (<Carrier.UPS: 'UPS'>, <Carrier.CANADA_POST: 'Canada Post'>)
        >>> guess_carrier("123456789012"), guess_carrier("ABC")
        (<Carrier.FEDEX: 'FedEx'>, None)
    """
    number = normalize_tracking_number(tracking_number)
    for pattern, carrier in _GUESSES:
        if pattern.fullmatch(number):
            return carrier
    return None


def tracking_url(tracking_number: str | None, carrier: str | None = None) -> str | None:
    """Return the carrier's public tracking page for a number, or ``None``.

    Whitespace is removed from the number and it is URL-encoded. With a ``carrier`` (a name of
    :data:`CARRIERS`, matched loosely) the link goes to that carrier whatever the number looks
    like; an unknown carrier name gives ``None`` rather than a guess that could point a customer
    to the wrong company. Without a carrier, :func:`guess_carrier` decides.

    Examples:
        >>> tracking_url("1Z 999 AA1 0123 4567 84")
        'https://www.ups.com/track?tracknum=1Z999AA10123456784'
        >>> tracking_url("123456789012", "Purolator")
        'https://www.purolator.com/en/shipping/tracker?pin=123456789012'
        >>> tracking_url("123456789012", "DHL") is None, tracking_url("  ") is None
        (True, True)

    Args:
        tracking_number: The number as entered in the back office.
        carrier: The carrier stored on the order, or ``None``/``""`` when not chosen.

    Returns:
        The URL, or ``None`` when there is no number or the carrier cannot be told.
    """
    number = normalize_tracking_number(tracking_number)
    if not number:
        return None
    chosen = carrier_from_name(carrier) if carrier and carrier.strip() else guess_carrier(number)
    if chosen is None:
        return None
    return TRACKING_PAGES[chosen].format(n=quote(number, safe=""))
