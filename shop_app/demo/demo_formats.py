"""Product formats: what every product of a line shares (size, burn time, ingredients, care,
weight, dimensions, artwork kind and SKU prefix).

A format is keyed by the grouped product name of the shop's naming pattern, the size and
product type without vessel or scent (``"8oz Soy Candle"``; see
:func:`shop_app.domain.product_names.base_product_name`).
"""

from __future__ import annotations

from dataclasses import dataclass

from shop_app.domain.product_names import base_product_name, parse_product_name

from .artwork import ImageKind
from .demo_types import ProductType
from .demo_vessels import VESSEL_COLOURS

__all__ = ["PRODUCT_FORMATS", "ProductFormat", "format_for"]


@dataclass(frozen=True, slots=True)
class ProductFormat:
    """What a product line shares, keyed by ``"[size ]type words"`` (the name minus vessel and scent)."""

    product_type: ProductType
    kind: ImageKind  # image kind
    sku_prefix: str
    blurb: str  # one sentence; may contain {vessel}
    size: str | None
    burn_time: str | None
    volume: str | None
    ingredients: tuple[str, ...]
    care: str | None
    weight_oz: str
    dimensions: str
    colour: str | None = None  # vessel colour when the name has no vessel word


_CANDLE_INGREDIENTS = ("100% soy wax", "cotton wick", "phthalate-free fragrance oil", "essential oils")
_CANDLE_CARE = (
    "Trim the wick to 1/4 inch before every burn and burn 2 to 3 hours at a time so the wax melts evenly "
    "to the edges. Never leave a burning candle unattended, and keep it away from drafts, children and pets."
)
_LOTION_INGREDIENTS = (
    "aloe vera juice",
    "shea butter",
    "sunflower seed oil",
    "vegetable glycerin",
    "vitamin E",
    "phthalate-free fragrance oil",
)
_LOTION_CARE = (
    "Store below 25\u00b0C (77\u00b0F) and out of direct sunlight. For external use only; "
    "patch test first if you have sensitive skin."
)


def _candle_format(
    sku_prefix: str,
    blurb: str,
    *,
    size: str,
    burn_time: str,
    weight_oz: str,
    dimensions: str,
    kind: ImageKind = "jar",
    colour: str | None = None,
) -> ProductFormat:
    return ProductFormat(
        product_type="candles",
        kind=kind,
        sku_prefix=sku_prefix,
        blurb=blurb,
        size=size,
        burn_time=burn_time,
        volume=None,
        ingredients=_CANDLE_INGREDIENTS,
        care=_CANDLE_CARE,
        weight_oz=weight_oz,
        dimensions=dimensions,
        colour=colour,
    )


def _lotion_format(
    sku_prefix: str,
    blurb: str,
    *,
    size: str,
    volume: str,
    weight_oz: str,
    dimensions: str,
    kind: ImageKind = "pump",
    colour: str = "#f4efe8",
) -> ProductFormat:
    return ProductFormat(
        product_type="body-care",
        kind=kind,
        sku_prefix=sku_prefix,
        blurb=blurb,
        size=size,
        burn_time=None,
        volume=volume,
        ingredients=_LOTION_INGREDIENTS,
        care=_LOTION_CARE,
        weight_oz=weight_oz,
        dimensions=dimensions,
        colour=colour,
    )


_DIFFUSER_INGREDIENTS = ("plant-based diffuser base", "phthalate-free fragrance oil", "natural rattan reeds")
_DIFFUSER_CARE = (
    "Insert the reeds, let them soak for a few hours, then flip them once a week to refresh the scent. "
    "Keep away from finished wood, fabrics, children and pets."
)
_SPRAY_INGREDIENTS = ("purified water", "witch hazel", "phthalate-free fragrance oil", "polysorbate 20")
_SPRAY_CARE = (
    "Shake well and mist into the air, away from finished wood and delicate fabrics. Not for use on skin."
)
_HAND_POURED = "Hand-poured in small batches in British Columbia with pure soy wax and a cotton wick"

