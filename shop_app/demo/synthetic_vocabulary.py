"""The synthetic catalogues' scent vocabulary: two-word scents, ``"<Modifier> <Note>"``.

Each pool (signature, summer, fall, holiday, mandle) combines its modifiers with its
notes; a scent is dropped when it repeats one already made, is a demo-catalogue scent
or contains a vessel word, so synthetic names never clash with the demo catalogue and
the storefront's grouping cannot mistake a scent for a vessel.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from shop_app.domain.product_names import VESSELS

from .demo_catalog import PRODUCTS

__all__ = ["MODIFIER_NOTES", "POOLS", "ScentPool", "scent_pools", "scent_vocabulary"]


class ScentPool(NamedTuple):
    """Words of one pool: scents are ``"<modifier> <note>"``; the base note and accents are shared."""

    modifiers: tuple[str, ...]
    notes: tuple[str, ...]
    base_note: str
    accents: tuple[str, ...]  # artwork accent colours


#: The top note each modifier stands for (a description's first note).
MODIFIER_NOTES: dict[str, str] = {
    # signature
    "Wild": "wild herbs",
    "Soft": "soft petals",
    "Velvet": "velvet musk",
    "Golden": "golden honey",
    "Smoked": "smoked birch",
    "Sweet": "spun sugar",
    "Fresh": "green leaves",
    "Warm": "warm amber resin",
    "Coastal": "sea spray",
    "Misty": "morning dew",
    "Honeyed": "wildflower honey",
    "Silver": "silver sage",
    # summer
    "Island": "coconut water",
    "Tropical": "passion flower",
    "Sparkling": "sparkling citrus",
    "Juicy": "ripe berries",
    "Salted": "sea salt",
    "Sunlit": "orange blossom",
    "Beach": "warm sand",
    "Frozen": "crushed ice",
    "Lazy": "hammock breeze",
    "Poolside": "cool cucumber",
    # fall
    "Spiced": "clove",
    "Maple": "maple syrup",
    "Harvest": "nutmeg",
    "Toasted": "toasted oak",
    "Autumn": "crisp leaves",
    "Caramel": "salted caramel",
    "Cozy": "cashmere musk",
    "Smoky": "wood smoke",
    "Orchard": "crisp apple",
    # holiday
    "Sugared": "sugar crystals",
    "Winter": "snowy air",
    "Snowy": "white musk",
    "Candied": "candied orange",
    "Merry": "cinnamon stick",
    "Mulled": "mulled wine",
    "Twinkling": "bright clementine",
    "Northern": "balsam",
    "Festive": "star anise",
    # mandles
    "Rugged": "saddle leather",
    "Charred": "charred oak",
    "Bourbon": "bourbon",
    "Whiskey": "aged whiskey",
    "Campfire": "campfire smoke",
    "Timber": "fresh-cut timber",
    "Midnight": "black pepper",
    "Highland": "peat smoke",
    "Backcountry": "pine needle",
}

#: The scent pools by name.
POOLS: dict[str, ScentPool] = {
    "signature": ScentPool(
        (
            "Wild",
            "Soft",
            "Velvet",
            "Golden",
            "Smoked",
            "Sweet",
            "Fresh",
            "Warm",
            "Coastal",
            "Misty",
            "Honeyed",
            "Silver",
        ),
        (
            "Lavender",
            "Vanilla",
            "Cedar",
            "Linen",
            "Jasmine",
            "Sandalwood",
            "Fig",
            "Rose",
            "Tea",
            "Sage",
            "Musk",
            "Magnolia",
            "Bergamot",
            "Neroli",
        ),
        "soft musk",
        ("#b7a3d3", "#ecd9b0", "#9fb39a", "#c9d8e4", "#a9cfc0", "#e6c3c9"),
    ),
    "summer": ScentPool(
        (
            "Island",
            "Tropical",
            "Sparkling",
            "Juicy",
            "Salted",
            "Sunlit",
            "Beach",
            "Frozen",
            "Lazy",
            "Poolside",
        ),
        (
            "Mango",
            "Pineapple",
            "Coconut",
            "Grapefruit",
            "Watermelon",
            "Lemonade",
            "Hibiscus",
            "Peach",
            "Lime",
            "Papaya",
            "Passionfruit",
            "Nectarine",
        ),
        "white musk",
        ("#f7b267", "#f4a3a8", "#cfe39a", "#f6a58f", "#f3d27a"),
    ),
    "fall": ScentPool(
        ("Spiced", "Maple", "Harvest", "Toasted", "Autumn", "Caramel", "Cozy", "Smoky", "Orchard"),
        (
            "Pumpkin",
            "Apple",
            "Pear",
            "Chai",
            "Pecan",
            "Cider",
            "Hazelnut",
            "Chestnut",
            "Clove",
            "Plum",
            "Leaves",
            "Donut",
        ),
        "warm amber",
        ("#d98b4a", "#d0674d", "#b98040", "#b76a3c", "#9a6a52"),
    ),
    "holiday": ScentPool(
        ("Sugared", "Winter", "Snowy", "Candied", "Merry", "Mulled", "Twinkling", "Northern", "Festive"),
        (
            "Cranberry",
            "Fir",
            "Peppermint",
            "Gingerbread",
            "Balsam",
            "Spruce",
            "Cocoa",
            "Clementine",
            "Pine",
            "Eggnog",
            "Sugarplum",
            "Cinnamon",
        ),
        "balsam",
        ("#c23b4b", "#5e8a6c", "#8a5442", "#e48d98", "#bf8350"),
    ),
    "mandle": ScentPool(
        (
            "Rugged",
            "Charred",
            "Bourbon",
            "Whiskey",
            "Campfire",
            "Timber",
            "Midnight",
            "Highland",
            "Backcountry",
        ),
        ("Oak", "Tobacco", "Cedar", "Vetiver", "Leather", "Pine", "Birch", "Pepper", "Suede", "Moss"),
        "vetiver",
        ("#b07c3e", "#8a5c3c", "#6f8a5e", "#7a7a6a"),
    ),
}


@lru_cache(maxsize=1)
def scent_pools() -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Pool -> ((scent, modifier, note), ...), without demo scents, vessel words or duplicates."""
    demo_scents = {p.scent.lower() for p in PRODUCTS}
    vessel_words = {w.lower() for v in VESSELS for w in v.split()}
    seen: set[str] = set()
    pools: dict[str, tuple[tuple[str, str, str], ...]] = {}
    for pool, (mods, notes, _base, _accents) in POOLS.items():
        items = []
        for mod in mods:
            for note in notes:
                scent = f"{mod} {note}"
                key = scent.lower()
                if key in seen or key in demo_scents or vessel_words & set(key.split()):
                    continue
                if mod.lower() == note.lower() or note.lower() in MODIFIER_NOTES[mod].lower():
                    continue
                seen.add(key)
                items.append((scent, mod, note))
        pools[pool] = tuple(items)
    return pools


def scent_vocabulary() -> tuple[str, ...]:
    """Every synthetic scent name (two words each)."""
    return tuple(s for items in scent_pools().values() for s, _, _ in items)
