"""Shipping zones and rates (issue 19, acceptance 2; docs/spec/cart.md#totals).

The seed charges a flat 15.00 whatever the country, free from a subtotal of 100.00. Here the owner
groups the countries of the checkout's list (:data:`~shop_app.domain.countries.COUNTRIES`) into
zones, each with its own flat rate and free-shipping threshold, and switches zones on or off:

- **A country belongs to one zone at most.** The shop ships to the countries of its active zones:
  checkout offers only those, and the FAQ and shipping texts name them (:func:`ship_countries`,
  :func:`shipping_terms`).
- **An order's shipping is its zone's rule** (:func:`shipping_for`): free from the zone's
  threshold (inclusive, on the subtotal before any discount code; a zone without one never ships
  free), else the flat rate; an empty cart costs nothing.
- **Before an address is known** (the cart), the shop's own country's zone prices the cart, or the
  first active zone when that one is off (:func:`default_zone`).
- **Default** (:data:`DEFAULT_ZONES`): Canada and the United States at 15.00, free from 100.00,
  the seed's rule; an "International" zone with every other country, 35.00 and never free, off
  until the owner switches it on.

The zones are stored as JSON in the store settings row (:func:`zones_to_json`) and always read
back through :func:`zones_from_json`, which drops what is not valid so that a hand-edited row can
neither ship to an unlisted country nor charge a negative rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from shop_app.domain.addresses import CANADA
from shop_app.domain.countries import COUNTRIES, canonical_country, countries_phrase
from shop_app.domain.messages import DisplayText
from shop_app.domain.money import format_cents

MAX_ZONES: Final = 8
"""The most zones the settings keep (the form shows one empty row more while below it)."""
ZONE_NAME_MAX: Final = 40
MAX_RATE_CENTS: Final = 100_000
"""The highest flat rate or threshold the form accepts: $1,000.00 (a typo guard)."""


@dataclass(frozen=True, slots=True)
class ShippingZone:
    """A group of countries sharing one shipping rule."""

    name: str
    countries: tuple[str, ...]  # names of COUNTRIES, in that list's order
    flat_cents: int
    free_from_cents: int | None  # the subtotal from which shipping is free; None: never free
    active: bool = True

    def __post_init__(self) -> None:
        if not self.name or len(self.name) > ZONE_NAME_MAX:
            raise ValueError("a zone needs a name of at most 40 characters")
        for cents in (self.flat_cents, self.free_from_cents):
            if cents is not None and (type(cents) is not int or not 0 <= cents <= MAX_RATE_CENTS):
                raise ValueError("a zone's rates are whole cents from 0 to 100000")

    def charge(self, subtotal_cents: int) -> int:
        """The shipping of an order of ``subtotal_cents`` (before any discount) to this zone; an
        empty cart costs nothing, which is the caller's rule (:func:`~shop_app.domain.totals.compute_totals`).

        Examples:
            >>> zone = ShippingZone("Canada", ("Canada",), 1500, 10_000)
            >>> zone.charge(9_999), zone.charge(10_000), zone.charge(0)
            (1500, 0, 1500)
        """
        if self.free_from_cents is not None and subtotal_cents >= self.free_from_cents:
            return 0
        return self.flat_cents

    def away_from_free(self, subtotal_cents: int) -> int | None:
        """How much more the cart needs to ship free: ``None`` when it never will in this zone
        (no threshold, or a flat rate of 0, which is free already), 0 once it does.

        Examples:
            >>> zone = ShippingZone("Canada", ("Canada",), 1500, 10_000)
            >>> zone.away_from_free(6_550), zone.away_from_free(12_000)
            (3450, 0)
            >>> ShippingZone("Far", ("Japan",), 3500, None).away_from_free(100) is None
            True
        """
        if self.free_from_cents is None or self.flat_cents == 0:
            return None
        return max(self.free_from_cents - subtotal_cents, 0)


ShippingZones = tuple[ShippingZone, ...]

_NORTH_AMERICA: Final = ("Canada", "United States")
DEFAULT_ZONES: Final[ShippingZones] = (
    ShippingZone("Canada", ("Canada",), 1500, 10_000),
    ShippingZone("United States", ("United States",), 1500, 10_000),
    ShippingZone(
        "International",
        tuple(country for country in COUNTRIES if country not in _NORTH_AMERICA),
        3500,
        None,
        active=False,
    ),
)
"""The seed's rule for Canada and the United States; everywhere else listed but off."""


def active_zones(zones: Iterable[ShippingZone]) -> ShippingZones:
    """The zones the shop ships to now (switched on, with a country at least)."""
    return tuple(zone for zone in zones if zone.active and zone.countries)


def ship_countries(zones: Iterable[ShippingZone]) -> tuple[str, ...]:
    """The countries of the active zones, in the order of :data:`COUNTRIES`.

    Examples:
        >>> ship_countries(DEFAULT_ZONES)
        ('United States', 'Canada')
    """
    shipped = {country for zone in active_zones(zones) for country in zone.countries}
    return tuple(country for country in COUNTRIES if country in shipped)


def zone_of(zones: Iterable[ShippingZone], country: str) -> ShippingZone | None:
    """The active zone ``country`` ships in (any spelling :func:`canonical_country` reads).

    Examples:
        >>> zone_of(DEFAULT_ZONES, "canada").name, zone_of(DEFAULT_ZONES, "Japan")
        ('Canada', None)
    """
    name = canonical_country(country)
    return next((zone for zone in active_zones(zones) if name in zone.countries), None)


