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

from shop_app.domain.product_names import parse_product_name, variation_name

from .artwork import DemoImageSpec
from .demo_categories import FALL, HOLIDAY, LOTION, MANDLES, ROOM_FRAGRANCE, SIGNATURE, SUBCATEGORIES, SUMMER
from .demo_formats import ProductFormat, format_for
from .demo_types import DemoProduct
from .demo_vessels import vessel_colour, vessel_phrase
from .synthetic_vocabulary import MODIFIER_NOTES, POOLS, scent_pools, scent_vocabulary

__all__ = ["scent_vocabulary", "synthetic_products", "unsuffixed_capacity"]


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
    blurb = fmt.blurb.format(vessel=vessel_phrase(vessel))
    return _Line(base, subcategory, pool, prices, weight, fmt, vessel_colour(vessel, fmt.colour), blurb)


_EIGHT = (2800, 3000, 3200, 3400)

_LINES: tuple[_Line, ...] = (
    _line("8oz Matte White Soy Candle", SIGNATURE, "signature", _EIGHT, 3.0),
    _line("8oz Matte Black Soy Candle", SIGNATURE, "signature", _EIGHT, 3.0),
    _line("8oz Amber Soy Candle", SIGNATURE, "signature", _EIGHT, 3.0),
    _line("8oz Frosted Soy Candle", SIGNATURE, "signature", _EIGHT, 3.0),
    _line("8oz Glossy Soy Candle", SIGNATURE, "signature", _EIGHT, 2.0),
    _line("8oz Allure Soy Candle", SIGNATURE, "signature", _EIGHT, 2.0),
    _line("16oz Frosted Soy Candle", SIGNATURE, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("16oz Amber Soy Candle", SIGNATURE, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("16oz Matte White Soy Candle", SIGNATURE, "signature", (4200, 4400, 4600, 4800), 1.5),
    _line("4oz Travel Tin Candle", SIGNATURE, "signature", (1200, 1400), 1.5),
    _line("10oz Sunshine Soy Candle", SUMMER, "summer", (3000, 3200), 1.5),
    _line("10oz Blush Soy Candle", SUMMER, "summer", (3000, 3200), 1.5),
    _line("10oz Matte White Soy Candle", SUMMER, "summer", (3000, 3200), 1.5),
    _line("10oz Frosted Soy Candle", SUMMER, "summer", (3000, 3200), 1.5),
    _line("16oz Sunshine Soy Candle", SUMMER, "summer", (4400, 4600), 1.0),
    _line("12oz Amber Soy Candle", FALL, "fall", (3600, 3800), 1.5),
    _line("12oz Matte Black Soy Candle", FALL, "fall", (3600, 3800), 1.5),
    _line("12oz Glossy Soy Candle", FALL, "fall", (3600, 3800), 1.5),
    _line("16oz Matte Black Soy Candle", FALL, "fall", (4400, 4600), 1.0),
    _line("9oz Glossy Soy Candle", HOLIDAY, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Allure Soy Candle", HOLIDAY, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Frosted Soy Candle", HOLIDAY, "holiday", (3000, 3200, 3400), 1.5),
    _line("9oz Matte White Soy Candle", HOLIDAY, "holiday", (3000, 3200, 3400), 1.5),
    _line("16oz Allure Soy Candle", HOLIDAY, "holiday", (4600, 4800), 1.0),
    _line("Mandle", MANDLES, "mandle", (3200, 3400), 2.0),
    _line("16oz Mandle", MANDLES, "mandle", (4600, 4800), 1.0),
    _line("8oz Hand & Body Lotion", LOTION, "any", (1800, 2000, 2200), 3.0),
    _line("2oz Hand & Body Lotion", LOTION, "any", (800, 900), 1.5),
    _line("16oz Hand & Body Lotion", LOTION, "any", (3000, 3200), 1.0),
    _line("100ml Reed Diffuser", ROOM_FRAGRANCE, "any", (3200,), 2.5),
    _line("200ml Reed Diffuser", ROOM_FRAGRANCE, "any", (4800, 5200), 1.0),
    _line("4oz Room Spray", ROOM_FRAGRANCE, "any", (1600,), 2.5),
    _line("8oz Room Spray", ROOM_FRAGRANCE, "any", (2400, 2600), 1.0),
    _line("2.5oz Wax Melt", ROOM_FRAGRANCE, "any", (800, 900), 1.5),
)

_ANY_POOLS = ("signature", "summer", "fall", "holiday")


@lru_cache(maxsize=1)
def _line_scents() -> tuple[tuple[tuple[str, str, str, str], ...], ...]:
    """For each line, its (scent, modifier, note, pool) options."""
    pools = scent_pools()
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
    accents = POOLS[pool].accents
    label = parse_product_name(line.base).product_type
    return DemoImageSpec(line.fmt.kind, line.colour, accents[accent_index % len(accents)], label)


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
        top, heart, base_note = MODIFIER_NOTES[mod], note.lower(), POOLS[pool].base_note
        yield DemoProduct(
            name=variation_name(line.base, scent_name),
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
