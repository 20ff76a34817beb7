"""Countries of the checkout form (docs/spec/checkout.md#validation) and where the shop ships
(docs/spec/README.md#purpose).

The seed's checkout offers a fixed list of 60 countries (the four the shop sells to most, then
the rest in alphabetical order) and charges the same flat shipping whatever the country, while
the shop's own texts say it ships to Canada and the United States. Here :data:`COUNTRIES` is the
list the owner chooses from: the store settings keep the countries the shop ships to
(:data:`DEFAULT_SHIPPING_COUNTRIES` until the owner changes them), and the checkout's country
list, its validation and the FAQ and shipping texts (:func:`countries_phrase`) all read that
setting, so what the shop says and what checkout accepts always agree (docs/spec/README.md#gaps).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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

DEFAULT_SHIPPING_COUNTRIES: Final[tuple[str, ...]] = ("United States", "Canada")
"""Where the shop ships until the owner says otherwise (in the order of :data:`COUNTRIES`)."""

_WITH_THE: Final = frozenset(
    {
        "Bahamas",
        "Czech Republic",
        "Dominican Republic",
        "Netherlands",
        "Philippines",
        "United Arab Emirates",
        "United Kingdom",
        "United States",
    }
)
"""Names said with "the" in a sentence ("We ship to the Netherlands")."""

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


def ships_to(name: str, countries: Sequence[str] = DEFAULT_SHIPPING_COUNTRIES) -> bool:
    """Return whether ``name`` is one of ``countries`` (the store settings' list) once canonical."""
    return canonical_country(name) in countries


def shipping_countries(names: Iterable[object]) -> tuple[str, ...]:
    """The listed countries among ``names``, once each, in the order of :data:`COUNTRIES`.

    What the store settings hold (a stored value is read through here too, so a hand-edited row
    with an unknown name or a duplicate cannot reach the checkout).

    Examples:
        >>> shipping_countries(["canada", "Atlantis", "United States", "Canada"])
        ('United States', 'Canada')
    """
    wanted = {canonical_country(name) for name in names if isinstance(name, str)}
    return tuple(country for country in COUNTRIES if country in wanted)


def countries_phrase(countries: Iterable[str]) -> str:
    """The countries in a sentence, alphabetically, with "the" where English says it.

    Examples:
        >>> countries_phrase(("United States", "Canada"))
        'Canada and the United States'
        >>> countries_phrase(("Canada", "United Kingdom", "Australia"))
        'Australia, Canada and the United Kingdom'
        >>> countries_phrase(("Canada",))
        'Canada'
    """
    names = [f"the {name}" if name in _WITH_THE else name for name in sorted(countries)]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
