"""The product naming pattern and the back office renames (docs/spec/storefront.md#grouping;
docs/spec/admin-products.md#convert-to-variant, #convert-to-single).

A product name reads ``[size] [vessel] <product type> - <scent>``, for example
``"8oz Matte White Soy Candle - Lavender Fields"``:

- size: an optional leading amount with a unit, ``8oz``, ``8 oz``, ``16oz``, ``100ml``, ``250g``;
  normalised to ``"8oz"`` (no space, lower-case unit);
- vessel: an optional phrase from :data:`VESSELS`, whole words, any case, anywhere before the
  scent; normalised to its title-case spelling (``"Matte White"``);
- product type: the words left once size and vessel are taken out (``"Soy Candle"``);
- scent: the text after the first ``" - "`` (a hyphen with whitespace on both sides).

:mod:`shop_app.domain.grouping` re-exports everything here; import from either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

VESSELS: Final[tuple[str, ...]] = (
    "Matte White",
    "Matte Black",
    "Sunshine",
    "Blush",
    "Glossy",
    "Allure",
    "Frosted",
    "Amber",
)
"""Vessel phrases of the shop, in their display spelling."""

SCENT_SEPARATOR: Final = " - "
STANDALONE_SUFFIX: Final = " (Standalone)"

# The first " - " (any whitespace around the hyphen; also at the very start or end).
_SEPARATOR_RE = re.compile(r"(?:^|\s+)-(?:\s+|$)")
_SIZE_RE = re.compile(r"(?P<amount>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>oz|ml|g)\b", re.IGNORECASE)
_VESSEL_BY_KEY: Final = {vessel.casefold(): vessel for vessel in VESSELS}
_VESSEL_RE = re.compile(
    r"\b(?:"
    + "|".join(re.escape(vessel).replace(r"\ ", r"\s+") for vessel in sorted(VESSELS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ParsedName:
    """The parts of a product name.

    Attributes:
        size: The normalised leading size (``"8oz"``), or ``None``.
        vessel: The vessel in display spelling (``"Matte White"``), or ``None``.
        product_type: The remaining words (``"Soy Candle"``); may be empty.
        scent: The text after ``" - "``, or ``None`` when there is none (or it is empty).
        base_name: Everything before ``" - "``, trimmed, inner whitespace collapsed.
    """

    size: str | None
    vessel: str | None
    product_type: str
    scent: str | None
    base_name: str


def _squash(text: str) -> str:
    """Trim and collapse runs of whitespace to one space."""
    return " ".join(text.split())


def split_scent(name: str) -> tuple[str, str | None]:
    """Split a name at its first ``" - "`` into the base name and the scent.

    Examples:
        >>> split_scent("8oz Soy Candle - Lavender Fields")
        ('8oz Soy Candle', 'Lavender Fields')
        >>> split_scent("Spring-Summer Candle")
        ('Spring-Summer Candle', None)

    Args:
        name: A product name.

    Returns:
        The trimmed base name and the trimmed scent (``None`` if absent or empty).
    """
    base, *scent = _SEPARATOR_RE.split(name.strip(), maxsplit=1)
    return _squash(base), (_squash(scent[0]) if scent else "") or None


def parse_product_name(name: str) -> ParsedName:
    """Split a product name into size, vessel, product type and scent.

    Examples:
        >>> parse_product_name("8 OZ matte white Soy Candle - Lavender Fields")
        ParsedName(size='8oz', vessel='Matte White', product_type='Soy Candle', \
scent='Lavender Fields', base_name='8 OZ matte white Soy Candle')

    Args:
        name: A product name.

    Returns:
        The parsed parts; a name that follows none of the pattern is all product type.
    """
    base, scent = split_scent(name)
    rest = base
    size: str | None = None
    size_match = _SIZE_RE.match(rest)
    if size_match is not None:
        size = f"{size_match['amount']}{size_match['unit'].lower()}"
        rest = rest[size_match.end() :]
    vessel: str | None = None
    vessel_match = _VESSEL_RE.search(rest)
    if vessel_match is not None:
        vessel = _VESSEL_BY_KEY[_squash(vessel_match.group(0)).casefold()]
        rest = f"{rest[: vessel_match.start()]} {rest[vessel_match.end() :]}"
    return ParsedName(size=size, vessel=vessel, product_type=_squash(rest), scent=scent, base_name=base)


def group_key(name: str) -> str:
    """Return the storefront grouping key of a name: lower-case ``"size|type"``.

    Products with the same size and type are one product on the storefront; vessel and scent
    are its variation dimensions. A name with no product type left (``"Amber - Vanilla"``)
    uses its vessel in place of the type, so vessel-only names group by vessel.

    Examples:
        >>> group_key("8oz Matte White Soy Candle - Lavender"), group_key("Room Spray - Rose")
        ('8oz|soy candle', '|room spray')
    """
    parsed = parse_product_name(name)
    kind = parsed.product_type or parsed.vessel or ""
    return f"{parsed.size or ''}|{kind.casefold()}"


def base_product_name(name: str) -> str:
    """Return the size and type of a name, ``"8oz Soy Candle"``: the grouped product's name.

    Falls back to the base name when no type is left, and to the trimmed name if that is empty.
    """
    parsed = parse_product_name(name)
    kind = parsed.product_type or parsed.vessel or ""
    label = " ".join(part for part in (parsed.size, kind) if part)
    return label or parsed.base_name or _squash(name)


def vessel_group_name(name: str) -> str:
    """Return the admin grouped view's group: the base name (the text before ``" - "``)."""
    return split_scent(name)[0]


def variation_name(base: str, scent: str) -> str:
    """Return the name of a scent variation: ``"{base} - {scent}"`` (docs/spec/storefront.md#grouping;
    docs/spec/admin-products.md#add-scent)."""
    return f"{_squash(base)}{SCENT_SEPARATOR}{_squash(scent)}"


def convert_to_variant_name(vessel: str, scent: str) -> str:
    """Return the name given by *Convert to Variant*: ``"{vessel} - {scent}"``
    (docs/spec/admin-products.md#convert-to-variant)."""
    return variation_name(vessel, scent)


def convert_to_single_name(name: str) -> str:
    """Return the name given by *Convert to Single Product* (docs/spec/admin-products.md#convert-to-single).

    ``'A B - Scent'`` becomes the first word of the vessel name, then the scent, then the rest
    of the vessel name. The rule is applied literally to whatever precedes ``" - "``, so a
    leading size counts as the first word. A name without ``" - "`` gets ``" (Standalone)"``
    appended, unless it already ends with it (converting twice changes nothing).

    Examples:
        >>> convert_to_single_name("Matte White - Lavender")
        'Matte Lavender White'
        >>> convert_to_single_name("Amber - Vanilla Bean")
        'Amber Vanilla Bean'
        >>> convert_to_single_name("8oz Blush Soy Candle - Rose")
        '8oz Rose Blush Soy Candle'
        >>> convert_to_single_name("Reed Diffuser")
        'Reed Diffuser (Standalone)'

    Args:
        name: The variation's current name.

    Returns:
        The standalone product's name.
    """
    if _SEPARATOR_RE.search(name.strip()) is None:
        squashed = _squash(name)
        return squashed if squashed.endswith(STANDALONE_SUFFIX) else squashed + STANDALONE_SUFFIX
    base, scent = split_scent(name)
    words = base.split()
    parts = [*words[:1], scent or "", *words[1:]]
    return " ".join(part for part in parts if part)
