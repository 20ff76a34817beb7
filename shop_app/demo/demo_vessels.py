"""The vessels' look, wording and codes: the artwork colour, the phrase a description uses
and the SKU part of each vessel of :data:`shop_app.domain.product_names.VESSELS`.
"""

from __future__ import annotations

__all__ = ["VESSEL_CODES", "VESSEL_COLOURS", "VESSEL_PHRASES", "vessel_colour", "vessel_phrase"]

#: Hex colour of each vessel, used for the artwork.
VESSEL_COLOURS: dict[str, str] = {
    "Matte White": "#f1eee9",
    "Matte Black": "#2a2a2d",
    "Sunshine": "#f3c443",
    "Blush": "#ebbab4",
    "Glossy": "#1f4a3b",
    "Allure": "#6e2333",
    "Frosted": "#dde5ea",
    "Amber": "#a1571c",
}

#: How each vessel is described in a product description.
VESSEL_PHRASES: dict[str, str] = {
    "Matte White": "a matte white tumbler",
    "Matte Black": "a matte black tumbler",
    "Amber": "an apothecary-style amber glass jar",
    "Frosted": "a softly frosted glass jar",
    "Sunshine": "a cheerful sunshine-yellow tumbler",
    "Blush": "a blush-pink tumbler",
    "Glossy": "a glossy emerald tumbler",
    "Allure": "our Allure jar in deep burgundy",
}

#: The vessel's part of a SKU.
VESSEL_CODES: dict[str, str] = {
    "Matte White": "MW",
    "Matte Black": "MB",
    "Sunshine": "SU",
    "Blush": "BL",
    "Glossy": "GL",
    "Allure": "AL",
    "Frosted": "FR",
    "Amber": "AM",
}

_NO_VESSEL_PHRASE = "a reusable glass vessel"


def vessel_colour(vessel: str | None, fallback: str | None = None) -> str:
    """The artwork colour of a vessel; without one, ``fallback`` (a format's colour) or matte white."""
    return VESSEL_COLOURS[vessel] if vessel else (fallback or VESSEL_COLOURS["Matte White"])


def vessel_phrase(vessel: str | None) -> str:
    """How a description names the vessel (``"a matte white tumbler"``); a glass vessel when none."""
    return VESSEL_PHRASES.get(vessel or "", _NO_VESSEL_PHRASE)
