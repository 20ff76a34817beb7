"""Shipping zones for tests: a store settings row's ``shipping_zones`` in one call."""

from __future__ import annotations

from typing import Any

from shop_app.domain.countries import canonical_country
from shop_app.domain.shipping import ShippingZone, zones_to_json


def ships_to(
    *countries: str, flat_cents: int = 1500, free_from_cents: int | None = 10_000
) -> list[dict[str, Any]]:
    """Zones (stored form) that ship to ``countries`` only, one zone with the seed's rule by default."""
    names = tuple(canonical_country(country) or country for country in countries)
    return zones_to_json((ShippingZone("Test zone", names, flat_cents, free_from_cents),))