#: Product lines by ``"[size ]type words"``.
PRODUCT_FORMATS: dict[str, ProductFormat] = {
    "4oz Travel Tin Candle": _candle_format(
        "TIN",
        "A travel-sized tin, hand-poured in BC and just right for a weekend away or a little thank-you gift.",
        size="4 oz (113 g)",
        burn_time="20-25 hours",
        weight_oz="5.5",
        dimensions="2.9 x 2.9 x 2.0 in",
        kind="tin",
        colour="#c9c6c0",
    ),
    "8oz Soy Candle": _candle_format(
        "C08",
        _HAND_POURED + ", in {vessel}.",
        size="8 oz (227 g)",
        burn_time="50-55 hours",
        weight_oz="11.5",
        dimensions="3.1 x 3.1 x 3.6 in",
    ),
    "9oz Soy Candle": _candle_format(
        "C09",
        "A limited-edition holiday candle, hand-poured in {vessel}; it wraps up beautifully for the tree.",
        size="9 oz (255 g)",
        burn_time="55-60 hours",
        weight_oz="12.5",
        dimensions="3.2 x 3.2 x 3.8 in",
    ),
    "10oz Soy Candle": _candle_format(
        "C10",
        "Part of our Summer Collection, hand-poured in {vessel} and made for long, bright evenings.",
        size="10 oz (283 g)",
        burn_time="60-65 hours",
        weight_oz="14.0",
        dimensions="3.3 x 3.3 x 4.0 in",
    ),
    "12oz Soy Candle": _candle_format(
        "C12",
        "From our Fall Candle Collection, hand-poured in {vessel} to keep you cozy from the first frost.",
        size="12 oz (340 g)",
        burn_time="70-75 hours",
        weight_oz="17.0",
        dimensions="3.5 x 3.5 x 4.3 in",
    ),
    "16oz Soy Candle": _candle_format(
        "C16",
        "Our generous 16oz size, hand-poured in {vessel} with two cotton wicks for a wide, even melt pool.",
        size="16 oz (454 g)",
        burn_time="90-100 hours",
        weight_oz="22.5",
        dimensions="4.0 x 4.0 x 4.5 in",
    ),
    "Mandle": _candle_format(
        "MDL",
        "A candle for the guys, hand-poured in small batches in a matte black tumbler.",
        size="10 oz (283 g)",
        burn_time="60-65 hours",
        weight_oz="14.0",
        dimensions="3.3 x 3.3 x 4.0 in",
        colour=VESSEL_COLOURS["Matte Black"],
    ),
    "16oz Mandle": _candle_format(
        "M16",
        "A big, bold candle for the guys, hand-poured in a matte black tumbler with two cotton wicks.",
        size="16 oz (454 g)",
        burn_time="90-100 hours",
        weight_oz="22.5",
        dimensions="4.0 x 4.0 x 4.5 in",
        colour=VESSEL_COLOURS["Matte Black"],
    ),
    "Custom Candle": _candle_format(
        "CUS",
        "Choose your vessel, pick up to three scents and we will hand-pour a candle just for you in "
        "British Columbia, made to order within 5 to 7 business days.",
        size="8 oz (227 g)",
        burn_time="50-55 hours",
        weight_oz="11.5",
        dimensions="3.1 x 3.1 x 3.6 in",
        colour=VESSEL_COLOURS["Matte White"],
    ),
    "8oz Hand & Body Lotion": _lotion_format(
        "L08",
        "A silky, fast-absorbing lotion made in small batches with shea butter and aloe, in a pump bottle.",
        size="8 oz",
        volume="236 ml",
        weight_oz="9.2",
        dimensions="2.4 x 2.4 x 7.5 in",
    ),
    "2oz Hand & Body Lotion": _lotion_format(
        "L02",
        "Our hand and body lotion in a purse-sized bottle for travel, gym bags and stocking stuffers.",
        size="2 oz",
        volume="59 ml",
        weight_oz="2.6",
        dimensions="1.4 x 1.4 x 4.5 in",
        kind="bottle",
    ),
    "16oz Hand & Body Lotion": _lotion_format(
        "L16",
        "The family-size pump of our silky shea butter and aloe lotion, made in small batches.",
        size="16 oz",
        volume="473 ml",
        weight_oz="17.8",
        dimensions="3.0 x 3.0 x 8.5 in",
        colour=VESSEL_COLOURS["Blush"],
    ),
    "100ml Reed Diffuser": ProductFormat(
        product_type="home-fragrance",
        kind="diffuser",
        sku_prefix="RD1",
        blurb="Flameless, all-day fragrance through natural rattan reeds; one bottle lasts 8 to 10 weeks.",
        size="100 ml",
        burn_time=None,
        volume="100 ml",
        ingredients=_DIFFUSER_INGREDIENTS,
        care=_DIFFUSER_CARE,
        weight_oz="9.8",
        dimensions="2.8 x 2.8 x 10.5 in (with reeds)",
        colour="#d8e2e0",
    ),
    "200ml Reed Diffuser": ProductFormat(
        product_type="home-fragrance",
        kind="diffuser",
        sku_prefix="RD2",
        blurb="Our large reed diffuser, made to scent a living room for up to four months.",
        size="200 ml",
        burn_time=None,
        volume="200 ml",
        ingredients=_DIFFUSER_INGREDIENTS,
        care=_DIFFUSER_CARE,
        weight_oz="16.4",
        dimensions="3.4 x 3.4 x 12.0 in (with reeds)",
        colour="#d8e2e0",
    ),
    "4oz Room Spray": ProductFormat(
        product_type="home-fragrance",
        kind="spray",
        sku_prefix="RS4",
        blurb="A fine mist that refreshes any room, closet or set of linens in seconds.",
        size="4 oz",
        burn_time=None,
        volume="118 ml",
        ingredients=_SPRAY_INGREDIENTS,
        care=_SPRAY_CARE,
        weight_oz="5.9",
        dimensions="1.8 x 1.8 x 6.0 in",
        colour="#8c4a17",
    ),
    "8oz Room Spray": ProductFormat(
        product_type="home-fragrance",
        kind="spray",
        sku_prefix="RS8",
        blurb="The refill size of our fine-mist room spray, for the rooms you love most.",
        size="8 oz",
        burn_time=None,
        volume="236 ml",
        ingredients=_SPRAY_INGREDIENTS,
        care=_SPRAY_CARE,
        weight_oz="10.6",
        dimensions="2.3 x 2.3 x 7.8 in",
        colour="#8c4a17",
    ),
    "2.5oz Wax Melt": ProductFormat(
        product_type="home-fragrance",
        kind="melt",
        sku_prefix="WM2",
        blurb="Six soy wax cubes for your warmer, each one scenting a room for 8 to 10 hours.",
        size="2.5 oz (6 cubes)",
        burn_time=None,
        volume=None,
        ingredients=("100% soy wax", "phthalate-free fragrance oil"),
        care=(
            "Place one cube in a wax warmer and never leave the warmer unattended. "
            "Reuse the wax until the scent fades, then pop it out and add a fresh cube."
        ),
        weight_oz="2.9",
        dimensions="3.3 x 2.3 x 0.9 in",
        colour="#c9a27a",
    ),
}


def format_for(base: str) -> tuple[ProductFormat, str | None]:
    """The product line of a base name and its vessel (``None`` when it has none).

    ``"8oz Matte White Soy Candle"`` -> (the ``"8oz Soy Candle"`` format, ``"Matte White"``).
    """
    return PRODUCT_FORMATS[base_product_name(base)], parse_product_name(base).vessel
