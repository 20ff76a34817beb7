"""The Store Settings form's "Shipping Zones" section: its fields, and the zones it describes.

- **One row per zone**, numbered from 0 (:func:`zone_fields`): its name, its flat rate and the
  subtotal from which it ships free (dollars, typed as text; empty: never free), and an "Active"
  switch. The form shows the stored zones and, below :data:`~shop_app.domain.shipping.MAX_ZONES`,
  one empty row more: naming it adds a zone.
- **One select per country** (:func:`country_zone_field`): the zone it belongs to, or "Not
  shipped". A country is therefore in one zone at most, by construction.
- A zone whose name is cleared and that holds no country is removed. A zone with countries needs
  a name; names are unique (ignoring case); rates are amounts from $0.00 to $1,000.00.
- At least one active zone must hold a country, or the shop would refuse every order.

Every problem is reported at once, under its own field (``errors``), and nothing is saved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.countries import COUNTRIES
from shop_app.domain.form_input import switch, text
from shop_app.domain.free_text import one_line
from shop_app.domain.money import format_plain, parse_dollars
from shop_app.domain.shipping import (
    MAX_RATE_CENTS,
    MAX_ZONES,
    ZONE_NAME_MAX,
    ShippingZone,
    ShippingZones,
    active_zones,
)

ZONES_FIELD: Final = "shipping_zones"
"""Where the section's own error goes (no active zone with a country)."""


@dataclass(frozen=True, slots=True)
class ZoneFields:
    """The form fields of zone row ``index``."""

    index: int

    @property
    def name(self) -> str:
        return f"zone_name__{self.index}"

    @property
    def flat(self) -> str:
        return f"zone_flat__{self.index}"

    @property
    def free_from(self) -> str:
        return f"zone_free__{self.index}"

    @property
    def active(self) -> str:
        return f"zone_active__{self.index}"

    @property
    def value(self) -> str:
        """What a country's select sends for this zone."""
        return str(self.index)


def zone_fields(index: int) -> ZoneFields:
    """The fields of zone row ``index``.

    Examples:
        >>> fields = zone_fields(2)
        >>> fields.name, fields.flat, fields.free_from, fields.active
        ('zone_name__2', 'zone_flat__2', 'zone_free__2', 'zone_active__2')
    """
    return ZoneFields(index)


def country_zone_field(country: str) -> str:
    """The select that puts ``country`` in a zone.

    Examples:
        >>> country_zone_field("United States"), country_zone_field("Costa Rica")
        ('ship_zone__united_states', 'ship_zone__costa_rica')
    """
    return "ship_zone__" + re.sub(r"[^a-z0-9]+", "_", country.lower()).strip("_")


def zone_form(zones: ShippingZones) -> tuple[dict[str, str], tuple[str, ...]]:
    """The form's texts for ``zones`` (names, rates, each country's zone), and the names of the
    "Active" switches that are on.

    Examples:
        >>> from shop_app.domain.shipping import DEFAULT_ZONES
        >>> texts, active = zone_form(DEFAULT_ZONES)
        >>> texts["zone_flat__0"], texts["zone_free__2"], texts["ship_zone__canada"], active
        ('15.00', '', '0', ('zone_active__0', 'zone_active__1'))
    """
    texts: dict[str, str] = {country_zone_field(country): "" for country in COUNTRIES}
    active: list[str] = []
    for index, zone in enumerate(zones):
        fields = zone_fields(index)
        texts[fields.name] = zone.name
        texts[fields.flat] = format_plain(zone.flat_cents)
        texts[fields.free_from] = "" if zone.free_from_cents is None else format_plain(zone.free_from_cents)
        for country in zone.countries:
            texts[country_zone_field(country)] = fields.value
        if zone.active:
            active.append(fields.active)
    return texts, tuple(active)


def zone_rows(zones: Sequence[ShippingZone]) -> int:
    """How many rows the form shows: the zones, and an empty one while there is room."""
    return min(len(zones) + 1, MAX_ZONES)


def parse_zones(form: Mapping[str, object], errors: dict[str, str]) -> ShippingZones:
    """The zones the form describes; each problem is added to ``errors`` under its field."""
    problems = len(errors)
    members: dict[str, list[str]] = {}
    for country in COUNTRIES:
        members.setdefault(text(form, country_zone_field(country)), []).append(country)
    zones: list[ShippingZone] = []
    names: set[str] = set()
    for index in range(MAX_ZONES):
        fields = zone_fields(index)
        name = one_line(form.get(fields.name))
        countries = tuple(members.get(fields.value, ()))
        if not name:
            if countries:
                errors[fields.name] = StoreSettingsMessage.ZONE_NAME_REQUIRED.value
            continue  # an empty row, or a zone removed
        if len(name) > ZONE_NAME_MAX:
            errors[fields.name] = StoreSettingsMessage.TOO_LONG.format(n=ZONE_NAME_MAX)
        elif name.casefold() in names:
            errors[fields.name] = StoreSettingsMessage.ZONE_NAME_TAKEN.value
        names.add(name.casefold())
        flat = _amount(form, fields.flat, errors, required=True)
        free_from = _amount(form, fields.free_from, errors, required=False)
        if any(field in errors for field in (fields.name, fields.flat, fields.free_from)):
            continue
        zones.append(ShippingZone(name, countries, flat or 0, free_from, active=switch(form, fields.active)))
    if not active_zones(zones) and len(errors) == problems:  # no zone of the form is in error
        errors[ZONES_FIELD] = StoreSettingsMessage.SHIPPING_COUNTRIES_REQUIRED.value
    return tuple(zones)


def _amount(form: Mapping[str, object], name: str, errors: dict[str, str], *, required: bool) -> int | None:
    typed = text(form, name)
    if not typed and not required:
        return None
    try:
        cents = parse_dollars(typed)
    except ValueError:
        cents = None
    if cents is None or cents > MAX_RATE_CENTS:
        errors[name] = StoreSettingsMessage.SHIPPING_AMOUNT_INVALID.value
        return None
    return cents
