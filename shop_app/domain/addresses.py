"""Postal addresses and phone numbers: what checkout and the profile accept, and how they are stored.

The shop ships to the countries of its store settings (Canada and the United States unless the
owner changes them; :mod:`shop_app.domain.countries`). For those two the address is checked:

- **Canada**: the province or territory is one of the 13, by its two-letter code (``BC``), its
  English or French name (``British Columbia``, ``Colombie-Britannique``), case, accents, dots
  and hyphens ignored; it is stored as the code. The postal code has Canada Post's form
  ``A1A 1A1`` (no D, F, I, O, Q or U; no W or Z first), typed with or without the space, in any
  case; it is stored upper-cased with the space (``V5K 0A1``). Its first letter names the
  province (``V`` British Columbia, ``K``–``P`` Ontario …), so ``V5K 0A1`` with ``ON`` is
  refused with a message naming both; ``X`` serves both the Northwest Territories and Nunavut,
  and ``H0M`` (Akwesasne) lies in Quebec and Ontario.
- **United States**: one of the 50 states or the District of Columbia, by code or name, stored as
  the code (``WA``). The territories (Puerto Rico, Guam …) and military addresses are not in the
  list: the shop does not ship there. The ZIP code is ``12345`` or ``12345-6789`` (ZIP+4 typed
  with a space or without a separator is accepted), stored as ``12345`` or ``12345-6789``.

Another country the owner ships to keeps the seed's rule (both fields required) plus a sane
postal code: letters, digits, spaces and hyphens, 2 to 10 characters, stored upper-cased.

Phone numbers (optional at checkout, in the profile and at sign-up) may hold digits, spaces,
``+`` (first), ``-``, ``(``, ``)``, ``.`` and an extension (``x12``, ``ext. 12``, ``extension
12``); the number itself has 7 to 15 digits (E.164's maximum), the extension 1 to 6. Stored
the same way everywhere (:func:`normalize_phone`): a North American number as ``604-555-0123``
(a leading ``+1``/``1`` dropped, every such number is +1), any other as its digit groups
separated by single spaces (``+44 20 7946 0958``), an extension as `` ext. 12``.

Every function takes text already through :func:`shop_app.domain.free_text.one_line`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from shop_app.domain.messages import AddressMessage

CANADA: Final = "Canada"
UNITED_STATES: Final = "United States"

PROVINCES: Final[dict[str, str]] = {
    "AB": "Alberta",
    "BC": "British Columbia",
    "MB": "Manitoba",
    "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador",
    "NS": "Nova Scotia",
    "NT": "Northwest Territories",
    "NU": "Nunavut",
    "ON": "Ontario",
    "PE": "Prince Edward Island",
    "QC": "Quebec",
    "SK": "Saskatchewan",
    "YT": "Yukon",
}
"""Canada's 10 provinces and 3 territories by Canada Post's code."""

_PROVINCE_OTHER_NAMES: Final[dict[str, str]] = {
    "AB": "Alberta",
    "BC": "Colombie-Britannique",
    "NB": "Nouveau-Brunswick",
    "NL": "Terre-Neuve-et-Labrador",
    "NS": "Nouvelle-Écosse",
    "NT": "Territoires du Nord-Ouest",
    "PE": "Île-du-Prince-Édouard",
    "QC": "Québec",
    "YT": "Yukon Territory",
}
"""French names (and two common English ones) accepted as well."""
_PROVINCE_SHORT_NAMES: Final = (("NL", "Newfoundland"), ("PE", "PEI"), ("NL", "Nfld"))

US_STATES: Final[dict[str, str]] = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "DC": "District of Columbia",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
}
"""The 50 states and the District of Columbia by USPS code."""
_STATE_OTHER_NAMES: Final = (("DC", "Washington DC"), ("DC", "Washington D.C."), ("DC", "D.C."))

POSTAL_CODE_LETTERS: Final = "ABCEGHJKLMNPRSTVWXYZ"
"""Letters of Canadian postal codes (never D, F, I, O, Q, U)."""
POSTAL_CODE_FIRST_LETTERS: Final = "ABCEGHJKLMNPRSTVXY"
"""First letters in use (never W or Z)."""

_FIRST_LETTER_PROVINCES: Final[dict[str, frozenset[str]]] = {
    letter: frozenset(codes)
    for letters, codes in (
        ("A", {"NL"}),
        ("B", {"NS"}),
        ("C", {"PE"}),
        ("E", {"NB"}),
        ("GHJ", {"QC"}),
        ("KLMNP", {"ON"}),
        ("R", {"MB"}),
        ("S", {"SK"}),
        ("T", {"AB"}),
        ("V", {"BC"}),
        ("X", {"NT", "NU"}),
        ("Y", {"YT"}),
    )
    for letter in letters
}
"""The province or territory each first letter serves (Canada Post's postal districts)."""
_AREAS_ACROSS_PROVINCES: Final[dict[str, frozenset[str]]] = {"H0M": frozenset({"QC", "ON"})}
"""Forward sortation areas that cross a provincial border (Akwesasne)."""

_CA_POSTAL_CODE: Final = re.compile(
    f"[{POSTAL_CODE_FIRST_LETTERS}][0-9][{POSTAL_CODE_LETTERS}][0-9][{POSTAL_CODE_LETTERS}][0-9]"
)
_ZIP_CODE: Final = re.compile(r"([0-9]{5})(?:[ -]?([0-9]{4}))?", re.ASCII)
_OTHER_POSTAL_CODE: Final = re.compile(r"[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]", re.ASCII)

MIN_PHONE_DIGITS: Final = 7
MAX_PHONE_DIGITS: Final = 15
MAX_EXTENSION_DIGITS: Final = 6
MAX_PHONE_LENGTH: Final = 40
"""The phone columns' size: a stored number never exceeds it."""
_SPACED_NUMBER_LENGTH: Final = 24
"""Longer digit groups (``1 2 3 4 …``) are stored as one run of digits instead."""
_PHONE: Final = re.compile(
    r"(?P<plus>\+)?(?P<number>[0-9 ().-]*[0-9][0-9 ().-]*?)"
    r"(?:\s*(?:x|ext\.?|extension)\s*(?P<ext>[0-9]+))?",
    re.ASCII | re.IGNORECASE,
)


def address_lines(
    line1: str, line2: str, city: str, *, region: str, postal_code: str, country: str
) -> list[str]:
    """An address as printed: the street lines, "City, Region Postal code", the country (empty parts
    and lines left out)."""
    place = " ".join(part for part in (region, postal_code) if part)
    city_line = ", ".join(part for part in (city, place) if part)
    return [line for line in (line1, line2, city_line, country) if line]


def _key(text: str) -> str:
    """A region name compared loosely: no accents, case, dots, commas; hyphens and '&' as words."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    plain = plain.casefold().replace("&", " and ").replace("-", " ")
    return " ".join(plain.replace(".", "").replace(",", " ").split())


def _lookup(regions: dict[str, str], *others: tuple[tuple[str, str], ...] | dict[str, str]) -> dict[str, str]:
    table = {_key(code): code for code in regions} | {_key(name): code for code, name in regions.items()}
    for extra in others:
        pairs = extra.items() if isinstance(extra, dict) else extra
        table |= {_key(name): code for code, name in pairs}
    return table


_PROVINCE_KEYS: Final = _lookup(PROVINCES, _PROVINCE_OTHER_NAMES, _PROVINCE_SHORT_NAMES)
_STATE_KEYS: Final = _lookup(US_STATES, _STATE_OTHER_NAMES)


def province_code(text: str) -> str | None:
    """The code of a Canadian province or territory typed by code or name, else ``None``.

    Examples:
        >>> province_code("bc"), province_code("British Columbia"), province_code("Québec")
        ('BC', 'BC', 'QC')
        >>> province_code("Newfoundland & Labrador"), province_code("P.E.I."), province_code("Nowhere")
        ('NL', 'PE', None)
    """
    return _PROVINCE_KEYS.get(_key(text))


def state_code(text: str) -> str | None:
    """The code of a US state or DC typed by code or name, else ``None``.

    Examples:
        >>> state_code("wa"), state_code("New York"), state_code("Washington, D.C."), state_code("PR")
        ('WA', 'NY', 'DC', None)
    """
    return _STATE_KEYS.get(_key(text))


def canadian_postal_code(text: str) -> str | None:
    """A Canadian postal code as stored (``V5K 0A1``), or ``None`` if it does not have the form.

    Examples:
        >>> canadian_postal_code("v5k0a1"), canadian_postal_code(" V5K-0A1 "), canadian_postal_code("ABCDEFG")
        ('V5K 0A1', 'V5K 0A1', None)
    """
    compact = "".join(text.split()).replace("-", "").upper()
    if not compact.isascii() or not _CA_POSTAL_CODE.fullmatch(compact):
        return None
    return f"{compact[:3]} {compact[3:]}"


def postal_code_serves(postal_code: str, province: str) -> bool:
    """Whether a (normalised) Canadian postal code lies in the province (by its first letter).

    Examples:
        >>> postal_code_serves("V5K 0A1", "BC"), postal_code_serves("V5K 0A1", "ON")
        (True, False)
        >>> postal_code_serves("X0A 0H0", "NU"), postal_code_serves("H0M 1A0", "ON")
        (True, True)
    """
    area = _AREAS_ACROSS_PROVINCES.get(postal_code[:3])
    if area is not None:
        return province in area
    return province in _FIRST_LETTER_PROVINCES.get(postal_code[:1], frozenset())


def zip_code(text: str) -> str | None:
    """A US ZIP code as stored (``98101`` or ``98101-1234``), or ``None``.

    Examples:
        >>> zip_code(" 98101 "), zip_code("981011234"), zip_code("98101 1234"), zip_code("9810")
        ('98101', '98101-1234', '98101-1234', None)
    """
    match = _ZIP_CODE.fullmatch(text.strip())
    if match is None:
        return None
    return f"{match[1]}-{match[2]}" if match[2] else match[1]


def other_postal_code(text: str) -> str | None:
    """A postal code of another country as stored (upper-cased, single spaces), or ``None``.

    Examples:
        >>> other_postal_code("sw1a 1aa"), other_postal_code("75008"), other_postal_code("<b>")
        ('SW1A 1AA', '75008', None)
    """
    compact = " ".join(text.split()).upper()
    return compact if _OTHER_POSTAL_CODE.fullmatch(compact) else None


def normalize_region(country: str, text: str) -> str:
    """The province or state as stored: the code in Canada and the United States when it is
    one, else the text unchanged (an unknown region is refused by :func:`address_problem`)."""
    if country == CANADA:
        return province_code(text) or text
    if country == UNITED_STATES:
        return state_code(text) or text
    return text


def normalize_postal_code(country: str, text: str) -> str:
    """The postal or ZIP code as stored when it has the country's form, else the text unchanged."""
    if country == CANADA:
        return canadian_postal_code(text) or text
    if country == UNITED_STATES:
        return zip_code(text) or text
    return other_postal_code(text) or text


def address_problem(country: str, region: str, postal_code: str) -> str | None:
    """The first problem of the province/state and postal/ZIP code for ``country``, or ``None``.

    ``country`` is the canonical name (as in the list); both texts are as typed (filled: the
    required-field check comes first). The region is checked before the postal code.

    Examples:
        >>> address_problem("Canada", "BC", "V5K 0A1") is None
        True
        >>> address_problem("Canada", "Nowhere", "V5K 0A1") == AddressMessage.PROVINCE_INVALID
        True
        >>> address_problem("Canada", "BC", "ABCDEFG") == AddressMessage.POSTAL_CODE_INVALID
        True
    """
    if country == CANADA:
        return _canadian_problem(region, postal_code)
    if country == UNITED_STATES:
        return _us_problem(region, postal_code)
    return None if other_postal_code(postal_code) else AddressMessage.OTHER_POSTAL_CODE_INVALID.value


def _canadian_problem(region: str, postal_code: str) -> str | None:
    province = province_code(region)
    if province is None:
        return AddressMessage.PROVINCE_INVALID.value
    code = canadian_postal_code(postal_code)
    if code is None:
        return AddressMessage.POSTAL_CODE_INVALID.value
    if not postal_code_serves(code, province):
        message = AddressMessage.POSTAL_CODE_NOT_IN_PROVINCE
        return message.format(postal_code=code, province=PROVINCES[province])
    return None


def _us_problem(region: str, postal_code: str) -> str | None:
    if state_code(region) is None:
        return AddressMessage.STATE_INVALID.value
    return None if zip_code(postal_code) else AddressMessage.ZIP_CODE_INVALID.value


def _phone_parts(text: str) -> tuple[bool, list[str], str] | None:
    """(leading +, digit groups, extension digits) of a phone number, or ``None`` if invalid."""
    match = _PHONE.fullmatch(text.strip())
    if match is None:
        return None
    digits = "".join(char for char in match["number"] if char.isdigit())
    extension = match["ext"] or ""
    if not MIN_PHONE_DIGITS <= len(digits) <= MAX_PHONE_DIGITS or len(extension) > MAX_EXTENSION_DIGITS:
        return None
    groups = re.findall(r"[0-9]+", match["number"])
    return bool(match["plus"]), groups, extension


def _north_american(plus: bool, digits: str) -> str | None:
    """The 10 digits of a North American (+1) number, or ``None``."""
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    elif plus or len(digits) != 10:
        return None
    return digits if digits[0] in "23456789" else None


def normalize_phone(text: str) -> str | None:
    """A phone number as stored everywhere, ``""`` for none, ``None`` if it is not a number.

    Examples:
        >>> normalize_phone("(604) 555-0123"), normalize_phone("+1 604.555.0123 ext 7")
        ('604-555-0123', '604-555-0123 ext. 7')
        >>> normalize_phone("+44 (20) 7946-0958"), normalize_phone("555 0123"), normalize_phone("")
        ('+44 20 7946 0958', '555-0123', '')
        >>> normalize_phone("not a phone !!!") is None, normalize_phone("12345") is None
        (True, True)
    """
    if not text.strip():
        return ""
    parts = _phone_parts(text)
    if parts is None:
        return None
    plus, groups, extension = parts
    digits = "".join(groups)
    local = _north_american(plus, digits)
    if local is not None:
        number = f"{local[:3]}-{local[3:6]}-{local[6:]}"
    elif len(digits) == MIN_PHONE_DIGITS and not plus:
        number = f"{digits[:3]}-{digits[3:]}"
    else:
        spaced = " ".join(groups)
        number = ("+" if plus else "") + (spaced if len(spaced) <= _SPACED_NUMBER_LENGTH else digits)
    return f"{number} ext. {extension}" if extension else number


def phone_problem(text: str) -> str | None:
    """The phone message when ``text`` is filled and is not a phone number, else ``None``."""
    return AddressMessage.PHONE_INVALID.value if normalize_phone(text) is None else None