def default_zone(zones: Iterable[ShippingZone]) -> ShippingZone | None:
    """The zone a cart is priced for before its address is known: the shop's own country's
    zone, else the first active one (``None`` when the shop ships nowhere)."""
    active = active_zones(zones)
    return zone_of(active, CANADA) or (active[0] if active else None)


def shipping_for(zones: Iterable[ShippingZone], country: str | None) -> ShippingZone | None:
    """The zone that prices an order to ``country``: its own, or (not shipped there, or not
    known yet) the :func:`default_zone`. Checkout refuses an address outside every zone.

    Examples:
        >>> shipping_for(DEFAULT_ZONES, "United States").name, shipping_for(DEFAULT_ZONES, None).name
        ('United States', 'Canada')
    """
    zones = tuple(zones)
    return (zone_of(zones, country) if country else None) or default_zone(zones)


def free_shipping_note(cents_away: int | None) -> str:
    """What the cart says about free shipping (:meth:`ShippingZone.away_from_free`'s figure).

    Examples:
        >>> free_shipping_note(3450), free_shipping_note(0), free_shipping_note(None)
        ('$34.50 away from free shipping', 'Your order ships free.', '')
    """
    if cents_away is None:
        return ""
    if cents_away == 0:
        return DisplayText.FREE_SHIPPING_REACHED.value
    return DisplayText.FREE_SHIPPING_AWAY.format(amount=format_cents(cents_away))


def shipping_terms(zones: Iterable[ShippingZone]) -> str:
    """The shipping rule in a sentence for the FAQ, the terms and the product page.

    Examples:
        >>> shipping_terms(DEFAULT_ZONES)
        'Shipping is a flat $15.00 per order, free on orders of $100.00 or more.'
        >>> far = ShippingZone("Overseas", ("Japan", "France"), 3500, None)
        >>> for part in shipping_terms((*DEFAULT_ZONES[:2], far)).split("; "):
        ...     print(part)
        Shipping is $15.00 per order to Canada and the United States, free on orders of $100.00 or more
        $35.00 per order to France and Japan.
    """
    rules: dict[tuple[int, int | None], list[str]] = {}
    for zone in active_zones(zones):
        rule = (zone.flat_cents, None if zone.flat_cents == 0 else zone.free_from_cents)
        rules.setdefault(rule, []).extend(zone.countries)
    if not rules:
        return ""
    if len(rules) == 1:
        ((flat, free_from),) = rules
        return "Shipping is free." if flat == 0 else f"Shipping is a flat {_rule(flat, free_from)}."
    parts = []
    for (flat, free_from), countries in rules.items():
        to = countries_phrase(countries)
        parts.append(f"free to {to}" if flat == 0 else _rule(flat, free_from, to))
    return f"Shipping is {'; '.join(parts)}."


def _rule(flat: int, free_from: int | None, to: str = "") -> str:
    where = f" to {to}" if to else ""
    free = f", free on orders of {format_cents(free_from)} or more" if free_from is not None else ""
    return f"{format_cents(flat)} per order{where}{free}"


def zones_to_json(zones: Iterable[ShippingZone]) -> list[dict[str, Any]]:
    """The zones as the store settings row keeps them.

    Examples:
        >>> zones_to_json(DEFAULT_ZONES[:1])  # doctest: +NORMALIZE_WHITESPACE
        [{'name': 'Canada', 'countries': ['Canada'], 'flat_cents': 1500, 'free_from_cents': 10000,
          'active': True}]
    """
    return [
        {
            "name": zone.name,
            "countries": list(zone.countries),
            "flat_cents": zone.flat_cents,
            "free_from_cents": zone.free_from_cents,
            "active": zone.active,
        }
        for zone in zones
    ]


def zones_from_json(stored: object) -> ShippingZones:
    """The zones a store settings row keeps; :data:`DEFAULT_ZONES` for none (``NULL``).

    A zone that is not valid is left out; a country is kept in the first zone naming it only,
    and unlisted names are dropped. When nothing valid is left active, the default applies rather
    than a shop that refuses every order.

    Examples:
        >>> zones = zones_from_json([{"name": "Home", "countries": ["canada", "Atlantis"],
        ...     "flat_cents": 900, "free_from_cents": None, "active": True},
        ...     {"name": "Bad", "countries": ["Japan"], "flat_cents": -1}])
        >>> [(zone.name, zone.countries, zone.free_from_cents) for zone in zones]
        [('Home', ('Canada',), None)]
        >>> zones_from_json(None) == zones_from_json("nonsense") == DEFAULT_ZONES
        True
    """
    if not isinstance(stored, Sequence) or isinstance(stored, str):
        return DEFAULT_ZONES
    zones: list[ShippingZone] = []
    taken: set[str] = set()
    for item in stored[:MAX_ZONES]:
        zone = _zone_from_json(item, taken)
        if zone is not None and all(zone.name != other.name for other in zones):
            zones.append(zone)
            taken.update(zone.countries)
    return tuple(zones) if active_zones(zones) else DEFAULT_ZONES


def _zone_from_json(item: object, taken: set[str]) -> ShippingZone | None:
    if not isinstance(item, Mapping) or not isinstance(item.get("countries"), list):
        return None
    named = {canonical_country(name) for name in item["countries"] if isinstance(name, str)}
    try:
        return ShippingZone(
            name=str(item["name"]).strip(),
            countries=tuple(country for country in COUNTRIES if country in named and country not in taken),
            flat_cents=item["flat_cents"],
            free_from_cents=item.get("free_from_cents"),
            active=item.get("active") is True,
        )
    except (KeyError, TypeError, ValueError):
        return None
