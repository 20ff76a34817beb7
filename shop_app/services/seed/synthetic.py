"""Seeded synthetic catalogues for performance benchmarks.

``synthetic_products(n, seed=...)`` yields ``n`` realistic products whose names
follow the shop's grouping pattern (``[size ][vessel ]type - scent``), spread
over the demo categories and subcategories.  Names are unique: every
(product line, scent) pair is used once before a numbered ``(Batch N)`` suffix
is added, so the suffix only appears when ``n`` exceeds
:func:`unsuffixed_capacity`.  Synthetic scents never repeat a demo-catalogue
scent, so synthetic names never clash with :data:`demo_catalog.PRODUCTS`.

Everything depends only on ``seed``; 20,000 products take well under 2 s.
Image specs are shared between products of the same line (cheap).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .demo_catalog import (
    PRODUCTS,
    SUBCATEGORIES,
    VESSEL_COLOURS,
    VESSEL_PHRASES,
    VESSEL_WORDS,
    DemoProduct,
    ProductFormat,
    format_for,
    parse_base_name,
)
from .images import DemoImageSpec

__all__ = ["scent_vocabulary", "synthetic_products", "unsuffixed_capacity"]


# --------------------------------------------------------------------------- scent vocabulary
# Each pool: (modifiers, notes, base note, accent colours).  Scents are "Modifier Note".

_MODIFIER_NOTES = {
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

_POOLS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]] = {
    "signature": (
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
    "summer": (
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
    "fall": (
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
    "holiday": (
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
    "mandle": (
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
def _scent_pools() -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Pool -> ((scent, modifier, note), ...), without demo scents, vessel words or duplicates."""
    demo_scents = {p.scent.lower() for p in PRODUCTS}
    vessel_words = {w.lower() for v in VESSEL_WORDS for w in v.split()}
    seen: set[str] = set()
    pools: dict[str, tuple[tuple[str, str, str], ...]] = {}
    for pool, (mods, notes, _base, _accents) in _POOLS.items():
        items = []
        for mod in mods:
            for note in notes:
                scent = f"{mod} {note}"
                key = scent.lower()
                if key in seen or key in demo_scents or vessel_words & set(key.split()):
                    continue
                if mod.lower() == note.lower() or note.lower() in _MODIFIER_NOTES[mod].lower():
                    continue
                seen.add(key)
                items.append((scent, mod, note))
        pools[pool] = tuple(items)
    return pools


def scent_vocabulary() -> tuple[str, ...]:
    """Every synthetic scent name (two words each)."""
    return tuple(s for items in _scent_pools().values() for s, _, _ in items)


# --------------------------------------------------------------------------- product lines


@dataclass(frozen=True, slots=True)
class _Line:
    """One product line (size, vessel and type) and where its scents come from."""

    base: str
    subcategory: str
    pool: str  # a scent pool, or "any" for every pool except mandles
    prices: tuple[int, ...]  # cents
    weight: float  # relative share of the generated products
    fmt: ProductFormat
    colour: str
    blurb: str


def _line(base: str, subcategory: str, pool: str, prices: tuple[int, ...], weight: float) -> _Line:
    fmt, vessel = format_for(base)
    colour = VESSEL_COLOURS[vessel] if vessel else (fmt.colour or VESSEL_COLOURS["Matte White"])
    blurb = fmt.blurb.format(vessel=VESSEL_PHRASES.get(vessel or "", "a reusable glass vessel"))
    return _Line(base, subcategory, pool, prices, weight, fmt, colour, blurb)


_SIG, _SUM, _FALL, _MAN, _HOL = (
    "Signature Candle Collection",
    "Summer Collection",
    "Fall Candle Collection",
    "Mandles",
    "Holiday Collection",
)
_LOT, _ROOM = "Hand & Body Lotion", "Room Fragrance"
_EIGHT = (2800, 3000, 3200, 3400)

