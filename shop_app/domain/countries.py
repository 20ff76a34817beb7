"""Countries of the checkout form (seed 000 §5) and where the shop ships (seed 000 §1).

The checkout's country list has 60 names: the four the shop sells to most, then the rest in
alphabetical order. The shop ships to Canada and the United States; the seed still lets the
form choose any listed country and charges the same flat shipping whatever the country, so
:func:`shop_app.domain.validation.validate_checkout` accepts every name in :data:`COUNTRIES`.
:data:`SHIPPING_COUNTRIES` is there for the day shipping is restricted.
"""

from __future__ import annotations

from typing import Final

DEFAULT_COUNTRY: Final = "United States"

COUNTRIES: Final[tuple[str, ...]] = (
    "United States",
    "Canada",
    "United Kingdom",
    "Australia",
    "Argentina",
    "Austria",
    "Bahamas",
    "Barbados",
    "Belgium",
    "Brazil",
    "Chile",
    "China",
    "Colombia",
    "Costa Rica",
    "Croatia",
    "Czech Republic",
    "Denmark",
    "Dominican Republic",
    "Egypt",
    "Estonia",
    "Finland",
    "France",
    "Germany",
    "Greece",
    "Hong Kong",
    "Hungary",
    "Iceland",
    "India",
    "Indonesia",
    "Ireland",
    "Israel",
    "Italy",
    "Jamaica",
    "Japan",
    "Lithuania",
    "Luxembourg",
    "Malaysia",
    "Mexico",
    "Netherlands",
    "New Zealand",
    "Norway",
    "Panama",
    "Peru",
    "Philippines",
    "Poland",
    "Portugal",
    "Romania",
    "Singapore",
    "South Africa",
    "South Korea",
    "Spain",
    "Sweden",
    "Switzerland",
    "Taiwan",
    "Thailand",
    "Trinidad and Tobago",
    "Turkey",
    "Ukraine",
    "United Arab Emirates",
    "Vietnam",
)

SHIPPING_COUNTRIES: Final[tuple[str, ...]] = ("Canada", "United States")

_BY_KEY: Final = {country.casefold(): country for country in COUNTRIES}


def canonical_country(name: str) -> str | None:
    """Return the listed spelling of a country name, ignoring case and surrounding spaces.

    Examples:
        >>> canonical_country(" canada "), canonical_country("Atlantis")
        ('Canada', None)

    Args:
        name: A country name as submitted.

    Returns:
        The name as in :data:`COUNTRIES`, or ``None`` if it is not listed.
    """
    return _BY_KEY.get(" ".join(name.split()).casefold())


def is_known_country(name: str) -> bool:
    """Return whether ``name`` is one of :data:`COUNTRIES` (ignoring case and spaces)."""
    return canonical_country(name) is not None


def ships_to(name: str) -> bool:
    """Return whether the shop ships to the country: Canada or the United States."""
    return canonical_country(name) in SHIPPING_COUNTRIES
