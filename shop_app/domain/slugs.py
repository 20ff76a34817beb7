"""Category slugs and the storefront's legacy category codes (docs/spec/admin-categories.md#records;
docs/spec/storefront.md#home, #product-record).

The storefront links use short codes (``/shop?category=bodycare&subcategory=core``) while
category slugs are derived from the category names (``body-care``,
``signature-candle-collection``). :func:`resolve_category_slug` maps the former to the latter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

_NOT_SLUG_CHARS = re.compile(r"[^a-z0-9 -]")
_SPACES = re.compile(r"\s+")
_HYPHEN_RUNS = re.compile(r"-{2,}")


def category_slug(name: str) -> str:
    """Derive a category slug from its name (docs/spec/admin-categories.md#records).

    Steps: trim; lower-case; strip accents (``"Crème"`` -> ``"creme"``: decomposed letters
    keep their base letter); remove every character other than ASCII letters, digits, spaces
    and hyphens; turn each run of whitespace into a hyphen; collapse repeated hyphens; strip
    hyphens at both ends. The seed does not say what happens at the ends; we strip so
    ``"-Sale-"`` gives ``"sale"``. A name of punctuation only gives ``""``, which callers must
    refuse. The result only contains ``a-z``, ``0-9`` and single inner hyphens, so applying the
    function again changes nothing.

    Examples:
        >>> category_slug("Hand & Body Lotion"), category_slug("  Fall   Candle Collection ")
        ('hand-body-lotion', 'fall-candle-collection')

    Args:
        name: The category name.

    Returns:
        The slug, possibly empty.
    """
    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    without_marks = "".join(char for char in decomposed if not unicodedata.combining(char))
    spaced = _SPACES.sub(" ", without_marks.lower())
    kept = _NOT_SLUG_CHARS.sub("", spaced)
    hyphenated = _HYPHEN_RUNS.sub("-", kept.replace(" ", "-"))
    return hyphenated.strip("-")


LEGACY_CATEGORY_ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "bodycare": "body-care",
        "homefragrance": "home-fragrance",
        "core": "signature-candle-collection",
        "fall": "fall-candle-collection",
        "spring-summer": "summer-collection",
        "holiday": "holiday-collection",
    }
)
"""Storefront category and subcategory codes whose slug differs from the code."""


LEGACY_CODES_BY_SLUG: Final[Mapping[str, str]] = MappingProxyType(
    {slug: code for code, slug in LEGACY_CATEGORY_ALIASES.items()}
)
"""The reverse mapping, to build links the storefront's old URLs understand."""


def resolve_category_slug(code: str) -> str:
    """Return the category slug a storefront code stands for.

    Legacy codes map through :data:`LEGACY_CATEGORY_ALIASES`; anything else (``candles``,
    ``mandles``, ``custom`` or an actual slug) is returned as its own slug.

    Examples:
        >>> resolve_category_slug("bodycare"), resolve_category_slug(" Core ")
        ('body-care', 'signature-candle-collection')
        >>> resolve_category_slug("candles"), resolve_category_slug("Body Care")
        ('candles', 'body-care')

    Args:
        code: The ``category`` or ``subcategory`` query value.

    Returns:
        The slug to look categories up by; ``""`` for an empty code.
    """
    slug = category_slug(code)
    return LEGACY_CATEGORY_ALIASES.get(slug, slug)