_LINES: tuple[_Line, ...] = (
    _line("8oz Matte White Soy Candle", _SIG, "signature", _EIGHT, 3.0),
    _line("8oz Matte Black Soy Candle", _SIG, "signature", _EIGHT, 3.0),
    _line("8oz Amber Soy Candle", _SIG, "signature", _EIGHT, 3.0),
    _line("8oz Frosted Soy Candle", _SIG, "signature", _EIGHT, 3.0),
    _line("8oz Glossy Soy Candle", _SIG, "signature", _EIGHT, 2.0),
    _line("8oz Allure Soy Candle", _SIG, "signature", _EIGHT, 2.0),
    _line("16oz Frosted Soy Candle", _SIG, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("16oz Amber Soy Candle", _SIG, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("16oz Matte White Soy Candle", _SIG, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("4oz Travel Tin Candle", _SIG, "signature", (1200, 1400), 1.5),
    _line("10oz Sunshine Soy Candle", _SUM, "summer", (3000, 3200), 1.5),
    _line("10oz Blush Soy Candle", _SUM, "summer", (3000, 3200), 1.5),
    _line("10oz Matte White Soy Candle", _SUM, "summer", (3000, 3200), 1.5),
    _line("10oz Frosted Soy Candle", _SUM, "summer", (3000, 3200), 1.5),
    _line("16oz Sunshine Soy Candle", _SUM, "summer", (4400, 4600), 1.0),
    _line("12oz Amber Soy Candle", _FALL, "fall", (3600, 3800), 1.5),
    _line("12oz Matte Black Soy Candle", _FALL, "fall", (3600, 3800), 1.5),
    _line("12oz Glossy Soy Candle", _FALL, "fall", (3600, 3800), 1.5),
    _line("16oz Matte Black Soy Candle", _FALL, "fall", (4400, 4600), 1.0),
    _line("9oz Glossy Soy Candle", _HOL, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Allure Soy Candle", _HOL, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Frosted Soy Candle", _HOL, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Matte White Soy Candle", _HOL, "holiday", (3000, 3200, 3400), 1.5),
    _line("16oz Allure Soy Candle", _HOL, "holiday", (4600, 4800), 1.0),
    _line("Mandle", _MAN, "mandle", (3200, 3400), 2.0),
    _line("16oz Mandle", _MAN, "mandle", (4600, 4800), 1.0),
    _line("8oz Hand & Body Lotion", _LOT, "any", (1800, 2000, 2200), 3.0),
    _line("2oz Hand & Body Lotion", _LOT, "any", (800, 900), 1.5),
    _line("16oz Hand & Body Lotion", _LOT, "any", (3000, 3200), 1.0),
    _line("100ml Reed Diffuser", _ROOM, "any", (3200,), 2.5),
    _line("200ml Reed Diffuser", _ROOM, "any", (4800, 5200), 1.0),
    _line("4oz Room Spray", _ROOM, "any", (1600,), 2.5),
    _line("8oz Room Spray", _ROOM, "any", (2400, 2600), 1.0),
    _line("2.5oz Wax Melt", _ROOM, "any", (800, 900), 1.5),
)

_ANY_POOLS = ("signature", "summer", "fall", "holiday")


@lru_cache(maxsize=1)
def _line_scents() -> tuple[tuple[tuple[str, str, str, str], ...], ...]:
    """For each line, its (scent, modifier, note, pool) options."""
    pools = _scent_pools()
    result = []
    for line in _LINES:
        names = _ANY_POOLS if line.pool == "any" else (line.pool,)
        result.append(tuple((scent, mod, note, pool) for pool in names for scent, mod, note in pools[pool]))
    return tuple(result)


def unsuffixed_capacity() -> int:
    """How many products can be generated before a ``(Batch N)`` suffix is needed."""
    return sum(len(options) for options in _line_scents())


@lru_cache(maxsize=512)
def _spec(line_index: int, pool: str, accent_index: int) -> DemoImageSpec:
    line = _LINES[line_index]
    accents = _POOLS[pool][3]
    label = parse_base_name(line.base)[2]
    return DemoImageSpec(line.fmt.kind, line.colour, accents[accent_index % len(accents)], label)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- generator


def synthetic_products(n: int, *, seed: int = 0) -> Iterator[DemoProduct]:
    """Yield exactly ``n`` seeded, uniquely named synthetic products."""
    if type(n) is not int or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    return _generate(n, seed)


class _Picker:
    """Draws (line, scent) pairs without repetition, weighted by line; a new round when all are used."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.options = _line_scents()
        self.weights = [line.weight for line in _LINES]
        self.batch = 0
        self.remaining: list[list[int]] = []
        self.active: list[int] = []
        self.cumulative: list[float] = []
        self._new_round()

    def _new_round(self) -> None:
        self.batch += 1
        self.remaining = []
        for opts in self.options:
            order = list(range(len(opts)))
            self.rng.shuffle(order)
            self.remaining.append(order)
        self.active = [i for i, r in enumerate(self.remaining) if r]
        self._rebuild()

    def _rebuild(self) -> None:
        total = 0.0
        self.cumulative = []
        for i in self.active:
            total += self.weights[i]
            self.cumulative.append(total)

    def pick(self) -> tuple[int, tuple[str, str, str, str], int]:
        """(line index, (scent, modifier, note, pool), batch number)."""
        if not self.active:
            self._new_round()
        pick = bisect.bisect_right(self.cumulative, self.rng.random() * self.cumulative[-1])
        line_index = self.active[min(pick, len(self.active) - 1)]
        order = self.remaining[line_index]
        option = self.options[line_index][order.pop()]
        if not order:
            self.active.remove(line_index)
            self._rebuild()
        return line_index, option, self.batch


def _price_and_stock(rng: random.Random, prices: tuple[int, ...]) -> tuple[int, int | None, int]:
    base_price = rng.choice(prices)
    sale = None
    if rng.random() < 0.12:
        pct = rng.choice((10, 15, 20, 25))
        sale = (base_price * (100 - pct) // 100) // 50 * 50
        if not 0 < sale < base_price:
            sale = None
    r = rng.random()
    if r < 0.07:
        stock = 0
    elif r < 0.20:
        stock = rng.randint(1, 5)
    else:
        stock = rng.randint(6, 60)
    return base_price, sale, stock


def _generate(n: int, seed: int) -> Iterator[DemoProduct]:
    rng = random.Random(seed)
    picker = _Picker(rng)
    sku_prefix = f"SYN{seed}"
    for index in range(n):
        line_index, (scent, mod, note, pool), batch = picker.pick()
        line = _LINES[line_index]
        fmt = line.fmt
        scent_name = scent if batch == 1 else f"{scent} (Batch {batch})"
        base_price, sale, stock = _price_and_stock(rng, line.prices)
        top, heart, base_note = _MODIFIER_NOTES[mod], note.lower(), _POOLS[pool][2]
        yield DemoProduct(
            name=f"{line.base} - {scent_name}",
            description=f"{scent}: {top}, {heart} and {base_note}. {line.blurb}",
            category=SUBCATEGORIES[line.subcategory],
            subcategory=line.subcategory,
            product_type=fmt.product_type,
            base_price_cents=base_price,
            sale_price_cents=sale,
            stock_quantity=stock,
            is_new=rng.random() < 0.12,
            is_featured=rng.random() < 0.06,
            scent_notes=(top, heart, base_note),
            size=fmt.size,
            burn_time=fmt.burn_time,
            volume=fmt.volume,
            ingredients=fmt.ingredients,
            care_instructions=fmt.care,
            weight_oz=fmt.weight_oz,
            dimensions=fmt.dimensions,
            sku=f"{sku_prefix}-{index + 1:06d}",
            image=_spec(line_index, pool, len(mod) + len(note)),
        )
