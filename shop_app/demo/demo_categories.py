"""The demo catalogue's categories: four main categories and their subcategories."""

from __future__ import annotations

from .demo_types import DemoCategory

__all__ = [
    "CATEGORIES",
    "FALL",
    "HOLIDAY",
    "LOTION",
    "MAIN_CATEGORIES",
    "MANDLES",
    "ROOM_FRAGRANCE",
    "SIGNATURE",
    "SUBCATEGORIES",
    "SUMMER",
]

MAIN_CATEGORIES: tuple[str, ...] = ("Candles", "Body Care", "Home Fragrance", "Custom")

# Subcategory names, for the modules that file products under them.
SIGNATURE = "Signature Candle Collection"
SUMMER = "Summer Collection"
FALL = "Fall Candle Collection"
MANDLES = "Mandles"
HOLIDAY = "Holiday Collection"
LOTION = "Hand & Body Lotion"
ROOM_FRAGRANCE = "Room Fragrance"

CATEGORIES: tuple[DemoCategory, ...] = (
    DemoCategory(
        "Candles",
        "Clean-burning soy candles, hand-poured in small batches in British Columbia.",
        1,
    ),
    DemoCategory(
        "Body Care",
        "Gentle, nourishing lotions made with shea butter and aloe, scented to match your favourite candles.",
        2,
    ),
    DemoCategory(
        "Home Fragrance",
        "Reed diffusers, room sprays and wax melts that fill your home with scent, no flame needed.",
        3,
    ),
    DemoCategory(
        "Custom",
        "Made-to-order candles in your choice of vessel and scent, for weddings, showers and gifts.",
        4,
    ),
    DemoCategory(
        SIGNATURE,
        "Our year-round favourites, the scents our customers come back for again and again.",
        1,
        "Candles",
    ),
    DemoCategory(
        SUMMER,
        "Bright, juicy scents for long West Coast evenings and open windows.",
        2,
        "Candles",
    ),
    DemoCategory(
        FALL,
        "Warm spice, crisp apples and crackling firewood for sweater weather.",
        3,
        "Candles",
    ),
    DemoCategory(
        MANDLES,
        "Bold, woodsy candles for the guys, with notes of whiskey, leather and campfire smoke.",
        4,
        "Candles",
    ),
    DemoCategory(
        HOLIDAY,
        "Limited-edition seasonal scents that make the house smell like the holidays.",
        5,
        "Candles",
    ),
    DemoCategory(
        LOTION,
        "Silky, fast-absorbing hand and body lotion in our most-loved scents.",
        1,
        "Body Care",
    ),
    DemoCategory(
        ROOM_FRAGRANCE,
        "Flameless fragrance for every room, from slow-release reed diffusers to quick-refresh sprays.",
        1,
        "Home Fragrance",
    ),
)

#: Subcategory name -> main category name.
SUBCATEGORIES: dict[str, str] = {c.name: c.parent for c in CATEGORIES if c.parent is not None}
